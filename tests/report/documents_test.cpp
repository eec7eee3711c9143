// Every report type as a JSON document and a CSV table. One document is checked as a whole against text
// written by hand; the others field by field, read with nlohmann/json (an independent parser). Derived
// numbers are IEEE double arithmetic worked out by hand and checked with Python's float repr(), e.g.
// 1e6 B / (2000 * 1e-9 s) = 499999999999.99994 B/s.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report.hpp"
#include "samples.hpp"

using namespace napkin;
using nlohmann::json;

namespace {
const std::string unusual_name = "say \"hi\"\nsoftmax \xe2\x9c\x93";  // a quote, a newline, U+2713
}

TEST_CASE("sol-report: the whole document, with GPU facts and context from the caller") {
  document_options options;
  options.gpu.key = "h100-sxm";
  options.context.host = "node-7";
  options.context.rank = 3;
  CHECK(to_json(samples::one_pass(unusual_name), options) == R"({
  "schema": "napkin.sol-report",
  "schema_version": 1,
  "napkin_version": "0.1.0",
  "kind": "sol-report",
  "gpu": {
    "key": "h100-sxm",
    "chip": "GH100"
  },
  "context": {
    "host": "node-7",
    "rank": 3
  },
  "report": {
    "name": "say \"hi\"\nsoftmax ✓",
    "chip": "GH100",
    "measured_by": "scope",
    "metric_set": "one-pass",
    "passes": 1,
    "duration_ns": 2000,
    "sm_pct": null,
    "memory_pct": null,
    "dram_pct": null,
    "l1tex_pct": null,
    "l2_pct": null,
    "elapsed_cycles": null,
    "sm_active_cycles": null,
    "sm_hz": null,
    "dram_hz": null,
    "dram_bytes": 1000000,
    "dram_bytes_per_s": 499999999999.99994,
    "flop": null,
    "flop_per_s": null,
    "passes_agree": true,
    "passes_disagree": null,
    "verdicts": {
      "sol_table": {
        "kind": "not-measured",
        "text": "not measured",
        "reason": "the \"one-pass\" set has no SM % / Memory %: use the sol_fast or sol set."
      },
      "ncu_rule": null
    },
    "cost": {
      "enable_s": 0,
      "setup_s": 0,
      "passes_s": 0,
      "flush_s": 0,
      "cupti_s": 0,
      "work_s": 0,
      "decode_s": 0,
      "total_s": 0
    },
    "pass_samples": [],
    "values": {
      "dram__bytes.sum": 1000000,
      "gpu__time_duration.sum": 2000
    },
    "derived": {},
    "derivations": {}
  }
}
)");
}

TEST_CASE("sol-report: a full measurement's numbers, verdicts and cost") {
  sol_report r = samples::sol("softmax", 1000);
  r.derivations["sm_pct"] = "max of the SM sub-unit throughputs";
  const json j = json::parse(to_json(r));
  const json& e = j["report"];
  CHECK(j["gpu"] == json{{"chip", "GH100"}});
  CHECK(j.find("context") == j.end());  // optional, absent when nothing is known
  CHECK(e["measured_by"] == "kernel-replay");
  CHECK(e["passes"] == 9);
  CHECK(e["sm_pct"] == 30.0);
  CHECK(e["dram_bytes_per_s"] == 2499999999999.9995);  // 2.5e6 B / (1000 * 1e-9 s)
  CHECK(e["verdicts"]["sol_table"]["kind"] == "memory-bound-dram");
  CHECK(e["verdicts"]["sol_table"]["text"] == "memory-bound (DRAM)");
  CHECK(e["verdicts"]["sol_table"]["reason"] ==
        "SM 30.0%, Memory 85.0%, DRAM 80.0%: memory above 60% and DRAM above 60%: VRAM bandwidth is the limit.");
  CHECK(e["verdicts"]["ncu_rule"]["kind"] == "high-throughput");  // Memory >= 80
  CHECK(e["cost"]["total_s"] == 0.8125);                            // 0 + 0.25 + 0.5 + 0.0625
  CHECK(e["values"]["gpu__time_duration.sum"] == 1000.0);
  CHECK(e["derivations"]["sm_pct"] == "max of the SM sub-unit throughputs");
}

