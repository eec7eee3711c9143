// The monitor's report (napkin/monitor/monitor_report.hpp): rows per kernel name, phase and phase path whose
// totals are the sums of their kernels, derived columns from hand arithmetic, verdicts through the SOL
// table, the device's idle fraction, and the text and key=value renderings.
#include <doctest/doctest.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "monitor/helpers.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_report.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
const monitor_row& row(const std::vector<monitor_row>& rows, const std::string& name) {
  for (const monitor_row& r : rows)
    if (r.name == name) return r;
  FAIL("no row " << name);
  return rows.front();
}

// Four 1000 ns windows, each holding whole kernels, so that every number below is a plain sum.
//   [0,1000)     SM 20 DRAM 85 L1 30 L2s 40, 800 + 400 B:   "load" in decode/attention [0,1000)
//   [1000,2000)  SM 75 DRAM 10 L1 20 L2s 15, 100 + 0 B:     "gemm" in decode/mlp       [1000,2000)
//   [2000,3000)  SM 10 DRAM 5 L1 45 L2s 15, 200 + 200 B:    "shuffle" in decode        [2000,2500), idle after
//   [3000,4000)  SM 20 DRAM 85 L1 30 L2s 40, 1600 + 800 B:  "load" in decode/attention [3000,4000)
// "shuffle" runs 500 of 1000 ns: readings x 2 (no-work-when-idle: SM 20, DRAM 10, L1 90, L2s 30), all 400 B.
struct scenario {
  std::vector<pm_sample> samples = {
      sample(0, 1000, 20, 85, 30, 40, 800, 400), sample(1000, 2000, 75, 10, 20, 15, 100, 0),
      sample(2000, 3000, 10, 5, 45, 15, 200, 200), sample(3000, 4000, 20, 85, 30, 40, 1600, 800)};
  std::vector<kernel_record> kernels = {
      kernel("load", 0, 1000, {"decode", "attention"}), kernel("gemm", 1000, 2000, {"decode", "mlp"}),
      kernel("shuffle", 2000, 2500, {"decode"}), kernel("load", 3000, 4000, {"decode", "attention"})};
  attribution a = attribute(samples, kernels, {}, keep_first());
  monitor_report r = make_monitor_report(kernels, a, 1);
};
}  // namespace

TEST_CASE("rows per kernel, phase and path; each total is the sum of its kernels") {
  const scenario s;
  const monitor_report& r = s.r;
  CHECK(r.device == 1);
  const monitor_row load = row(r.kernels, "load");
  CHECK(load.totals.count == 2);
  CHECK(load.totals.gpu_ns == 2000);
  CHECK(load.mean_ns == doctest::Approx(1000));
  CHECK(*load.dram_bytes == doctest::Approx(800 + 400 + 1600 + 800));
  // Nested phases: "attention" (innermost) and "decode/attention" (path) hold the two loads; "decode"
  // as a phase holds only what was launched directly in it (shuffle).
  const monitor_row attention = row(r.phases, "attention");
  CHECK(attention.totals.count == 2);
  CHECK(attention.totals.gpu_ns == 2000);
  CHECK(row(r.paths, "decode/attention").totals.gpu_ns == 2000);
  CHECK(row(r.paths, "decode/mlp").totals.gpu_ns == 1000);
  CHECK(row(r.phases, "decode").totals.gpu_ns == 500);
  CHECK(row(r.phases, "decode").totals.count == 1);
  // Phase totals equal the sums of their kernels' (the attribution's per-kernel totals), time and bytes.
  for (const auto* rows : {&r.phases, &r.paths, &r.kernels}) {
    std::uint64_t ns = 0, count = 0;
    double bytes = 0;
    for (const monitor_row& x : *rows) {
      ns += x.totals.gpu_ns;
      count += x.totals.count;
      bytes += x.dram_bytes.value_or(0);
    }
    CHECK(ns == 3500);
    CHECK(count == 4);
    CHECK(bytes == doctest::Approx(1200 + 100 + 400 + 2400));
  }
  std::uint64_t attention_ns = 0;
  double attention_read = 0;
  for (std::size_t i = 0; i < s.kernels.size(); ++i)
    if (innermost_phase(s.kernels[i].phase) == "attention") {
      attention_ns += s.a.kernels[i].gpu_ns;
      attention_read += *s.a.kernels[i].readings.dram_read_bytes.total();
    }
  CHECK(attention.totals.gpu_ns == attention_ns);
  CHECK(*attention.dram_read_bytes == doctest::Approx(attention_read));
  // Sorted by GPU time, largest first.
  CHECK(r.kernels[0].name == "load");
  CHECK(r.kernels.back().name == "shuffle");
}

