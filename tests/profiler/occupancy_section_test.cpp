// The Occupancy section (napkin/profiler/sections/occupancy.hpp) against ncu's Occupancy and Launch Statistics
// sections recorded on an H200 (data/occupancy_zoo_h200.csv says how), the launch taken from a hand-built CUPTI
// kernel record (cupti/activity.hpp's launch_of), per_kernel()'s matching of launches to ranges, and bad input.
// No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/cupti/activity.hpp"
#include "napkin/profiler/launches.hpp"
#include "napkin/profiler/sections/occupancy.hpp"

using namespace napkin;

namespace {

// One row of the recording: ncu's numbers by column name, and the kernel's name.
struct ncu_row {
  std::vector<std::string> columns;
  std::vector<double> values;
  std::string kernel;
  double operator[](const std::string& column) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == column) return values[i];
    FAIL("no column " << column);
    return 0;
  }
};

std::vector<ncu_row> read_recording() {
  std::ifstream in(std::string(NAPKIN_PROFILER_TEST_DATA) + "/occupancy_zoo_h200.csv");
  REQUIRE(in.good());
  std::vector<std::string> header;
  std::vector<ncu_row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    if (header.empty()) {  // the column names
      while (std::getline(ss, field, ',')) header.push_back(field);
      continue;
    }
    // Every column but the last (the kernel's name, which holds commas) is a number.
    while (fields.size() + 1 < header.size() && std::getline(ss, field, ',')) fields.push_back(field);
    std::string rest;
    std::getline(ss, rest);
    ncu_row r;
    r.columns.assign(header.begin(), header.end() - 1);
    for (const std::string& f : fields) r.values.push_back(std::strtod(f.c_str(), nullptr));
    r.kernel = rest;
    rows.push_back(r);
  }
  return rows;
}

kernel_launch launch_of_row(const ncu_row& r) {
  kernel_launch l;
  const auto u = [](double v) { return static_cast<std::uint32_t>(v); };
  l.block = {u(r["block_x"]), u(r["block_y"]), u(r["block_z"])};
  l.grid = {u(r["grid_x"]), u(r["grid_y"]), u(r["grid_z"])};
  l.registers_per_thread = static_cast<int>(r["registers"]);
  l.static_smem_bytes = static_cast<int>(r["static_smem"]);
  l.dynamic_smem_bytes = static_cast<int>(r["dynamic_smem"]);
  l.smem_config_bytes = static_cast<int>(r["smem_config"]);
  l.cc = compute_capability{static_cast<int>(r["cc_major"]), static_cast<int>(r["cc_minor"])};
  l.sm_count = static_cast<int>(r["sm_count"]);
  return l;
}

sol_report report_of_row(const ncu_row& r) {
  sol_report rep;
  rep.name = r.kernel;
  rep.launch = launch_of_row(r);
  rep.values[occupancy_metrics::achieved_pct] = r["achieved_pct"];
  rep.values[occupancy_metrics::achieved_warps] = r["achieved_warps"];
  return rep;
}

const ncu_row& row_named(const std::vector<ncu_row>& rows, const std::string& prefix) {
  for (const ncu_row& r : rows)
    if (r.kernel.rfind(prefix, 0) == 0) return r;
  FAIL("no kernel " << prefix);
  return rows.front();
}

}  // namespace

