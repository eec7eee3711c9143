// json_read.hpp: documents read back equal the documents in memory (every kind), broken files are bad
// input with a message naming the file and the problem, and the CI gate: a freshly computed report
// against a baseline JSON checked in under tests/report/data/.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "samples.hpp"
#include "support/files.hpp"

using namespace napkin;

namespace {
const std::string data = NAPKIN_REPORT_TEST_DATA;
const std::string out = NAPKIN_REPORT_TEST_OUT;

std::string write_file(const std::string& name, const std::string& text) {
  return napkin_test::write_file(out, name, text);
}

// Same kind, GPU and entities, and diff() finds every number "same" and no verdict change.
void check_round_trip(const report_document& memory, const std::string& json) {
  const report_document read = read_document(json, "round-trip.json");
  REQUIRE_MESSAGE(read.ok(), read.problem);
  CHECK(read.kind == memory.kind);
  CHECK(read.gpu.key == memory.gpu.key);
  CHECK(read.gpu.chip == memory.gpu.chip);
  REQUIRE(read.entities.size() == memory.entities.size());
  for (std::size_t i = 0; i < read.entities.size(); ++i) {
    CHECK(read.entities[i].name == memory.entities[i].name);
    REQUIRE(read.entities[i].numbers.size() == memory.entities[i].numbers.size());
    for (std::size_t k = 0; k < read.entities[i].numbers.size(); ++k) {
      CHECK(read.entities[i].numbers[k].field == memory.entities[i].numbers[k].field);
      CHECK(read.entities[i].numbers[k].value == memory.entities[i].numbers[k].value);  // exact
    }
    CHECK(read.entities[i].verdicts.size() == memory.entities[i].verdicts.size());
  }
  const report_diff d = diff(memory, read);
  CHECK(d.outcome == diff_outcome::no_regression);
  CHECK(d.verdict_changes.empty());
  for (const auto& c : d.changes) CHECK(c.status == change_status::same);
}
}  // namespace

TEST_CASE("every kind reads back as it was written") {
  kernel_reports k;
  k.kernels = {samples::sol("gemm", 1000), samples::sol("gemm", 1100), samples::one_pass("say \"hi\"\n\xe2\x9c\x93"),
               samples::disagreeing("cublasSgemm")};
  check_round_trip(to_document(k), to_json(k));
  check_round_trip(to_document(kernel_reports{}), to_json(kernel_reports{}));
  check_round_trip(to_document(samples::sol("softmax", 1234.5)), to_json(samples::sol("softmax", 1234.5)));
  const phase_reports p{{samples::sol("prefill", 1e6), samples::sol("decode", 3e5)}};
  check_round_trip(to_document(p), to_json(p));
  const sol_report r = samples::sol("softmax", 1000);
  const workload_comparison c = compare(r, softmax(4096, 4096), gpus::h100_sxm, pipe::fp32);
  check_round_trip(to_document(r, c), to_json(r, c));
  const estimate_report e = make_estimate_report("gemm", gemm(4096, 4096, 4096, dtype::fp16), gpus::h100_sxm,
                                                 pipe::fp16_tensor);
  check_round_trip(to_document(e), to_json(e));
  const occupancy_advice a = next_step(limits_of({8, 6}), 256, {128});
  check_round_trip(to_document(a), to_json(a));
  check_round_trip(to_document(a.now), to_json(a.now));
  const std::vector<gpu_spec> table(gpu_table.begin(), gpu_table.end());
  check_round_trip(to_document(table), to_json(table));
}

