// diff(): every outcome, the directions, the threshold, entity matching and the text. The documents are
// built in memory; json_read_test.cpp reads them from files.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "napkin/text/printable.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/report.hpp"
#include "napkin/report/cross_rank.hpp"
#include "napkin/report/job_documents.hpp"
#include "samples.hpp"

using namespace napkin;

namespace {
kernel_reports two_kernels(double a_ns, double b_ns) {
  kernel_reports k;
  k.kernels = {samples::sol("a", a_ns), samples::sol("b", b_ns)};
  return k;
}
const field_change* find(const report_diff& d, const std::string& entity, const std::string& field) {
  for (const auto& c : d.changes)
    if (c.entity == entity && c.field == field) return &c;
  return nullptr;
}
}  // namespace

TEST_CASE("directions: time lower, throughput higher, no direction otherwise") {
  CHECK(better_direction("duration_ns") == better::lower);
  CHECK(better_direction("cost.total_s") == better::lower);
  CHECK(better_direction("dram_bytes") == better::lower);
  CHECK(better_direction("passes") == better::lower);
  CHECK(better_direction("napkin.traffic_overhead") == better::lower);
  CHECK(better_direction("sm_pct") == better::higher);
  CHECK(better_direction("dram_bytes_per_s") == better::higher);
  CHECK(better_direction("flop_per_s") == better::higher);
  CHECK(better_direction("occupancy_pct") == better::higher);
  CHECK(better_direction("sm_hz") == better::none);
  CHECK(better_direction("next_step.registers_per_thread.active_warps") == better::none);
}

TEST_CASE("no regression: identical documents, and changes within the threshold") {
  const report_diff same = diff(to_document(two_kernels(1000, 1000)), to_document(two_kernels(1000, 1000)));
  CHECK(same.outcome == diff_outcome::no_regression);
  CHECK(same.exit_code() == 0);
  CHECK_FALSE(same.regressed());
  CHECK(same.changes.size() == 2 * 21);  // 12 SOL numbers (the sol set has no FLOP counts), passes, 8 costs
  for (const auto& c : same.changes) CHECK(c.status == change_status::same);

  // +2.9 % is within the default 3 %.
  const report_diff small = diff(to_document(two_kernels(1000, 1000)), to_document(two_kernels(1029, 1000)));
  CHECK(small.outcome == diff_outcome::no_regression);
  REQUIRE(find(small, "a", "duration_ns") != nullptr);
  CHECK(find(small, "a", "duration_ns")->status == change_status::same);
  CHECK(find(small, "a", "duration_ns")->change_pct.value() == doctest::Approx(2.9));
}

TEST_CASE("regression: a kernel 10 % slower; faster is better, not a regression") {
  const report_diff d = diff(to_document(two_kernels(1000, 1000)), to_document(two_kernels(900, 1100)));
  CHECK(d.outcome == diff_outcome::regression);
  CHECK(d.exit_code() == 1);
  CHECK(d.regressed());
  const field_change* a = find(d, "a", "duration_ns");
  const field_change* b = find(d, "b", "duration_ns");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a->status == change_status::better);
  CHECK_FALSE(a->regression);
  CHECK(b->status == change_status::worse);
  CHECK(b->regression);
  CHECK(*b->old_value == 1000.0);
  CHECK(*b->new_value == 1100.0);
  CHECK(*b->change_pct == doctest::Approx(10.0));
  // Bandwidth follows time: 2.5 MB in 1.1 us is lower bandwidth, worse too.
  CHECK(find(d, "b", "dram_bytes_per_s")->status == change_status::worse);
  // The text in the unit of each field's name: 1000 ns = 1.00 us, 900 ns, 1100 ns = 1.10 us;
  // 2.5 MB / 1 us = 2.500 TB/s, / 0.9 us = 2.778 TB/s, / 1.1 us = 2.273 TB/s.
  const std::string text = to_text(d);
  for (const char* shown : {"1.00 us", "900 ns", "1.10 us", "2.500 TB/s", "2.778 TB/s", "2.273 TB/s",
                            "+10.0%  worse (regression)", "-10.0%  better"})
    CHECK_MESSAGE(text.find(shown) != std::string::npos, shown);
  CHECK(text.find("e+12") == std::string::npos);

  // A larger threshold, or a gate on another field, lets it pass.
  diff_options loose;
  loose.threshold_pct = 15;
  CHECK(diff(to_document(two_kernels(1000, 1000)), to_document(two_kernels(900, 1100)), loose).outcome ==
        diff_outcome::no_regression);
  diff_options only_sm;
  only_sm.gate_fields = {"sm_pct"};
  CHECK(diff(to_document(two_kernels(1000, 1000)), to_document(two_kernels(900, 1100)), only_sm).outcome ==
        diff_outcome::no_regression);
}

