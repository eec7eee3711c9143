// Nsight Compute's raw CSV read as napkin's reports (napkin/report/ncu_csv_read.hpp), on a real file:
// tests/report/data/ncu_zoo_raw.csv, four zoo kernels' rows of what benchmarks/device/why_ncu.sh recorded with
// ncu 2025.3.1 on an H200 (data/README.md). The reports' numbers are the CSV's cells; the sections napkin
// computes from them are what ncu's details page showed for the same kernels (why_details.csv of the same
// run, quoted below). Then hostile input: truncated, ragged, huge, BOM, CRLF, scaled units.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "napkin/profiler/sections/memory_chart.hpp"
#include "napkin/profiler/sections/occupancy.hpp"
#include "napkin/profiler/sections/pipes.hpp"
#include "napkin/profiler/sections/warp_state.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/ncu_csv_read.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::input_error_of;

namespace {

const std::string data = NAPKIN_REPORT_TEST_DATA;
const std::string real_file = data + "/ncu_zoo_raw.csv";

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const sol_report& kernel(const ncu_csv_run& r, const char* prefix) {  // not a std::string: a temporary argument of a function returning a reference is -Wdangling-reference (GCC 13)
  for (const sol_report& k : r.run.kernels)
    if (k.name.rfind(prefix, 0) == 0) return k;
  FAIL("no kernel " << prefix);
  return r.run.kernels.front();
}

// A small file in ncu's shape: the fixed columns, then `metrics` with their units and one row of cells.
std::string small_csv(const std::string& metrics, const std::string& units, const std::string& cells,
                      const std::string& eol = "\n") {
  return "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
         "\"Grid Size\",\"Device\",\"CC\"," + metrics + eol +
         "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"," + units + eol +
         "\"0\",\"1\",\"app\",\"host\",\"k(int)\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\"," + cells + eol;
}

}  // namespace

TEST_CASE("a real ncu raw CSV: every numeric cell is the report's value, under ncu's name") {
  const std::string text = file_text(real_file);
  REQUIRE(looks_like_ncu_csv(text));
  const ncu_csv_run r = read_ncu_csv(text, "ncu_zoo_raw.csv");
  REQUIRE(r.run.kernels.size() == 4);
  CHECK(r.gpu.name == "NVIDIA H200");
  CHECK(r.gpu.compute_capability == "9.0");
  CHECK(r.gpu.key.empty());  // "NVIDIA H200" is SXM or NVL: napkin does not guess
  const sol_report& reduce = kernel(r, "zoo_smem_tree_reduce");
  const sol_report& fma = kernel(r, "zoo_fp32_fma");
  CHECK(reduce.how == measured_by::ncu);
  CHECK(reduce.metric_set == "ncu --page raw CSV: ncu_zoo_raw.csv");
  CHECK(reduce.context.device_name == "NVIDIA H200");
  // The cells, as the file has them ("1,039,040", "67,115,008", "98.56").
  CHECK(reduce.duration_ns() == 1039040.0);
  CHECK(fma.duration_ns() == 294112.0);
  CHECK(reduce.get("dram__bytes_read.sum") == 67115008.0);
  CHECK(fma.get("sm__warps_active.avg.pct_of_peak_sustained_active") == 68.89);
  CHECK(kernel(r, "zoo_local_spill").get("smsp__average_warp_latency_per_inst_issued.ratio") == 2553.23);
  CHECK(kernel(r, "zoo_local_spill").get("l1tex__t_sector_hit_rate.pct") == 29.49);
  // Text metrics and "no data" cells are not numbers: not in values.
  CHECK(reduce.values.count("launch__func_cache_config") == 0);
  CHECK(reduce.values.count("sass__inst_executed_register_spilling_mem_local") == 0);
  // A "%" napkin's documents cannot read back (5,253 % of a derived ratio) is left out, with a note.
  CHECK(reduce.values.count("derived__pct_occupancy_per_block_size") == 0);
  bool noted = false;
  for (const std::string& n : r.notes) noted = noted || contains(n, "derived__pct_occupancy_per_block_size: left out of 4");
  CHECK(noted);
  // No SpeedOfLight section in this recording: napkin says so, it does not guess.
  CHECK(!reduce.sm_pct());
  CHECK(reduce.sol_table().kind == bottleneck::not_measured);
  CHECK(!reduce.ncu_rule());
  // The launch from the LaunchStats columns.
  REQUIRE(reduce.launch);
  CHECK(reduce.launch->block == launch_dims{512, 1, 1});
  CHECK(reduce.launch->grid == launch_dims{32768, 1, 1});
  CHECK(reduce.launch->registers_per_thread == 16);
  CHECK(reduce.launch->static_smem_bytes == 2048);
  CHECK(reduce.launch->sm_count == 132);
  CHECK(reduce.launch->cc == compute_capability{9, 0});
}