TEST_CASE("sol-report: passes that disagree give no verdict") {
  const json e = json::parse(to_json(samples::disagreeing("cublasSgemm")))["report"];
  CHECK(e["passes_agree"] == false);
  CHECK(e["passes_disagree"].get<std::string>().rfind("pass durations disagree", 0) == 0);
  CHECK(e["verdicts"]["sol_table"]["kind"] == "passes-disagree");
  CHECK(e["verdicts"]["ncu_rule"]["kind"] == "passes-disagree");
  CHECK(e["pass_samples"] == json::parse(R"([{"duration_ns": 140000000, "launches": 3},
                                              {"duration_ns": 2800000, "launches": 3}])"));
}

TEST_CASE("kernel-reports and phase-reports: one entity per kernel; the same kernel twice stays twice") {
  kernel_reports k;
  k.kernels = {samples::sol("gemm", 1000), samples::sol("gemm", 1100), samples::one_pass("softmax")};
  k.dropped = 2;
  const json j = json::parse(to_json(k));
  CHECK(j["schema"] == "napkin.kernel-reports");
  CHECK(j["kernels"].size() == 3);
  CHECK(j["dropped"] == 2);
  CHECK(j["kernels"][1]["duration_ns"] == 1100.0);
  const report_document d = to_document(k);
  REQUIRE(d.entities.size() == 3);
  CHECK(d.entities[0].name == "gemm");
  CHECK(d.entities[1].name == "gemm #2");
  CHECK(d.entities[2].name == "softmax");
  CHECK(d.entities[2].number("sm_pct") == nullptr);  // missing metric: absent, not 0
  REQUIRE(d.entities[0].verdict("sol_table") != nullptr);
  CHECK(d.entities[0].verdict("sol_table")->text == "memory-bound (DRAM)");

  const json empty = json::parse(to_json(kernel_reports{}));
  CHECK(empty["kernels"] == json::array());
  CHECK(empty["gpu"] == json::object());  // no kernel, no chip

  const json phases = json::parse(to_json(phase_reports{{samples::sol("attention", 1000)}}));
  CHECK(phases["kind"] == "phase-reports");
  CHECK(phases["phases"][0]["name"] == "attention");
}

TEST_CASE("comparison: the report with napkin math's expectation") {
  const sol_report r = samples::sol("softmax", 1000);
  // 2 MFLOP over 2 MB at 10 TFLOP/s and 1 TB/s: intensity 1 FLOP/B, ridge 10, bound 2 us.
  const workload_comparison c = compare(r, workload_model{"softmax", 2e6, 2e6, 1e13, 1e12});
  const json j = json::parse(to_json(r, c));
  const json& n = j["comparison"]["napkin"];
  CHECK(n["intensity_flop_per_byte"] == 1.0);
  CHECK(n["ridge_flop_per_byte"] == 10.0);
  CHECK(n["bound_ns"] == 2000.0);
  CHECK(n["time_over_bound"] == 0.5);
  CHECK(n["traffic_overhead"] == 1.25);                 // 2.5 MB measured / 2 MB minimum
  CHECK(n["bandwidth_of_peak"] == 2.4999999999999996);  // 2499999999999.9995 B/s / 1e12 B/s
  CHECK(n["flops_of_peak"] == 0.19999999999999998);     // 2e6 / 1.0000000000000002e-06 s / 1e13
  CHECK(n["expected"] == "memory-bound");
  CHECK(j["comparison"]["verdicts"]["expected"]["text"] == "memory-bound");
  const report_document d = to_document(r, c);
  REQUIRE(d.entities.size() == 1);
  REQUIRE(d.entities[0].number("napkin.traffic_overhead") != nullptr);
  CHECK(d.entities[0].number("napkin.traffic_overhead")->value == 1.25);
}