TEST_CASE("numbers without a direction are shown but never regress") {
  kernel_reports slower_clock = two_kernels(1000, 1000);
  slower_clock.kernels[0].values[metric::sm_frequency_hz] = 1.5e9;  // was 1.98e9
  const report_diff d = diff(to_document(two_kernels(1000, 1000)), to_document(slower_clock));
  CHECK(d.outcome == diff_outcome::no_regression);
  CHECK(find(d, "a", "sm_hz")->status == change_status::changed);
}

TEST_CASE("verdict changes, added and removed entities") {
  kernel_reports before = two_kernels(1000, 1000);
  kernel_reports after;
  after.kernels = {samples::sol("a", 1000, 20.0), samples::sol("c", 1000)};  // DRAM 80 % -> 20 %; b gone, c new
  const report_diff d = diff(to_document(before), to_document(after));
  REQUIRE(d.verdict_changes.size() == 1);
  CHECK(d.verdict_changes[0].entity == "a");
  CHECK(d.verdict_changes[0].field == "sol_table");
  CHECK(d.verdict_changes[0].old_text == "memory-bound (DRAM)");
  CHECK(d.verdict_changes[0].new_text == "internal memory congestion");
  CHECK(d.added == std::vector<std::string>{"c"});
  CHECK(d.removed == std::vector<std::string>{"b"});
  CHECK(find(d, "a", "dram_pct")->status == change_status::worse);  // 80 -> 20
  diff_options strict;
  strict.removed_is_regression = true;
  strict.gate_fields = {"duration_ns"};
  CHECK(diff(to_document(before), to_document(after), strict).regressed());

  const std::string text = to_text(d);
  CHECK(text.find("napkin diff: regression (kernel-reports, <memory> -> <memory>, threshold 3.0%)") == 0);
  CHECK(text.find("  verdict a sol_table: memory-bound (DRAM) -> internal memory congestion\n") != std::string::npos);
  CHECK(text.find("  added: c\n") != std::string::npos);
  CHECK(text.find("  removed: b\n") != std::string::npos);
  CHECK(text.find("dram_pct") != std::string::npos);
  CHECK(text.find("-75.0%  worse (regression)") != std::string::npos);  // 80 -> 20
  std::ostringstream os;
  os << d;
  CHECK(os.str() == text);
}

// Names k, k, "k #2" used to become k, "k #2", "k #2": two entities of one name, matched to the wrong
// kernels. Every name is unique now and the same kernels in another order get the same names.
TEST_CASE("duplicate names: unique, whatever names the kernels already have") {
  kernel_reports before, after;
  before.kernels = {samples::sol("k", 1000), samples::sol("k", 2000), samples::sol("k #2", 3000)};
  after.kernels = {samples::sol("k", 1000), samples::sol("k #2", 3000), samples::sol("k", 2000)};
  const report_document b = to_document(before);
  std::vector<std::string> names;
  for (const report_entity& e : b.entities) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"k", "k #3", "k #2"});
  const report_diff d = diff(b, to_document(after));
  CHECK_FALSE(d.regressed());
  CHECK(d.added.empty());
  CHECK(d.removed.empty());
  REQUIRE(find(d, "k #2", "duration_ns") != nullptr);
  CHECK(find(d, "k #2", "duration_ns")->status == change_status::same);
}

TEST_CASE("one-entity kinds match their entity whatever its name") {
  const report_diff d = diff(to_document(samples::sol("softmax_naive", 2000)), to_document(samples::sol("softmax_fast", 1000)));
  CHECK(d.outcome == diff_outcome::no_regression);
  CHECK(d.added.empty());
  REQUIRE(find(d, "softmax_naive -> softmax_fast", "duration_ns") != nullptr);
  CHECK(*find(d, "softmax_naive -> softmax_fast", "duration_ns")->change_pct == -50.0);
}