TEST_CASE("sections computed from an ncu CSV are what ncu's details page showed") {
  const ncu_csv_run r = read_ncu_csv(file_text(real_file), real_file);
  // why_details.csv, Warp State Statistics, "Warp Cycles Per Issued Instruction": 30.07 and 11.11 cycles.
  const auto reduce_warps = warp_state(kernel(r, "zoo_smem_tree_reduce"));
  const auto fma_warps = warp_state(kernel(r, "zoo_fp32_fma"));
  REQUIRE(reduce_warps);
  REQUIRE(fma_warps);
  CHECK(reduce_warps->warp_cycles_per_issued == doctest::Approx(30.07).epsilon(0.001));
  CHECK(fma_warps->warp_cycles_per_issued == doctest::Approx(11.11).epsilon(0.001));
  // Occupancy: theoretical 100 % for both, achieved 98.56 % and 68.89 %, waves per SM 62.06 and 1.
  const auto reduce_occ = occupancy(kernel(r, "zoo_smem_tree_reduce"));
  const auto fma_occ = occupancy(kernel(r, "zoo_fp32_fma"));
  REQUIRE(reduce_occ);
  REQUIRE(fma_occ);
  CHECK(reduce_occ->theoretical_pct == doctest::Approx(100));
  CHECK(fma_occ->theoretical_pct == doctest::Approx(100));
  CHECK(reduce_occ->achieved_pct == doctest::Approx(98.56));
  CHECK(fma_occ->achieved_pct == doctest::Approx(68.89));
  CHECK(reduce_occ->waves_per_sm == doctest::Approx(62.06).epsilon(0.001));
  CHECK(fma_occ->waves_per_sm == doctest::Approx(1.0).epsilon(0.01));
  // Memory Workload Analysis, "L2 Hit Rate": 115.66 % (fp32_fma) and 51.38 % (stream_copy).
  const auto fma_memory = memory_chart(kernel(r, "zoo_fp32_fma"));
  const auto copy_memory = memory_chart(kernel(r, "zoo_stream_copy"));
  REQUIRE(fma_memory);
  REQUIRE(copy_memory);
  CHECK(fma_memory->l2_hit_rate_pct == doctest::Approx(115.66));
  CHECK(copy_memory->l2_hit_rate_pct == doctest::Approx(51.38));
  // ncu's HighPipeUtilization rule: "FMA is the highest-utilized pipeline (89.4%) based on elapsed cycles".
  const auto fma_pipes = pipes(kernel(r, "zoo_fp32_fma"));
  REQUIRE(fma_pipes);
  REQUIRE(fma_pipes->busiest());
  CHECK(fma_pipes->busiest()->label == "FMA");
  CHECK(std::fabs(fma_pipes->busiest()->cycles_elapsed_pct.value_or(0) - 89.4) < 0.1);
}

TEST_CASE("an ncu CSV written as napkin's document reads back as the same reports") {
  const ncu_csv_run r = read_ncu_csv(file_text(real_file), "ncu_zoo_raw.csv");
  document_options o;
  o.gpu = r.gpu;
  const std::string json = to_json(r.run, o);
  CHECK(contains(json, "\"measured_by\": \"ncu\""));
  CHECK(contains(json, "ncu --page raw CSV: ncu_zoo_raw.csv"));
  const json_read_result parsed = parse_json(json, "ncu.json");
  REQUIRE(parsed.ok());
  const measured_run back = read_run(parsed.value, "ncu.json");
  REQUIRE(back.run.kernels.size() == r.run.kernels.size());
  for (std::size_t i = 0; i < r.run.kernels.size(); ++i) CHECK(back.run.kernels[i].values == r.run.kernels[i].values);
  CHECK(back.gpu.name == "NVIDIA H200");
  // The schema test (report_schema) validates it with the documents the library writes.
  napkin_test::write_file(NAPKIN_REPORT_DOCUMENTS_DIR, "ncu_kernel_reports.json", json);
}

