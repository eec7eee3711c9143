// The GPU table against ridges computed by hand from the datasheet figures, against the CUDA C++
// Programming Guide's per-SM rates, and the derivation of a spec from device properties.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "math/error_message.hpp"
#include "napkin/math.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {
constexpr double abs_diff(double a, double b) { return a > b ? a - b : b - a; }
// The ridges below are written to one decimal; napkin's ridge must round to the same figure.
constexpr bool rounds_to(double value, double printed) { return abs_diff(value, printed) <= 0.05 + 1e-9; }
}  // namespace

// ---- Ridge points, by hand: datasheet peak GFLOP/s / datasheet GB/s ---------------------------------
// FP32 (CUDA cores).
static_assert(rounds_to(ridge_point(gpus::v100_sxm2, pipe::fp32), 17.4));      // 15,700 / 900
static_assert(rounds_to(ridge_point(gpus::a100_sxm_80gb, pipe::fp32), 9.6));   // 19,500 / 2,039
static_assert(rounds_to(ridge_point(gpus::h100_sxm, pipe::fp32), 20.0));       // 66,900 / 3,350
static_assert(rounds_to(ridge_point(gpus::rtx_4090, pipe::fp32), 81.9));       // 82,600 / 1,008
// FP16 (CUDA cores, non-tensor).
static_assert(rounds_to(ridge_point(gpus::v100_sxm2, pipe::fp16), 34.9));      // 31,400 / 900
static_assert(rounds_to(ridge_point(gpus::a100_sxm_80gb, pipe::fp16), 38.3));  // 78,000 / 2,039
static_assert(rounds_to(ridge_point(gpus::h100_sxm, pipe::fp16), 39.9));       // 133,800 / 3,350
// A common mix-up: RTX 4090 "FP16 165.2 TFLOPS" (-> ridge 163.9) is the dense FP16 *tensor* rate with
// FP32 accumulate (Ada whitepaper); non-tensor FP16 on AD102 runs 1:1 with FP32 (82.6 TFLOPS -> ridge
// 81.9). 163.9 is the tensor pipe's ridge.
static_assert(rounds_to(ridge_point(gpus::rtx_4090, pipe::fp16), 81.9));
static_assert(!rounds_to(ridge_point(gpus::rtx_4090, pipe::fp16), 163.9));
static_assert(rounds_to(ridge_point(gpus::rtx_4090, pipe::fp16_tensor), 163.9));
// FP16 tensor cores, FP32 accumulate (TFLOP/s).
static_assert(rounds_to(ridge_point(gpus::v100_sxm2, pipe::fp16_tensor), 138.9));      // 125 / 900
static_assert(rounds_to(ridge_point(gpus::a100_sxm_80gb, pipe::fp16_tensor), 153.0));  // 312 / 2,039
// H100: tables that round the dense peak to 989 get 295.2; napkin keeps 989.4 (1.83 GHz x 132 SMs x 4096
// FLOP/clk), whose ridge is 295.3. Both are the dense figure (sparse would give 590.7).
static_assert(abs_diff(ridge_point(gpus::h100_sxm, pipe::fp16_tensor), 295.2) < 0.15);
static_assert(rounds_to(989e12 / 3350e9, 295.2));

TEST_CASE("datasheet peaks and bandwidths match the table, at run time") {
  struct row {
    const char* gpu;
    pipe p;
    double datasheet_peak;  // FLOP/s
    double datasheet_bw;    // B/s
    double ridge;           // by hand, one decimal
  };
  const row rows[] = {
      {"v100-sxm2", pipe::fp32, 15700e9, 900e9, 17.4},       {"a100-sxm-80gb", pipe::fp32, 19500e9, 2039e9, 9.6},
      {"h100-sxm", pipe::fp32, 66900e9, 3350e9, 20.0},       {"rtx-4090", pipe::fp32, 82600e9, 1008e9, 81.9},
      {"v100-sxm2", pipe::fp16, 31400e9, 900e9, 34.9},       {"a100-sxm-80gb", pipe::fp16, 78000e9, 2039e9, 38.3},
      {"h100-sxm", pipe::fp16, 133800e9, 3350e9, 39.9},      {"v100-sxm2", pipe::fp16_tensor, 125e12, 900e9, 138.9},
      {"a100-sxm-80gb", pipe::fp16_tensor, 312e12, 2039e9, 153.0},
  };
  for (const row& r : rows) {
    CAPTURE(std::string(r.gpu));
    const gpu_spec& g = find_gpu(r.gpu);
    CHECK(g.peak(r.p) == r.datasheet_peak);
    CHECK(g.memory_bandwidth == r.datasheet_bw);
    CHECK(rounds_to(ridge_point(g, r.p), r.ridge));
  }
  // H100 tensor: 989.4 in the table vs the rounded 989 (0.04%).
  CHECK(find_gpu("h100-sxm").peak(pipe::fp16_tensor) == doctest::Approx(989e12).epsilon(5e-4));
  // The mix-up: RTX 4090 "FP16" 165,200 GFLOPS is not the FP16 (CUDA-core) pipe ...
  CHECK(find_gpu("rtx-4090").peak(pipe::fp16) == 82.6e12);
  // ... it is the tensor pipe with FP32 accumulate; with FP16 accumulate the rate doubles.
  CHECK(find_gpu("rtx-4090").peak(pipe::fp16_tensor) == 165.2e12);
  CHECK(find_gpu("rtx-4090").peak(pipe::fp16_tensor_fp16acc) == 330.3e12);
}

