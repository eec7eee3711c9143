// SM % from its inputs (napkin/monitor/rate_solver.hpp) and SM dropouts (napkin/monitor/attribution.hpp), on
// synthetic windows made from known per-kernel input rates. The sampled SM % is, per window, the largest of the
// first eight inputs (as CUPTI's TriageCompute.sm__throughput is on GH100: docs/monitor.md; the ninth, the LSU pipe,
// is one ncu's SM % takes and the triage's does not), so it is not the time-weighted sum of each kernel's SM %; the
// inputs are. Every expected value is the synthetic truth.
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_report.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "monitor/helpers.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;

namespace {

// Kernels whose SM % is led by different inputs: an FMA loop (instructions 99, FP64 0) and an FP64 loop
// (instructions 54, FP64 99.5), a copy led by instructions at 14, a shared-memory tree reduction led by the LSU
// pipe (90, the eight triage inputs at most 52: the sampled SM % misses it, the ninth input does not), and a
// naive transpose whose sampled inputs are all low while its L1 LSU data pipe runs 28.6 wavefronts (ncu's SM %
// 6.6, led by an MIO queue the pass lacks: docs/monitor.md). `waves`: the L1's LSU and TEX data-pipe wavefront
// rates. Inputs in sm_input_names' order: instructions, ALU, FMA, FMA-heavy, FP64, tensor, uniform, XU, LSU.
struct input_truth {
  std::string name;
  std::array<double, sm_input_count> inputs;
  std::array<double, l1_wavefront_count> waves;
  double sm() const { return *std::max_element(inputs.begin(), inputs.end()); }
  // What the sampled TriageCompute.sm__throughput reads: the largest of the first eight inputs, not the LSU pipe.
  double sampled_sm() const { return *std::max_element(inputs.begin(), inputs.end() - 1); }
  double upper() const { return std::max(sm(), std::max(waves[0], waves[1])); }
};
const std::vector<input_truth> kinds = {
    {"fma", {99, 11, 91, 85, 0, 0, 0, 0, 0.1}, {0.4, 0}},
    {"fp64", {54, 3, 1.5, 3, 99.5, 0, 0, 0, 0.5}, {2, 0.1}},
    {"copy", {14, 10.6, 1.4, 2.8, 0, 0, 2.3, 0, 4.8}, {13.9, 0}},
    {"smem_reduce", {52.2, 30, 10, 12, 0, 0, 8, 0, 90}, {94.1, 0}},
    {"transpose", {1.63, 0.9, 0.2, 0.3, 0, 0, 0.1, 0, 2.1}, {28.6, 0.2}},
};

pm_sample window_of(std::uint64_t a, std::uint64_t b, const std::vector<kernel_record>& ks, bool with_inputs,
                    bool with_waves) {
  std::array<double, sm_input_count> in{};
  std::array<double, l1_wavefront_count> waves{};
  const double w = static_cast<double>(b - a);
  double busy = 0;
  for (const kernel_record& k : ks) {
    const std::uint64_t lo = std::max(a, k.start_ns), hi = std::min(b, k.end_ns);
    if (hi <= lo) continue;
    const double share = static_cast<double>(hi - lo) / w;
    busy += share;
    const input_truth& t = *std::find_if(kinds.begin(), kinds.end(), [&](const input_truth& r) { return r.name == k.name; });
    for (std::size_t i = 0; i < sm_input_count; ++i) in[i] += share * t.inputs[i];
    for (std::size_t i = 0; i < l1_wavefront_count; ++i) waves[i] += share * t.waves[i];
  }
  pm_sample s = monitor_test::sample(a, b, *std::max_element(in.begin(), in.end() - 1), 0);  // the triage eight
  if (with_inputs) {
    for (std::size_t i = 0; i < sm_input_count; ++i) s.sm_inputs[i] = in[i];
    s.sm_active_pct = 100 * busy;
  }
  if (with_waves)
    for (std::size_t i = 0; i < l1_wavefront_count; ++i) s.l1_wavefronts[i] = waves[i];
  return s;
}

rate_solution solve(bool with_inputs, bool with_waves = false) {
  std::mt19937_64 rng(27);
  std::vector<kernel_record> ks;
  std::uint64_t t = 0;
  for (int i = 0; i < 300; ++i) {
    const input_truth& r = kinds[rng() % kinds.size()];
    const std::uint64_t len = 300 + rng() % 2700;  // 0.3-3 windows of 1000
    ks.push_back(kernel(r.name, t, t + len));
    t += len;
  }
  monitor_accumulator acc(keep_first());
  for (const kernel_record& k : ks) acc.add_kernel(k);
  for (std::uint64_t a = 0; a + 1000 <= t; a += 1000)
    acc.add_sample(window_of(a, a + 1000, ks, with_inputs, with_waves));
  acc.finish();
  return acc.rates().solve();
}

const class_rate& find(const rate_solution& s, const std::string& name) {
  const class_rate* c = s.find(name, {});
  REQUIRE(c != nullptr);
  return *c;
}

}  // namespace