TEST_CASE("estimate: the workload, the GPU, the pipe and the roofline's answer") {
  workload w;
  w.flops = 4000000000;
  w.bytes_read = 600000000;
  w.bytes_written = 400000000;
  const estimate_report e = make_estimate_report("gemm, hand-made", w, samples::round_gpu, pipe::fp32);
  const json j = json::parse(to_json(e));
  CHECK(j["gpu"] == json{{"key", "round-gpu"}, {"name", "Round GPU"}, {"compute_capability", "9.0"}});
  const json& x = j["estimate"];
  CHECK(x["pipe"] == "fp32");
  CHECK(x["workload"]["bytes"] == 1000000000);
  CHECK(x["workload_types"]["input"] == "fp32");
  CHECK(x["intensity_flop_per_byte"] == 4.0);  // 4e9 / 1e9
  CHECK(x["ridge_flop_per_byte"] == 10.0);     // 1e13 / 1e12
  CHECK(x["compute_s"] == 0.0004);
  CHECK(x["memory_s"] == 0.001);
  CHECK(x["lower_bound_s"] == 0.001);
  CHECK(x["no_overlap_s"] == 0.0014);
  CHECK(x["attainable_flop_per_s"] == 4e12);  // min(1e13, 1e12 x 4)
  CHECK(x["verdicts"]["bound"]["kind"] == "memory-bound");
  CHECK(to_csv(e) ==
        "name,gpu,pipe,sparsity,flop,bytes,peak_flop_per_s,peak_bandwidth_bytes_per_s,intensity_flop_per_byte,"
        "ridge_flop_per_byte,compute_s,memory_s,lower_bound_s,no_overlap_s,attainable_flop_per_s,"
        "max_bytes_for_compute_bound,bound\r\n"
        "\"gemm, hand-made\",round-gpu,fp32,dense,4000000000,1000000000,10000000000000,1000000000000,4,10,0.0004,"
        "0.001,0.001,0.0014,4000000000000,400000000,memory-bound\r\n");
}

TEST_CASE("estimate: its sizes, as a JSON object and as CSV columns after the others") {
  workload w;
  w.flops = 4000000000;
  w.bytes_read = 600000000;
  w.bytes_written = 400000000;
  estimate_report e = make_estimate_report("gemm 1000", w, samples::round_gpu, pipe::fp32);
  CHECK(json::parse(to_json(e))["estimate"].count("sizes") == 0);  // none given: no member, no columns
  CHECK(to_csv(e).find(",bound\r\n") != std::string::npos);
  e.sizes = {{"m", 1000}, {"n", 2000}, {"k", 3}};
  const json j = json::parse(to_json(e));
  CHECK(j["estimate"]["sizes"] == json{{"m", 1000}, {"n", 2000}, {"k", 3}});
  const std::string csv = to_csv(e);
  CHECK(csv.find(",bound,m,n,k\r\n") != std::string::npos);
  CHECK(csv.find(",memory-bound,1000,2000,3\r\n") != std::string::npos);
  // diff compares them (no better direction: a changed size is "changed", never a regression).
  estimate_report bigger = e;
  bigger.sizes[0].second = 2000;
  const report_diff d = diff(to_document(e), to_document(bigger));
  CHECK_FALSE(d.regressed());
  CHECK(to_text(d).find("sizes.m") != std::string::npos);
}

TEST_CASE("occupancy: the limiter and the next step") {
  // CC 8.6, 256 threads, 128 registers: 4096 registers per warp, 4 warps in each 16384-register
  // sub-partition, 16 warps = 2 blocks of 8 warps, 16 of 48 warps. 80 registers (2560 per warp) fit 6
  // warps per sub-partition: 24 warps, 3 blocks; 81..87 round up to 2816 and still fit only 5.
  document_options o;
  o.name = "gemm_kernel";
  const json j = json::parse(to_json(next_step(limits_of({8, 6}), 256, {128}), o));
  const json& x = j["occupancy"];
  CHECK(j["gpu"] == json{{"compute_capability", "8.6"}});
  CHECK(x["name"] == "gemm_kernel");
  CHECK(x["blocks_per_sm"] == 2);
  CHECK(x["active_warps"] == 16);
  CHECK(x["max_warps_per_sm"] == 48);
  CHECK(x["occupancy_pct"] == 16.0 / 48 * 100.0);  // the fraction occupancy() gives, in percent
  CHECK(x["limiters"] == json{"registers"});
  CHECK(x["verdicts"]["limiter"]["text"] == "limited by registers");
  CHECK(x["next_step"]["registers_per_thread"] == json{{"value", 80}, {"active_warps", 24}});
  CHECK(x["next_step"]["at_maximum"] == false);

  // CC 9.0, 256 threads, 32 registers: 8 blocks, all 64 warps (napkin/occupancy.hpp's example).
  const json full = json::parse(to_json(next_step(limits_of({9, 0}), 256, {32}, 8 * 1024)))["occupancy"];
  CHECK(full["name"] == "occupancy");
  CHECK(full["occupancy_pct"] == 100.0);
  CHECK(full["next_step"]["at_maximum"] == true);
  CHECK(full["next_step"]["block_size_threads"].is_null());

  // An invalid launch: valid false, the error's name, no blocks.
  const json bad = json::parse(to_json(try_occupancy(limits_of({9, 0}), 2048, {32})))["occupancy"];
  CHECK(bad["valid"] == false);
  CHECK(bad["error"] == "threads_above_device_limit");
  CHECK(bad["verdicts"]["limiter"]["kind"] == "invalid-launch");
  CHECK(bad.find("next_step") == bad.end());
}

