// Report arithmetic, verdicts and the napkin comparison: plain C++, no CUPTI. Expected values are the SOL
// table's rows (docs/profiler.md), ncu's SOLBottleneck thresholds (sections/SpeedOfLight.py), napkin::estimate
// (what the `napkin` CLI prints) and hand arithmetic written out below.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/profiler/report.hpp"
#include "napkin/math.hpp"

using namespace napkin;

TEST_CASE("SOL table: one case per row") {
  CHECK(classify_by_sol_table(75, 40, 20).kind == bottleneck::compute_bound);        // SM > 60, Mem < 60
  CHECK(classify_by_sol_table(30, 85, 80).kind == bottleneck::memory_bound_dram);    // Mem > 60, DRAM > 60
  CHECK(classify_by_sol_table(30, 85, 12).kind == bottleneck::internal_congestion);  // Mem > 60, DRAM < 30
  CHECK(classify_by_sol_table(70, 72, 50).kind == bottleneck::balanced);             // both > 60
  CHECK(classify_by_sol_table(15, 22, 10).kind == bottleneck::latency_bound);        // both < 40
}

TEST_CASE("SOL table: gaps between rows are named, not guessed") {
  const auto mid = classify_by_sol_table(30, 85, 45);  // DRAM between 30 and 60
  CHECK(mid.kind == bottleneck::unclassified);
  CHECK(mid.reason.find("between 30% and 60%") != std::string::npos);
  CHECK(classify_by_sol_table(50, 45, 20).kind == bottleneck::unclassified);  // both below 60, one above 40
  CHECK(classify_by_sol_table(30, 85, std::nullopt).kind == bottleneck::unclassified);
  // Boundaries: 60 counts as high, 40 is not latency-bound.
  CHECK(classify_by_sol_table(60, 10, 5).kind == bottleneck::compute_bound);
  CHECK(classify_by_sol_table(39.9, 39.9, 5).kind == bottleneck::latency_bound);
  CHECK(classify_by_sol_table(40, 39, 5).kind == bottleneck::unclassified);
}

TEST_CASE("verdict inputs must be percentages") {
  CHECK_THROWS_AS(classify_by_sol_table(-1, 10, 5), std::invalid_argument);
  CHECK_THROWS_AS(classify_by_sol_table(10, std::nan(""), 5), std::invalid_argument);
  CHECK_THROWS_AS(classify_by_ncu_rule(10, std::numeric_limits<double>::infinity()), std::invalid_argument);
}

TEST_CASE("ncu's SOLBottleneck rule: 80 / 60 / 10-point thresholds") {
  CHECK(classify_by_ncu_rule(85, 20).kind == ncu_bottleneck::high_throughput);
  CHECK(classify_by_ncu_rule(20, 80).kind == ncu_bottleneck::high_throughput);  // >= 80
  CHECK(classify_by_ncu_rule(59.9, 59.9).kind == ncu_bottleneck::latency_issue);
  CHECK(classify_by_ncu_rule(70, 55).kind == ncu_bottleneck::compute_dominant);
  CHECK(classify_by_ncu_rule(50, 60).kind == ncu_bottleneck::memory_dominant);  // |diff| >= 10
  CHECK(classify_by_ncu_rule(65, 70).kind == ncu_bottleneck::balanced);
  const auto mem = classify_by_ncu_rule(30, 92, {90.0, 40.0, 60.0});
  CHECK(mem.reason.find("DRAM") != std::string::npos);  // the busiest memory unit measured
}

namespace {
metric_set sol_like() { return metric_sets::sol(); }
}  // namespace

TEST_CASE("report from values: accessors, bandwidth and FLOP arithmetic") {
  metric_set set = metric_sets::roofline_full();
  std::vector<double> values(set.metrics.size(), 0.0);
  auto put = [&](const char* name, double v) {
    for (std::size_t i = 0; i < set.metrics.size(); ++i)
      if (set.metrics[i] == name) values[i] = v;
  };
  put(metric::duration_ns, 2'000'000);  // 2 ms
  put(metric::dram_bytes, 6e9);         // 6 GB in 2 ms = 3e12 B/s
  put(metric::sm_throughput_pct, 20);
  put(metric::memory_throughput_pct, 90);
  put(metric::dram_throughput_pct, 88);
  put(metric::fadd, 100);
  put(metric::fmul, 10);
  put(metric::ffma, 1000);  // 100 + 10 + 2*1000 = 2110 FP32 FLOP
  put(metric::dfma, 5);     // 2*5 = 10 FP64 FLOP
  const sol_report r = make_report("k", set, values);
  CHECK(*r.duration_ns() == doctest::Approx(2e6));
  CHECK(*r.dram_bytes_per_s() == doctest::Approx(3e12));
  CHECK(*r.flop_fp32() == doctest::Approx(2110));
  CHECK(*r.flop_fp64() == doctest::Approx(10));
  CHECK(*r.flop() == doctest::Approx(2120));
  CHECK(r.sol_table().kind == bottleneck::memory_bound_dram);
  CHECK(r.ncu_rule()->kind == ncu_bottleneck::high_throughput);
  CHECK_THROWS_AS(make_report("k", set, {1.0}), std::invalid_argument);
}