TEST_CASE("SM % is the maximum of the solved inputs, exact where the sampled maximum cannot be") {
  const rate_solution s = solve(true);
  for (const input_truth& t : kinds) {
    CAPTURE(t.name);
    const class_rate& c = find(s, t.name);
    REQUIRE(c.status == rate_status::resolved);
    REQUIRE(c.value[0]);
    CHECK(*c.value[0] == doctest::Approx(t.sm()).epsilon(1e-6));
    REQUIRE(c.sm_lead_input);
    CHECK(*c.sm_lead_input == static_cast<std::size_t>(std::max_element(t.inputs.begin(), t.inputs.end()) - t.inputs.begin()));
    CHECK(*c.standard_error[0] < 1e-3);
  }
  CHECK(std::string(sm_input_names[*find(s, "fp64").sm_lead_input]) == "FP64 pipe");
  CHECK(std::string(sm_input_names[*find(s, "smem_reduce").sm_lead_input]) == "LSU pipe");
}

TEST_CASE("the LSU pipe: an input the sampled SM % does not take, which ncu's does") {
  // Windows that carry only the first eight inputs (a set from before the ninth) give the shared-memory
  // reduction the triage maximum, 52.2; with the ninth its SM % is ncu's, 90.
  const input_truth& smem = kinds[3];
  REQUIRE(smem.name == "smem_reduce");
  const auto without_lsu = [](std::vector<pm_sample> samples) {
    for (pm_sample& x : samples) x.sm_inputs[sm_input_count - 1].reset();
    return samples;
  };
  std::vector<kernel_record> ks = {kernel("smem_reduce", 0, 4000), kernel("fma", 4000, 6500),
                                   kernel("smem_reduce", 6500, 8000), kernel("fma", 8000, 10000)};
  std::vector<pm_sample> samples;
  for (std::uint64_t a = 0; a < 10000; a += 500) samples.push_back(window_of(a, a + 500, ks, true, false));
  for (const bool lsu : {true, false}) {
    CAPTURE(lsu);
    monitor_accumulator acc(keep_first());
    for (const kernel_record& k : ks) acc.add_kernel(k);
    for (const pm_sample& x : lsu ? samples : without_lsu(samples)) acc.add_sample(x);
    acc.finish();
    const rate_solution s = acc.rates().solve();
    CHECK(*find(s, "smem_reduce").value[0] == doctest::Approx(lsu ? 90.0 : 52.2).epsilon(1e-6));
    CHECK(*find(s, "fma").value[0] == doctest::Approx(99.0).epsilon(1e-6));
  }
}

TEST_CASE("the sampled maximum alone does not fit: the same windows without inputs leave the kernels unresolved or wrong") {
  // Not only the LSU-led kernel, whose sampled SM % misses by construction: among the kernels whose SM % is the
  // largest of the eight triage inputs, the blend of per-window maxima is not any kernel's maximum.
  const rate_solution s = solve(false);
  bool any_off = false;
  for (const input_truth& t : kinds) {
    const class_rate& c = find(s, t.name);
    CHECK_FALSE(c.sm_lead_input);
    if (t.sm() != t.sampled_sm()) continue;
    if (c.status != rate_status::resolved || std::fabs(*c.value[0] - t.sm()) > 3) any_off = true;
  }
  CHECK(any_off);
}

