// measure()'s numbers over the GPU's busy time (napkin/profiler/busy_time.hpp) and the union of activity
// intervals behind it (napkin/cupti/activity.hpp's busy_ns_between), without a GPU.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "napkin/profiler.hpp"
#include "napkin/cupti/activity.hpp"

using namespace napkin;
using detail::busy_interval;

TEST_CASE("busy time: the union of intervals that start inside the window, overlaps counted once") {
  const std::vector<busy_interval> work = {
      {100, 200, 0, true},   // alone
      {150, 260, 0, true},   // overlaps the first: 100-260 is 160 ns
      {300, 310, 0, false},  // a memset
      {50, 400, 0, true},    // starts before the window: another pass's work
      {500, 600, 0, true},   // starts at the window's end: the next pass's
  };
  CHECK(detail::busy_ns_between(work, 100, 500) == 170);
  CHECK(detail::busy_ns_between(work, 0, 1000) == 450);  // 50-400 and 500-600
  CHECK(detail::busy_ns_between({}, 0, 1000) == 0);
  CHECK(detail::busy_ns_between({{300, 200, 0, true}}, 0, 1000) == 0);  // an end before its start is ignored
  CHECK(detail::busy_ns_between({{10, 20, 0, true}, {12, 18, 0, true}, {20, 30, 0, true}}, 0, 100) == 20);
}

namespace {

sol_report range_of(double span_ns, double sm, double memory, double dram, double l1, double l2) {
  const metric_set set = metric_sets::sol();
  std::vector<double> values;
  for (const auto& m : set.metrics) {
    double v = 1.0;
    if (m == metric::duration_ns) v = span_ns;
    if (m == metric::sm_throughput_pct) v = sm;
    if (m == metric::memory_throughput_pct) v = memory;
    if (m == metric::dram_throughput_pct) v = dram;
    if (m == metric::l1tex_throughput_pct) v = l1;
    if (m == metric::l2_throughput_pct) v = l2;
    if (m == metric::elapsed_cycles) v = span_ns * 1.98;
    if (m == metric::dram_bytes) v = 1e6;
    if (m == metric::sm_frequency_hz) v = 2e9;
    if (m == metric::sm_elapsed_cycles) v = span_ns * 2;  // the SM's pass spanned what the duration's did
    values.push_back(v);
  }
  return make_report("gemm", set, values);
}

}  // namespace

TEST_CASE("measure() over the busy time: numbers over elapsed cycles scale by span / busy, the rest stay") {
  // A library call's range: 308 us of span around 170 us of kernels (an H100's cublasGemmEx, the accuracy
  // issue's measurement: SM 45.9 % over the span, ncu 90.2 % over the kernel).
  sol_report r = range_of(308000, 45.9, 30.0, 10.0, 70.0, 25.0);
  adjust_to_busy_time(r, {170000, 3}, metric_sets::sol());
  const double f = 308000.0 / 170000.0;
  CHECK(*r.duration_ns() == doctest::Approx(170000));
  CHECK(*r.sm_pct() == doctest::Approx(45.9 * f));
  CHECK(*r.memory_pct() == doctest::Approx(30.0 * f));
  CHECK(*r.dram_pct() == doctest::Approx(10.0 * f));
  CHECK(*r.l2_pct() == doctest::Approx(25.0 * f));
  CHECK(*r.l1tex_pct() == doctest::Approx(70.0));  // over active cycles: the span does not dilute it
  CHECK(*r.elapsed_cycles() == doctest::Approx(170000 * 1.98));
  CHECK(*r.range_ns() == doctest::Approx(308000));
  CHECK(*r.gpu_idle_ns() == doctest::Approx(138000));
  CHECK(*r.dram_bytes_per_s() == doctest::Approx(1e6 / 170e-6));  // bytes over the busy time
  // What was collected stays under its own name, unchanged.
  CHECK(r.values.at(metric::duration_ns) == 308000);
  CHECK(r.values.at(metric::sm_throughput_pct) == doctest::Approx(45.9));
  CHECK(r.derivations.at("duration_ns").find("busy time") != std::string::npos);
  CHECK(r.derivations.at("sm_pct").find("span") != std::string::npos);
  const std::string line = to_key_values(r);
  CHECK(line.find(" duration_ns=170000") != std::string::npos);
  CHECK(line.find(" gpu__time_duration.sum=308000") != std::string::npos);
  const std::string text = to_text(r);
  CHECK(text.find("Range Span") != std::string::npos);
  CHECK(text.find("GPU Idle In Range") != std::string::npos);
  CHECK(text.find("Duration = the GPU's busy time") != std::string::npos);
  // The verdict follows the busy-time numbers: SM 83 % is compute-bound, not "latency-bound".
  CHECK(r.sol_table().kind == bottleneck::compute_bound);
}