TEST_CASE("ncu CSV details: BOM, CRLF, n/a, thousands separators") {
  const std::string m = "\"gpu__time_duration.sum\",\"dram__bytes_read.sum\",\"launch__func_cache_config\"";
  const std::string u = "\"ns\",\"byte\",\"\"";
  const ncu_csv_run crlf = read_ncu_csv("\xEF\xBB\xBF" + small_csv(m, u, "\"1,234,567.5\",\"n/a\",\"CachePreferNone\"", "\r\n"), "x.csv");
  REQUIRE(crlf.run.kernels.size() == 1);
  CHECK(crlf.run.kernels[0].name == "k(int)");
  CHECK(crlf.run.kernels[0].duration_ns() == 1234567.5);
  CHECK(crlf.run.kernels[0].values.size() == 1);
  CHECK(!crlf.run.kernels[0].launch);  // no LaunchStats columns: no launch, so no occupancy
  CHECK(looks_like_ncu_csv("\xEF\xBB\xBF" + small_csv(m, u, "\"1\",\"2\",\"x\"")));
  CHECK(!looks_like_ncu_csv("{\"schema\": \"napkin.kernel-reports\"}"));
  // A quoted field may hold a comma and a doubled quote; the last line needs no line end.
  std::string no_eol = small_csv("\"gpu__time_duration.sum\"", "\"ns\"", "\"5\"");
  no_eol.pop_back();
  CHECK(read_ncu_csv(no_eol, "x.csv").run.kernels[0].duration_ns() == 5.0);
  // A negative counter (ncu wrote one on the H200) is left out with a note.
  const ncu_csv_run neg = read_ncu_csv(small_csv("\"lts__t_sectors.sum\"", "\"sector\"", "\"-3\""), "x.csv");
  CHECK(neg.run.kernels[0].values.empty());
  REQUIRE(neg.notes.size() == 1);
  CHECK(contains(neg.notes[0], "must not be negative"));
  CHECK(detail::ncu_number("1,234") == 1234.0);
  CHECK(detail::ncu_number("-0.5e3") == -500.0);
  CHECK(!detail::ncu_number("1,23"));
  CHECK(!detail::ncu_number("12,3456"));
  CHECK(!detail::ncu_number("1.2.3"));
  CHECK(!detail::ncu_number("inf"));
  CHECK(!detail::ncu_number("0x10"));
  CHECK(!detail::ncu_number(""));
}

TEST_CASE("hostile ncu CSV input is napkin's input error naming the file and the place") {
  const std::string real = file_text(real_file);
  CHECK(contains(input_error_of([&] { read_ncu_csv("", "e.csv"); }), "e.csv: empty"));
  CHECK(contains(input_error_of([&] { read_ncu_csv("a,b\n1,2\n", "w.csv"); }), "w.csv: not ncu's raw CSV"));
  // Truncated inside a quoted cell, and at a cell boundary (a short last row).
  CHECK(contains(input_error_of([&] { read_ncu_csv(real.substr(0, real.size() / 2 + 3), "t.csv"); }), "t.csv:"));
  const std::size_t cut = real.rfind("\",\"");
  CHECK(contains(input_error_of([&] { read_ncu_csv(real.substr(0, cut + 1), "t.csv"); }), "cells, the header"));
  // A ragged row.
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"a.sum\"", "\"byte\"", "\"1\",\"2\""), "r.csv"); }),
                 "r.csv: row 3 has 13 cells, the header 12"));
  // Not a number where the column has a unit; a number too large for a double.
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"a.sum\"", "\"byte\"", "\"12abc\""), "n.csv"); }),
                 "n.csv: row 3, column 'a.sum': '12abc' is not a number"));
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"a.sum\"", "\"byte\"", "\"1e999\""), "h.csv"); }),
                 "'1e999' is not a finite number"));
  CHECK(read_ncu_csv(small_csv("\"a.sum\"", "\"byte\"", "\"1e300\""), "h.csv").run.kernels[0].get("a.sum") == 1e300);
  // Units scaled by ncu (no --print-units base): refused, naming the flag.
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"gpu__time_duration.sum\"", "\"usecond\"", "\"1.04\""), "s.csv"); }),
                 "--print-units base"));
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"dram__bytes.sum.per_second\"", "\"Gbyte/second\"", "\"1\""), "s.csv"); }),
                 "'Gbyte/second', a unit ncu scaled"));
  // ncu's details page starts as the raw page does: named for what it is.
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"Section Name\",\"Metric Name\"", "", "\"Occupancy\",\"x\""), "d.csv"); }),
                 "d.csv: ncu's details page (--page details): napkin reads the raw page"));
  // A metric name ncu does not write (it becomes a key of the values); a metric twice.
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"l\xff\xff~\"", "\"byte\"", "\"1\""), "m.csv"); }),
                 "' is not an ncu metric name (letters, digits, '_' and '.')"));
  CHECK(contains(input_error_of([&] { read_ncu_csv(small_csv("\"a.sum\",\"a.sum\"", "\"byte\",\"byte\"", "\"1\",\"2\""), "m.csv"); }),
                 "metric 'a.sum' is in columns 12 and 13"));
  // No units row; no kernel rows; no kernel name.
  std::string no_units = small_csv("\"a.sum\"", "\"byte\"", "\"1\"");
  no_units.erase(no_units.find('\n') + 1, no_units.find('\n', no_units.find('\n') + 1) - no_units.find('\n'));
  CHECK(contains(input_error_of([&] { read_ncu_csv(no_units, "u.csv"); }), "no units row"));
  const std::string header_only = real.substr(0, real.find('\n', real.find('\n') + 1) + 1);
  CHECK(contains(input_error_of([&] { read_ncu_csv(header_only, "h.csv"); }), "no kernel rows"));
  std::string unnamed = small_csv("\"a.sum\"", "\"byte\"", "\"1\"");
  unnamed.replace(unnamed.find("\"k(int)\""), 8, "\"\"");
  CHECK(contains(input_error_of([&] { read_ncu_csv(unnamed, "k.csv"); }), "row 3: no kernel name"));
}