TEST_CASE("an SM dropout: a kernel that fills the SMs and a window whose SM counters read nothing") {
  attribution_options o = keep_first();
  o.sm_count = 132;
  std::vector<kernel_record> ks = {kernel("long_fma", 0, 3000), kernel("chase", 3000, 6000)};
  ks[0].blocks = 1056;  // 8 blocks per SM
  ks[1].blocks = 1;     // one warp: its SM counters read about 0.8 % by right
  std::vector<pm_sample> samples;
  for (std::uint64_t a = 0; a < 6000; a += 1000) {
    pm_sample s = monitor_test::sample(a, a + 1000, a < 3000 ? 99.0 : 0.0, 0, a < 3000 ? 40.0 : 0.1);
    s.sm_inputs[0] = s.sm_pct;
    s.sm_active_pct = a < 3000 ? 99.5 : 0.75;
    samples.push_back(s);
  }
  // The second window of long_fma dropped out: every SM-side counter near zero, the window otherwise normal.
  samples[1].sm_pct = 0.08;
  samples[1].l1tex_pct = 0.0;
  samples[1].sm_inputs[0] = 0.08;
  samples[1].sm_active_pct = 0.08;
  const attribution a = attribute(samples, ks, {}, o);
  CHECK(a.device.sm_dropouts == 1);
  // long_fma's SM % is its two good windows, not a third of it lost to the dropout.
  CHECK(*a.kernels[0].readings.sm_pct.mean() == doctest::Approx(99.0));
  CHECK(a.kernels[0].readings.sm_pct.ns == 2000);
  CHECK(*a.kernels[0].readings.l1tex_pct.mean() == doctest::Approx(40.0));
  CHECK(a.kernels[0].readings.dram_pct.ns == 3000);  // the DRAM side of the window is kept
  // The one-warp kernel's low readings are its own: never taken for a dropout.
  CHECK(a.kernels[1].readings.sm_pct.ns == 3000);
  const rate_solution s = a.rates.solve();
  CHECK(*find(s, "long_fma").value[0] == doctest::Approx(99.0));

  // Without the SM count nothing is told: the dropout window reads as a third of a slow kernel.
  const attribution blind = attribute(samples, ks, {}, keep_first());
  CHECK(blind.device.sm_dropouts == 0);
  CHECK(*blind.kernels[0].readings.sm_pct.mean() < 70);
}

TEST_CASE("an SM dropout needs the filling kernels to cover half the window") {
  attribution_options o = keep_first();
  o.sm_count = 132;
  std::vector<kernel_record> ks = {kernel("big", 0, 400)};  // 40 % of the window
  ks[0].blocks = 264;
  pm_sample s = monitor_test::sample(0, 1000, 0.5, 0);
  s.sm_active_pct = 0.5;
  CHECK(attribute({s}, ks, {}, o).device.sm_dropouts == 0);
  ks[0].end_ns = 600;  // 60 %
  CHECK(attribute({s}, ks, {}, o).device.sm_dropouts == 1);
}

TEST_CASE("a sample's SM inputs are checked like its other readings") {
  pm_sample s = monitor_test::sample(0, 10, 1, 1);
  s.sm_inputs[3] = -1;
  CHECK_THROWS_WITH_AS(check_sample(s, 4), doctest::Contains("sm_inputs must be finite and >= 0"), std::invalid_argument);
  s.sm_inputs[3] = 1;
  s.sm_active_pct = std::nan("");
  CHECK_THROWS_WITH_AS(check_sample(s, 4), doctest::Contains("sm_active_pct"), std::invalid_argument);
}

TEST_CASE("the report says which input led a kernel's SM % and how many windows dropped out") {
  const rate_solution s = solve(true);
  CHECK(find(s, "fp64").reason.find("SM % led by the FP64 pipe") != std::string::npos);
  CHECK(find(s, "copy").reason.find("SM % led by the instructions") != std::string::npos);
  monitor_report r;
  r.totals.sm_dropouts = 3;
  CHECK(to_text(r).find("windows whose SM counters dropped out: 3") != std::string::npos);
  CHECK(to_key_values(r).find(" sm_dropouts=3") != std::string::npos);
}

TEST_CASE("SM % as a range: the solved wavefront rates bound what the inputs miss") {
  const rate_solution s = solve(true, true);
  for (const input_truth& t : kinds) {
    CAPTURE(t.name);
    const class_rate& c = find(s, t.name);
    REQUIRE(c.status == rate_status::resolved);
    CHECK(*c.value[0] == doctest::Approx(t.sm()).epsilon(1e-6));  // SM % itself does not move
    REQUIRE(c.value[6]);
    CHECK(*c.value[6] == doctest::Approx(t.upper()).epsilon(1e-6));
  }
  // Without the wavefronts (a set from before them, or a chip without them) there is no bound.
  const rate_solution none = solve(true, false);
  for (const input_truth& t : kinds) CHECK_FALSE(find(none, t.name).value[6]);
  // Without the inputs neither: the bound is on what the inputs miss.
  const rate_solution no_inputs = solve(false, true);
  for (const input_truth& t : kinds) CHECK_FALSE(find(no_inputs, t.name).value[6]);
}

