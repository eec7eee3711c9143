// Report sections in the documents (report/section_documents.hpp), diff (the directions of their fields),
// the long CSV table and the HTML run page (report/section_html.hpp), with makers defined in the test
// (section_samples.hpp). The JSON is checked with nlohmann/json, independently of napkin's writer and
// reader; a run read back (json_read_run.hpp) makes the same sections again from its "values". Without
// sections, every output is what it was. Expected numbers come from the inputs set here.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "math/error_message.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read_run.hpp"
#include "samples.hpp"
#include "section_samples.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Two kernels with both sections, one (one_pass) with none: the makers find no metrics there.
kernel_reports run(double hit_pct, double sectors, double lsb) {
  kernel_reports k;
  k.kernels = {section_samples::with_metrics(samples::sol("gemm", 2000), hit_pct, sectors, 100, lsb, 30, 10),
               samples::one_pass("copy")};
  return k;
}

const field_change* change_of(const report_diff& d, const std::string& entity, const std::string& field) {
  for (const field_change& c : d.changes)
    if (c.entity == entity && c.field == field) return &c;
  return nullptr;
}

// Whether every element opened in `html` is closed in order (void elements aside) and no '<' or '&' is left
// raw in text or attributes: what an XML parser needs of the section markup.
std::string tag_balance_problem(const std::string& html) {
  std::vector<std::string> open;
  for (std::size_t i = 0; i < html.size(); ++i) {
    if (html[i] == '&') {
      const std::size_t semi = html.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "a raw '&' at " + std::to_string(i);
      continue;
    }
    if (html[i] != '<') continue;
    const std::size_t end = html.find('>', i);
    if (end == std::string::npos) return "an unclosed tag at " + std::to_string(i);
    const std::string tag = html.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "a raw '<' inside a tag at " + std::to_string(i);
    i = end;
    if (tag.empty() || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes nothing open";
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" /"));
    if (name == "br" || name == "meta" || tag.back() == '/') continue;
    open.push_back(name);
  }
  return open.empty() ? std::string() : "<" + open.back() + "> is never closed";
}

}  // namespace

TEST_CASE("JSON: each section an object of its numbers and \"about\"; none without sections") {
  const kernel_reports k = run(87.5, 400, 60);
  const nlohmann::json doc = nlohmann::json::parse(to_json(k, {}, section_samples::makers()));
  const nlohmann::json& gemm = doc["kernels"][0];
  REQUIRE(gemm.contains("sections"));
  const nlohmann::json& memory = gemm["sections"]["memory"];
  CHECK(memory["l1_hit_rate_pct"].get<double>() == 87.5);
  CHECK(memory["global_load_sectors_per_request"].get<double>() == 4.0);  // 400 / 100
  CHECK(memory["global_load_requests"].get<double>() == 100.0);
  CHECK(memory["l2_hit_rate_pct"].is_null());  // its metric was not collected
  CHECK(memory["about"]["title"] == "Memory chart");
  CHECK(memory["about"]["shares"] == false);
  CHECK(memory["about"]["labels"]["l1_hit_rate_pct"] == "L1/TEX hit rate");
  CHECK(memory["about"]["units"]["global_load_sectors_per_request"] == "sectors/request");
  CHECK(memory["about"]["units"]["global_load_requests"] == "");
  CHECK(memory["about"]["better"]["l1_hit_rate_pct"] == "higher");
  CHECK(memory["about"]["better"]["global_load_sectors_per_request"] == "lower");
  CHECK(memory["about"]["better"]["global_load_requests"] == "none");
  CHECK(memory["about"]["findings"] == nlohmann::json::array({"global loads read 4.000 sectors per request"}));
  const nlohmann::json& stalls = gemm["sections"]["warp_state"];
  CHECK(stalls["about"]["shares"] == true);
  CHECK(stalls["long_scoreboard_share_pct"].get<double>() == doctest::Approx(60.0));  // 60 of 60 + 30 + 10
  CHECK(stalls["barrier_share_pct"].get<double>() == doctest::Approx(30.0));
  CHECK(stalls["warp_cycles_per_issued_instruction"].get<double>() == section_samples::warp_cycles_per_issued);
  CHECK(stalls["about"]["better"]["warp_cycles_per_issued_instruction"] == "lower");
  // The sections in the order the makers made them (nlohmann sorts keys: the text says the order); a kernel
  // without the metrics has no "sections".
  const std::string text = to_json(k, {}, section_samples::makers());
  CHECK(text.find("\"memory\"") < text.find("\"warp_state\""));
  CHECK(!doc["kernels"][1].contains("sections"));

  // Without sections, every document is what it was: the default makers make none, and makers that find
  // nothing to make add nothing.
  CHECK(to_json(k) == to_json(k, {}, {}));
  CHECK(!contains(to_json(k), "\"sections\""));
  kernel_reports without;
  without.kernels = {samples::sol("gemm", 2000), samples::one_pass("copy")};
  CHECK(to_json(without, {}, section_samples::makers()) == to_json(without));
  CHECK(to_json(k.kernels[0]) == to_json(k.kernels[0], {}, section_makers{}));
  const sol_report& one = k.kernels[0];
  CHECK(contains(to_json(one, {}, section_samples::makers()), "\"sections\""));
  phase_reports p{{one}};
  CHECK(contains(to_json(p, {}, section_samples::makers()), "\"warp_state\""));
  CHECK(!contains(to_json(p), "\"warp_state\""));
}