TEST_CASE("broken files are bad input, named, with what is wrong") {
  const std::string good = to_json(samples::sol("a", 1000));
  struct broken_case {
    const char* file;
    std::string text;
    const char* message;  // what the problem must say after "<path>: "
  };
  std::string no_schema = good, wrong_type = good, future = good, other_kind = good, huge_version = good,
              half_version = good;
  no_schema.replace(no_schema.find("\"schema\""), 8, "\"schemo\"");
  wrong_type.replace(wrong_type.find("\"schema_version\": 1"), 19, "\"schema_version\": \"1\"");
  future.replace(future.find("\"schema_version\": 1"), 19, "\"schema_version\": 99");
  huge_version.replace(huge_version.find("\"schema_version\": 1"), 19, "\"schema_version\": 1e300");
  half_version.replace(half_version.find("\"schema_version\": 1"), 19, "\"schema_version\": 1.5");
  other_kind.replace(other_kind.find("\"kind\": \"sol-report\""), 20, "\"kind\": \"estimate\"");
  const broken_case cases[] = {
      {"truncated.json", good.substr(0, good.size() / 2), "not valid JSON (byte "},
      {"empty.json", "", "empty, not a JSON document"},
      {"blank.json", " \n\t", "only white space, not a JSON document"},
      {"array.json", "[1, 2]", "expected a JSON object, got array"},
      {"no_schema.json", no_schema, "no \"schema\": not a napkin report document"},
      {"wrong_type.json", wrong_type, "\"schema_version\" must be an integer"},
      {"huge_version.json", huge_version, "\"schema_version\" must be an integer"},
      {"half_version.json", half_version, "\"schema_version\" must be an integer"},
      {"future.json", future, "unknown schema_version 99 (this napkin reads version 1)"},
      {"mismatch.json", other_kind, "\"schema\" \"napkin.sol-report\" does not match \"kind\" \"estimate\""},
      {"huge.json", "{\"schema\": 1e400}", "not valid JSON (byte 16): number overflow parsing '1e400'"},
      {"deep.json", std::string(300, '[') + std::string(300, ']'), "nested deeper than 256 levels"},
      {"trailing.json", good + "}", "not valid JSON (byte "},
      {"bad_entity.json", R"({"schema": "napkin.kernel-reports", "schema_version": 1, "kind": "kernel-reports",
                              "gpu": {}, "kernels": [{"name": 7}]})",
       "kernels[0].name: expected a string"},
      {"no_entities.json", R"({"schema": "napkin.estimate", "schema_version": 1, "kind": "estimate", "gpu": {}})",
       "no \"estimate\" (an estimate document has one)"},
  };
  for (const broken_case& b : cases) {
    const std::string path = write_file(b.file, b.text);
    const report_document d = read_document_file(path);
    CAPTURE(b.file);
    CHECK_FALSE(d.ok());
    CHECK_MESSAGE(d.problem.rfind(path + ": " + b.message, 0) == 0, d.problem);
    const report_diff r = diff(d, to_document(samples::sol("a", 1000)));
    CHECK(r.outcome == diff_outcome::bad_input);
    CHECK(r.exit_code() == 2);
  }
  const report_document missing = read_document_file(out + "/no-such-file.json");
  CHECK(missing.problem == out + "/no-such-file.json: cannot open: No such file or directory");
  const report_document folder = read_document_file(out);
  CHECK(folder.problem == out + " is not a regular file (a folder): napkin reads documents from files");
  // A character device is refused before a byte is read (/dev/zero used to be read until memory ran out).
  CHECK(read_document_file("/dev/zero").problem ==
        "/dev/zero is not a regular file (a character device): napkin reads documents from files");
}

// The checks `napkin report` makes of measured numbers are the library's: read_document() and diff()
// refuse a negative time or rate and a percentage beyond 1000 %, naming the member.
TEST_CASE("numbers that cannot have been measured are bad input, named") {
  const std::string head = R"({"schema": "napkin.kernel-reports", "schema_version": 1, "kind": "kernel-reports",
                               "gpu": {}, "kernels": [)";
  const std::string monitor_head = R"({"schema": "napkin.monitor-report", "schema_version": 1,
                                       "kind": "monitor-report", "gpu": {}, "rows": [)";
  struct bad_number {
    std::string text;
    const char* message;  // what the problem says after "<source>: "
  };
  const bad_number cases[] = {
      {head + R"({"name": "k", "duration_ns": -1}]})", "kernels[0].duration_ns: must not be negative, got -1"},
      {head + R"({"name": "k", "duration_ns": 5}, {"name": "k", "sm_pct": 1e308}]})",
       "kernels[1].sm_pct: a percentage above 1000, got "},
      {head + R"({"name": "k", "cost": {"total_s": -0.5}}]})", "kernels[0].cost.total_s: must not be negative, got -0.5"},
      {monitor_head + R"({"name": "step", "mean_ns": -3}]})", "rows[0].mean_ns: must not be negative, got -3"},
      {monitor_head + R"({"name": "step", "dram_bytes_per_s": -1e9}]})", "rows[0].dram_bytes_per_s: must not be negative"},
      {monitor_head + R"({"name": "step", "sm_hz": -1}]})", "rows[0].sm_hz: must not be negative"},
  };
  for (const bad_number& b : cases) {
    const report_document d = read_document(b.text, "bad.json");
    CAPTURE(b.text);
    CHECK_FALSE(d.ok());
    CHECK_MESSAGE(d.problem.rfind(std::string("bad.json: ") + b.message, 0) == 0, d.problem);
    CHECK(diff(d, d).outcome == diff_outcome::bad_input);
  }
  // At the edges: 0 and a percentage of exactly 1000 (counters' noise above 100) are numbers a run can hold;
  // a member without a unit suffix is not a measured quantity and may be negative.
  const report_document edge = read_document(head + R"({"name": "k", "duration_ns": 0, "sm_pct": 1000,
                                                         "skew": -2}]})", "edge.json");
  CHECK_MESSAGE(edge.ok(), edge.problem);
}