namespace {
// One of two kernels in the warp-launch tests: its name, warps a launch, SM inputs, sampled SM %, DRAM % and LSU
// wavefront rate.
struct warp_kernel {
  const char* name;
  std::uint64_t warps;
  std::array<double, sm_input_count> inputs;
  double sm, dram, wave;
};
// Ten rounds of `a` then `b`, 1,000 ns each, each in a 1,000 ns window of its own on a GPU at 2 cycles a ns.
std::pair<std::vector<kernel_record>, std::vector<pm_sample>> two_kernels(const warp_kernel& a, const warp_kernel& b) {
  std::vector<kernel_record> ks;
  std::vector<pm_sample> samples;
  for (std::uint64_t t = 0; t < 20000; t += 1000) {
    const warp_kernel& k = (t / 1000) % 2 == 0 ? a : b;
    ks.push_back(kernel(k.name, t, t + 1000));
    ks.back().warps = k.warps;
    pm_sample s = monitor_test::sample(t, t + 1000, k.sm, k.dram);
    for (std::size_t i = 0; i < sm_input_count; ++i) s.sm_inputs[i] = k.inputs[i];
    s.sm_active_pct = 99;
    s.l1_wavefronts = {k.wave, 0.0};
    s.elapsed_cycles = 2000;
    samples.push_back(s);
  }
  return {ks, samples};
}
}  // namespace

TEST_CASE("warp launches: SM % from below where PM sampling counts more than ncu for each warp") {
  // 100 SMs at 2 cycles a ns. The copy launches 3,200 warps in each 1,000 ns launch: 0.016 warps per SM cycle. PM
  // sampling counts up to 8.2 instructions a warp more than ncu (of a peak of 4 a cycle per SM) and 4.0 ALU-pipe
  // instructions (of 2): up to 0.016 x 8.2 / 4 = 3.28 points of its instruction rate and 0.016 x 4.0 / 2 = 3.2
  // of its ALU pipe are warp launches. Its SM % is therefore 19.9 - 3.28 = 16.62 at least (ALU: 14.9 - 3.2 = 11.7)
  // and 19.9 at most (the wavefronts, 16.2, are below). The FMA loop launches 40 warps a launch: 0.0002 a cycle,
  // 0.041 points. The other inputs are not lowered.
  attribution_options o = keep_first();
  o.sm_count = 100;
  auto [ks, samples] = two_kernels({"copy", 3200, {19.9, 14.9, 1.9, 3.9, 0, 0, 3.2, 0, 4.8}, 19.9, 90, 16.2},
                                   {"fma", 40, {99, 11, 91, 85, 0, 0, 0, 0, 0.1}, 99, 0, 0.4});
  const rate_solution s = attribute(samples, ks, {}, o).rates.solve();
  const class_rate copy = find(s, "copy");
  CHECK(*copy.value[0] == doctest::Approx(19.9 - 3.28).epsilon(1e-9));
  CHECK(*copy.value[6] == doctest::Approx(19.9).epsilon(1e-9));
  CHECK(*copy.sm_lead_input == 0);
  const class_rate fma = find(s, "fma");
  CHECK(*fma.value[0] == doctest::Approx(99 - 0.041).epsilon(1e-9));
  CHECK(*fma.value[6] == doctest::Approx(99).epsilon(1e-9));
  // The row: SM % as a range from 16.6 to 19.9, its verdict the same at both ends (DRAM 90: memory-bound).
  monitor_totals t;
  t.count = 10;
  t.gpu_ns = 10000;
  t.sampled_ns = 10000;
  const monitor_row row = make_monitor_row("copy", t, row_classes{{&copy, 10000.0}});
  CHECK(row.sm_pct_range());
  CHECK(row.verdict.kind == bottleneck::memory_bound_dram);
  CHECK(sm_range_text(row).find("SM % between 16.6 and 19.9 (low end: the sampled inputs less what PM sampling "
                                "counts for each warp launched") == 0);
  // Without the SM count, or without the launches' warps, nothing is lowered: both ends are the sampled 19.9.
  const rate_solution blind = attribute(samples, ks, {}, keep_first()).rates.solve();
  CHECK(*find(blind, "copy").value[0] == doctest::Approx(19.9).epsilon(1e-9));
  CHECK(*find(blind, "copy").value[6] == doctest::Approx(19.9).epsilon(1e-9));
  // Nor without the windows' clock (gpc__cycles_elapsed missing or 0).
  std::vector<pm_sample> unclocked = samples;
  for (std::size_t i = 0; i < unclocked.size(); ++i)
    unclocked[i].elapsed_cycles = i % 2 == 0 ? std::optional<double>() : std::optional<double>(0.0);
  CHECK(*find(attribute(unclocked, ks, {}, o).rates.solve(), "copy").value[0] == doctest::Approx(19.9).epsilon(1e-9));

  // The monitor's own path, the accumulator, counts the same warps.
  monitor_accumulator acc(o);
  for (const kernel_record& k : ks) acc.add_kernel(k);
  for (const pm_sample& x : samples) acc.add_sample(x);
  acc.finish();
  CHECK(*find(acc.rates().solve(), "copy").value[0] == doctest::Approx(19.9 - 3.28).epsilon(1e-9));

  for (kernel_record& k : ks) k.warps = 0;
  CHECK(*find(attribute(samples, ks, {}, o).rates.solve(), "copy").value[0] == doctest::Approx(19.9).epsilon(1e-9));
}