TEST_CASE("read back: the run's sections are made again from its values, and compare equal") {
  const kernel_reports k = run(87.5, 400, 60);
  const std::string path =
      napkin_test::write_file(NAPKIN_REPORT_TEST_OUT, "sections_run.json", to_json(k, {}, section_samples::makers()));
  const measured_run read = read_run(path);
  REQUIRE(read.run.kernels.size() == 2);
  const std::vector<report_section> before = sections_of(k.kernels[0], section_samples::makers());
  const std::vector<report_section> after = sections_of(read.run.kernels[0], section_samples::makers());
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(after[i].name == before[i].name);
    REQUIRE(after[i].numbers.size() == before[i].numbers.size());
    for (std::size_t j = 0; j < before[i].numbers.size(); ++j) {
      CHECK(after[i].numbers[j].field == before[i].numbers[j].field);
      CHECK(after[i].numbers[j].value == before[i].numbers[j].value);
    }
    CHECK(after[i].findings == before[i].findings);
  }
  // The file flattened and the run read back, written again, compare equal: nothing changed.
  const json_read_result file = read_json_file(path);
  REQUIRE(file.ok());
  const report_diff d = diff(flatten(file.value, path), to_document(read.run, {}, section_samples::makers()));
  CHECK(d.outcome == diff_outcome::no_regression);
  const field_change* hit = change_of(d, "gemm", "sections.memory.l1_hit_rate_pct");
  REQUIRE(hit != nullptr);
  CHECK(hit->status == change_status::same);
  CHECK(*hit->old_value == 87.5);
}

