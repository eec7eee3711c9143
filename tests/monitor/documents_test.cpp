// The monitor's report as a napkin document (napkin/monitor/monitor_documents.hpp): its JSON read back by
// nlohmann/json (an independent parser), its CSV, and diff() of two runs. Expected values are hand
// arithmetic on the windows below.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "monitor/helpers.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_documents.hpp"

using namespace napkin;
using json = nlohmann::json;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
// [0,1000) SM 20 DRAM 80 L1 30 L2s 40, 600 + 400 B: "load" in decode/attention, complete.
// [1000,2000) SM 60 DRAM 10 L1 20 L2s 15, 100 + 100 B: NCCL all-reduce [1000,1800) and "pack" [1800,2000),
//     both launched in "allreduce" (80 % communication); the window is fully busy.
// "load" again at [3000,4000): after the last window, never sampled, so "load" is partial.
monitor_report run(double load_sm = 20) {
  const std::vector<pm_sample> samples = {sample(0, 1000, load_sm, 80, 30, 40, 600, 400),
                                          sample(1000, 2000, 60, 10, 20, 15, 100, 100)};
  const std::vector<kernel_record> k = {kernel("load", 0, 1000, {"decode", "attention"}),
                                        kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 1000, 1800, {"allreduce"}),
                                        kernel("pack", 1800, 2000, {"allreduce"}),
                                        kernel("load", 3000, 4000, {"decode", "attention"})};
  return make_monitor_report(k, attribute(samples, k, {}, keep_first()), 2);
}

// `name` is a C string: a std::string temporary argument makes GCC 14+ suspect the returned reference
// (-Wdangling-reference).
const json& row(const json& doc, const char* name) {
  for (const json& r : doc.at("rows"))
    if (r.at("name") == name) return r;
  FAIL("no row " << name);
  return doc;
}
}  // namespace

TEST_CASE("JSON: the header, the device, one row per phase, path and kernel") {
  const json doc = json::parse(to_json(run()));
  CHECK(doc.at("schema") == "napkin.monitor-report");
  CHECK(doc.at("kind") == "monitor-report");
  CHECK(doc.at("context").at("device_index") == 2);  // from the monitor's device
  CHECK(doc.at("monitor").at("device") == 2);
  CHECK(doc.at("monitor").at("sampled_ns") == 2000);
  CHECK(doc.at("monitor").at("samples_kept") == 2);
  CHECK(doc.at("rows").size() == 2 + 2 + 3);  // phases attention, allreduce; the same paths; three kernels
  const json& load = row(doc, "kernel: load");
  CHECK(load.at("label") == "load");
  CHECK(load.at("count") == 2);
  CHECK(load.at("complete") == 1);
  CHECK(load.at("partial") == true);
  CHECK(load.at("sm_pct").get<double>() == doctest::Approx(20));
  CHECK(load.at("l2_slices_pct").get<double>() == doctest::Approx(40));
  CHECK(load.at("l2_figure") == "slices");
  CHECK(load.at("dram_bytes_per_complete_launch").get<double>() == doctest::Approx(1000));
  CHECK(load.at("totals").at("gpu_ns") == 2000);
  CHECK(load.at("totals").at("unsampled_ns") == 1000);
  CHECK(load.at("totals").at("dram_bytes").get<double>() == doctest::Approx(1000));  // the sampled launch only
  CHECK(load.at("verdicts").at("sol_table").at("kind") == "memory-bound-dram");
  // The all-reduce phase: 800 of 1000 ns in the NCCL kernel; 200 B split 160 / 40 by time.
  const json& allreduce = row(doc, "phase: allreduce");
  CHECK(allreduce.at("communication_fraction").get<double>() == doctest::Approx(0.8));
  CHECK(allreduce.at("activity") == "communication");
  CHECK(allreduce.at("verdicts").at("activity").at("kind") == "communication");
  CHECK(allreduce.at("totals").at("communication_ns").get<double>() == doctest::Approx(800));
  // Its two kernels ran only together, in one window: the rate solve cannot tell them apart, so the phase
  // has no readings, no bytes and no verdict, and says why.
  CHECK(allreduce.at("totals").at("dram_bytes").is_null());
  CHECK(allreduce.at("sm_pct").is_null());
  CHECK(allreduce.at("verdicts").at("resolution").at("kind") == "collinear");
  CHECK(allreduce.at("verdicts").at("sol_table").at("kind") == "not-measured");
  CHECK(load.at("verdicts").at("resolution").at("kind") == "resolved");
  CHECK(load.at("alone_fraction").get<double>() == doctest::Approx(1));
  CHECK(load.at("resolution_windows") == 1);
  CHECK(row(doc, "path: decode/attention").at("count") == 2);
  CHECK(row(doc, "kernel: pack").at("activity") == "compute");
}

