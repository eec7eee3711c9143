// The monitor's PM-sampling set on CUPTI's host API, no GPU: one pass on the chips napkin monitors (GH100,
// GB100), the order monitor_sample() reads the values in, and the refusal of a set PM sampling cannot take.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "napkin/monitor/pm_sampler.hpp"
#include "napkin/profiler/breakdowns.hpp"

using namespace napkin;

TEST_CASE("the monitor's set is one PM-sampling pass on GH100 and GB100") {
  // GH100: the seven readings, the eight triage SM % inputs, sm__cycles_active, the two L1 wavefront rates and
  // the LSU pipe (docs/monitor.md); GB100 the seven.
  for (const auto& [chip, count] : {std::pair<const char*, std::size_t>{"GH100", 19}, {"GB100", 7}}) {
    CAPTURE(chip);
    const detail::pm_sampling_config config(chip, detail::monitor_metrics(chip));
    CHECK(config.passes() == 1);
    CHECK(config.metrics().size() == count);
  }
}

TEST_CASE("monitor_sample reads the values in the set's order") {
  const std::vector<std::string> m = detail::monitor_metrics("GH100");
  double v[19];
  for (int i = 0; i < 19; ++i) v[i] = 11.0 * (i + 1);
  const pm_sample s = detail::monitor_sample(100, 200, v, m.size());
  CHECK(s.start_ns == 100);
  CHECK(s.end_ns == 200);
  CHECK(m[0].find("sm__throughput") != std::string::npos);
  CHECK(*s.sm_pct == 11);
  CHECK(m[1].find("l1tex__throughput") != std::string::npos);
  CHECK(*s.l1tex_pct == 22);
  CHECK(m[2].find("lts__throughput") != std::string::npos);
  CHECK(*s.l2_slices_pct == 33);
  CHECK(m[3].find("dram__throughput") != std::string::npos);
  CHECK(*s.dram_pct == 44);
  CHECK(m[4] == "dram__bytes_read.sum");
  CHECK(*s.dram_read_bytes == 55);
  CHECK(m[5] == "dram__bytes_write.sum");
  CHECK(*s.dram_write_bytes == 66);
  CHECK(m[6] == "gpc__cycles_elapsed.max");
  CHECK(*s.elapsed_cycles == 77);
  // The first eight inputs in sm_input_names' order, then sm__cycles_active.
  const char* const input_metric[] = {"sm__inst_executed_realtime", "pipe_alu_realtime", "pipe_fma_realtime",
                                      "pipe_fmaheavy_realtime", "pipe_fp64_cycles", "pipe_tensor_cycles",
                                      "pipe_uniform_realtime", "pipe_xu_realtime"};
  for (std::size_t i = 0; i + 1 < sm_input_count; ++i) {
    CAPTURE(i);
    CHECK(m[7 + i].find(input_metric[i]) != std::string::npos);
    CHECK(*s.sm_inputs[i] == 11.0 * static_cast<double>(8 + i));
  }
  CHECK(m[15].find("sm__cycles_active") != std::string::npos);
  CHECK(*s.sm_active_pct == 176);
  // Then the L1's LSU and TEX data-pipe wavefront rates (the bound on the SM % inputs the pass lacks).
  CHECK(m[16].find("l1tex__data_pipe_lsu_wavefronts") != std::string::npos);
  CHECK(*s.l1_wavefronts[0] == 187);
  CHECK(m[17].find("l1tex__data_pipe_tex_wavefronts") != std::string::npos);
  CHECK(*s.l1_wavefronts[1] == 198);
  // Then the ninth input, the LSU pipe: last, so that each shorter set reads as before.
  CHECK(m[18] == "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed");
  CHECK(std::string(sm_input_names[8]) == "LSU pipe");
  CHECK(*s.sm_inputs[8] == 209);
  // Eighteen values (a set from before the LSU pipe): the wavefronts, no ninth input.
  const pm_sample eighteen = detail::monitor_sample(100, 200, v, 18);
  CHECK(*eighteen.l1_wavefronts[1] == 198);
  CHECK_FALSE(eighteen.sm_inputs[8]);
  // Sixteen values (a set from before the wavefronts): the inputs, no wavefronts.
  const pm_sample sixteen = detail::monitor_sample(100, 200, v, 16);
  CHECK(*sixteen.sm_active_pct == 176);
  CHECK(*sixteen.sm_inputs[7] == 165);
  CHECK_FALSE(sixteen.l1_wavefronts[0]);
  CHECK_FALSE(sixteen.sm_inputs[8]);
  // Seventeen (one past sm__cycles_active) reads as sixteen; ten (part of the inputs) reads as seven.
  const pm_sample seventeen = detail::monitor_sample(100, 200, v, 17);
  CHECK(*seventeen.sm_active_pct == 176);
  CHECK_FALSE(seventeen.l1_wavefronts[0]);
  const pm_sample ten = detail::monitor_sample(100, 200, v, 10);
  CHECK_FALSE(ten.sm_inputs[0]);
  CHECK_FALSE(ten.sm_active_pct);
  // Seven values (GB100's set): no inputs, nothing read past the seventh.
  const pm_sample seven = detail::monitor_sample(100, 200, v, 7);
  CHECK_FALSE(seven.sm_inputs[0]);
  CHECK_FALSE(seven.sm_active_pct);
  CHECK_FALSE(seven.l1_wavefronts[1]);
}