TEST_CASE("diff: a section number's direction; a worse hit rate is a regression, a changed share is not") {
  CHECK(better_direction("sections.memory.l1_hit_rate_pct") == better::higher);
  CHECK(better_direction("sections.memory.global_load_sectors_per_request") == better::lower);
  CHECK(better_direction("sections.warp_state.long_scoreboard_share_pct") == better::none);
  CHECK(better_direction("sections.memory.global_load_requests") == better::none);
  CHECK(better_direction("sections.duration_ns") == better::none);  // not the SOL number of the same name

  const auto doc = [](const kernel_reports& k) { return to_document(k, {}, section_samples::makers()); };
  const report_document base = doc(run(90, 400, 60));

  // The hit rate falls from 90 to 80 %: worse, a regression.
  const report_diff worse = diff(base, doc(run(80, 400, 60)));
  CHECK(worse.regressed());
  const field_change* hit = change_of(worse, "gemm", "sections.memory.l1_hit_rate_pct");
  REQUIRE(hit != nullptr);
  CHECK(hit->direction == better::higher);
  CHECK(hit->status == change_status::worse);
  CHECK(hit->regression);
  CHECK(*hit->change_pct == doctest::Approx((80.0 - 90.0) / 90.0 * 100));

  // Fewer sectors per request (400 -> 200 over 100 requests: 4 -> 2): better.
  const report_diff fewer = diff(base, doc(run(90, 200, 60)));
  CHECK(!fewer.regressed());
  const field_change* sectors = change_of(fewer, "gemm", "sections.memory.global_load_sectors_per_request");
  REQUIRE(sectors != nullptr);
  CHECK(sectors->status == change_status::better);

  // The long-scoreboard share moves (60 of 100 -> 160 of 200 cycles: 60 % -> 80 %): changed, never a
  // regression, and the barrier's share (30 % -> 15 %) likewise.
  const report_diff shares = diff(base, doc(run(90, 400, 160)));
  CHECK(!shares.regressed());
  const field_change* lsb = change_of(shares, "gemm", "sections.warp_state.long_scoreboard_share_pct");
  REQUIRE(lsb != nullptr);
  CHECK(lsb->direction == better::none);
  CHECK(lsb->status == change_status::changed);
  CHECK(!lsb->regression);
  CHECK(*lsb->new_value == doctest::Approx(80.0));
  const field_change* barrier = change_of(shares, "gemm", "sections.warp_state.barrier_share_pct");
  REQUIRE(barrier != nullptr);
  CHECK(barrier->status == change_status::changed);

  // A baseline written without sections: the new numbers are added, not a regression.
  const report_diff added = diff(to_document(run(90, 400, 60)), base);
  CHECK(!added.regressed());
  CHECK(change_of(added, "gemm", "sections.memory.l1_hit_rate_pct")->status == change_status::added);
}

TEST_CASE("CSV: one row per section number; the fixed table unchanged") {
  kernel_reports k = run(87.5, 400, 60);
  k.kernels[0].name = "=gemm, \"v2\"";  // a formula start, a comma and quotes
  const std::string csv = to_sections_csv(k.kernels, section_samples::makers());
  CHECK(csv.rfind("name,section,field,label,value,unit,better\r\n", 0) == 0);
  CHECK(contains(csv, "\"'=gemm, \"\"v2\"\"\",memory,l1_hit_rate_pct,L1/TEX hit rate,87.5,%,higher\r\n"));
  CHECK(contains(csv, ",memory,l2_hit_rate_pct,L2 hit rate,,%,higher\r\n"));  // not measured: empty
  CHECK(contains(csv, ",memory,global_load_sectors_per_request,Global load sectors per request,4,sectors/request,"
                      "lower\r\n"));
  CHECK(contains(csv, ",memory,global_load_requests,Global load requests,100,,none\r\n"));
  CHECK(contains(csv, ",warp_state,long_scoreboard_share_pct,Long scoreboard,60,%,none\r\n"));
  CHECK(count(csv, "\r\n") == 1 + 4 + 4);  // the header, 4 memory numbers, warp cycles and 3 shares; copy none
  CHECK(to_sections_csv(k.kernels) == "name,section,field,label,value,unit,better\r\n");
  CHECK(to_sections_csv(k.kernels[0], section_samples::makers()) == csv);
  CHECK(!contains(to_csv(k), "l1_hit_rate"));  // the fixed columns stay as they were
}