TEST_CASE("occupancy section: theoretical occupancy, block limits and waves equal ncu's on every zoo kernel (H200)") {
  const std::vector<ncu_row> rows = read_recording();
  REQUIRE(rows.size() >= 30);
  for (const ncu_row& r : rows) {
    CAPTURE(r.kernel);
    const std::optional<occupancy_section> s = occupancy(report_of_row(r));
    REQUIRE(s.has_value());
    const occupancy_result& t = s->theoretical;
    CHECK(t.blocks_by_registers == r["limit_registers"]);
    CHECK(t.blocks_by_shared_memory == r["limit_shared_mem"]);
    CHECK(t.blocks_by_warps == r["limit_warps"]);
    CHECK(t.blocks_by_sm_limit == r["limit_blocks"]);
    // ncu shows the barrier limit capped at the SM's block limit; CUPTI's record carries no barrier count, so
    // napkin assumes 1 per block (as cudaOccupancy* do): equal where the kernel has at most one.
    if (r["barrier_count"] <= 1) CHECK(std::min(t.blocks_by_barriers, t.blocks_by_sm_limit) == r["limit_barriers"]);
    CHECK(s->theoretical_pct == doctest::Approx(r["theoretical_pct"]).epsilon(1e-9));
    CHECK(s->theoretical_warps() == r["theoretical_warps"]);
    // ncu prints waves with 2 decimals ("1" for 1.00).
    CHECK(std::fabs(s->waves_per_sm - r["waves"]) <= 0.005 + 1e-9);
    // The driver's reserve per block: ncu's "Driver Shared Memory Per Block".
    CHECK(limits_of(s->launch.cc).smem_reserved_per_block == r["driver_smem"]);
    CHECK(s->achieved_pct == r["achieved_pct"]);
    CHECK(s->achieved_warps == r["achieved_warps"]);
    CHECK(!s->explanation.empty());
  }
}

TEST_CASE("occupancy section: the gap names its cause (ncu's waves and achieved occupancy, H200)") {
  const std::vector<ncu_row> rows = read_recording();
  struct expected {
    const char* kernel;
    occupancy_gap gap;
  };
  // The causes follow from ncu's own numbers: under one wave (waves < 1) an SM holds grid / SMs blocks at
  // most; with one or more full waves the loss is inside them.
  for (const expected& e : {
           expected{"zoo_case_marker", occupancy_gap::too_few_blocks},       // 1 block: 1 warp resident, 1.57 %
           expected{"zoo_pointer_chase", occupancy_gap::too_few_blocks},     // 1 block, 1.56 % of 50 %
           expected{"zoo_l1_reread", occupancy_gap::too_few_blocks},         // 0.50 waves: 43.5 % of 100 %
           expected{"zoo_short_copy", occupancy_gap::too_few_blocks},        // 0.50 waves: 43.1 %
           expected{"zoo_concurrent_fma", occupancy_gap::too_few_blocks},    // 0.12 waves: 12.5 %
           expected{"zoo_bank_conflict32", occupancy_gap::too_few_blocks},   // 0.67 waves: 49.7 % of 75 %
           expected{"void cublasLt::splitKreduce", occupancy_gap::too_few_blocks},  // 32 blocks, 132 SMs
           expected{"zoo_fp64_fma", occupancy_gap::uneven_warps},            // 1 full wave, 56.3 % of 100 %
           expected{"zoo_transpose_naive", occupancy_gap::uneven_warps},     // 62.06 waves, 75.2 %
           expected{"zoo_write_only", occupancy_gap::uneven_warps},          // 1 wave, 81.7 %
           expected{"zoo_smem_tree_reduce", occupancy_gap::none},            // 98.6 % of 100 %
           expected{"zoo_atomic_histogram", occupancy_gap::none},            // 96.3 %
           expected{"nvjet_sm90_hsh", occupancy_gap::none},                  // 14.6 % of 18.75 %
           expected{"void cutlass::Kernel2", occupancy_gap::none},           // 12.3 % of 12.5 %
       }) {
    CAPTURE(e.kernel);
    const occupancy_section s = *occupancy(report_of_row(row_named(rows, e.kernel)));
    CAPTURE(s.explanation);
    CHECK(s.gap == e.gap);
    if (e.gap == occupancy_gap::too_few_blocks) CHECK(s.explanation.find("too few blocks") != std::string::npos);
    if (e.gap == occupancy_gap::uneven_warps)
      CHECK(s.explanation.find("warps finish at different times") != std::string::npos);
    if (e.gap == occupancy_gap::none) CHECK(s.explanation.find("within") != std::string::npos);
    // Whatever the cause, achieved sits near or below what the waves allow (scheduling adds a little).
    CHECK(s.achieved_pct <= s.wave_bound_pct + 1.0);
  }
  // The numbers in the words: 0.50 waves, 528 blocks on 132 SMs x 8 slots, 4 blocks per SM = 50 %.
  const occupancy_section l1 = *occupancy(report_of_row(row_named(rows, "zoo_l1_reread")));
  CHECK(l1.explanation.find("528 blocks for 132 SMs x 8 slots (0.50 waves)") != std::string::npos);
  CHECK(l1.explanation.find("4.0 blocks per active SM") != std::string::npos);
  CHECK(l1.wave_bound_pct == doctest::Approx(50.0));
}