TEST_CASE("the table: size, unique keys, sources, dense values") {
  CHECK(gpu_table.size() >= 15);
  std::set<std::string> keys;
  for (const gpu_spec& g : gpu_table) {
    CAPTURE(std::string(g.key));
    CHECK(keys.insert(std::string(g.key)).second);
    CHECK(find_gpu(g.key).name == g.name);
    CHECK(!g.source.empty());
    CHECK(g.memory_bandwidth > 0);
    CHECK(g.has(pipe::fp32));
    CHECK(g.cc_major >= 7);
    // Dense tensor rates are at least the CUDA-core rate (a sparse value pasted in would often still pass
    // this, so the per-GPU checks below pin exact dense figures).
    if (g.has(pipe::fp16_tensor)) CHECK(g.peak(pipe::fp16_tensor) > g.peak(pipe::fp32));
  }
  for (const char* k : {"v100-sxm2", "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb",
                        "h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "b200", "l4", "l40s", "t4", "a10",
                        "rtx-3090", "rtx-4090", "rtx-6000-ada"})
    CHECK(keys.count(k) == 1);
  // Dense, not the datasheets' headline sparse figures (NVIDIA: "1/2 lower without sparsity").
  CHECK(find_gpu("h100-sxm").peak(pipe::bf16_tensor) == 989.4e12);   // sparse: 1,979
  CHECK(find_gpu("h100-sxm").peak(pipe::fp8_tensor) == 1978.9e12);   // sparse: 3,958
  CHECK(find_gpu("a100-sxm-80gb").peak(pipe::tf32_tensor) == 156e12);  // sparse: 312
  CHECK(find_gpu("l4").peak(pipe::fp16_tensor) == 121e12);           // datasheet 242 with sparsity
  CHECK(find_gpu("b200").peak(pipe::bf16_tensor) == 2250e12);        // HGX page 4.5 PF sparse
  // A100 40 vs 80 GB differ only in bandwidth (research note: 2,039 GB/s is the 80 GB part).
  CHECK(ridge_point(find_gpu("a100-sxm-40gb"), pipe::fp32) == doctest::Approx(19.5e12 / 1555e9));
  CHECK(rounds_to(ridge_point(find_gpu("a100-sxm-40gb"), pipe::fp32), 12.5));
  // A100 FP16 vec is 4x FP32 but BF16 vec only 2x; H100 has both at 2x.
  CHECK(find_gpu("a100-sxm-80gb").peak(pipe::bf16) == 39e12);
  CHECK(find_gpu("h100-sxm").peak(pipe::bf16) == find_gpu("h100-sxm").peak(pipe::fp16));
}

TEST_CASE("FP32 peaks agree with SMs x FMA/clk/SM x 2 x boost clock (CUDA Programming Guide rates)") {
  // Arithmetic-instruction throughput table: 32-bit FMA results per clock per SM are 64 on CC 7.0, 7.5
  // and 8.0, and 128 on 8.6, 8.9 and 9.0. Each FMA is 2 FLOPs.
  for (const gpu_spec& g : gpu_table) {
    if (g.sm_count == 0 || g.boost_clock_mhz == 0) continue;
    const int cc = g.cc_major * 10 + g.cc_minor;
    double fma_per_clk = 0;
    if (cc == 70 || cc == 75 || cc == 80) fma_per_clk = 64;
    if (cc == 86 || cc == 89 || cc == 90) fma_per_clk = 128;
    if (fma_per_clk == 0) continue;
    CAPTURE(std::string(g.key));
    const double expected = g.sm_count * fma_per_clk * 2 * g.boost_clock_mhz * 1e6;
    CHECK(g.peak(pipe::fp32) == doctest::Approx(expected).epsilon(0.01));
  }
}