TEST_CASE("warp launches: the lowered inputs choose the lead, and an input is never lowered below 0") {
  // 100 SMs at 2 cycles a ns, 3,200 warps in each 1,000 ns launch (0.016 warps per SM cycle, as above). "mixed"
  // reads instructions 19.9, ALU 14.9 and FMA 17.5: lowered, 16.62, 11.7 and 17.5, so the FMA pipe leads at
  // 17.5 and the upper end is the instructions as sampled, 19.9. "tiny" launches 40,000 warps a launch (0.2 a
  // cycle: 41 points of instructions, 40 of ALU) and reads 30 and 20: both lowered below 0, and its SM % is the
  // largest input left, the uniform pipe's 5.
  attribution_options o = keep_first();
  o.sm_count = 100;
  const auto [ks, samples] = two_kernels({"mixed", 3200, {19.9, 14.9, 17.5, 0, 0, 0, 1, 0, 2}, 19.9, 10, 0},
                                         {"tiny", 40000, {30, 20, 0, 0, 0, 0, 5, 0, 1}, 30, 10, 0});
  const rate_solution s = attribute(samples, ks, {}, o).rates.solve();
  const class_rate mixed = find(s, "mixed");
  CHECK(*mixed.value[0] == doctest::Approx(17.5).epsilon(1e-9));
  CHECK(std::string(sm_input_names[*mixed.sm_lead_input]) == "FMA pipe");
  CHECK(*mixed.value[6] == doctest::Approx(19.9).epsilon(1e-9));
  const class_rate tiny = find(s, "tiny");
  CHECK(*tiny.value[0] == doctest::Approx(5.0).epsilon(1e-9));
  CHECK(std::string(sm_input_names[*tiny.sm_lead_input]) == "uniform pipe");
  CHECK(*tiny.value[6] == doctest::Approx(30.0).epsilon(1e-9));

  // Where "tiny"'s windows carry only the two inputs that are lowered, both fall below 0 (30 - 41 and 20 - 40) and
  // nothing else is left: its SM % is 0, not -11, led by the instructions, at most the sampled 30.
  std::vector<pm_sample> bare = samples;
  for (std::size_t w = 1; w < bare.size(); w += 2)
    for (std::size_t i = 2; i < sm_input_count; ++i) bare[w].sm_inputs[i].reset();
  const class_rate clamped = find(attribute(bare, ks, {}, o).rates.solve(), "tiny");
  CHECK(*clamped.value[0] == 0.0);
  CHECK(*clamped.sm_lead_input == 0);
  CHECK(*clamped.value[6] == doctest::Approx(30.0).epsilon(1e-9));
}