TEST_CASE("occupancy section: a partial last wave (tail effect), by hand") {
  // 256 threads, 16 registers, no shared memory on CC 9.0: 8 blocks per SM (warps), 132 SMs x 8 = 1056 slots.
  // 1267 blocks = 1.20 waves: the second wave holds 211 blocks, 20 % of the slots. Blocks of equal length keep
  // 100 % for one wave and 20 % for another: 60 % over the kernel (100 x 1.1998 / 2 = 59.99 %).
  kernel_launch l;
  l.block = {256, 1, 1};
  l.grid = {1267, 1, 1};
  l.registers_per_thread = 16;
  l.smem_config_bytes = 32 * 1024;
  l.cc = {9, 0};
  l.sm_count = 132;
  sol_report r;
  r.name = "tail";
  r.launch = l;
  r.values[occupancy_metrics::achieved_pct] = 58.0;
  const occupancy_section s = *occupancy(r);
  CHECK(s.theoretical.blocks_per_sm == 8);
  CHECK(s.waves_per_sm == doctest::Approx(1267.0 / 1056.0));
  CHECK(s.wave_bound_pct == doctest::Approx(100.0 * 1267.0 / 1056.0 / 2.0));
  CHECK(s.gap == occupancy_gap::partial_last_wave);
  CHECK(s.explanation.find("the last runs 20% of the SMs' block slots") != std::string::npos);
  CHECK(s.explanation.find("1056 blocks each") != std::string::npos);
  CHECK(s.achieved_warps == doctest::Approx(58.0 / 100.0 * 64));  // from the percentage: no warps metric
  const std::string text = to_text(s);
  CHECK(text.find("theoretical 100.0% (64 of 64 warps, 8 blocks/SM), limited by warps") != std::string::npos);
  CHECK(text.find("waves/SM    1.20 on 132 SMs") != std::string::npos);
  CHECK(text.find("partial last wave (tail effect)") != std::string::npos);
}

TEST_CASE("occupancy section: limiter and next step in the text (zoo_bank_conflict32, ncu: shared memory)") {
  const std::vector<ncu_row> rows = read_recording();
  const occupancy_section s = *occupancy(report_of_row(row_named(rows, "zoo_bank_conflict32")));
  // ncu: "theoretical occupancy (75.0%) is limited by the required amount of shared memory".
  CHECK(s.theoretical.limiters.contains(limiter::shared_memory));
  CHECK(!s.theoretical.limiters.contains(limiter::registers));
  const std::string text = to_text(s);
  CHECK(text.find("limited by shared memory") != std::string::npos);
  CHECK(text.find("next level: ") != std::string::npos);
  CHECK(text.find("33792 B/block of 233472 B/SM") != std::string::npos);  // 32 KiB + 1 KiB driver reserve
}

TEST_CASE("occupancy section: none without a launch or without the achieved metric") {
  sol_report r;
  r.name = "k";
  r.values[occupancy_metrics::achieved_pct] = 50;
  CHECK(!occupancy(r).has_value());  // no launch (measure() over several kernels)
  kernel_launch l;
  l.block = {128, 1, 1};
  l.grid = {1000, 1, 1};
  l.registers_per_thread = 32;
  l.cc = {9, 0};
  l.sm_count = 132;
  r.launch = l;
  r.values.clear();
  CHECK(!occupancy(r).has_value());  // a set without the occupancy metrics
  r.values[occupancy_metrics::achieved_pct] = 50;
  CHECK(occupancy(r).has_value());
  bool noted = false;
  const occupancy_section without_config = *occupancy(r);
  for (const std::string& note : without_config.notes)
    noted |= note.find("configuration for this launch is unknown") != std::string::npos;
  CHECK(noted);  // no smem_config_bytes: said so
}