TEST_CASE("ncu's SM figure cannot be sampled, nor rebuilt from its breakdown") {
  // Why the monitor reads TriageCompute.sm__throughput and not ncu's sm__throughput (docs/monitor.md).
  const auto passes_with = [](std::vector<const char*> extra) {
    const std::vector<std::string> all = detail::monitor_metrics("GH100");
    std::vector<std::string> m(all.begin(), all.begin() + detail::monitor_base_metric_count);  // the seven
    for (const char* e : extra) m.push_back(std::string(e) + ".avg.pct_of_peak_sustained_elapsed");
    return detail::pm_sampling_config("GH100", m).passes();
  };
  CHECK(detail::pm_sampling_config("GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}).passes() == 19);
  CHECK(passes_with({"sm__issue_active"}) == 1);  // one breakdown metric at a time fits...
  CHECK(passes_with({"sm__pipe_alu_cycles_active"}) == 1);
  CHECK(passes_with({"sm__issue_active", "sm__pipe_alu_cycles_active"}) > 1);  // ...never two
  CHECK(passes_with({"sm__pipe_fma_cycles_active"}) > 1);  // and some never
  CHECK(passes_with({"sm__inst_executed"}) > 1);
  // Beside the monitor's whole set (the LSU pipe included), none of the other inputs of ncu's SM % (napkin's own
  // list of them) fits: the LSU pipe took the one place (docs/monitor.md, "The LSU pipe"). An input PM sampling
  // cannot collect at all is refused by name.
  const std::string lsu = "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed";
  std::size_t tried = 0;
  for (const std::string& other : breakdowns::gh100_sm().inputs) {
    if (other == lsu) continue;
    CAPTURE(other);
    std::vector<std::string> m = detail::monitor_metrics("GH100");
    m.push_back(other);
    bool fits = false;
    try {
      fits = detail::pm_sampling_config("GH100", m).passes() == 1;
    } catch (const profiler_error& e) {
      CHECK(std::string(e.what()).find(other.substr(0, other.find('.'))) != std::string::npos);
    }
    CHECK_FALSE(fits);
    ++tried;
  }
  CHECK(tried == 24);
}

TEST_CASE("a metric PM sampling cannot collect is refused with its name") {
  // The probe: gpu__compute_memory_throughput cannot be sampled on GH100.
  CHECK_THROWS_WITH_AS(
      detail::pm_sampling_config("GH100", {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"}),
      doctest::Contains("gpu__compute_memory_throughput"), profiler_error);
}