TEST_CASE("derived columns: means, Memory = max(DRAM, L1, L2s), bandwidth, idle fraction") {
  const scenario s;
  const monitor_row load = row(s.r.kernels, "load");
  CHECK(*load.sm_pct == doctest::Approx(20));
  CHECK(*load.dram_pct == doctest::Approx(85));
  CHECK(*load.memory_pct == doctest::Approx(85));
  // 3600 B over 2000 ns = 1.8e9 B/s.
  CHECK(*load.dram_bytes_per_s == doctest::Approx(1.8e9));
  const monitor_row shuffle = row(s.r.kernels, "shuffle");
  // Doubled: SM 20, DRAM 10, L1 90, L2s 30; Memory = L1 = 90.
  CHECK(*shuffle.l1tex_pct == doctest::Approx(90));
  CHECK(*shuffle.memory_pct == doctest::Approx(90));
  CHECK(*shuffle.dram_bytes_per_s == doctest::Approx(400 / 500e-9));
  // 500 ns idle of 4000 sampled.
  CHECK(*s.r.idle_fraction == doctest::Approx(0.125));
  CHECK(s.r.totals.busy_ns == 3500);
}

TEST_CASE("verdicts through the SOL table") {
  const scenario s;
  // SM 20, Memory 85, DRAM 85: memory-bound (DRAM).
  CHECK(row(s.r.kernels, "load").verdict.kind == bottleneck::memory_bound_dram);
  CHECK(describe(row(s.r.kernels, "load").verdict.kind) == "memory-bound (DRAM)");
  // SM 75, Memory max(10, 20, 15) = 20: compute-bound.
  CHECK(row(s.r.kernels, "gemm").verdict.kind == bottleneck::compute_bound);
  // SM 20, Memory 90 (L1), DRAM 10: internal congestion.
  CHECK(row(s.r.kernels, "shuffle").verdict.kind == bottleneck::internal_congestion);
  // No SM reading: not measured, never a guess.
  pm_sample bare = sample(0, 1000, 0, 50);
  bare.sm_pct.reset();
  const std::vector<kernel_record> k = {kernel("k", 0, 1000)};
  const monitor_report r = make_monitor_report(k, attribute({bare}, k, {}, keep_first()));
  CHECK(r.kernels[0].verdict.kind == bottleneck::not_measured);
  CHECK_FALSE(r.kernels[0].sm_pct.has_value());
}

TEST_CASE("a kernel that shared the device for more than 3 % of its time keeps its readings, not a verdict") {
  // Windows of 1000 ns, each kernel over whole windows: "fma" alone in 4 (SM 80, DRAM 0), "copy" alone in 4
  // (SM 10, DRAM 80), then both together in 4, each over the whole window (SM 90, DRAM 80: the rates add up).
  // The solve recovers each one's rates exactly; each ran half its time alongside the other.
  std::vector<pm_sample> w;
  std::vector<kernel_record> k;
  for (std::uint64_t i = 0; i < 12; ++i) {
    const std::uint64_t t = i * 1000;
    w.push_back(i < 4 ? sample(t, t + 1000, 80, 0) : i < 8 ? sample(t, t + 1000, 10, 80) : sample(t, t + 1000, 90, 80));
    if (i < 4 || i >= 8) k.push_back(kernel("fma", t, t + 1000, {}, 1));
    if (i >= 4) k.push_back(kernel("copy", t, t + 1000, {}, 2));
  }
  const monitor_report r = make_monitor_report(k, attribute(w, k, {}, keep_first()));
  const monitor_row fma = row(r.kernels, "fma");
  REQUIRE(fma.resolution.resolved());
  CHECK(*fma.sm_pct == doctest::Approx(80));
  CHECK(*row(r.kernels, "copy").dram_pct == doctest::Approx(80));
  CHECK(fma.concurrent_fraction() == doctest::Approx(0.5));
  CHECK(fma.verdict.kind == bottleneck::not_measured);
  CHECK(fma.verdict.reason == "no verdict: ran alongside other kernels for 50% of its time; its readings are its "
                              "share of the device, not its own limit (a profiler replays it alone)");
  CHECK(row(r.kernels, "copy").verdict.kind == bottleneck::not_measured);
  CHECK(to_text(r).find("ran alongside other kernels for 50% of its time") != std::string::npos);
  // The phase row (here, launches outside any range) keeps its verdict: what it ran together is the phase.
  CHECK(r.phases.at(0).verdict.kind != bottleneck::not_measured);

  // The limit: 3 % of the measured time (sampled or dropped) alongside another kernel keeps the verdict.
  monitor_row x;
  x.totals.sampled_ns = 900;
  x.totals.dropped_ns = 100;
  x.totals.concurrent_ns = 30;
  CHECK_FALSE(x.shared_device());
  x.totals.concurrent_ns = 31;
  CHECK(x.shared_device());
  x.totals = {};
  CHECK(x.concurrent_fraction() == 0.0);
}

