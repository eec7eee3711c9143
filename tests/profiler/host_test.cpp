// CUPTI's host API without a GPU: metric validation, pass planning per chip, error text, and the
// failure a machine without a driver produces. Runs in CI (this machine has no driver).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "napkin/profiler.hpp"

using namespace napkin;

TEST_CASE("the chips napkin's docs name are supported by this CUPTI") {
  const auto chips = supported_chips();
  for (const char* chip : {"TU102", "GA100", "GA102", "AD102", "GH100", "GB100", "GB202"})
    CHECK_MESSAGE(std::find(chips.begin(), chips.end(), chip) != chips.end(), chip);
}

TEST_CASE("every metric of every built-in set is valid on every chip napkin documents") {
  for (const char* chip : {"TU102", "GA100", "GA102", "AD102", "GH100", "GB100", "GB202"})
    for (const auto& set : {metric_sets::sol(), metric_sets::one_pass(), metric_sets::roofline(), metric_sets::memory()}) {
      const auto bad = check_metrics(chip, set.metrics);
      CHECK_MESSAGE(bad.empty(), chip, " ", set.name, ": ", (bad.empty() ? "" : bad.front().name));
    }
}

TEST_CASE("pass planning: what a set costs, asked before any run") {
  for (const char* chip : {"GA100", "GA102", "AD102", "GH100", "GB100"}) {
    const auto one = plan_passes(chip, metric_sets::one_pass());
    const auto sol = plan_passes(chip, metric_sets::sol());
    const auto roof = plan_passes(chip, metric_sets::roofline());
    CAPTURE(chip);
    CHECK(one.passes == 1);  // the one-pass set is meant to fit one pass from Ampere on
    CHECK(sol.passes > 1);   // SM % alone needs several passes
    // SASS-patched instruction counters cannot share a pass with hardware counters (CUPTI guide,
    // "Profiling Overhead"): the roofline set is the SOL set plus exactly one pass.
    CHECK(roof.passes == sol.passes + 1);
    CHECK(sol.metrics == metric_sets::sol().metrics.size());
  }
  // Turing has fewer counters per pass: the one-pass set needs two there.
  CHECK(plan_passes("TU102", metric_sets::one_pass()).passes == 2);
}

TEST_CASE("a single ncu SOL header metric vs a one-pass counter") {
  const auto duration = plan_passes("GH100", metric_sets::custom("duration", {metric::duration_ns}));
  CHECK(duration.passes == 1);
  const auto sm = plan_passes("GH100", metric_sets::custom("sm", {metric::sm_throughput_pct}));
  CHECK(sm.passes > 1);  // a throughput is the max over many sub-unit counters
}

TEST_CASE("invalid metrics are named with a reason") {
  const auto bad = check_metrics("GH100", {metric::duration_ns, "breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                           "launch__waves_per_multiprocessor", "sm__throughput.sum.per_banana",
                                           "no_such__metric.sum"});
  REQUIRE(bad.size() == 4);
  CHECK(bad[0].reason.find("ncu feature") != std::string::npos);
  CHECK(bad[1].reason.find("computed by ncu") != std::string::npos);
  CHECK(bad[2].reason.find("rollup/submetric") != std::string::npos);
  CHECK(bad[3].reason.find("no metric \"no_such__metric\"") != std::string::npos);
}

TEST_CASE("a set with a bad metric fails as a whole, listing every bad name") {
  try {
    plan_passes("GH100", metric_sets::custom("mine", {metric::duration_ns, "foo__bar.sum", "launch__grid_size"}));
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(e.status() == CUPTI_ERROR_INVALID_METRIC_NAME);
    const std::string what = e.what();
    CHECK(what.find("foo__bar.sum") != std::string::npos);
    CHECK(what.find("launch__grid_size") != std::string::npos);
  }
  CHECK_THROWS_AS(plan_passes("GH100", metric_sets::custom("empty", {})), profiler_error);
  CHECK_THROWS_AS(plan_passes("GH100", metric_sets::custom("twice", {metric::duration_ns, metric::duration_ns})),
                  profiler_error);
}

TEST_CASE("an unknown chip is refused with the list of known ones") {
  try {
    plan_passes("XY999", metric_sets::sol());
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(e.status() == CUPTI_ERROR_INVALID_CHIP_NAME);
    CHECK(std::string(e.what()).find("GH100") != std::string::npos);
  }
}

TEST_CASE("advice for the failures a user hits") {
  CHECK(profiler_advice(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).find("NVreg_RestrictProfilingToAdminUsers=0") !=
        std::string::npos);
  CHECK(profiler_advice(CUPTI_ERROR_HARDWARE_BUSY).find("DCGM") != std::string::npos);
  CHECK(profiler_advice(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).find("Nsight") != std::string::npos);
  CHECK(profiler_advice(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED).find("MIG") != std::string::npos);
  const std::string full = describe_cupti_failure("cuptiRangeProfilerEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  CHECK(full.find("cuptiRangeProfilerEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES") == 0);
}

TEST_CASE("kernel names are demangled and stripped of parameters") {
  CHECK(readable_kernel_name("_Z5scalePfi") == "scale");
  CHECK(readable_kernel_name("_Z4copyIfEvPKT_PS0_m") == "copy<float>");
  CHECK(readable_kernel_name("plain_c_kernel") == "plain_c_kernel");
  CHECK(readable_kernel_name(nullptr).empty());
}

TEST_CASE("bad options are refused before any CUDA or CUPTI call") {
  profiler_options options;
  options.max_kernels = 0;
  try {
    profiler p(metric_sets::one_pass(), options);
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(std::string(e.what()).find("max_kernels") != std::string::npos);
  }
}

TEST_CASE("without a driver, constructing a profiler says so (skipped where a GPU exists)") {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) {
    MESSAGE("skipped: a GPU is present (the GPU tests cover the profiler there)");
    return;
  }
  (void)cudaGetLastError();
  try {
    profiler p;
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(std::string(e.what()).find("no usable CUDA device or driver") != std::string::npos);
  }
}
