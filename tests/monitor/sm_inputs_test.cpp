// SM % from its inputs (napkin/monitor/rate_solver.hpp) and SM dropouts (napkin/monitor/attribution.hpp), on
// synthetic windows made from known per-kernel input rates. The sampled SM % is, per window, the largest input
// (as CUPTI's TriageCompute.sm__throughput is on GH100: docs/monitor.md), so it is not the time-weighted sum of
// each kernel's SM %; the inputs are. Every expected value is the synthetic truth.
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

// Two kernels whose SM % is led by different inputs: an FMA loop (instructions 99, FP64 0) and an FP64 loop
// (instructions 54, FP64 99.5), and a copy led by instructions at 14.
struct input_truth {
  std::string name;
  std::array<double, sm_input_count> inputs;
  double sm() const { return *std::max_element(inputs.begin(), inputs.end()); }
};
const std::vector<input_truth> kinds = {
    {"fma", {99, 11, 91, 85, 0, 0, 0, 0}},
    {"fp64", {54, 3, 1.5, 3, 99.5, 0, 0, 0}},
    {"copy", {14, 10.6, 1.4, 2.8, 0, 0, 2.3, 0}},
};

pm_sample window_of(std::uint64_t a, std::uint64_t b, const std::vector<kernel_record>& ks, bool with_inputs) {
  std::array<double, sm_input_count> in{};
  const double w = static_cast<double>(b - a);
  double busy = 0;
  for (const kernel_record& k : ks) {
    const std::uint64_t lo = std::max(a, k.start_ns), hi = std::min(b, k.end_ns);
    if (hi <= lo) continue;
    const double share = static_cast<double>(hi - lo) / w;
    busy += share;
    const input_truth& t = *std::find_if(kinds.begin(), kinds.end(), [&](const input_truth& r) { return r.name == k.name; });
    for (std::size_t i = 0; i < sm_input_count; ++i) in[i] += share * t.inputs[i];
  }
  pm_sample s = monitor_test::sample(a, b, *std::max_element(in.begin(), in.end()), 0);
  if (with_inputs) {
    for (std::size_t i = 0; i < sm_input_count; ++i) s.sm_inputs[i] = in[i];
    s.sm_active_pct = 100 * busy;
  }
  return s;
}

rate_solution solve(bool with_inputs) {
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
  for (std::uint64_t a = 0; a + 1000 <= t; a += 1000) acc.add_sample(window_of(a, a + 1000, ks, with_inputs));
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
}

TEST_CASE("the sampled maximum alone does not fit: the same windows without inputs leave the kernels unresolved or wrong") {
  const rate_solution s = solve(false);
  bool any_off = false;
  for (const input_truth& t : kinds) {
    const class_rate& c = find(s, t.name);
    CHECK_FALSE(c.sm_lead_input);
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