#if NAPKIN_HAS_EXCEPTIONS
TEST_CASE("occupancy section: bad input is napkin's input error") {
  kernel_launch l;
  l.block = {128, 1, 1};
  l.grid = {1000, 1, 1};
  l.registers_per_thread = 32;
  l.cc = {9, 0};
  l.sm_count = 132;
  const sm_limits h = limits_of({9, 0});
  CHECK_NOTHROW((void)make_occupancy_section("k", l, h, 40.0));
  kernel_launch bad = l;
  bad.block = {0, 1, 1};
  CHECK_THROWS_WITH_AS((void)make_occupancy_section("k", bad, h, 40.0),
                       doctest::Contains("occupancy section of \"k\": the block has 0 threads"), std::invalid_argument);
  bad = l;
  bad.grid = {0, 0, 0};
  CHECK_THROWS_WITH_AS((void)make_occupancy_section("k", bad, h, 40.0), doctest::Contains("the grid has no blocks"),
                       std::invalid_argument);
  bad = l;
  bad.sm_count = 0;
  CHECK_THROWS_WITH_AS((void)make_occupancy_section("k", bad, h, 40.0), doctest::Contains("SM count is unknown"),
                       std::invalid_argument);
  bad = l;
  bad.registers_per_thread = 300;  // above 255: the calculator's own error
  CHECK_THROWS_AS((void)make_occupancy_section("k", bad, h, 40.0), std::invalid_argument);
  for (double achieved : {std::nan(""), -1.0, 120.0, std::numeric_limits<double>::infinity()})
    CHECK_THROWS_WITH_AS((void)make_occupancy_section("k", l, h, achieved),
                         doctest::Contains("achieved occupancy must be a finite percentage"), std::invalid_argument);
  CHECK_THROWS_WITH_AS((void)make_occupancy_section("k", l, h, 40.0, 65.0),
                       doctest::Contains("achieved warps per SM must be finite"), std::invalid_argument);

  sol_report r;
  r.name = "k";
  r.launch = l;
  r.values[occupancy_metrics::achieved_pct] = std::nan("");
  CHECK_THROWS_WITH_AS((void)occupancy(r), doctest::Contains("is not a finite number"), std::invalid_argument);
  r.values[occupancy_metrics::achieved_pct] = 40;
  r.launch->cc = {};
  CHECK_THROWS_WITH_AS((void)occupancy(r), doctest::Contains("no compute capability"), std::invalid_argument);
  r.launch->cc = {9, 9};
  CHECK_THROWS_WITH_AS((void)occupancy(r), doctest::Contains("unknown compute capability 9.9"), std::exception);
}
#endif

TEST_CASE("occupancy section: enum names") {
  for (occupancy_gap g : all_occupancy_gaps) {
    CHECK(to_string(g) != "unknown");
    CHECK(describe(g) != "unknown");
  }
  CHECK(to_string(static_cast<occupancy_gap>(99)) == "unknown");
}

