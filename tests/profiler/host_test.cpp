// CUPTI's host API without a GPU: metric validation, pass planning per chip, error text, and the
// failure a machine without a driver produces. Runs in CI (this machine has no driver).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <cupti_version.h>

#include "napkin/profiler.hpp"

using namespace napkin;

TEST_CASE("the chips napkin's docs name are supported by this CUPTI") {
  const auto chips = supported_chips();
  for (const char* chip : {"TU102", "GA100", "GA102", "AD102", "GH100", "GB100", "GB202"})
    CHECK_MESSAGE(std::find(chips.begin(), chips.end(), chip) != chips.end(), chip);
}

TEST_CASE("every metric of every built-in set is valid on every chip napkin documents") {
  for (const char* chip : {"TU102", "GA100", "GA102", "AD102", "GH100", "GB100", "GB202"})
    for (const auto& set : {metric_sets::sol(), metric_sets::one_pass(), metric_sets::roofline_full(), metric_sets::memory()}) {
      const auto bad = check_metrics(chip, set.metrics);
      CHECK_MESSAGE(bad.empty(), chip, " ", set.name, ": ", (bad.empty() ? "" : bad.front().name));
    }
}

TEST_CASE("pass planning: what a set costs, asked before any run") {
  for (const char* chip : {"GA100", "GA102", "AD102", "GH100", "GB100"}) {
    const auto one = plan_passes(chip, metric_sets::one_pass());
    const auto sol = plan_passes(chip, metric_sets::sol());
    const auto roof = plan_passes(chip, metric_sets::roofline_full());
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

// Every failed CUPTI or CUDA call of the profiler goes through napkin's check family (status_traits, the
// failure policy) and raises profiler_error: the message names the call, the status, its text and the advice.
namespace {
CUptiResult cupti_says(CUptiResult status) { return status; }
}  // namespace

TEST_CASE("the profiler's check: CUPTI and CUDA statuses through napkin's check family, as profiler_error") {
  try {
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiGetVersion(nullptr));  // CUPTI fails for real: a null argument
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(e.status() == CUPTI_ERROR_INVALID_PARAMETER);
    const std::string what = e.what();
    CHECK(what.find("CUPTI call `cuptiGetVersion(nullptr)` failed: CUPTI_ERROR_INVALID_PARAMETER") != std::string::npos);
  }
  try {
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cupti_says(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES), "napkin's note");
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(e.status() == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    const std::string what = e.what();
    CHECK(what.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): ") != std::string::npos);           // name, code
    CHECK(what.find("[GPU performance counters are restricted") != std::string::npos);             // the advice
    CHECK(what.find("NVreg_RestrictProfilingToAdminUsers=0 (a line") != std::string::npos);
    CHECK(what.find("https://developer.nvidia.com/ERR_NVGPUCTRPERM") != std::string::npos);
    CHECK(what.find("; napkin's note]") != std::string::npos);
    CHECK(what.find(napkin::describe(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)) != std::string::npos);  // CUPTI's text
  }
  try {
    NAPKIN_DETAIL_PROFILER_CHECK(cudaSetDevice(-1));  // no such device, with or without a driver
    FAIL("expected profiler_error");
  } catch (const profiler_error& e) {
    CHECK(e.status() == CUPTI_SUCCESS);  // not CUPTI's failure
    CHECK(std::string(e.what()).find("CUDA runtime call `cudaSetDevice(-1)` failed: cuda") != std::string::npos);
  }
  (void)cudaGetLastError();
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

// ---------------------------------------------------------------------------------------------------
// What check_metrics accepts must plan; every refusal names the metric and says why (issue #12, item 6).
// The audit found names that CUPTI's metric lookup (cuptiProfilerHostGetMetricProperties) accepts but its
// configuration (cuptiProfilerHostConfigAddMetrics) refuses with a bare CUPTI_ERROR_INVALID_PARAMETER: base
// names without a rollup, and names with an embedded NUL (CUPTI reads up to the NUL). The GH100 base-metric
// names quoted below are CUPTI's own (cuptiProfilerHostGetBaseMetrics lists "TriageCompute.sm__throughput" and
// "SM_A.TriageCompute.l1tex__throughput"); the suffixes are those ncu's SpeedOfLight section uses.

namespace {
bool plans(const std::vector<std::string>& names) {
  try {
    (void)plan_passes("GH100", metric_sets::custom("candidate", names));
    return true;
  } catch (const profiler_error&) {
    return false;
  }
}
}  // namespace

TEST_CASE("check_metrics refuses, with the name and the reason, what a configuration would refuse") {
  const std::string with_nul("gpu__time_duration.sum\0junk", 27);
  const std::pair<std::string, const char*> refused[] = {
      {"dram__bytes", "needs a rollup suffix such as .sum"},
      {"gpu__time_duration", "needs a rollup suffix such as .sum"},
      {"sm__throughput", "needs a rollup suffix such as .avg.pct_of_peak_sustained_elapsed"},
      {"l1tex__t_sector_hit_rate", "needs a rollup suffix such as .pct"},
      {"TriageCompute.sm__throughput", "needs a rollup suffix such as .avg.pct_of_peak_sustained_elapsed"},
      {"TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active",
       "did you mean \"SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active\""},
      {with_nul, "NUL character at byte 22"},
      {"", "empty name"},
  };
  for (const auto& [name, why] : refused) {
    CAPTURE(name);
    const auto bad = check_metrics("GH100", {metric::duration_ns, name});
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].name == name);
    CHECK(bad[0].reason.find(why) != std::string::npos);
    try {
      plan_passes("GH100", metric_sets::custom("mine", {metric::duration_ns, name}));
      FAIL("expected profiler_error");
    } catch (const profiler_error& e) {
      CHECK(e.status() == CUPTI_ERROR_INVALID_METRIC_NAME);
      const std::string what = e.what();
      // The metric is named (an embedded NUL printed as \0), with the same reason.
      CHECK(what.find(name.empty() ? std::string("\n  : ") : "\n  " + detail::printable_metric_name(name) + ": ") !=
            std::string::npos);
      CHECK(what.find(why) != std::string::npos);
    }
  }
  CHECK(detail::printable_metric_name(with_nul) == "gpu__time_duration.sum\\0junk");
  const auto twice = check_metrics("GH100", {metric::duration_ns, metric::dram_bytes, metric::duration_ns});
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].reason.find("named twice") != std::string::npos);
}