// The CI gate, as a user's test suite writes it: the baseline was measured (here: estimated) once and
// checked in; every run computes the report again and fails when a kernel got worse.
TEST_CASE("CI gate: no kernel regressed against the checked-in baseline") {
  const report_document baseline = read_document_file(data + "/softmax_estimate_baseline.json");
  REQUIRE_MESSAGE(baseline.ok(), baseline.problem);
  const estimate_report now = make_estimate_report("softmax 4096x4096 fp32", softmax(4096, 4096), gpus::h100_sxm, pipe::fp32);
  const report_diff d = diff(baseline, to_document(now));
  CHECK_MESSAGE(!d.regressed(), d);
  CHECK(d.outcome == diff_outcome::no_regression);

  // The same gate on kernel measurements: the baseline holds two kernels; the new run is 1 % slower on
  // one (noise, within 3 %) and 20 % faster on the other.
  const report_document kernels = read_document_file(data + "/kernels_baseline.json");
  REQUIRE_MESSAGE(kernels.ok(), kernels.problem);
  kernel_reports run;
  run.kernels = {samples::sol("softmax_naive", 5050), samples::sol("softmax_fused", 1600)};
  diff_options time_only;
  time_only.gate_fields = {"duration_ns"};
  const report_diff gate = diff(kernels, to_document(run), time_only);
  CHECK_MESSAGE(!gate.regressed(), gate);
  CHECK(gate.added.empty());
  CHECK(gate.removed.empty());

  // And it catches a regression: softmax_fused 20 % slower than its baseline of 2000 ns.
  run.kernels[1] = samples::sol("softmax_fused", 2400);
  const report_diff slower = diff(kernels, to_document(run), time_only);
  CHECK(slower.regressed());
  CHECK(to_text(slower).find("softmax_fused  duration_ns") != std::string::npos);
}

// Reading an object of n members and diffing n entities (or an entity of n numbers) take n log n work, not
// n^2: each used to search every earlier name (100,000 members: 5e9 comparisons, minutes in a Debug build).
TEST_CASE("large documents: members, entities and fields found through an index") {
  constexpr int n = 100000;
  std::string text = "{";
  for (int i = 0; i < n; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  text += ",\"k7\":-7}";  // a repeated name: the last value wins, in the first one's place
  const auto start = std::chrono::steady_clock::now();
  const json_read_result r = parse_json(text);
  REQUIRE(r.ok());
  CHECK(r.value.keys().size() == n);
  CHECK(r.value.find("k7")->as_number() == -7);
  CHECK(r.value.keys()[7] == "k7");
  CHECK(r.value.find("k99999")->as_number() == 99999);

  report_document a, b;
  for (report_document* d : {&a, &b}) {
    d->schema = "napkin.kernel-reports";
    d->schema_version = report_schema_version;
    d->kind = "kernel-reports";
    for (int i = 0; i < n / 2; ++i) d->entities.push_back({"kernel " + std::to_string(i), {{"duration_ns", 1000.0}}, {}});
    report_entity wide{"wide", {}, {}};
    for (int i = 0; i < n / 2; ++i) wide.numbers.push_back({"values.m" + std::to_string(i), 1.0});
    d->entities.push_back(std::move(wide));
  }
  b.entities.front().name = "renamed";
  const report_diff d = diff(a, b);
  CHECK(d.added == std::vector<std::string>{"renamed"});
  CHECK(d.removed == std::vector<std::string>{"kernel 0"});
  CHECK(d.changes.size() == std::size_t{n} - 1);
  CHECK_FALSE(d.regressed());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_MESSAGE(seconds < 10, seconds);  // about 1 s in a Debug build here; the n^2 way took minutes
}