TEST_CASE("bad input: another kind, another GPU, an unknown version, a broken document, a bad threshold") {
  const report_document kernels = to_document(two_kernels(1000, 1000));
  const report_document one = to_document(samples::sol("a", 1000));
  const report_diff kinds = diff(kernels, one);
  CHECK(kinds.outcome == diff_outcome::bad_input);
  CHECK(kinds.exit_code() == 2);
  REQUIRE(kinds.problems.size() == 1);
  CHECK(kinds.problems[0] ==
        "different kinds: <memory> is a \"kernel-reports\" document, <memory> a \"sol-report\" document; only "
        "documents of the same kind compare");

  sol_report ga102 = samples::sol("a", 1000);
  ga102.chip = "GA102";
  const report_diff gpus = diff(one, to_document(ga102));
  CHECK(gpus.bad_input());
  CHECK(gpus.problems.at(0) ==
        "different GPUs: <memory> is about chip GH100, <memory> about chip GA102 (allow_different_gpu / "
        "--allow-different-gpu compares them anyway)");
  diff_options allow;
  allow.allow_different_gpu = true;
  CHECK(diff(one, to_document(ga102), allow).outcome == diff_outcome::no_regression);
  document_options h100, h200;
  h100.gpu.key = "h100-sxm";
  h200.gpu.key = "h200-sxm";
  CHECK(diff(to_document(samples::sol("a", 1000), h100), to_document(samples::sol("a", 1000), h200)).bad_input());

  report_document future = one;
  future.schema_version = 2;
  future.source = "future.json";
  const report_diff version = diff(one, future);
  CHECK(version.bad_input());
  CHECK(version.problems.at(0) == "future.json: unknown schema_version 2 (this napkin reads version 1)");

  report_document broken;
  broken.source = "broken.json";
  broken.problem = "broken.json: not valid JSON";
  const report_diff b = diff(broken, one);
  CHECK(b.bad_input());
  CHECK(b.problems.at(0) == "broken.json: not valid JSON");
  CHECK(to_text(b) == "napkin diff: bad-input\n  bad input: broken.json: not valid JSON\n");

  diff_options negative;
  negative.threshold_pct = -1;
  CHECK(diff(one, one, negative).bad_input());
}

// Job documents (job_documents.hpp): GPU time across ranks and the imbalance are better lower; counts, the
// slowest rank's number and the communication share have no direction.
//   before: gemm 1000 and 3000 ns on ranks 0 and 1: min 1000, median 2000, max 3000, imbalance 1.5, slowest 1;
//           the all-reduce 500 and 500 ns
//   after:  gemm 2000 and 2000 ns: min 2000 (+100 %, worse), median 2000 (same), max 2000 (-33.3 %, better),
//           imbalance 1.0 (-33.3 %, better), slowest 0 (a tie, lowest first: changed); the all-reduce 500 and
//           1000 ns: median 750 (+50 %, worse), max 1000 (+100 %), imbalance 1000 / 750 (+33.3 %, worse),
//           communication_ns 1000 -> 1500 (+50 %, worse)
TEST_CASE("job documents: times and imbalance better lower, counts without a direction") {
  for (const char* f : {"min_ns", "median_ns", "max_ns", "imbalance", "compute_ns", "communication_ns"})
    CHECK_MESSAGE(better_direction(f) == better::lower, f);
  for (const char* f : {"rank_count", "slowest_rank", "communication_fraction", "totals.gpu_ns"})
    CHECK_MESSAGE(better_direction(f) == better::none, f);
  const std::string nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  const auto job = [&nccl](double gemm0, double gemm1, double nccl1) {
    std::vector<rank_summary> ranks(2);
    for (std::size_t r = 0; r < 2; ++r) ranks[r].context.rank = static_cast<std::int64_t>(r);
    ranks[0].rows = {{"gemm", row_kind::kernel, 1, gemm0, std::nullopt}, {nccl, row_kind::kernel, 1, 500, {}}};
    ranks[1].rows = {{"gemm", row_kind::kernel, 1, gemm1, std::nullopt}, {nccl, row_kind::kernel, 1, nccl1, {}}};
    return to_document(make_cross_rank_table(ranks));
  };
  const report_document before = job(1000, 3000, 500), after = job(2000, 2000, 1000);
  REQUIRE(before.ok());
  const report_diff d = diff(before, after);
  const auto status = [&d](const std::string& entity, const char* field) {
    const field_change* c = find(d, entity, field);
    return c ? std::string(to_string(c->status)) : std::string("absent");
  };
  CHECK(status("gemm", "min_ns") == "worse");
  CHECK(find(d, "gemm", "min_ns")->change_pct == doctest::Approx(100));
  CHECK(status("gemm", "median_ns") == "same");
  CHECK(status("gemm", "max_ns") == "better");
  CHECK(find(d, "gemm", "max_ns")->change_pct == doctest::Approx(-100.0 / 3));
  CHECK(status("gemm", "imbalance") == "better");
  CHECK(find(d, "gemm", "imbalance")->new_value == doctest::Approx(1.0));
  CHECK(status("gemm", "slowest_rank") == "changed");
  CHECK(status("gemm", "rank_count") == "same");
  CHECK(status("gemm", "compute_ns") == "same");
  CHECK(status(nccl, "median_ns") == "worse");
  CHECK(find(d, nccl, "median_ns")->new_value == doctest::Approx(750));
  CHECK(status(nccl, "imbalance") == "worse");
  CHECK(find(d, nccl, "imbalance")->new_value == doctest::Approx(1000.0 / 750));
  CHECK(status(nccl, "communication_ns") == "worse");
  CHECK(find(d, nccl, "communication_ns")->change_pct == doctest::Approx(50));
  CHECK(status(nccl, "communication_fraction") == "same");  // 1 in both: all of it is communication
  CHECK(d.regressed());
  // Gated on the slowest rank's time alone: gemm's max got better, the all-reduce's worse.
  diff_options max_only;
  max_only.gate_fields = {"max_ns"};
  CHECK(diff(before, after, max_only).regressed());
  CHECK_FALSE(diff(before, job(2000, 2000, 500), max_only).regressed());
}