TEST_CASE("gpu-specs: one GPU or the table; unknown figures are null") {
  const json h = json::parse(to_json(gpus::h100_sxm));
  CHECK(h["gpu"]["key"] == "h100-sxm");
  const json& g = h["gpus"][0];
  CHECK(g["sm_count"] == 132);
  CHECK(g["l2_bytes"] == 52428800);  // 50 MiB
  CHECK(g["memory_bandwidth_bytes_per_s"] == 3.35e12);
  CHECK(g["peak_flop_per_s"]["fp32"] == 66.9e12);
  CHECK(g["ridge_flop_per_byte"]["fp32"] == 19.970149253731343);  // 66.9e12 / 3.35e12
  const json r = json::parse(to_json(samples::round_gpu))["gpus"][0];
  CHECK(r["peak_flop_per_s"]["fp64"].is_null());
  CHECK(r["ridge_flop_per_byte"]["fp32"] == 10.0);
  const std::vector<gpu_spec> table(gpu_table.begin(), gpu_table.end());
  const json all = json::parse(to_json(table));
  CHECK(all["gpus"].size() == 17);
  CHECK(all["gpu"] == json::object());  // about no single GPU
  const std::string csv = to_csv(samples::round_gpu);
  CHECK(csv.rfind("key,name,compute_capability,sm_count,boost_clock_mhz,memory_bandwidth_bytes_per_s,l2_bytes,"
                  "peak_fp64_flop_per_s,peak_fp32_flop_per_s,peak_fp16_flop_per_s,",
                  0) == 0);
  CHECK(csv.find("\r\nround-gpu,Round GPU,9.0,100,1500,1000000000000,52428800,,10000000000000,,,,,,,,,,,"
                 "hand-made for tests\r\n") != std::string::npos);
}

TEST_CASE("CSV: profiler reports, one row each, RFC 4180 quoting") {
  CHECK(to_csv(samples::one_pass(unusual_name)) ==
        "name,chip,measured_by,metric_set,passes,duration_ns,sm_pct,memory_pct,dram_pct,l1tex_pct,l2_pct,"
        "elapsed_cycles,sm_active_cycles,sm_hz,dram_hz,dram_bytes,dram_bytes_per_s,flop,flop_per_s,sol_verdict,"
        "ncu_verdict,passes_agree,cost_s\r\n"
        "\"say \"\"hi\"\"\nsoftmax \xe2\x9c\x93\",GH100,scope,one-pass,1,2000,,,,,,,,,,1000000,499999999999.99994,,,"
        "not-measured,,true,0\r\n");
  kernel_reports k;
  k.kernels = {samples::sol("a", 1000), samples::sol("b", 1000)};
  const std::string csv = to_csv(k);
  CHECK(csv.find("\r\na,GH100,kernel-replay,sol,9,1000,30,85,80,40,50,1980,1900,1980000000,2619000000,2500000,"
                 "2499999999999.9995,,,memory-bound-dram,high-throughput,true,0.8125\r\nb,") != std::string::npos);
  CHECK(to_csv(kernel_reports{}).find("\r\n") == csv.find("\r\n"));  // the header alone
}

// OWASP's CSV injection: a name a spreadsheet would run as a formula starts with ' ; numbers never change.
TEST_CASE("CSV: text fields that start a formula get a leading quote, numbers do not") {
  CHECK(to_csv(samples::one_pass("=HYPERLINK(1)")).find("\r\n'=HYPERLINK(1),GH100,") != std::string::npos);
  csv_table t{{"name", "value"},
              {{"+x", "-1.5"}, {"-x", "-2e-05"}, {"@SUM(A1)", "+3"}, {"\tx", "1E+300"}, {"\rx", "-.5"}, {"-", "0"}}};
  CHECK(write_csv(t) == "name,value\r\n'+x,-1.5\r\n'-x,-2e-05\r\n'@SUM(A1),+3\r\n'\tx,1E+300\r\n\"'\rx\",-.5\r\n'-,0\r\n");
}
