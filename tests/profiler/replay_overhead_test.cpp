// A replay mode's own memory-instruction counts, taken out (profiler/replay_overhead.hpp), without a GPU: which
// counters a kernel with no memory instruction must read 0 on, and the pointer chase's store counts as napkin's
// application replay collected them on an H200 (2 requests, 5 sectors: docs/why.md) brought to Nsight Compute's
// recorded ones (data/zoo_h200_deeper.csv: 1 request, 4 sectors) by the reference kernel's 1 and 1.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "napkin/profiler/report.hpp"
#include "napkin/profiler/replay_overhead.hpp"
#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/section_metrics.hpp"
#include "profiler/recorded_counters.hpp"

using namespace napkin;
using napkin::detail::replay_overhead;
using napkin::detail::replay_overhead_not_measured;
using napkin::detail::replay_overhead_of;
using napkin::detail::take_out_replay_overhead;

namespace {

constexpr const char* store_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* store_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

static_assert(counts_memory_instructions("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
static_assert(counts_memory_instructions("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"));
static_assert(counts_memory_instructions("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
static_assert(counts_memory_instructions("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"));
static_assert(counts_memory_instructions("smsp__inst_executed_op_shared_ld_pred_on_any.sum"));
static_assert(counts_memory_instructions("smsp__sass_inst_executed_op_global_st.sum"));
// Rates, and counters that other units or the launch itself move, are not the kernel's instructions alone.
static_assert(!counts_memory_instructions("l1tex__t_sector_hit_rate.pct"));
static_assert(!counts_memory_instructions("l1tex__t_requests_pipe_lsu_mem_global_op_ld.avg"));
static_assert(!counts_memory_instructions("lts__t_sectors.sum"));
static_assert(!counts_memory_instructions("lts__t_sectors_srcunit_tex.sum"));
static_assert(!counts_memory_instructions("dram__bytes_read.sum"));
static_assert(!counts_memory_instructions("smsp__inst_executed.sum"));
static_assert(!counts_memory_instructions("sm__cycles_active.avg"));
static_assert(!counts_memory_instructions(""));

sol_report ncu_pointer_chase() {
  std::map<std::string, sol_report> all;
  recorded_counters::read_into(all, "zoo_h200_deeper.csv");
  REQUIRE(all.count("pointer_chase") == 1);
  return all.at("pointer_chase");
}

// The reference kernel's range: its memory-instruction counts are the mode's; the rest is its own launch.
sol_report reference_range(double requests, double sectors) {
  sol_report r;
  r.name = "kernel #1";
  r.values = {{store_requests, requests},
              {store_sectors, sectors},
              {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0},
              {"lts__t_sectors.sum", 22000},
              {"smsp__inst_executed.sum", 12},
              {"sm__warps_active.avg.pct_of_peak_sustained_active", 1.5}};
  return r;
}

}  // namespace

TEST_CASE("every memory-instruction counter of the memory chart's set is one the reference kernel calibrates") {
  std::size_t counted = 0;
  for (const std::string& metric : metric_sets::memory_chart().metrics) {
    const bool l1tex_lsu = metric.rfind("l1tex__", 0) == 0 && metric.find("pipe_lsu") != std::string::npos;
    const bool instructions = metric.rfind("smsp__inst_executed_op_shared", 0) == 0;
    if (l1tex_lsu || instructions) {
      CHECK_MESSAGE(counts_memory_instructions(metric), metric);
      ++counted;
    }
  }
  CHECK(counted >= 10);  // global ld/st requests and sectors, shared ld/st wavefronts, conflicts, instructions
}

TEST_CASE("the pointer chase's stores, application replay's own taken out, are Nsight Compute's") {
  const replay_overhead overhead = replay_overhead_of(reference_range(1, 1));
  REQUIRE(overhead.counts.size() == 2);  // the zero load count and the non-memory counters are not overhead

  sol_report chase;
  chase.name = "pointer_chase";
  chase.how = measured_by::application_replay;
  chase.values = {{store_requests, 2}, {store_sectors, 5}, {"lts__t_sectors.sum", 65000}};
  CHECK(memory_chart(chase)->global_store_sectors_per_request() == doctest::Approx(2.5));

  take_out_replay_overhead(chase, overhead, "application replay");
  const sol_report ncu = ncu_pointer_chase();
  CHECK(chase.values.at(store_requests) == ncu.values.at(store_requests));  // 1
  CHECK(chase.values.at(store_sectors) == ncu.values.at(store_sectors));    // 4
  CHECK(memory_chart(chase)->global_store_sectors_per_request() == doctest::Approx(4.0));
  CHECK(chase.values.at("lts__t_sectors.sum") == 65000);  // L2 traffic is left as collected

  const std::string& how = chase.derivations.at("replay_overhead");
  CHECK(how.find("application replay's own counts") != std::string::npos);
  CHECK(how.find(std::string("1 ") + store_requests) != std::string::npos);
  CHECK(how.find(std::string("1 ") + store_sectors) != std::string::npos);
  CHECK(to_text(chase).find("Memory-instruction counts = application replay's own counts") != std::string::npos);
}

TEST_CASE("taking the overhead out never makes a count negative, and nothing to take out changes nothing") {
  sol_report few;
  few.values = {{store_requests, 0}, {store_sectors, 3}};
  take_out_replay_overhead(few, replay_overhead_of(reference_range(2, 8)), "application replay");
  CHECK(few.values.at(store_requests) == 0);
  CHECK(few.values.at(store_sectors) == 0);

  sol_report unchanged;
  unchanged.values = {{store_requests, 7}, {store_sectors, 28}};
  const replay_overhead none = replay_overhead_of(reference_range(0, 0));
  CHECK(none.counts.empty());
  take_out_replay_overhead(unchanged, none, "application replay");
  CHECK(unchanged.values.at(store_requests) == 7);
  CHECK(unchanged.values.at(store_sectors) == 28);
  CHECK(unchanged.derivations.empty());

  // A set without the overhead's counters: nothing to take out, nothing said.
  sol_report other;
  other.values = {{"dram__bytes_read.sum", 1e6}};
  take_out_replay_overhead(other, replay_overhead_of(reference_range(1, 1)), "application replay");
  CHECK(other.derivations.empty());
}

TEST_CASE("an overhead that could not be measured is said where the set counts memory instructions") {
  sol_report counts;
  counts.values = {{store_requests, 2}};
  replay_overhead_not_measured(counts, "application replay", "fn fills profiler_options::max_kernels");
  CHECK(counts.values.at(store_requests) == 2);
  CHECK(counts.derivations.at("replay_overhead") ==
        "not measured (fn fills profiler_options::max_kernels): the memory-instruction counts may include "
        "application replay's own");

  sol_report no_counts;
  no_counts.values = {{"gpu__time_duration.sum", 1000}};
  replay_overhead_not_measured(no_counts, "application replay", "fn's kernel count is unknown");
  CHECK(no_counts.derivations.empty());
}