TEST_CASE("whatever check_metrics accepts plans, alone and together") {
  // The TriageCompute throughputs napkin's GH100 experiment used (docs/profiler.md), plain ncu names, and
  // every name of the refusal test above: accepted <=> plans, name by name.
  const std::vector<std::string> candidates = {
      "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active",
      "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed",
      "dram__bytes.sum",
      "dram__bytes.sum.per_second",
      "l1tex__t_sector_hit_rate.ratio",
      "dram__bytes",
      "sm__throughput",
      "TriageCompute.sm__throughput",
      "TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active",
      "sm__throughput.avg",
      std::string("dram__bytes.sum\0x", 17),
  };
  std::vector<std::string> accepted;
  for (const auto& name : candidates) {
    CAPTURE(name);
    const bool ok = check_metrics("GH100", {name}).empty();
    CHECK(ok == plans({name}));
    if (ok) accepted.push_back(name);
  }
  CHECK(accepted.size() == 6);  // the first six
  CHECK(check_metrics("GH100", accepted).empty());
  CHECK(plans(accepted));
  // With the TriageCompute SM, L1 and L2 throughputs instead of ncu's, napkin's GH100 experiment measured
  // 2 passes (docs/profiler.md, "tri2"): the names above are the ones it planned.
  CHECK(plan_passes("GH100", metric_sets::custom("tri", {candidates[0], candidates[1], candidates[2]})).passes >= 1);
}

