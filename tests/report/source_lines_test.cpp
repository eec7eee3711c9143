// Source lines (napkin::sample_source_lines' report) as documents: the source-lines JSON document, its CSV, its
// flattened form and diff() directions, the HTML page, and the report read back
// (report/source_lines_documents.hpp, source_lines_page.hpp, json_read_source_lines.hpp). The report is
// source_lines_samples.hpp's: PC offsets and lines of the recorded cubin, sample counts whose shares are
// worked out by hand below.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/report/json_read_source_lines.hpp"
#include "napkin/report/source_lines_documents.hpp"
#include "napkin/report/source_lines_page.hpp"
#include "source_lines_samples.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::input_error_of;
using json = nlohmann::ordered_json;  // members in the document's order

namespace {

const std::string out = NAPKIN_REPORT_TEST_OUT;

const report_entity& entity(const report_document& d, const char* name) {  // const char*: -Wdangling-reference (GCC 13)
  for (const report_entity& e : d.entities)
    if (e.name == name) return e;
  FAIL("no entity " << name);
  return d.entities.front();
}

const field_change* change(const report_diff& d, const std::string& entity, const std::string& field) {
  for (const field_change& c : d.changes)
    if (c.entity == entity && c.field == field) return &c;
  return nullptr;
}

source_lines_report read_text(const std::string& text, const std::string& file = "lines.json") {
  const json_read_result r = parse_json(text, file);
  REQUIRE_MESSAGE(r.ok(), r.problem);
  return read_source_lines(r.value, file);
}

}  // namespace

TEST_CASE("source lines: the document's rows, shares and stall reasons") {
  const json doc = json::parse(to_json(source_lines_samples::report()));
  CHECK(doc["schema"] == "napkin.source-lines");
  CHECK(doc["kind"] == "source-lines");
  CHECK(doc["gpu"] == json::object());
  const json& s = doc["sampling"];
  CHECK(s["period_log2"] == 11);
  CHECK(s["total_samples"] == 1400);
  CHECK(s["non_user_samples"] == 100);
  CHECK(s["dropped_samples"] == 0);
  CHECK(s["hardware_buffer_full"] == false);
  CHECK(s["total_s"].get<double>() == doctest::Approx(0.373));
  CHECK(doc["notes"] == json::array({"no cubin for <nolines> & \"friends\""}));

  const json& rows = doc["rows"];
  REQUIRE(rows.size() == 9);  // strided_sum, its 2 lines and 3 PCs; nolines and its 2 PCs
  std::vector<std::string> names;
  for (const json& r : rows) names.push_back(r["name"]);
  CHECK(names == std::vector<std::string>{"function: strided_sum",
                                          "line: strided_sum source_lines_kernel.cu:10",
                                          "line: strided_sum source_lines_kernel.cu:8",
                                          "pc: strided_sum +0x00a0",
                                          "pc: strided_sum +0x0060",
                                          "pc: strided_sum +0x0010",
                                          "function: nolines",
                                          "pc: nolines +0x0100",
                                          "pc: nolines +0x0080"});
  // strided_sum: 1000 of the 1300 samples of both functions.
  CHECK(rows[0]["by"] == "function");
  CHECK(rows[0]["samples"] == 1000);
  CHECK(rows[0]["not_issued_samples"] == 850);
  CHECK(rows[0]["share_pct"].get<double>() == doctest::Approx(76.923076923));
  CHECK(rows[0]["line_info"] == true);
  CHECK(rows[0]["lines_sampled"] == 2);
  CHECK(rows[0]["pcs_sampled"] == 3);
  CHECK(rows[0]["note"] == "");
  CHECK(rows[0]["stalls"].dump() == R"({"long_scoreboard":950,"wait":35,"selected":15})");  // most first
  // Line 10: PCs 0x60 and 0xa0, 980 of the function's 1000 samples.
  const json& hot = rows[1];
  CHECK(hot["by"] == "line");
  CHECK(hot["file"] == "source_lines_kernel.cu");
  CHECK(hot["dir"] == "/work/tests/profiler/data");
  CHECK(hot["line"] == 10);
  CHECK(hot["samples"] == 980);
  CHECK(hot["not_issued_samples"] == 850);
  CHECK(hot["share_pct"] == 98.0);
  CHECK(hot["stalls"].dump() == R"({"long_scoreboard":950,"wait":20,"selected":10})");
  CHECK(hot["pcs"] == json::array({0x60, 0xa0}));
  CHECK(rows[2]["share_pct"] == 2.0);
  CHECK(rows[3]["pc_offset"] == 0xa0);
  CHECK(rows[3]["line"] == 10);
  CHECK(rows[3]["share_pct"] == 92.0);
  CHECK(rows[4]["share_pct"] == 6.0);
  // nolines: no line information, its PCs with a null line and the note that says how to get lines.
  CHECK(rows[6]["line_info"] == false);
  CHECK(rows[6]["note"] == std::string(no_line_info_note));
  CHECK(rows[6]["share_pct"].get<double>() == doctest::Approx(23.076923077));
  CHECK(rows[6]["stalls"].dump() == R"({"mio_throttle":200,"barrier":90,"wait":10})");
  CHECK(rows[7]["line"].is_null());
  CHECK(rows[7]["file"] == "");
  CHECK(rows[7]["samples"] == 250);
  CHECK(rows[7]["share_pct"].get<double>() == doctest::Approx(83.333333333));
  CHECK(rows[8]["share_pct"].get<double>() == doctest::Approx(16.666666667));
}