TEST_CASE("pipes: names, tensor pipe by (input, accumulate), errors") {
  for (pipe p : all_pipes) CHECK(parse_pipe(to_string(p)) == p);
  CHECK(tensor_pipe(dtype::fp16, dtype::fp32) == pipe::fp16_tensor);
  CHECK(tensor_pipe(dtype::fp16, dtype::fp16) == pipe::fp16_tensor_fp16acc);
  CHECK(tensor_pipe(dtype::int8, dtype::int32) == pipe::int8_tensor);
  CHECK(vector_pipe(dtype::tf32) == pipe::fp32);
  CHECK_THROWS_AS(tensor_pipe(dtype::fp32, dtype::fp32), std::invalid_argument);
  CHECK_THROWS_AS(vector_pipe(dtype::int8), std::invalid_argument);
  CHECK_THROWS_AS(parse_pipe("fp17"), std::invalid_argument);
  CHECK(contains(error_message([] { parse_pipe("fp17"); }), "'fp17'"));
  // Unknown GPU.
  CHECK_THROWS_AS(find_gpu("h100-sxm6"), std::invalid_argument);
  CHECK(contains(error_message([] { find_gpu("h100-sxm6"); }), "unknown GPU 'h100-sxm6'"));
  // A pipe the chip does not have: V100 has no BF16, T4 no TF32.
  CHECK_THROWS_AS(gpus::v100_sxm2.peak(pipe::bf16_tensor), std::invalid_argument);
  CHECK(contains(error_message([] { gpus::t4.peak(pipe::tf32_tensor); }), "'t4' has no 'tf32-tc' pipe"));
}

TEST_CASE("derive_gpu_spec: specs from device properties") {
  // What the runtime reports on an H100 SXM: 132 SMs, 1,980 MHz max SM clock, 2,619 MHz memory clock,
  // 5,120-bit bus, 50 MB L2.
  constexpr device_facts h100{9, 0, 132, 1980000, 2619000, 5120, 50 * MB};
  constexpr gpu_spec d = derive_gpu_spec(h100);
  // 2 x 2.619e9 x 5120 / 8 = 3.352e12 B/s vs the datasheet's 3.35 TB/s.
  static_assert(abs_diff(d.memory_bandwidth, 3.35e12) / 3.35e12 < 1e-3);
  CHECK(d.memory_bandwidth == doctest::Approx(2.0 * 2.619e9 * 640));
  // Vector pipes: the datasheet figures (132 x 256 x 1.98e9 = 66.9e12).
  CHECK(d.peak(pipe::fp32) == doctest::Approx(66.9e12).epsilon(1e-3));
  CHECK(d.peak(pipe::fp64) == doctest::Approx(33.5e12).epsilon(2e-3));  // 33.45, rounded to 33.5
  // Tensor pipes at the max clock: 1.98/1.83 = 8.2% above the datasheet's 989.4 — an upper bound.
  CHECK(d.peak(pipe::fp16_tensor) == doctest::Approx(989.4e12 * 1980.0 / 1830.0).epsilon(1e-3));
  CHECK(d.peak(pipe::fp16_tensor) >= gpus::h100_sxm.peak(pipe::fp16_tensor));

  // H100 PCIe (114 SMs, 1,755 MHz): reproduces its datasheet, whose rates did not feed the per-SM table.
  constexpr gpu_spec pcie = derive_gpu_spec({9, 0, 114, 1755000, 1593000, 5120, 50 * MB});
  CHECK(pcie.peak(pipe::fp32) == doctest::Approx(51.2e12).epsilon(2e-3));
  CHECK(pcie.peak(pipe::fp64) == doctest::Approx(25.6e12).epsilon(2e-3));
  CHECK(pcie.memory_bandwidth == doctest::Approx(2039e9).epsilon(1e-3));
  // L40S (142 SMs, 2,520 MHz) from rates taken from the L4.
  constexpr gpu_spec l40s = derive_gpu_spec({8, 9, 142, 2520000, 9000000, 384, 96 * MB});
  CHECK(l40s.peak(pipe::fp32) == doctest::Approx(91.6e12).epsilon(2e-3));
  CHECK(l40s.memory_bandwidth == doctest::Approx(864e9).epsilon(1e-3));
  // RTX 4090 (GDDR6X reports 10,501 MHz): 2 x 10.501e9 x 48 B = 1.008e12.
  constexpr gpu_spec g4090 = derive_gpu_spec({8, 9, 128, 2520000, 10501000, 384, 72 * MB});
  CHECK(g4090.memory_bandwidth == doctest::Approx(1008e9).epsilon(1e-3));
  CHECK(g4090.peak(pipe::fp32) == doctest::Approx(82.6e12).epsilon(2e-3));
  // GeForce FP32-accumulate tensor math runs at half the datacenter rate the derivation assumes.
  CHECK(g4090.peak(pipe::fp16_tensor) == doctest::Approx(2 * gpus::rtx_4090.peak(pipe::fp16_tensor)).epsilon(2e-3));

  // An unknown compute capability: bandwidth yes, peaks no (an error that names the pipe).
  const gpu_spec future = derive_gpu_spec({13, 0, 200, 2000000, 4000000, 8192, 0});
  CHECK(future.memory_bandwidth > 0);
  CHECK_THROWS_AS(future.peak(pipe::fp32), std::invalid_argument);
  CHECK_THROWS_AS(derive_gpu_spec({9, 0, 0, 1980000, 2619000, 5120, 0}), std::domain_error);
  CHECK_THROWS_AS(dram_bandwidth(0, 5120), std::domain_error);
}