// ---------------------------------------------------------------------------------------------------
// Raw images from outside are checked before CUPTI reads them (issue #12, item 7): CUPTI follows the
// offsets inside them blindly, and 64 bytes of garbage or a 16-byte availability image crashed inside it.

namespace {
std::vector<std::uint8_t> garbage(std::size_t n) {
  std::vector<std::uint8_t> g(n);
  for (std::size_t i = 0; i < n; ++i) g[i] = static_cast<std::uint8_t>(i * 37 + 11);
  return g;
}
// An image CUPTI's host library wrote for GH100 (one range, no counters): tests/profiler/data.
std::vector<std::uint8_t> cupti_counter_data_image() {
  std::FILE* f = std::fopen(NAPKIN_PROFILER_TEST_DATA "/counter_data_gh100_1range.bin", "rb");
  REQUIRE(f != nullptr);
  std::vector<std::uint8_t> image(2428);  // its size, as CUPTI computed it
  const std::size_t read = std::fread(image.data(), 1, image.size(), f);
  std::fclose(f);
  REQUIRE(read == image.size());
  return image;
}
}  // namespace

TEST_CASE("counter-data images: empty, garbage, truncated or damaged ones are refused before CUPTI reads them") {
  const metric_config config("GH100", metric_sets::sol());
  const std::vector<std::uint8_t> real = cupti_counter_data_image();
  // CUPTI's own image passes napkin's checks and reaches CUPTI, which says it has recorded no range yet; so
  // evaluating its range 0 is refused rather than answered with NaN.
  CHECK(metric_config::range_count(real) == 0);
  CHECK_THROWS_WITH_AS(config.evaluate(real, 0), doctest::Contains("holds 0 range(s)"), profiler_error);

  auto refused = [&](const std::vector<std::uint8_t>& image, const char* why) {
    CAPTURE(image.size());
    CAPTURE(why);
    CHECK_THROWS_WITH_AS(config.evaluate(image, 0), doctest::Contains(why), profiler_error);
    CHECK_THROWS_WITH_AS(metric_config::range_count(image), doctest::Contains(why), profiler_error);
    CHECK_THROWS_WITH_AS(metric_config::range_name(image, 0), doctest::Contains(why), profiler_error);
  };
  refused({}, "is empty");
  refused(garbage(64), "does not start with CUPTI's \"LOPDATA\" header");
  refused(garbage(4096), "does not start with CUPTI's \"LOPDATA\" header");
  refused(std::vector<std::uint8_t>(real.begin(), real.begin() + 16), "shorter than CUPTI's 60-byte header");
  // Every cut of the real image past its header: its last array ends where the image ends (2428 bytes).
  for (std::size_t n : {60, 64, 100, 284, 1000, 2348, 2420, 2427})
    refused(std::vector<std::uint8_t>(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(n)), "truncated or damaged");
  // The right magic, garbage after it (crashed CUPTI's evaluation).
  std::vector<std::uint8_t> damaged = garbage(real.size());
  std::copy(real.begin(), real.begin() + 8, damaged.begin());
  refused(damaged, "truncated or damaged");
}

TEST_CASE("counter-availability images: garbage and short ones are refused before CUPTI reads them") {
  auto refused = [](const std::vector<std::uint8_t>& image) {
    CAPTURE(image.size());
    CHECK_THROWS_WITH_AS(metric_config("GH100", metric_sets::sol(), image),
                         doctest::Contains("counter availability image"), profiler_error);
  };
  refused(garbage(16));                          // crashed cuptiProfilerHostInitialize
  refused(std::vector<std::uint8_t>(16, 0));     // no root table
  refused(std::vector<std::uint8_t>(1, 0));
  refused(garbage(64));
  refused(garbage(65536));
  refused(cupti_counter_data_image());           // the wrong kind of image
  // No image at all means "every counter available" (host planning); that still works.
  CHECK(metric_config("GH100", metric_sets::one_pass(), {}).passes() == 1);
}