// Names come from files: a terminal escape, a bell, a C1 control or DEL in one is shown, not sent to the
// terminal, in every text renderer (napkin/text/printable.hpp).
TEST_CASE("text renderers show control characters in names as escapes") {
  CHECK(printable("k\x1b[31m\a\r\n\x7f") == "k\\x1b[31m\\x07\\x0d\\x0a\\x7f");
  CHECK(printable("csi \xc2\x9b x") == "csi \\u009b x");  // C1 CSI (UTF-8 C2 9B)
  CHECK(printable("caf\xc3\xa9 \xe2\x9c\x93") == "caf\xc3\xa9 \xe2\x9c\x93");  // other UTF-8 unchanged
  CHECK(printable_lines("a\x1b\nb\n") == "a\\x1b\nb\n");
  kernel_reports before, after;
  before.kernels = {samples::sol("evil\x1b]0;pwned\x07", 1000)};
  after.kernels = {samples::sol("evil\x1b]0;pwned\x07", 2000), samples::sol("new\x9b\x1b", 1)};
  const std::string text = to_text(diff(to_document(before), to_document(after)));
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK(text.find("evil\\x1b]0;pwned\\x07") != std::string::npos);
  CHECK(to_text(samples::sol("s\x1bx", 1)).find("s\\x1bx") != std::string::npos);  // the profiler's report
  report_document with_field = to_document(before), changed = to_document(before);  // a field from a file
  with_field.entities[0].numbers.push_back({"m\x1b[2J", 1});
  changed.entities[0].numbers.push_back({"m\x1b[2J", 2});
  const std::string fields = to_text(diff(with_field, changed));
  CHECK(fields.find('\x1b') == std::string::npos);
  CHECK(fields.find("m\\x1b[2J") != std::string::npos);
}

// Trojan Source (CVE-2021-42574): bidi overrides and isolates are shown, in text as in HTML and SVG.
TEST_CASE("bidi overrides, isolates and marks are shown as <U+XXXX>") {
  const std::string rlo = "\xe2\x80\xae", lri = "\xe2\x81\xa6", pdi = "\xe2\x81\xa9", lrm = "\xe2\x80\x8e";
  CHECK(printable("a" + rlo + "b" + lri + pdi + lrm) == "a<U+202E>b<U+2066><U+2069><U+200E>");
  CHECK(detail::xml_escape("a" + rlo + "<b>") == "a&lt;U+202E&gt;&lt;b&gt;");
  report_page page;
  page.title = "t";
  page.kernels = {samples::sol("gemm" + rlo + "lanruter", 1000)};
  const std::string html = to_html(page);
  CHECK(html.find(rlo) == std::string::npos);
  CHECK(html.find("gemm&lt;U+202E&gt;lanruter") != std::string::npos);
}