TEST_CASE("a row that mixes a class with a range and one without keeps a range") {
  // A phase of two classes of equal weight: one SM 16.62 to 19.9, one 50 with no upper end (no wavefronts, nothing
  // lowered: at most its SM %). The row: SM 33.31, at most 34.95; before, the second class's missing upper end
  // dropped the row's, leaving a lowered SM % unmarked.
  const auto resolved = [](std::string name, double sm, std::optional<double> upper) {
    class_rate c;
    c.name = std::move(name);
    c.status = rate_status::resolved;
    c.windows = 10;
    c.sampled_ns = 10000;
    c.solo_share = 1.0;
    c.value = {sm, 10.0, 5.0, 50.0, 1.0, 0.5, upper};
    for (std::size_t m = 0; m < rate_pct_metrics; ++m) c.standard_error[m] = 0.2;
    return c;
  };
  const class_rate a = resolved("a", 16.62, 19.9), b = resolved("b", 50, std::nullopt);
  monitor_totals t;
  t.count = 2;
  t.gpu_ns = 20000;
  t.sampled_ns = 20000;
  const monitor_row row = make_monitor_row("phase", t, row_classes{{&a, 10000.0}, {&b, 10000.0}});
  CHECK(*row.sm_pct == doctest::Approx((16.62 + 50) / 2));
  REQUIRE(row.sm_pct_upper);
  CHECK(*row.sm_pct_upper == doctest::Approx((19.9 + 50) / 2));
  // Neither class with an upper end: none for the row.
  const class_rate c = resolved("c", 40, std::nullopt);
  CHECK_FALSE(make_monitor_row("phase", t, row_classes{{&b, 10000.0}, {&c, 10000.0}}).sm_pct_upper);
}

namespace {
// A row of one resolved class with these readings (percent); DRAM at `dram`, memory = max(DRAM, L1, L2).
monitor_row range_row(double sm, std::optional<double> upper, double dram, double l1) {
  class_rate c;
  c.name = "k";
  c.status = rate_status::resolved;
  c.windows = 10;
  c.sampled_ns = 10000;
  c.solo_share = 1.0;
  c.value = {sm, l1, 5.0, dram, 1.0, 0.5, upper};
  for (std::size_t m = 0; m < rate_pct_metrics; ++m) c.standard_error[m] = 0.2;
  monitor_totals t;
  t.count = 4;
  t.gpu_ns = 10000;
  t.sampled_ns = 10000;
  return make_monitor_row("k", t, row_classes{{&c, 10000.0}});
}
}  // namespace

TEST_CASE("a row's SM % range: a verdict only where it holds over the whole range") {
  // The transpose: SM 1.6 to 28.6, DRAM 80: memory-bound (DRAM) at both ends.
  const monitor_row transpose = range_row(1.63, 28.6, 80, 40);
  REQUIRE(transpose.sm_pct_upper);
  CHECK(*transpose.sm_pct_upper == doctest::Approx(28.6));
  CHECK(transpose.sm_pct_range());
  CHECK(transpose.verdict.kind == bottleneck::memory_bound_dram);
  // A shared-memory reduction: SM 52 held, up to 94; memory 30: below 60 % at one end, compute-bound at the other.
  const monitor_row smem = range_row(52, 94, 1, 30);
  CHECK(smem.sm_pct_range());
  CHECK(smem.verdict.kind == bottleneck::not_measured);
  CHECK(smem.verdict.reason.find("no verdict: SM % between 52.0 and 94.0") != std::string::npos);
  CHECK(smem.resolution.resolved());  // the readings are the kernel's; only SM % is a range
  // A bound within 3 points of SM % is no range: the number stands.
  const monitor_row fma = range_row(99, 99.5, 0, 5);
  CHECK_FALSE(fma.sm_pct_range());
  CHECK(fma.verdict.kind == bottleneck::compute_bound);
  // A bound below SM % (the inputs lead): the upper end is SM % itself.
  const monitor_row copy = range_row(14, 13.9, 85, 30);
  CHECK(*copy.sm_pct_upper == doctest::Approx(14));
  CHECK_FALSE(copy.sm_pct_range());
  // No bound, no upper end.
  CHECK_FALSE(range_row(50, std::nullopt, 10, 10).sm_pct_upper);

  monitor_report r;
  r.kernels = {smem, transpose, fma};
  r.kernels[0].name = "smem_reduce";
  r.kernels[1].name = "transpose";
  r.kernels[2].name = "fma";
  const std::string text = to_text(r);
  CAPTURE(text);
  CHECK(text.find("52.0+") != std::string::npos);  // the lower end, marked
  CHECK(text.find("1.6+") != std::string::npos);
  CHECK(text.find("99.0+") == std::string::npos);
  CHECK(text.find("no verdict: SM % between 52.0 and 94.0") != std::string::npos);
  CHECK(text.find("SM % between 1.6 and 28.6") != std::string::npos);
  const std::string kv = to_key_values(r);
  CHECK(kv.find("name=transpose") != std::string::npos);
  CHECK(kv.find(" sm_pct=1.63 sm_pct_upper=28.6 ") != std::string::npos);
}