TEST_CASE("bytes need both directions over the same time") {
  pm_sample half = sample(0, 1000, 10, 10, 10, 10, 500, 0);
  half.dram_write_bytes.reset();
  const std::vector<kernel_record> k = {kernel("k", 0, 1000)};
  const monitor_report r = make_monitor_report(k, attribute({half}, k, {}, keep_first()));
  CHECK(*r.kernels[0].dram_read_bytes == doctest::Approx(500));
  CHECK_FALSE(r.kernels[0].dram_write_bytes.has_value());
  CHECK_FALSE(r.kernels[0].dram_bytes.has_value());
  CHECK_FALSE(r.kernels[0].dram_bytes_per_s.has_value());
}

TEST_CASE("to_text: at most 100 columns, the phases, the verdicts, what L2s and Memory mean") {
  scenario s;
  s.kernels[1].name = "void gemm_kernel<float, 128, 128, 32>(float const*, float const*, float*, int)";
  s.kernels.push_back(kernel(std::string(150, 'x'), 2600, 2700, {}, 0));
  s.kernels.push_back(kernel("copy", 2500, 2700, {}, 1));  // concurrent with the x's for 100 ns
  // Window [2000,3000) is now busy 500 + 200 ns: 300 ns idle of 4000 sampled, 7.5 %. Its three kernels ran
  // only there: the rate solve cannot tell them apart, so shuffle loses its verdict.
  s.a = attribute(s.samples, s.kernels, {}, keep_first());
  s.r = make_monitor_report(s.kernels, s.a);
  const std::string text = to_text(s.r);
  std::istringstream lines(text);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    CAPTURE(line);
    CHECK(line.size() <= 100);
  }
  CHECK(n > 15);
  for (const char* part :
       {"napkin monitor, device 0: 4.00 us sampled", "By phase", "By phase path", "By kernel", "(no phase)",
        "decode/attention", "memory-bound (DRAM)", "compute-bound", "no verdict: unresolved", "L2 slices",
        "resolved: alone in its 2 windows",
        "not ncu's Memory %", "void gemm_kernel<float", "concurrent with other kernels 100 ns", "xxx...", "idle 7.5%"})
    CHECK_MESSAGE(text.find(part) != std::string::npos, part);
}

TEST_CASE("to_text flags incomplete kernels and readings above peak") {
  // A kernel alone, running 200 of 1000 ns in a window reading DRAM 50: 250 % under no-work-when-idle;
  // another alone in its window but running 500 ns past the last one.
  const std::vector<kernel_record> k = {kernel("small", 0, 200), kernel("cut", 1900, 2500)};
  const monitor_report r = make_monitor_report(
      k, attribute({sample(0, 1000, 5, 50), sample(1000, 2000, 5, 10)}, k, {}, keep_first()));
  const std::string text = to_text(r);
  CHECK(text.find("A reading above 100%") != std::string::npos);
  CHECK(text.find("* partial: 0 of 1 launches fully sampled (500 ns not sampled)") != std::string::npos);
  CHECK(text.find("compare DRAM bytes per fully sampled launch instead") != std::string::npos);
}

