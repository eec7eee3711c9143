// Roofline bounds, regimes and ridge points, against hand arithmetic, including the lower bounds of
// three kernels with published H100/H200 measurements (docs/napkin-math.md cites them).
#include <doctest/doctest.h>

#include <stdexcept>

#include "math/error_message.hpp"
#include "napkin/math.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

// Compile-time use: an fp16 4096³ GEMM (1365 FLOP/B) is compute-bound on H100 tensor cores (ridge 295).
constexpr roofline_estimate hgemm =
    estimate(gemm(4096, 4096, 4096, dtype::fp16), gpus::h100_sxm, pipe::fp16_tensor);
static_assert(hgemm.bound == regime::compute_bound);
static_assert(expected_regime(reduction(1 << 20), gpus::h100_sxm, pipe::fp32) == regime::memory_bound);
static_assert(intensity_to_be_compute_bound(gpus::h100_sxm, pipe::fp32) == 66.9e12 / 3350e9);

TEST_CASE("H100 SXM, 4096³ fp32 GEMM on the FP32 pipe") {
  // t_math = 2·4096³ / 66.9e12 = 2.054 ms; t_mem = 3·4096²·4 / 3.35e12 = 60.1 µs.
  const roofline_estimate e = estimate(gemm(4096, 4096, 4096), gpus::h100_sxm, pipe::fp32);
  CHECK(e.compute_seconds == doctest::Approx(137438953472.0 / 66.9e12));
  CHECK(e.compute_seconds == doctest::Approx(2.054e-3).epsilon(1e-3));
  CHECK(e.memory_seconds == doctest::Approx(60.1e-6).epsilon(1e-3));
  CHECK(e.lower_bound_seconds() == e.compute_seconds);
  CHECK(e.no_overlap_seconds() == doctest::Approx(e.compute_seconds + e.memory_seconds));
  CHECK(e.bound == regime::compute_bound);
  CHECK(e.ridge == doctest::Approx(19.97).epsilon(1e-3));
  CHECK(e.attainable_flops == 66.9e12);
  // It stays compute-bound as long as it moves less than FLOPs / ridge bytes.
  CHECK(e.max_bytes_for_compute_bound() == doctest::Approx(137438953472.0 / (66.9e12 / 3350e9)));
}

TEST_CASE("predicted lower bounds of published measurements") {
  // BF16 8192³ on tensor cores (cuBLAS measured 1.378 ms, pranjalssh/fast.cu): 2·8192³ = 1.0995 TFLOP /
  // 989.4 TFLOP/s = 1.111 ms.
  CHECK(lower_bound_seconds(gemm(8192, 8192, 8192, dtype::bf16), gpus::h100_sxm, pipe::bf16_tensor) ==
        doctest::Approx(1.111e-3).epsilon(1e-3));
  // Softmax fp32 16K x 131K (QuACK measured 3.01 TB/s, Dao-AILab/quack): 2·2^14·2^17·4 B = 17.18 GB at
  // 3.35 TB/s = 5.13 ms, memory-bound.
  const roofline_estimate sm = estimate(softmax(16384, 131072), gpus::h100_sxm, pipe::fp32);
  CHECK(sm.bytes == doctest::Approx(17.18e9).epsilon(1e-3));
  CHECK(sm.lower_bound_seconds() == doctest::Approx(5.13e-3).epsilon(1e-3));
  CHECK(sm.bound == regime::memory_bound);
  // H200 int32 sum of 2^28 (CUB measured 249.3 µs, NVIDIA/cccl PR #9722): 1.074 GB at 4.8 TB/s = 223.7 µs.
  // (Integer math has no pipe in the table; the kernel is memory-bound whatever the pipe, so use the FP32
  // roof.)
  CHECK(lower_bound_seconds(reduction(1 << 28, dtype::int32), gpus::h200_sxm, pipe::fp32) ==
        doctest::Approx(223.7e-6).epsilon(1e-3));
}

TEST_CASE("attainable FLOP/s and the ridge") {
  const roof r = roof_of(gpus::h100_sxm, pipe::fp32);
  CHECK(r.attainable_flops(0.25) == 0.25 * 3350e9);  // a reduction: 837.5 GFLOP/s at most
  CHECK(r.attainable_flops(1000) == 66.9e12);
  CHECK(r.attainable_flops(r.ridge()) == doctest::Approx(66.9e12));
  CHECK(attainable_flops(gpus::h100_sxm, pipe::fp32, 0.0) == 0.0);
  CHECK_THROWS_AS(r.attainable_flops(-1), std::domain_error);
  // A kernel is compute-bound from the ridge up.
  CHECK(estimate(elementwise(1 << 20, 1, 0, 80, dtype::fp32), r).bound == regime::compute_bound);  // 20 FLOP/B
  CHECK(estimate(elementwise(1 << 20, 1, 0, 79, dtype::fp32), r).bound == regime::memory_bound);
}