TEST_CASE("measure() over the busy time: the cases where it cannot rescale say so") {
  SUBCASE("no GPU work recorded") {
    sol_report r = range_of(5000, 1.0, 1.0, 1.0, 1.0, 1.0);
    adjust_to_busy_time(r, {0, 3}, metric_sets::sol());
    CHECK(*r.duration_ns() == 5000);
    CHECK_FALSE(r.range_ns());
    CHECK(r.derivations.at("duration_ns").find("no kernel, memcpy or memset") != std::string::npos);
  }
  SUBCASE("no activity records at all (CUPTI refused them)") {
    sol_report r = range_of(5000, 1.0, 1.0, 1.0, 1.0, 1.0);
    adjust_to_busy_time(r, {0, 0}, metric_sets::sol());
    CHECK(*r.duration_ns() == 5000);
    CHECK(r.derivations.at("duration_ns").find("no activity records") != std::string::npos);
  }
  SUBCASE("busy a little longer than the span (two clocks): taken as the span") {
    sol_report r = range_of(100000, 50.0, 50.0, 50.0, 50.0, 50.0);
    adjust_to_busy_time(r, {101000, 2}, metric_sets::sol());
    CHECK(*r.duration_ns() == doctest::Approx(100000));
    CHECK(*r.sm_pct() == doctest::Approx(50.0));
    CHECK(*r.gpu_idle_ns() == doctest::Approx(0));
  }
  SUBCASE("busy far longer than the span: nothing rescaled, and the report says why") {
    sol_report r = range_of(100000, 50.0, 50.0, 50.0, 50.0, 50.0);
    adjust_to_busy_time(r, {150000, 2}, metric_sets::sol());
    CHECK(*r.duration_ns() == 100000);
    CHECK(*r.sm_pct() == 50.0);
    CHECK(r.derivations.at("duration_ns").find("exceeds it") != std::string::npos);
  }
  SUBCASE("a non-finite busy time is no busy time") {
    sol_report r = range_of(100000, 50.0, 50.0, 50.0, 50.0, 50.0);
    adjust_to_busy_time(r, {std::numeric_limits<double>::quiet_NaN(), 2}, metric_sets::sol());
    CHECK(*r.duration_ns() == 100000);
  }
}

TEST_CASE("measure() over the busy time rides on the fast set's derived numbers") {
  const metric_set set = metric_sets::sol_fast();
  std::vector<double> values(set.metrics.size(), 20.0);
  for (std::size_t i = 0; i < set.metrics.size(); ++i)
    if (set.metrics[i] == metric::duration_ns) values[i] = 200000;
  sol_report r = make_report("k", set, values);
  adjust_to_busy_time(r, {100000, 3}, set);
  CHECK(*r.sm_pct() == doctest::Approx(40.0));  // the SM's "span" (20 cycles at 20 Hz: 1 s) is no span of this range
  CHECK(*r.l1tex_pct() == doctest::Approx(20.0));
  CHECK(r.values.count(metric::sm_throughput_pct) == 0);
  CHECK(r.derivations.at("sm_pct").find("max(") == 0);  // the fast set's derivation, then the rescale
}

TEST_CASE("measure() over the busy time: SM-side numbers take the span of the SM's own pass") {
  // Passes differ in span: here the duration's pass spanned 300 us, the SM's 250 us (its elapsed cycles at
  // 2 GHz), around 200 us of work. SM % is over the SM's pass, Memory % over the duration's.
  sol_report r = range_of(300000, 40.0, 30.0, 30.0, 70.0, 20.0);
  r.values[metric::sm_elapsed_cycles] = 250000 * 2.0;
  adjust_to_busy_time(r, {200000, 3}, metric_sets::sol());
  CHECK(*r.sm_pct() == doctest::Approx(40.0 * 250.0 / 200.0));
  CHECK(*r.memory_pct() == doctest::Approx(30.0 * 300.0 / 200.0));
  CHECK(*r.l2_pct() == doctest::Approx(20.0 * 300.0 / 200.0));
  CHECK(r.derivations.at("sm_pct").find("the SM's 250") != std::string::npos);
  // With the fast set, each input is rescaled by its own domain before the maximum is taken.
  const metric_set fast = metric_sets::sol_fast();
  std::vector<double> values(fast.metrics.size(), 10.0);
  for (std::size_t i = 0; i < fast.metrics.size(); ++i) {
    const std::string& m = fast.metrics[i];
    if (m == metric::duration_ns) values[i] = 300000;
    if (m == metric::sm_frequency_hz) values[i] = 2e9;
    if (m == metric::sm_elapsed_cycles) values[i] = 250000 * 2.0;
    if (m == "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed") values[i] = 40.0;
    if (m == "dram__cycles_active.avg.pct_of_peak_sustained_elapsed") values[i] = 30.0;
  }
  sol_report f = make_report("k", fast, values);
  adjust_to_busy_time(f, {200000, 3}, fast);
  CHECK(*f.sm_pct() == doctest::Approx(40.0 * 250.0 / 200.0));
  CHECK(*f.memory_pct() == doctest::Approx(30.0 * 300.0 / 200.0));
  CHECK(*f.l1tex_pct() == doctest::Approx(10.0));  // over active cycles
}

TEST_CASE("measure() over several kernels says its maxima are the range's, not each kernel's") {
  // Two kernels of 100 us, limited by different inputs: the first uses pipe A at 80 % and B at 10 %, the
  // second A at 10 % and B at 80 %. ncu's per-kernel maxima weigh to (80 + 80) / 2 = 80 %; over the range
  // each input averages (80 + 10) / 2 = 45 %, so the range's maximum is 45 %: a sum and a maximum do not
  // commute, and the report must say which one it printed.
  sol_report two = range_of(200000, 45.0, 45.0, 20.0, 45.0, 45.0);
  adjust_to_busy_time(two, {200000, 3, 2}, metric_sets::sol());
  CHECK(*two.sm_pct() == doctest::Approx(45.0));
  for (const char* field : {"sm_pct", "memory_pct", "l1tex_pct", "l2_pct"}) {
    CAPTURE(field);
    CHECK(two.derivations.at(field).find("a range of 2 kernels") != std::string::npos);
    CHECK(two.derivations.at(field).find("per_kernel(fn, replay::application)") != std::string::npos);
  }
  sol_report one = range_of(200000, 45.0, 45.0, 20.0, 45.0, 45.0);
  adjust_to_busy_time(one, {200000, 3, 1}, metric_sets::sol());
  CHECK(one.derivations.count("l1tex_pct") == 0);  // one kernel: the range's maximum is the kernel's
  CHECK(one.derivations.at("sm_pct").find("kernels") == std::string::npos);
}