TEST_CASE("source lines: the context, an empty report and a period CUPTI chose") {
  document_options o;
  o.gpu.chip = "GH100";
  o.context.device_name = "NVIDIA H200";
  const json doc = json::parse(to_json(source_lines_report{}, o));
  CHECK(doc["gpu"]["chip"] == "GH100");
  CHECK(doc["context"]["device_name"] == "NVIDIA H200");
  CHECK(doc["sampling"]["period_log2"].is_null());  // 0: not known, never a made-up period
  CHECK(doc["rows"] == json::array());
  CHECK(to_csv(source_lines_report{}) == "by,name,function,file,line,pc_offset,samples,not_issued_samples,share_pct,"
                                         "stalls\r\n");
}

TEST_CASE("source lines: CSV, one row per document row") {
  const std::string csv = to_csv(source_lines_samples::report());
  CHECK(csv.rfind("by,name,function,file,line,pc_offset,samples,not_issued_samples,share_pct,stalls\r\n", 0) == 0);
  CHECK(contains(csv, "\r\nline,line: strided_sum source_lines_kernel.cu:10,strided_sum,source_lines_kernel.cu,10,,"
                      "980,850,98,long_scoreboard=950;wait=20;selected=10\r\n"));
  CHECK(contains(csv, "\r\npc,pc: strided_sum +0x00a0,strided_sum,source_lines_kernel.cu,10,160,920,850,92,"
                      "long_scoreboard=900;wait=20\r\n"));
  CHECK(contains(csv, "\r\npc,pc: nolines +0x0100,nolines,,,256,250,0,"));
  CHECK(contains(csv, "\r\nfunction,function: nolines,nolines,,,,300,0,"));
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 10);  // the header and nine rows
}

TEST_CASE("source lines: diff() directions, explicitly") {
  // Fewer samples on a row (function, line, PC) is less time there: lower is better. Its share of its
  // function's samples has no direction (shares add up to 100 %: fixing the hot line raises the others'), nor
  // has a stall reason's samples (which reason moves is the diagnosis).
  CHECK(better_direction("samples") == better::lower);
  CHECK(better_direction("not_issued_samples") == better::lower);
  CHECK(better_direction("share_pct") == better::none);
  CHECK(better_direction("stalls.long_scoreboard") == better::none);
  CHECK(better_direction("line") == better::none);
  CHECK(better_direction("pc_offset") == better::none);
  CHECK(better_direction("lines_sampled") == better::none);

  const report_document before = to_document(source_lines_samples::report());
  REQUIRE(before.ok());
  const report_entity& hot = entity(before, "line: strided_sum source_lines_kernel.cu:10");
  REQUIRE(hot.number("share_pct") != nullptr);
  CHECK(hot.number("share_pct")->value == 98);
  CHECK(hot.number("stalls.long_scoreboard")->value == 950);
  CHECK(hot.number("line")->value == 10);

  // The fix of line 10 (long_scoreboard 900 -> 100 at PC 0xa0): strided_sum 1000 -> 200 samples.
  const report_document after = to_document(source_lines_samples::fixed());
  const report_diff d = diff(before, after);
  const auto status = [&d](const std::string& e, const std::string& f) {
    const field_change* c = change(d, e, f);
    REQUIRE_MESSAGE(c != nullptr, e << " " << f);
    return c->status;
  };
  const std::string line10 = "line: strided_sum source_lines_kernel.cu:10";
  const std::string line8 = "line: strided_sum source_lines_kernel.cu:8";
  CHECK(status(line10, "samples") == change_status::better);      // 980 -> 180
  CHECK(status(line10, "share_pct") == change_status::changed);   // 98 % -> 90 %, no direction
  CHECK(status(line10, "not_issued_samples") == change_status::better);
  CHECK(status(line10, "stalls.long_scoreboard") == change_status::changed);  // 950 -> 150, no direction
  CHECK(status("function: strided_sum", "samples") == change_status::better);  // 1000 -> 200
  CHECK(status(line8, "samples") == change_status::same);         // 20 -> 20: the line did not change
  // ... while its share of a function that spends less time elsewhere rose, 2 % -> 10 %: changed, not worse,
  // so the fix is no regression and `napkin diff` exits 0.
  CHECK(status(line8, "share_pct") == change_status::changed);
  CHECK_FALSE(d.regressed());
  CHECK(d.exit_code() == 0);
  // Line 10's samples back up: a regression.
  CHECK(diff(after, before).regressed());
  diff_options gate;
  gate.gate_fields = {"samples", "not_issued_samples"};
  CHECK(diff(after, before, gate).regressed());
  CHECK(d.added.empty());
  CHECK(d.removed.empty());
}