TEST_CASE("to_text of an empty report says why it is empty, never \"0 ns sampled\"") {
  monitor_report off;  // as napkin::monitor fills it when NAPKIN_MONITOR is not on
  off.status = "off (NAPKIN_MONITOR is not set to on)";
  CHECK(to_text(off) == "napkin monitor, device 0: nothing sampled: off (NAPKIN_MONITOR is not set to on)\n");
  monitor_report no_device;
  no_device.device = 1;
  no_device.status = "off: no CUDA device is visible to this process.";
  CHECK(to_text(no_device) == "napkin monitor, device 1: nothing sampled: off: no CUDA device is visible to this process.\n");
  monitor_report idle;  // on, but no kernel ran
  idle.status = "sampling GH100 (device 0) every 1 ms";
  CHECK(to_text(idle) == "napkin monitor, device 0: nothing sampled: no kernel ran while it sampled, or none was "
                         "decoded yet (sampling GH100 (device 0) every 1 ms)\n");
  CHECK(to_text(monitor_report{}) == "napkin monitor, device 0: nothing sampled: no sample window in this report\n");
  // A report with samples keeps its usual first line.
  const std::string sampled = to_text(scenario{}.r);
  CHECK(sampled.rfind("napkin monitor, device 1: 4.00 us sampled over a wall span of 4.00 us\n", 0) == 0);
}

TEST_CASE("to_key_values: a device line and one line per row") {
  const scenario s;
  const std::string kv = to_key_values(s.r);
  CHECK(kv.rfind("NAPKIN_MONITOR device=1 idle_model=no-work-when-idle wall_ns=4000 sampled_ns=4000 busy_ns=3500 "
                 "idle_ns=500 dropped_ns=0 samples_kept=4 samples_dropped=0 setup_samples_dropped=0 late_kernels=0 sm_dropouts=0 "
                 "idle_fraction=0.125",
                 0) == 0);
  CHECK(kv.find("\nNAPKIN_MONITOR_ROW by=phase name=attention count=2 gpu_ns=2000 mean_ns=1000 sampled_ns=2000 "
                "dropped_ns=0 concurrent_ns=0 incomplete=0 complete=2 partial=0 sm_pct=20 dram_pct=85 l1tex_pct=30 "
                "l2_slices_pct=40 memory_pct=85 dram_read_bytes=2400 dram_write_bytes=1200 dram_bytes=3600 "
                "dram_bytes_per_s=1800000000 dram_bytes_per_complete_launch=1800 l2=slices "
                "communication_fraction=0 activity=compute verdict=memory-bound-dram") != std::string::npos);
  CHECK(kv.find("by=path name=decode/mlp") != std::string::npos);
  CHECK(kv.find("by=kernel name=shuffle") != std::string::npos);
  std::size_t rows = 0;
  for (std::size_t p = kv.find("NAPKIN_MONITOR_ROW"); p != std::string::npos; p = kv.find("NAPKIN_MONITOR_ROW", p + 1))
    ++rows;
  CHECK(rows == 3 + 3 + 3);  // phases attention/mlp/decode, three paths, three kernel names
}

TEST_CASE("an accumulator's report") {
  const scenario s;
  monitor_accumulator acc(keep_first(idle_model::time_share));
  for (const pm_sample& x : s.samples) acc.add_sample(x);
  for (const kernel_record& k : s.kernels) acc.add_kernel(k);
  acc.finish();
  const monitor_report r = make_monitor_report(acc, 3);
  CHECK(r.device == 3);
  CHECK(r.idle == idle_model::time_share);
  // Time-share makes the idle time's rate one more unknown: shuffle, the only kernel with idle time beside
  // it and in one window only, cannot be told from the idle time, so it has no readings and no verdict.
  const monitor_row shuffle = row(r.kernels, "shuffle");
  CHECK(shuffle.resolution.status == rate_status::collinear);
  CHECK(shuffle.resolution.reason.find("(idle time)") != std::string::npos);
  CHECK_FALSE(shuffle.sm_pct.has_value());
  CHECK(shuffle.verdict.kind == bottleneck::not_measured);
  // load had its windows alone: SM 20.
  CHECK(*row(r.kernels, "load").sm_pct == doctest::Approx(20));
  // Attribution's idle bucket is unchanged: 500/1000 of the window's 400 B.
  CHECK(*r.idle_dram_bytes == doctest::Approx(200));
}