TEST_CASE("HTML: each kernel's sections, a stacked bar of shares, everything escaped and well formed") {
  report_page page;
  page.title = "sections";
  page.kernels = run(87.5, 400, 60).kernels;
  const std::string plain = to_html(page);  // default makers: none
  CHECK(!contains(plain, "class=\"report-section\""));
  page.sections = {};
  CHECK(to_html(page) == plain);

  page.sections = section_samples::makers();
  const std::string html = to_html(page);
  CHECK(count(html, "class=\"report-section\"") == 2);  // gemm's two; copy has none
  CHECK(contains(html, "id=\"kernel-0-section-memory\" data-section=\"memory\" data-shares=\"false\""));
  CHECK(contains(html, "id=\"kernel-0-section-warp_state\" data-section=\"warp_state\" data-shares=\"true\""));
  CHECK(contains(html, "<tr data-field=\"l1_hit_rate_pct\" data-value=\"87.5\"><td class=\"label\">L1/TEX hit rate"
                       "</td><td class=\"num\">87.50</td><td class=\"unit\">%</td></tr>"));
  CHECK(contains(html, "<td class=\"num missing\">n/a</td>"));
  // The bar: 60, 30 and 10 % of the stalls, largest first, each part as wide as its share.
  const std::size_t lsb = html.find("class=\"share\" data-field=\"long_scoreboard_share_pct\" data-share-pct=\"60\" "
                                    "style=\"width:60.00%");
  const std::size_t barrier = html.find("class=\"share\" data-field=\"barrier_share_pct\" data-share-pct=\"30\" "
                                        "style=\"width:30.00%");
  const std::size_t mio = html.find("class=\"share\" data-field=\"mio_throttle_share_pct\" data-share-pct=\"10\" "
                                    "style=\"width:10.00%");
  REQUIRE(lsb != std::string::npos);
  CHECK(lsb < barrier);
  CHECK(barrier < mio);
  CHECK(contains(html, "<li>top stall: long scoreboard</li>"));
  // The number that is no share: in the table, first, without a swatch or a share; not in the bar.
  CHECK(contains(html, "<tr data-field=\"warp_cycles_per_issued_instruction\" data-value=\"12.5\"><td class=\"label\">"
                       "Warp cycles per issued instruction</td><td class=\"num\">12.50</td><td class=\"unit\">cycles"
                       "</td><td class=\"num share-pct\">-</td></tr>"));
  CHECK(!contains(html, "class=\"share\" data-field=\"warp_cycles_per_issued_instruction\""));
  CHECK(count(html, "http") == 0);

  // Hostile words are escaped; the section markup is balanced.
  std::vector<report_section> hostile = sections_of(page.kernels[0], section_samples::makers());
  hostile[0].title = "<script>alert('t')</script> & co";
  hostile[0].numbers[0].label = "\"><img src=x onerror=1>";
  hostile[0].numbers[0].unit = "<%>";
  hostile[1].findings = {"a < b && c > d", "bidi \xe2\x80\xae reversed"};
  const std::string markup = detail::html_sections(hostile, "kernel-0");
  CHECK(!contains(markup, "<script"));
  CHECK(!contains(markup, "<img"));
  CHECK(contains(markup, "&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; co"));
  CHECK(contains(markup, "&quot;&gt;&lt;img src=x onerror=1&gt;"));
  CHECK(contains(markup, "<li>a &lt; b &amp;&amp; c &gt; d</li>"));
  CHECK(!contains(markup, "\xe2\x80\xae"));
  CHECK(tag_balance_problem(markup) == "");
  CHECK(tag_balance_problem(detail::html_sections(sections_of(page.kernels[0], section_samples::makers()), "k")) ==
        "");
  // A hostile kernel name: escaped in the page as before.
  page.kernels[0].name = "k<\"&>";
  CHECK(contains(to_html(page), "k&lt;&quot;&amp;&gt;"));
  // A bad section is refused, not drawn.
  hostile[0].numbers[0].field = "Bad Field";
  CHECK_THROWS_AS(detail::html_sections(hostile, "k"), std::invalid_argument);

  // Against a baseline, the page's diff compares the section numbers too.
  page.kernels = run(80, 400, 60).kernels;
  page.baseline = run(90, 400, 60).kernels;
  const std::string compared = to_html(page);
  CHECK(contains(compared, "data-outcome=\"regression\""));
  CHECK(contains(compared,
                 "data-entity=\"gemm\" data-field=\"sections.memory.l1_hit_rate_pct\" data-status=\"worse\""));
}