TEST_CASE("regimes flip with the pipe: compute-bound in FP32, memory-bound on tensor cores") {
  // A 1024 x 1024 x 256 fp16 GEMM: 2·1024·1024·256 / (2·(1024·256 + 256·1024 + 1024·1024))
  //   = 536,870,912 / 3,145,728 = 170.7 FLOP/B, between the FP16 (39.9) and FP16-tensor (295.3) ridges.
  const workload w = gemm(1024, 1024, 256, dtype::fp16);
  CHECK(w.intensity() == doctest::Approx(536870912.0 / 3145728.0));
  CHECK(expected_regime(w, gpus::h100_sxm, pipe::fp16) == regime::compute_bound);        // ridge 39.9
  CHECK(expected_regime(w, gpus::h100_sxm, pipe::fp16_tensor) == regime::memory_bound);  // ridge 295.3
}

TEST_CASE("sparsity only when asked") {
  CHECK(peak_flops(gpus::h100_sxm, pipe::fp16_tensor) == 989.4e12);
  CHECK(peak_flops(gpus::h100_sxm, pipe::fp16_tensor, sparsity::sparse_2_4) == 2 * 989.4e12);
  // The sparse H100 ridge that some published tables use by mistake: 1,979 / 3.35 = 590.7.
  CHECK(ridge_point(gpus::h100_sxm, pipe::fp16_tensor, sparsity::sparse_2_4) == doctest::Approx(590.7).epsilon(1e-3));
  CHECK_THROWS_AS(peak_flops(gpus::h100_sxm, pipe::fp32, sparsity::sparse_2_4), std::invalid_argument);
  CHECK_THROWS_AS(peak_flops(gpus::h100_sxm, pipe::fp64_tensor, sparsity::sparse_2_4), std::invalid_argument);
  CHECK_THROWS_AS(peak_flops(gpus::v100_sxm2, pipe::fp16_tensor, sparsity::sparse_2_4), std::invalid_argument);
  CHECK(contains(error_message([] { peak_flops(gpus::t4, pipe::int8_tensor, sparsity::sparse_2_4); }), "2:4"));
}

TEST_CASE("default pipe per workload") {
  const gpu_spec& h = gpus::h100_sxm;
  CHECK(default_pipe(h, gemm(64, 64, 64, dtype::fp16)) == pipe::fp16_tensor);
  CHECK(default_pipe(h, gemm(64, 64, 64, element_types{dtype::fp16, dtype::fp16, dtype::fp16})) ==
        pipe::fp16_tensor_fp16acc);
  CHECK(default_pipe(h, gemm(64, 64, 64, dtype::fp32)) == pipe::fp32);  // TF32 only when asked
  CHECK(default_pipe(h, gemm(64, 64, 64, dtype::tf32)) == pipe::tf32_tensor);
  CHECK(default_pipe(h, gemm(64, 64, 64, dtype::fp64)) == pipe::fp64_tensor);
  CHECK(default_pipe(gpus::v100_sxm2, gemm(64, 64, 64, dtype::fp64)) == pipe::fp64);  // no DMMA on Volta
  CHECK(default_pipe(h, conv2d(conv2d_shape{}, dtype::bf16)) == pipe::bf16_tensor);
  CHECK(default_pipe(h, softmax(8, 8, dtype::fp16)) == pipe::fp32);  // accumulates in fp32
  CHECK(default_pipe(h, elementwise(8, 1, 1, 1, element_types{dtype::fp16, dtype::fp16, dtype::fp16})) ==
        pipe::fp16);
  // BF16 GEMM on V100: no such pipe, a clear error rather than a number.
  CHECK_THROWS_AS(estimate(gemm(64, 64, 64, dtype::bf16), gpus::v100_sxm2), std::invalid_argument);
}

TEST_CASE("derated roofs and bad roofs") {
  const roof r = derate(roof_of(gpus::h100_sxm, pipe::bf16_tensor), 0.8, 0.9);
  CHECK(r.peak_flops == doctest::Approx(0.8 * 989.4e12));
  CHECK(r.bandwidth == doctest::Approx(0.9 * 3350e9));
  CHECK_THROWS_AS(derate(r, 1.2, 0.9), std::domain_error);
  const roof no_peak{0, 1e12};
  CHECK_THROWS_AS(estimate(gemm(1, 1, 1), no_peak), std::domain_error);
  const roof negative_bandwidth{1e12, -1};
  CHECK_THROWS_AS(negative_bandwidth.ridge(), std::domain_error);
}