TEST_CASE("without ncu's SpeedOfLight section the verdict says how to get it") {
  const ncu_csv_run r = read_ncu_csv(small_csv("\"gpu__time_duration.sum\"", "\"ns\"", "\"5\""), "x.csv");
  const sol_verdict v = r.run.kernels[0].sol_table();
  CHECK(v.kind == bottleneck::not_measured);
  CHECK(contains(v.reason, "--section SpeedOfLight"));
  // With it, napkin's verdicts are computed from ncu's SM % and Memory %.
  const ncu_csv_run sol = read_ncu_csv(
      small_csv("\"gpu__time_duration.sum\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\","
                "\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\"",
                "\"ns\",\"%\",\"%\"", "\"5\",\"12.5\",\"91.3\""),
      "x.csv");
  CHECK(sol.run.kernels[0].sm_pct() == 12.5);
  CHECK(sol.run.kernels[0].memory_pct() == 91.3);
  CHECK(sol.run.kernels[0].sol_table().kind != bottleneck::not_measured);
  CHECK(sol.run.kernels[0].ncu_rule());
}

TEST_CASE("ncu's CSV with SpeedOfLight and the FLOP counters (real, H200): the verdicts and FLOPs from ncu's numbers") {
  // tests/report/data/ncu_zoo_sol_raw.csv (data/README.md): ncu 2025.3.1 on an H200, --section SpeedOfLight
  // --section LaunchStats and napkin's nine FLOP counters, four zoo kernels. Its clocks are in "hz", the base unit.
  const ncu_csv_run r = read_ncu_csv(file_text(data + "/ncu_zoo_sol_raw.csv"), "sol.csv");
  REQUIRE(r.run.kernels.size() == 4);
  const auto find = [&](const char* prefix) -> const sol_report& {
    for (const auto& k : r.run.kernels)
      if (k.name.rfind(prefix, 0) == 0) return k;
    FAIL("no kernel " << prefix);
    return r.run.kernels.front();
  };
  const sol_report& fp32 = find("zoo_fp32_fma");
  const sol_report& fp64 = find("zoo_fp64_fma");
  const sol_report& strided = find("zoo_strided_load");
  const sol_report& copy = find("zoo_stream_copy");
  // The cells: SM 98.32 %, Memory 0.01 %, 295,072 ns; 8,858,370,048 FFMA and 2,162,688 FADD thread instructions:
  // 2 x 8,858,370,048 + 2,162,688 = 17,718,902,784 FP32 FLOP.
  CHECK(*fp32.sm_pct() == doctest::Approx(98.32));
  CHECK(*fp32.memory_pct() == doctest::Approx(0.01));
  CHECK(*fp32.duration_ns() == 295072);
  CHECK(*fp32.flop_fp32() == 17718902784.0);
  CHECK(*fp64.flop_fp64() == 2.0 * 8858370048.0 + 2162688.0);
  CHECK(*fp32.sm_hz() > 1e9);  // the "hz" column read as it is
  // Verdicts from ncu's SOL numbers by napkin's table: the FMA kernels compute-bound, the loads memory-bound.
  CHECK(fp32.sol_table().kind == bottleneck::compute_bound);
  CHECK(fp64.sol_table().kind == bottleneck::compute_bound);
  CHECK(strided.sol_table().kind == bottleneck::memory_bound_dram);  // Memory = DRAM 92.44 %, SM 2.61 %
  CHECK(copy.sol_table().kind == bottleneck::memory_bound_dram);     // Memory = DRAM 81.13 %, SM 6.19 %
  // ncu's own rule on the same numbers: SM or Memory at 80 % or more is high throughput.
  REQUIRE(fp32.ncu_rule());
  CHECK(fp32.ncu_rule()->kind == ncu_bottleneck::high_throughput);
  CHECK(copy.ncu_rule()->kind == ncu_bottleneck::high_throughput);
}