TEST_CASE("DRAM bytes from read + write when only those were collected") {
  sol_report r;
  r.values[metric::dram_bytes_read] = 300;
  r.values[metric::dram_bytes_write] = 200;
  CHECK(*r.dram_bytes() == doctest::Approx(500));
  CHECK_FALSE(r.sm_pct());
  CHECK(r.sol_table().kind == bottleneck::not_measured);
  CHECK_FALSE(r.ncu_rule());
}

TEST_CASE("napkin comparison: a float reduction on an H100 SXM") {
  // Reduction of N floats: FLOP = N (one add per element), bytes = 4N, intensity 0.25. H100 SXM datasheet: 67 TFLOP/s
  // FP32, 3.35 TB/s HBM3 -> ridge 67e12 / 3.35e12 = 20 FLOP/B.
  const double n = 1 << 28;
  const workload_model w{"reduce", n, 4 * n, 67e12, 3.35e12};
  sol_report r = make_report("reduce", sol_like(), std::vector<double>(sol_like().metrics.size(), 0.0));
  r.values[metric::duration_ns] = 400'000;        // 0.4 ms
  r.values[metric::dram_bytes] = 4 * n * 1.05;    // 5% over the minimum
  r.values[metric::sm_throughput_pct] = 25;
  r.values[metric::memory_throughput_pct] = 92;
  r.values[metric::dram_throughput_pct] = 91;
  const workload_comparison c = compare(r, w);
  CHECK(c.intensity == doctest::Approx(0.25));
  CHECK(c.ridge == doctest::Approx(20));
  CHECK_FALSE(c.expect_compute_bound);
  // Bound: max(n / 67e12, 4n / 3.35e12) s = 4 * 268435456 / 3.35e12 s = 320.5 us.
  CHECK(c.bound_ns == doctest::Approx(4.0 * n / 3.35e12 * 1e9));
  CHECK(*c.time_over_bound == doctest::Approx(400'000 / (4.0 * n / 3.35e12 * 1e9)));
  CHECK(*c.traffic_overhead == doctest::Approx(1.05));
  // Bandwidth: 4n * 1.05 bytes in 0.4 ms, over 3.35e12.
  CHECK(*c.bandwidth_of_peak == doctest::Approx(4 * n * 1.05 / 4e-4 / 3.35e12));
  CHECK(c.expectation.find("Consistent") != std::string::npos);
}

TEST_CASE("napkin comparison: the two inconsistencies and the traffic reading") {
  // GEMM 4096^3 FP32: 2 m^3 FLOP over 3 m^2 x 4 bytes = 682.7 FLOP/B >> ridge 20: expected compute-bound.
  const double m = 4096;
  const workload_model gemm{"gemm", 2 * m * m * m, 3 * m * m * 4, 67e12, 3.35e12};
  sol_report r;
  r.metric_set = "sol";
  r.values[metric::duration_ns] = 5e6;
  r.values[metric::sm_throughput_pct] = 30;
  r.values[metric::memory_throughput_pct] = 85;
  r.values[metric::dram_throughput_pct] = 80;
  r.values[metric::dram_bytes] = 3 * m * m * 4 * 10;  // 10x the minimum
  const auto c = compare(r, gemm);
  CHECK(c.intensity == doctest::Approx(2 * m * m * m / (3 * m * m * 4)));  // 682.7
  CHECK(c.expect_compute_bound);
  CHECK(c.expectation.find("moves far more data") != std::string::npos);
  CHECK(*c.traffic_overhead == doctest::Approx(10));
  CHECK(c.traffic_reading.find("re-reads") != std::string::npos);
  CHECK_THROWS_AS(compare(r, workload_model{"bad", 1, 0, 1, 1}), std::invalid_argument);
}

TEST_CASE("text and key=value renderings carry the numbers") {
  sol_report r = make_report("my kernel", sol_like(), std::vector<double>(sol_like().metrics.size(), 50.0));
  r.chip = "GH100";
  r.passes = 9;
  const std::string text = to_text(r);
  CHECK(text.find("Compute (SM) Throughput") != std::string::npos);
  CHECK(text.find("9 passes") != std::string::npos);
  CHECK(text.find("Verdict (SOL table):  unclassified - SM 50.0%, Memory 50.0%") != std::string::npos);
  CHECK(text.find("Verdict (ncu's rule): latency issue") != std::string::npos);
  const std::string kv = to_key_values(r);
  CHECK(kv.rfind("NAPKIN_SOL name=my_kernel chip=GH100 set=sol passes=9", 0) == 0);
  CHECK(kv.find("gpu__time_duration.sum=50") != std::string::npos);
  r.cost.setup_s = 0.25;
  r.cost.cupti_s = 0.5;
  CHECK(to_key_values(r).find(" setup_s=0.25 ") != std::string::npos);
  CHECK(to_key_values(r).find(" cupti_s=0.5 ") != std::string::npos);
  CHECK(r.cost.total_s() == 0.25);  // cupti_s is a part of passes_s, not added again
  r.how = measured_by::phase;
  CHECK(to_text(r).find("NVTX phase, one pass per occurrence") != std::string::npos);
}

TEST_CASE("the ncu-style section keeps its columns: label 28, unit 8, value right-aligned in 14") {
  // The lines as printf("    %-28s %-8s %14.*f\\n") printed them before number_text.
  sol_report r;
  r.values[metric::duration_ns] = 977730;        // 977.73 us
  r.values[metric::elapsed_cycles] = 1932132;
  const std::string text = to_text(r);
  CHECK(text.find("\n    Duration                     us               977.73\n") != std::string::npos);
  CHECK(text.find("\n    Elapsed Cycles               cycle           1932132\n") != std::string::npos);
  CHECK(text.find("\n    Memory Throughput            %                   n/a\n") != std::string::npos);
}

TEST_CASE("enum text: a short stable name, and the phrase the report prints") {
  CHECK(to_string(bottleneck::memory_bound_dram) == "memory-bound-dram");
  CHECK(describe(bottleneck::memory_bound_dram) == "memory-bound (DRAM)");
  CHECK(to_string(ncu_bottleneck::memory_dominant) == "memory-dominant");
  CHECK(describe(ncu_bottleneck::memory_dominant) == "memory throughput dominates");
  CHECK(to_string(measured_by::application_replay) == "application-replay");
  CHECK(describe(measured_by::application_replay) == "kernel, application replay");
  CHECK(to_string(static_cast<bottleneck>(99)) == "unknown");
  CHECK(to_string(static_cast<measured_by>(99)) == "unknown");
}

// ---------------------------------------------------------------------------------------------------
// Replay passes that disagree about the same work (issue #12, item 2). Synthetic per-pass samples; the
// thresholds are the documented ones: more than 25 % AND more than 1 ms apart, launch counts exactly equal.

namespace {
std::vector<pass_sample> samples(std::initializer_list<double> ns) {
  std::vector<pass_sample> out;
  for (double d : ns) out.push_back({d, std::size_t{1}});
  return out;
}
}  // namespace

TEST_CASE("replay passes: noise agrees, the first call of a library does not") {
  // A 2.8 ms GEMM whose 9 passes vary by up to 10 % (the spread measure() showed between runs on H100).
  CHECK(find_pass_disagreement(samples({2.80e6, 2.95e6, 2.71e6, 3.00e6, 2.85e6, 2.78e6, 2.90e6, 2.82e6, 2.75e6})).empty());
  // The audit: the first cublasSgemm of a process, 140 ms in pass 1, 2.8 ms after.
  const std::string first_call =
      find_pass_disagreement(samples({140e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6}));
  CHECK(first_call.find("pass durations disagree: pass 1 took 140.00 ms, pass 2 2.80 ms") != std::string::npos);
  CHECK(first_call.find("(4900% longer") != std::string::npos);  // 140 / 2.8 = 50 times: 4900 % longer
  CHECK(first_call.find("initializes something") != std::string::npos);
  // The 25 % line: 5.0 ms after 4.0 ms is exactly 25 % (agrees); 5.04 ms is 26 % and 1.04 ms (disagrees).
  CHECK(find_pass_disagreement(samples({4.00e6, 5.00e6})).empty());
  CHECK_FALSE(find_pass_disagreement(samples({4.00e6, 5.04e6})).empty());
  // The 1 ms floor: host time of the same short call jitters by several times its duration (36-127 us for
  // one cublasSgemm on an H200), not by more than 1 ms.
  CHECK(find_pass_disagreement(samples({36e3, 127e3, 40e3})).empty());       // 3.5x, but 91 us apart
  CHECK(find_pass_disagreement(samples({10e3, 1010e3})).empty());            // exactly 1 ms apart
  CHECK(find_pass_disagreement(samples({10e3, 1020e3})).find("pass 2 took 1.02 ms, pass 1 10.00 us") !=
        std::string::npos);
  CHECK(find_pass_disagreement({}).empty());
  CHECK(find_pass_disagreement(samples({5e6})).empty());
  CHECK_THROWS_AS(find_pass_disagreement(samples({1e6, std::nan("")})), std::invalid_argument);
  CHECK_THROWS_AS(find_pass_disagreement(samples({1e6, -1.0})), std::invalid_argument);
}

TEST_CASE("replay passes: kernel launch counts must be equal") {
  std::vector<pass_sample> p = samples({1e6, 1e6, 1e6});
  p[2].launches = 2;
  CHECK(find_pass_disagreement(p).find("kernel launches per pass disagree: pass 1 launched 1, pass 3 launched 2") !=
        std::string::npos);
  p[0].launches = std::nullopt;  // unknown (another CUPTI client): compared among the known ones
  CHECK(find_pass_disagreement(p).find("pass 2 launched 1, pass 3 launched 2") != std::string::npos);
  p[2].launches = 1;
  CHECK(find_pass_disagreement(p).empty());
}

TEST_CASE("a report whose passes disagree says so and gives no verdict") {
  // The audit's numbers for the first cublasSgemm: SM 2 %, Memory 3 %: the SOL table would say latency-bound.
  sol_report r = make_report("sgemm", sol_like(), std::vector<double>(sol_like().metrics.size(), 0.0));
  r.chip = "GH100";
  r.passes = 9;
  r.values[metric::duration_ns] = 140e6;
  r.values[metric::sm_throughput_pct] = 2;
  r.values[metric::memory_throughput_pct] = 3;
  r.values[metric::dram_throughput_pct] = 1;
  CHECK(r.sol_table().kind == bottleneck::latency_bound);  // what the old report said
  r.pass_samples = samples({140e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6, 2.8e6});
  r.passes_disagree = find_pass_disagreement(r.pass_samples);
  REQUIRE_FALSE(r.passes_disagree.empty());
  CHECK(r.sol_table().kind == bottleneck::passes_disagree);
  CHECK(r.sol_table().reason == r.passes_disagree);
  REQUIRE(r.ncu_rule());
  CHECK(r.ncu_rule()->kind == ncu_bottleneck::passes_disagree);
  const std::string text = to_text(r);
  CHECK(text.find("    Passes disagree: pass durations disagree: pass 1 took 140.00 ms") != std::string::npos);
  CHECK(text.find("    Verdict: none - the replay passes disagree") != std::string::npos);
  CHECK(text.find("latency") == std::string::npos);
  CHECK(text.find("Verdict (SOL table)") == std::string::npos);
  CHECK(to_key_values(r).find(" passes_agree=0") != std::string::npos);
  const workload_model gemm{"gemm", 2.0 * 4096 * 4096 * 4096, 3.0 * 4096 * 4096 * 4, 67e12, 3.35e12};
  CHECK(compare(r, gemm).expectation.find("No regime to compare: the replay passes disagree") != std::string::npos);
  r.passes_disagree.clear();
  CHECK(to_key_values(r).find(" passes_agree=1") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------------
// One roofline model: compare() is built from napkin::estimate, the estimate the `napkin` CLI prints
// (issue #13). Same tie rule (an intensity at the ridge is compute-bound), same peaks, sparsity included.

namespace {
// A report whose SOL table says memory-bound (DRAM), with a duration and DRAM bytes.
sol_report memory_bound_report(double duration_ns, double dram_bytes) {
  sol_report r = make_report("k", sol_like(), std::vector<double>(sol_like().metrics.size(), 0.0));
  r.values[metric::duration_ns] = duration_ns;
  r.values[metric::dram_bytes] = dram_bytes;
  r.values[metric::sm_throughput_pct] = 20;
  r.values[metric::memory_throughput_pct] = 90;
  r.values[metric::dram_throughput_pct] = 88;
  return r;
}
}  // namespace

TEST_CASE("a workload exactly at the ridge: the same regime in estimate() and in a report's comparison") {
  // H100 SXM, FP32 CUDA cores: ridge = peak / bandwidth. A workload of peak/1e9 FLOP over bandwidth/1e9 bytes
  // has the same intensity, to the bit (both are the correctly rounded quotient of the same two integers).
  const gpu_spec& h100 = find_gpu("h100-sxm");
  const double flops = h100.peak(pipe::fp32) / 1e9, bytes = h100.memory_bandwidth / 1e9;
  REQUIRE(flops == std::floor(flops));
  REQUIRE(bytes == std::floor(bytes));
  workload w;
  w.flops = static_cast<std::uint64_t>(flops);
  w.bytes_read = static_cast<std::uint64_t>(bytes);
  REQUIRE(w.intensity() == ridge_point(h100, pipe::fp32));  // exactly at the ridge

  const roofline_estimate cli = estimate(w, h100, pipe::fp32);  // what `napkin roofline` prints
  CHECK(cli.bound == regime::compute_bound);                    // at the ridge: compute-bound
  const workload_comparison c = compare(memory_bound_report(1e6, bytes), w, h100, pipe::fp32);
  CHECK(c.model.bound == cli.bound);
  CHECK(c.expect_compute_bound);
  CHECK(c.intensity == cli.intensity);
  CHECK(c.ridge == cli.ridge);
  CHECK(c.bound_ns == doctest::Approx(cli.lower_bound_seconds() * 1e9));
  CHECK(c.expectation.find("expected compute-bound; measured memory-bound (DRAM)") != std::string::npos);
  // The generic inputs give the same answer (their tie went the other way before issue #13).
  const workload_model generic{"tie", flops, bytes, h100.peak(pipe::fp32), h100.memory_bandwidth};
  CHECK(compare(memory_bound_report(1e6, bytes), generic).expect_compute_bound);
}

TEST_CASE("compare() honours 2:4 sparsity: the sparse peak doubles the ridge") {
  // FP16 tensor cores on an H100 SXM. A workload of intensity 1.5 x the dense ridge is compute-bound on the
  // dense pipe and memory-bound on the 2:4-sparse one (ridge 2 x dense).
  const gpu_spec& h100 = find_gpu("h100-sxm");
  const double dense_ridge = ridge_point(h100, pipe::fp16_tensor);
  const double sparse_ridge = ridge_point(h100, pipe::fp16_tensor, sparsity::sparse_2_4);
  CHECK(sparse_ridge == doctest::Approx(2 * dense_ridge));
  workload w;
  w.bytes_read = 1'000'000;
  w.flops = static_cast<std::uint64_t>(1.5 * dense_ridge * 1e6);
  const sol_report r = memory_bound_report(100e3, 1e6);

  const workload_comparison dense = compare(r, w, h100, pipe::fp16_tensor);
  CHECK(dense.expect_compute_bound);
  CHECK(dense.model.bound == estimate(w, h100, pipe::fp16_tensor).bound);

  const workload_comparison sparse = compare(r, w, h100, pipe::fp16_tensor, sparsity::sparse_2_4);
  const roofline_estimate cli = estimate(w, h100, pipe::fp16_tensor, sparsity::sparse_2_4);
  CHECK_FALSE(sparse.expect_compute_bound);
  CHECK(sparse.model.bound == cli.bound);
  CHECK(sparse.ridge == doctest::Approx(sparse_ridge));
  CHECK(sparse.bound_ns == doctest::Approx(cli.lower_bound_seconds() * 1e9));
  // The achieved FLOP/s is read against the sparse peak: half the dense fraction.
  CHECK(*sparse.flops_of_peak == doctest::Approx(*dense.flops_of_peak / 2));
  CHECK(sparse.expectation.find("expected memory-bound; measured memory-bound (DRAM)") != std::string::npos);
  // A pipe without a sparse rate is refused, as estimate() refuses it.
  CHECK_THROWS(compare(r, w, h100, pipe::fp32, sparsity::sparse_2_4));
}

TEST_CASE("the napkin lines: numbers through napkin's one formatter") {
  // Reduction of 2^28 floats on the H100 SXM's FP32 roof: 0.25 FLOP/B, bound 4 * 2^28 / 3.35e12 s = 320.52 us.
  const double n = 1 << 28;
  const workload_model w{"reduce", n, 4 * n, 66.9e12, 3.35e12};
  const workload_comparison c = compare(memory_bound_report(400e3, 4 * n * 1.05), w);
  const std::string text = to_text(c);
  CHECK(text.find("    Napkin: intensity 0.2500 FLOP/B vs ridge 19.97 FLOP/B: expected memory-bound;") == 0);
  CHECK(text.find("    Roofline lower bound 320.52 us; measured 1.25x the bound\n") != std::string::npos);
  CHECK(text.find("    Traffic overhead 1.05x the minimum bytes: within 2x") != std::string::npos);
  CHECK(text.find("    Achieved DRAM bandwidth 84.1% of peak; workload FLOP/s 1.0% of peak\n") != std::string::npos);
}