TEST_CASE("kernel launch: a CUPTI kernel record, field by field") {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.gridX = 256;
  k.gridY = 4;
  k.gridZ = 2;
  k.blockX = 32;
  k.blockY = 8;
  k.blockZ = 1;
  k.registersPerThread = 40;
  k.staticSharedMemory = 4224;
  k.dynamicSharedMemory = 65536;
  k.sharedMemoryExecuted = 135168;
  k.isSharedMemoryCarveoutRequested = 1;
  k.sharedMemoryCarveoutRequested = 50;
  k.cacheConfig.config.requested = CU_FUNC_CACHE_PREFER_L1;
  k.shmemLimitConfig = CUPTI_FUNC_SHMEM_LIMIT_OPTIN;
  k.localMemoryPerThread = 96;
  k.clusterX = 2;
  k.clusterY = 1;
  k.clusterZ = 1;
  const kernel_launch l = detail::launch_of(k);
  CHECK(l.grid == launch_dims{256, 4, 2});
  CHECK(l.block == launch_dims{32, 8, 1});
  CHECK(l.blocks() == 2048);
  CHECK(l.threads_per_block() == 256);
  CHECK(l.registers_per_thread == 40);
  CHECK(l.static_smem_bytes == 4224);
  CHECK(l.dynamic_smem_bytes == 65536);
  CHECK(l.smem_config_bytes == 135168);
  CHECK(l.carveout_requested_pct == 50);
  CHECK(l.cache_requested == cache_preference::prefer_l1);
  CHECK(l.dynamic_smem_opted_in);
  CHECK(l.local_memory_per_thread_bytes == 96);
  REQUIRE(l.cluster.has_value());
  CHECK(*l.cluster == launch_dims{2, 1, 1});
  CHECK(l.cc == compute_capability{});  // the device's facts are the profiler's to add
  CHECK(l.sm_count == 0);

  // What a record leaves unset reads as unknown, never as a number; negative sizes as empty dimensions.
  CUpti_ActivityKernel10 z{};
  z.gridX = -1;
  z.gridY = 1;
  z.gridZ = 1;
  const kernel_launch e = detail::launch_of(z);
  CHECK(e.grid.x == 0);
  CHECK(e.blocks() == 0);
  CHECK(!e.smem_config_bytes);
  CHECK(!e.carveout_requested_pct);
  CHECK(!e.cluster);
  CHECK(e.cache_requested == cache_preference::none);
  CHECK(!e.dynamic_smem_opted_in);
}

TEST_CASE("kernel launch: records put in launch order, each once, and matched to per_kernel()'s ranges") {
  const auto record = [](const char* name, std::uint64_t start, std::uint32_t correlation, std::uint32_t blocks) {
    detail::kernel_activity k;
    k.name = name;
    k.start_ns = start;
    k.end_ns = start + 10;
    k.correlation = correlation;
    k.launch.grid = {blocks, 1, 1};
    return k;
  };
  // Out of order, a replayed copy (same correlation id), one before the window and one after it.
  const std::vector<detail::kernel_activity> records = {
      record("b", 300, 12, 2), record("a", 200, 11, 1), record("b", 400, 12, 2),
      record("early", 50, 5, 9), record("late", 1000, 20, 9)};
  const std::vector<detail::kernel_activity> in = detail::launches_between(records, 100, 1000);
  REQUIRE(in.size() == 2);
  CHECK(in[0].name == "a");
  CHECK(in[1].name == "b");
  // CUPTI's kernel replay records kernels without timestamps (start = end = 0): inside under kernel replay,
  // elsewhere a late record of an earlier kernel replay.
  detail::kernel_activity untimed = record("c", 0, 13, 3);
  untimed.end_ns = 0;
  std::vector<detail::kernel_activity> with_untimed = records;
  with_untimed.push_back(untimed);
  const std::vector<detail::kernel_activity> all = detail::launches_between(with_untimed, 100, 1000, true);
  REQUIRE(all.size() == 3);
  CHECK(all[2].name == "c");
  CHECK(detail::launches_between(with_untimed, 100, 1000).size() == 2);

  std::vector<sol_report> reports(2);
  reports[0].name = "a";
  reports[1].name = "b";
  detail::attach_launches(reports, in);
  REQUIRE(reports[0].launch.has_value());
  REQUIRE(reports[1].launch.has_value());
  CHECK(reports[0].launch->blocks() == 1);
  CHECK(reports[1].launch->blocks() == 2);

  // Names that do not line up: no launch at all, rather than one beside the wrong kernel.
  std::vector<sol_report> swapped(2);
  swapped[0].name = "b";
  swapped[1].name = "a";
  detail::attach_launches(swapped, in);
  CHECK(!swapped[0].launch);
  CHECK(!swapped[1].launch);
  // Ranges named "kernel #i" (names unavailable) take the launches in order; fewer records than ranges: none.
  std::vector<sol_report> unnamed(2);
  unnamed[0].name = "kernel #0";
  unnamed[1].name = "kernel #1";
  detail::attach_launches(unnamed, in);
  CHECK(unnamed[1].launch->blocks() == 2);
  std::vector<sol_report> more(3);
  detail::attach_launches(more, in);
  CHECK(!more[0].launch);
}