TEST_CASE("JSON: a caller's context wins; an empty report is a valid document") {
  document_options o;
  o.context.device_index = 5;
  o.context.device_name = "NVIDIA H200";
  o.context.rank = 3;
  const json doc = json::parse(to_json(run(), o));
  CHECK(doc.at("context").at("device_index") == 5);
  CHECK(doc.at("context").at("rank") == 3);
  const json empty = json::parse(to_json(monitor_report{}));
  CHECK(empty.at("rows").empty());
  CHECK(empty.at("monitor").at("idle_fraction").is_null());
  CHECK(to_document(monitor_report{}).ok());
}

TEST_CASE("CSV: one row per phase, path and kernel") {
  const std::string csv = to_csv(run());
  CHECK(csv.rfind("by,name,count,complete,partial,gpu_ns,mean_ns,sampled_ns,concurrent_ns,sm_pct,sm_pct_upper,dram_pct,"
                  "l1tex_pct,l2_slices_pct,l2_figure,memory_pct,dram_read_bytes,dram_write_bytes,dram_bytes,"
                  "dram_bytes_per_s,dram_bytes_per_complete_launch,communication_fraction,activity,sol_verdict,"
                  "resolution,standard_error_pct,alone_fraction\r\n",
                  0) == 0);
  // load: 2 launches, 1 complete; 1000 ns sampled of 2000; 600 + 400 B over 1000 ns = 1e9 B/s (written as
  // 1000 / (1000 x 1e-9) rounds: 999999999.9999999), then 1000 B per complete launch. No SM % inputs, no bound:
  // sm_pct_upper is empty.
  const std::size_t load = csv.find("\r\nkernel,load,2,1,true,2000,1000,1000,0,20,,80,30,40,slices,80,600,400,1000,");
  REQUIRE(load != std::string::npos);
  const std::size_t end = csv.find("\r\n", load + 2);
  const std::string tail = csv.substr(load, end - load);
  // load was alone in its one window: resolved, its error not estimable (one window), alone all its time.
  const std::string last = ",1000,0,compute,memory-bound-dram,resolved,,1";
  CHECK(tail.find(last) == tail.size() - last.size());
  const std::size_t bw = tail.rfind(",1000,0,compute");
  CHECK(std::stod(tail.substr(tail.rfind(',', bw - 1) + 1)) == doctest::Approx(1e9));
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n' ? 1 : 0;
  CHECK(lines == 1 + 7);
}

TEST_CASE("diff: two monitor reports compare row by row; the JSON file reads back equal") {
  const report_document before = to_document(run(20));
  REQUIRE(before.ok());
  CHECK(before.entities.size() == 7);
  const report_entity* load = nullptr;
  for (const report_entity& e : before.entities)
    if (e.name == "kernel: load") load = &e;
  REQUIRE(load != nullptr);
  CHECK(load->number("sm_pct")->value == doctest::Approx(20));
  CHECK(load->number("totals.dram_bytes")->value == doctest::Approx(1000));
  CHECK(load->verdict("activity")->text == "compute");
  // SM 20 -> 10 in load's window: sm_pct is better higher, so the load rows regress.
  const report_diff d = diff(before, to_document(run(10)));
  CHECK(d.regressed());
  bool load_sm_worse = false;
  for (const field_change& c : d.changes)
    if (c.entity == "kernel: load" && c.field == "sm_pct") load_sm_worse = c.status == change_status::worse;
  CHECK(load_sm_worse);
  CHECK_FALSE(diff(before, to_document(run(20))).regressed());
  const report_document read = read_document(to_json(run(20)));
  REQUIRE(read.ok());
  CHECK_FALSE(diff(before, read).regressed());
  CHECK(diff(before, read).changes.size() == diff(before, before).changes.size());
}
