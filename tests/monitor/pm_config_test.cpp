// The monitor's PM-sampling set on CUPTI's host API, no GPU: one pass on the chips napkin monitors (GH100,
// GB100), the order monitor_sample() reads the values in, and the refusal of a set PM sampling cannot take.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "napkin/monitor/pm_sampler.hpp"

using namespace napkin;

TEST_CASE("the monitor's set is one PM-sampling pass on GH100 and GB100") {
  for (const char* chip : {"GH100", "GB100"}) {
    CAPTURE(chip);
    const detail::pm_sampling_config config(chip, detail::monitor_metrics());
    CHECK(config.passes() == 1);
    CHECK(config.metrics().size() == 7);
  }
}

TEST_CASE("monitor_sample reads the values in the set's order") {
  const double v[] = {11, 22, 33, 44, 55, 66, 77};
  const pm_sample s = detail::monitor_sample(100, 200, v);
  CHECK(s.start_ns == 100);
  CHECK(s.end_ns == 200);
  CHECK(detail::monitor_metrics()[0].find("sm__throughput") != std::string::npos);
  CHECK(*s.sm_pct == 11);
  CHECK(detail::monitor_metrics()[1].find("l1tex__throughput") != std::string::npos);
  CHECK(*s.l1tex_pct == 22);
  CHECK(detail::monitor_metrics()[2].find("lts__throughput") != std::string::npos);
  CHECK(*s.l2_slices_pct == 33);
  CHECK(detail::monitor_metrics()[3].find("dram__throughput") != std::string::npos);
  CHECK(*s.dram_pct == 44);
  CHECK(detail::monitor_metrics()[4] == "dram__bytes_read.sum");
  CHECK(*s.dram_read_bytes == 55);
  CHECK(detail::monitor_metrics()[5] == "dram__bytes_write.sum");
  CHECK(*s.dram_write_bytes == 66);
  CHECK(detail::monitor_metrics()[6] == "gpc__cycles_elapsed.max");
  CHECK(*s.elapsed_cycles == 77);
}

TEST_CASE("ncu's SM figure cannot be sampled, nor rebuilt from its breakdown") {
  // Why the monitor reads TriageCompute.sm__throughput and not ncu's sm__throughput (docs/monitor.md).
  const auto passes_with = [](std::vector<const char*> extra) {
    std::vector<std::string> m = detail::monitor_metrics();
    for (const char* e : extra) m.push_back(std::string(e) + ".avg.pct_of_peak_sustained_elapsed");
    return detail::pm_sampling_config("GH100", m).passes();
  };
  CHECK(detail::pm_sampling_config("GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}).passes() == 19);
  CHECK(passes_with({"sm__issue_active"}) == 1);  // one breakdown metric at a time fits...
  CHECK(passes_with({"sm__pipe_alu_cycles_active"}) == 1);
  CHECK(passes_with({"sm__issue_active", "sm__pipe_alu_cycles_active"}) > 1);  // ...never two
  CHECK(passes_with({"sm__pipe_fma_cycles_active"}) > 1);  // and some never
  CHECK(passes_with({"sm__inst_executed"}) > 1);
}

TEST_CASE("a metric PM sampling cannot collect is refused with its name") {
  // The probe: gpu__compute_memory_throughput cannot be sampled on GH100.
  CHECK_THROWS_WITH_AS(
      detail::pm_sampling_config("GH100", {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"}),
      doctest::Contains("gpu__compute_memory_throughput"), profiler_error);
}