TEST_CASE("source lines: a report that cannot be a document is napkin's input error") {
  source_lines_report r = source_lines_samples::report();
  r.functions[0].lines[0].stalls.push_back({"wait", 1});
  CHECK(input_error_of([&] { (void)to_json(r); }) ==
        "napkin: source lines, function 1 \"strided_sum\", line source_lines_kernel.cu:10: the stall reason \"wait\" "
        "is given twice");
  r = source_lines_samples::report();
  r.functions[0].lines[1].where.line = 0;
  CHECK(contains(input_error_of([&] { (void)to_csv(r); }), "a hot line needs a file and a line number"));
  r = source_lines_samples::report();
  r.functions[1].pcs[0].samples = 301;
  CHECK(contains(input_error_of([&] { (void)to_json(r); }),
                 "function 2 \"nolines\", PC +0x0100: more samples than its function"));
  r = source_lines_samples::report();
  r.functions[1].function.clear();
  CHECK(contains(input_error_of([&] { (void)to_html(source_lines_page{"x", r, {}, {}}); }), ": no name"));
}

TEST_CASE("source lines: read back, the same document") {
  const source_lines_report r = source_lines_samples::report();
  document_options o;
  o.gpu.chip = "GH100";
  const std::string text = to_json(r, o);
  const std::string path = napkin_test::write_file(out, "source_lines.json", text);
  const json_read_result file = read_json_file(path);
  REQUIRE(file.ok());
  const source_lines_report back = read_source_lines(file.value, path);
  CHECK(to_json(back, o) == text);
  CHECK(to_csv(back) == to_csv(r));
  REQUIRE(back.functions.size() == 2);
  CHECK(back.functions[0].lines[0].pcs == std::vector<std::uint64_t>{0x60, 0xa0});
  CHECK(back.functions[0].pcs[0].where.line == 10);
  CHECK(back.functions[1].pcs[1].pc_offset == 0x80);
  CHECK_FALSE(back.functions[1].pcs[1].where.known());
  CHECK(back.cost.correlate_s == 0.001);
  CHECK(back.notes == r.notes);
  // The file flattens as the report in memory does, so diff() of the two is all "same".
  const report_diff d = diff(read_document_file(path), to_document(r, o));
  CHECK(d.exit_code() == 0);
  for (const field_change& c : d.changes) CHECK(c.status == change_status::same);
  CHECK(to_json(read_text(to_json(source_lines_report{}))) == to_json(source_lines_report{}));
}

TEST_CASE("source lines: bad documents name the file and the member") {
  const std::string good = to_json(source_lines_samples::report());
  json doc = json::parse(good);
  const auto error_of = [](const json& d) { return input_error_of([&] { (void)read_text(d.dump()); }); };

  json d = doc;
  d["rows"][1]["share_pct"] = 97.0;
  CHECK(error_of(d) == "napkin: lines.json: rows[1].share_pct: is not samples / 1000 x 100 (98)");
  d = doc;
  d["rows"][0]["share_pct"] = 50.0;
  CHECK(contains(error_of(d), "lines.json: rows[0].share_pct: is not samples / 1300 x 100"));
  d = doc;
  d["rows"].erase(0);
  CHECK(error_of(d) == "napkin: lines.json: rows[0]: a line row before any function row");
  d = doc;
  d["rows"][7]["function"] = "strided_sum";
  CHECK(error_of(d) == "napkin: lines.json: rows[7]: a pc row of 'strided_sum' under the function row of 'nolines'");
  d = doc;
  d["rows"][2]["by"] = "kernel";
  CHECK(error_of(d) == "napkin: lines.json: rows[2].by: expected function, line or pc, got 'kernel'");
  d = doc;
  d["rows"][1]["line"] = 0;
  CHECK(error_of(d) == "napkin: lines.json: rows[1].line: expected a line number (1 or more) or null");
  d = doc;
  d["rows"][1]["samples"] = -1;
  CHECK(error_of(d) == "napkin: lines.json: rows[1].samples: expected a count (a whole number >= 0)");
  d = doc;
  d["rows"][3]["stalls"]["wait"] = 2.5;
  CHECK(error_of(d) == "napkin: lines.json: rows[3].stalls.wait: expected a count (a whole number >= 0)");
  d = doc;
  d["rows"][6].erase("note");
  CHECK(error_of(d) == "napkin: lines.json: rows[6]: no \"note\"");
  d = doc;
  d["sampling"]["run_s"] = -0.5;
  CHECK(error_of(d) == "napkin: lines.json: sampling.run_s: must not be negative, got -0.5");
  d = doc;
  d["sampling"]["period_log2"] = 40;
  CHECK(error_of(d) == "napkin: lines.json: sampling.period_log2: expected 1..31 or null");
  d = doc;
  d["rows"][3].swap(d["rows"][1]);  // a PC row before a line row of the same function
  CHECK(error_of(d) == "napkin: lines.json: rows[2]: a line row after the function's PC rows");
  d = doc;
  d["notes"] = json::array({1});
  CHECK(error_of(d) == "napkin: lines.json: notes[0]: expected a string");
}

TEST_CASE("source lines: the HTML page") {
  const std::string html = to_html(source_lines_page{"strided <sum>", source_lines_samples::report(), {}, {}});
  CHECK(contains(html, "<title>strided &lt;sum&gt;</title>"));
  CHECK(contains(html, "every 2^11 cycles"));
  CHECK(contains(html, "2 functions, 1300 samples in them"));
  CHECK(contains(html, "<li>no cubin for &lt;nolines&gt; &amp; &quot;friends&quot;</li>"));
  // The colour key: the reasons over both functions, most samples first (950, 200, 90, 45, 15).
  const std::size_t key = html.find("id=\"stall-key\"");
  REQUIRE(key != std::string::npos);
  std::vector<std::size_t> at;
  for (const char* r : {"long_scoreboard", "mio_throttle", "barrier", "wait", "selected"})
    at.push_back(html.find(std::string("class=\"key\" data-reason=\"") + r + "\"", key));
  for (std::size_t i = 0; i < at.size(); ++i) {
    CHECK(at[i] != std::string::npos);
    if (i > 0) CHECK(at[i - 1] < at[i]);
  }
  // Line 10: 980 samples, 98.0% of the function's, its stall bar 950 / 20 / 10 of 980.
  CHECK(contains(html, "<tr class=\"hot-line\" data-index=\"0\" data-samples=\"980\" "
                       "data-file=\"source_lines_kernel.cu\" data-line=\"10\">"));
  CHECK(contains(html, "<span class=\"share-text\">98.0%</span>"));
  CHECK(contains(html, "data-reason=\"long_scoreboard\" data-share-pct=\"96.9388\""));
  CHECK(contains(html, "data-reason=\"wait\" data-share-pct=\"2.04082\""));
  CHECK(contains(html, "long_scoreboard 96.9%, wait 2.0%, selected 1.0%"));
  // nolines: the note and its PCs in the table.
  CHECK(contains(html, "<section class=\"function\" id=\"function-1\" data-function=\"nolines\" "
                       "data-line-info=\"false\">"));
  CHECK(contains(html, "build with -lineinfo"));
  CHECK(contains(html, "<table id=\"pcs-1\""));
  CHECK(contains(html, "data-pc-offset=\"256\""));
  CHECK(contains(html, "mio_throttle 80.0%, barrier 20.0%"));
  CHECK_FALSE(contains(html, "Against the baseline"));

  // With the baseline before the fix: diff()'s outcome and the numbers that moved.
  const std::string compared = to_html(source_lines_page{"fixed", source_lines_samples::fixed(),
                                                         source_lines_samples::report(), {}});
  CHECK(contains(compared, "data-outcome=\"no-regression\""));
  CHECK(contains(compared, "data-entity=\"line: strided_sum source_lines_kernel.cu:10\" data-field=\"samples\" "
                           "data-status=\"better\""));
  CHECK(contains(compared, "data-entity=\"line: strided_sum source_lines_kernel.cu:8\" data-field=\"share_pct\" "
                           "data-status=\"changed\""));
  // The other way round (line 10 back up to 980 samples) is a regression, on the samples gate too.
  source_lines_page gated{"back", source_lines_samples::report(), source_lines_samples::fixed(), {}};
  gated.compare.gate_fields = {"samples"};
  CHECK(contains(to_html(gated), "data-outcome=\"regression\""));
  CHECK(contains(to_html(source_lines_page{}), "No function was sampled."));
}
