// Workload FLOPs, bytes and intensities against NVIDIA's GPU Performance Background guide, the
// FlashAttention convention, and hand arithmetic written out next to each check.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

#include "math/error_message.hpp"
#include "napkin/math/workloads.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {
constexpr bool near(double a, double b, double tol) { return a > b - tol && a < b + tol; }
}  // namespace

// ---- Square GEMM and a sum, by hand --------------------------------------------------------------
// fp32 GEMM, M = N = K = 4096: 2·4096³ FLOP / (3·4096²·4 B) = 8192/12 = 682.7 FLOP/B.
constexpr workload sgemm4096 = gemm(4096, 4096, 4096, dtype::fp32);
static_assert(sgemm4096.flops == 2ull * 4096 * 4096 * 4096);
static_assert(sgemm4096.bytes() == 3ull * 4096 * 4096 * 4);
static_assert(near(sgemm4096.intensity(), 682.0, 1.0));
static_assert(near(sgemm4096.intensity(), 8192.0 / 12.0, 1e-9));
// fp16: half the bytes, 8192 / 6 = 1365.3 FLOP/B.
constexpr workload hgemm4096 = gemm(4096, 4096, 4096, dtype::fp16);
static_assert(near(hgemm4096.intensity(), 1364.0, 2.0));
static_assert(near(hgemm4096.intensity(), 8192.0 / 6.0, 1e-9));
// A sum of N floats: N adds / 4N bytes = 0.25 FLOP/B.
constexpr workload sum_floats = reduction(1 << 28, dtype::fp32);
static_assert(near(sum_floats.intensity(), 0.25, 1e-6));

TEST_CASE("GEMM and sum: the same numbers at run time") {
  const std::int64_t n = 4096;  // not constexpr: exercise the run-time path
  CHECK(gemm(n, n, n, dtype::fp32).intensity() == doctest::Approx(682.67).epsilon(1e-4));
  CHECK(gemm(n, n, n, dtype::fp16).intensity() == doctest::Approx(1365.33).epsilon(1e-4));
  CHECK(reduction(std::int64_t{1} << 28).intensity() == doctest::Approx(0.25).epsilon(1e-6));
}

TEST_CASE("GEMM variants: C read, fp8, batch, MACs, NVIDIA guide's Linear layer") {
  // beta != 0 reads C too: 2·4096³ / (4·4096²·4) = 512 exactly.
  CHECK(gemm(4096, 4096, 4096, dtype::fp32, gemm_options{1, true}).intensity() == 512.0);
  // fp8 in and out: 2·4096 / 3 = 2730.7.
  CHECK(gemm(4096, 4096, 4096, dtype::fp8).intensity() == doctest::Approx(8192.0 / 3.0));
  // fp16 in, fp32 out: bytes = 2·(2·4096²) + 4·4096² = 8·4096² -> 2·4096/8 = 1024.
  CHECK(gemm(4096, 4096, 4096, element_types{dtype::fp16, dtype::fp32, dtype::fp32}).intensity() == 1024.0);
  // Batched: everything times the batch, the intensity unchanged.
  const workload one = gemm(128, 256, 512, dtype::bf16);
  const workload eight = gemm(128, 256, 512, dtype::bf16, gemm_options{8, false});
  CHECK(eight.flops == 8 * one.flops);
  CHECK(eight.bytes() == 8 * one.bytes());
  CHECK(eight.intensity() == one.intensity());
  // MAC convention (fvcore/THOP): half the FLOPs reported; the roofline keeps 2·64³ (counting_test.cpp).
  CHECK(gemm(64, 64, 64, dtype::fp32, {}, counting::macs()).counted_flops() == 64ull * 64 * 64);
  CHECK(gemm(64, 64, 64, dtype::fp32, {}, counting::macs()).flops == 2ull * 64 * 64 * 64);
  // NVIDIA guide, FP16 Linear 4096 out x 1024 in, batch 512 -> 315 FLOP/B; batch 1 -> 1 FLOP/B.
  //   2·512·4096·1024 / (2·(512·1024 + 1024·4096 + 512·4096)) = 4294967296 / 13631488 = 315.08
  CHECK(gemm(512, 4096, 1024, dtype::fp16).intensity() == doctest::Approx(315.08).epsilon(1e-4));
  CHECK(gemm(1, 4096, 1024, dtype::fp16).intensity() == doctest::Approx(0.998).epsilon(1e-3));
  CHECK(gemm(1, 1, 1).matrix);
}

TEST_CASE("reduction") {
  // 1000 fp16 values into one fp32: 1000 adds, 2000 + 4 bytes.
  const workload w = reduction(1000, element_types{dtype::fp16, dtype::fp32, dtype::fp32});
  CHECK(w.flops == 1000);
  CHECK(w.bytes_read == 2000);
  CHECK(w.bytes_written == 4);
  // Row sums of a 1024 x 4096 fp32 matrix: 1024 outputs.
  CHECK(reduction(1024 * 4096, dtype::fp32, 1024).bytes_written == 1024 * 4);
  CHECK_THROWS_AS(reduction(10, dtype::fp32, 11), std::domain_error);
}

TEST_CASE("softmax: FLOPs per element and the bytes each algorithm moves") {
  // 5 ops per element (max, subtract, exp, sum, divide); fp32 read once + written once = 8 B: 0.625.
  const workload fused = softmax(1024, 1024);
  CHECK(fused.flops == 5ull * 1024 * 1024);
  CHECK(fused.intensity() == 0.625);
  // fp16: 5 / 4 = 1.25.
  CHECK(softmax(1024, 1024, dtype::fp16).intensity() == 1.25);
  // Online (2 reads + 1 write = 12 B) and three-pass (3 reads + 1 write = 16 B), fp32.
  CHECK(softmax(1024, 1024, dtype::fp32, softmax_algorithm::online).bytes() == 12ull * 1024 * 1024);
  CHECK(softmax(1024, 1024, dtype::fp32, softmax_algorithm::three_pass).bytes() == 16ull * 1024 * 1024);
  // Dongarra's weights (exp 8, div 4): 3 + 8 + 4 = 15 ops reported per element; the intensity stays 0.625.
  const workload dongarra = softmax(1024, 1024, dtype::fp32, softmax_algorithm::fused, counting::dongarra());
  CHECK(dongarra.counted_flops() == 15ull * 1024 * 1024);
  CHECK(dongarra.intensity() == 0.625);
}

TEST_CASE("elementwise: ReLU, AXPY, copy") {
  // NVIDIA guide: ReLU fp16 = 1 op / (2 + 2) bytes = 0.25.
  CHECK(elementwise(1 << 20, 1, 1, 1, dtype::fp16).intensity() == 0.25);
  // AXPY fp32: 2 ops / 12 bytes.
  CHECK(elementwise(1 << 20, 2, 1, 2, dtype::fp32).intensity() == doctest::Approx(2.0 / 12.0));
  const workload copy = elementwise(1000, 1, 1, 0, dtype::fp32);
  CHECK(copy.flops == 0);
  CHECK(copy.bytes() == 8000);
  CHECK(copy.intensity() == 0.0);
  CHECK_THROWS_AS(elementwise(10, 0, 0, 1), std::domain_error);
  CHECK_THROWS_AS(elementwise(10, -1, 1, 1), std::invalid_argument);
}

TEST_CASE("layer norm and RMS norm") {
  // Layer norm, 4 rows x 1024 fp32: per element 3 + 2·2 = 7, per row 2 div + 1 rsqrt + 1 add = 4.
  const workload ln = layer_norm(4, 1024, dtype::fp32);
  CHECK(ln.flops == 4 * 1024 * 7 + 4 * 4);
  CHECK(ln.bytes_read == (4 * 1024 + 2 * 1024) * 4);  // x, gamma, beta
  CHECK(ln.bytes_written == 4 * 1024 * 4);
  CHECK(ln.intensity() < 10);  // NVIDIA guide: "LayerNorm < 10"
  // RMS norm: per element 2 + 2 = 4, per row 1 div + 1 rsqrt + 1 add = 3.
  const workload rms = rms_norm(4, 1024, dtype::fp32);
  CHECK(rms.flops == 4 * 1024 * 4 + 4 * 3);
  CHECK(rms.bytes_read == (4 * 1024 + 1024) * 4);
}

TEST_CASE("attention, FlashAttention's counting convention") {
  // flash-attention benchmarks: flops = 4·batch·seqlen²·nheads·headdim, /2 causal; bwd 2.5x; fwd+bwd 3.5x.
  attention_shape s{2, 16, 4096, 4096, 128};
  const std::uint64_t fa = 4ull * 2 * 4096 * 4096 * 16 * 128;
  CHECK(attention(s).flops == fa);
  CHECK(attention(s, dtype::fp16, pass::backward).flops == fa * 5 / 2);
  CHECK(attention(s, dtype::fp16, pass::forward_backward).flops == fa * 7 / 2);
  s.causal = true;
  CHECK(attention(s).flops == fa / 2);

  // Prefill N = 4096, d = 128, fp16, one head: 4·N²·d / (4·N·d·2) = N / 2 = 2048 FLOP/B.
  CHECK(attention(attention_shape{1, 1, 4096, 4096, 128}).intensity() == 2048.0);
  // Decode (Nq = 1): 4·Nk·d / (2·Nk·d·2 + 2·2·d) ~= 1 FLOP/B in fp16 ...
  CHECK(attention(attention_shape{1, 1, 1, 4096, 128}).intensity() == doctest::Approx(1.0).epsilon(1e-3));
  // ... and about 8x that with grouped-query attention, 32 query heads sharing 4 KV heads.
  CHECK(attention(attention_shape{1, 32, 1, 4096, 128, 4}).intensity() == doctest::Approx(8.0).epsilon(1e-2));

  // Backward bytes: read Q, dO, O (3 x 256 B), K, V (2 x 512 B), LSE (4 x 4 B); write dQ, dK, dV.
  //   Q: 1·1·4·32 elements x 2 B = 256 B; K: 1·1·8·32 x 2 B = 512 B.
  const workload bwd = attention(attention_shape{1, 1, 4, 8, 32}, dtype::fp16, pass::backward);
  CHECK(bwd.bytes_read == 3 * 256 + 2 * 512 + 16);
  CHECK(bwd.bytes_written == 256 + 2 * 512);
  // Counting the softmax too (LLM-Viewer): + 5 ops per score reported.
  counting with_softmax;
  with_softmax.attention_softmax = true;
  CHECK(attention(attention_shape{1, 1, 4, 8, 32}, dtype::fp16, pass::forward, with_softmax).counted_flops() ==
        4ull * 4 * 8 * 32 + 5ull * 4 * 8);
  CHECK_THROWS_AS(attention(attention_shape{1, 6, 4, 8, 32, 4}), std::domain_error);  // 6 % 4 != 0
}

TEST_CASE("conv2d: output size and implicit-GEMM FLOPs") {
  // ResNet stem: 224 input, 7x7 filter, stride 2, padding 3 -> 112.
  CHECK(conv_output_size(224, 7, 2, 3, 1) == 112);
  CHECK(conv_output_size(56, 3, 2, 1, 1) == 28);
  CHECK(conv_output_size(56, 3, 1, 0, 2) == 52);  // dilation 2: effective 5x5
  // ResNet-50 3x3 conv, 64 -> 64 channels, 56x56, padding 1, fp16:
  //   FLOPs = 2·1·64·56·56·64·9 = 231,211,008
  //   bytes = 2·(64·56·56 + 64·64·9 + 64·56·56) = 401,408 + 73,728 + 401,408 = 876,544
  conv2d_shape s{1, 64, 56, 56, 64, 3, 3, 1, 1};
  const workload w = conv2d(s, dtype::fp16);
  CHECK(w.flops == 231211008ull);
  CHECK(w.bytes() == 876544ull);
  CHECK(w.matrix);
  // Depthwise (groups = channels): 1/64 of the FLOPs.
  s.groups = 64;
  CHECK(conv2d(s, dtype::fp16).flops == 231211008ull / 64);
  CHECK_THROWS_AS(conv_output_size(2, 5, 1, 0, 1), std::domain_error);
  // An output size beyond int64 (huge input and padding) is an overflow, not a wrapped negative number.
  CHECK_THROWS_AS(conv_output_size(INT64_MAX, 1, 1, INT64_MAX / 2, 1), std::overflow_error);
}

TEST_CASE("invalid sizes: zero, negative and overflow are errors with a clear message") {
  CHECK_THROWS_AS(gemm(0, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(gemm(1, -4, 1), std::invalid_argument);
  CHECK(contains(error_message([] { gemm(1, 1, 0); }), "GEMM K must be positive"));
  CHECK(contains(error_message([] { softmax(-1, 10); }), "softmax rows must be positive"));
  CHECK_THROWS_AS(reduction(0), std::invalid_argument);
  CHECK_THROWS_AS(layer_norm(1, 0), std::invalid_argument);
  CHECK_THROWS_AS(attention(attention_shape{1, 1, 0, 1, 1}), std::invalid_argument);
  CHECK_THROWS_AS(conv2d(conv2d_shape{1, 1, 1, 1, 1, 1, 1, 0}), std::invalid_argument);  // stride 0

  // 2^40 cubed FMAs do not fit in 64 bits: an error, not a wrapped count.
  const std::int64_t big = std::int64_t{1} << 40;
  CHECK_THROWS_AS(gemm(big, big, big), std::overflow_error);
  CHECK(contains(error_message([&] { gemm(big, big, big); }), "overflows 64-bit"));
  // Fits in FLOPs but not in bytes: 2^62 fp64 elements = 2^65 bytes.
  CHECK_THROWS_AS(elementwise(std::int64_t{1} << 62, 1, 1, 0, dtype::fp64), std::overflow_error);
  // The largest count that fits is fine: 2^61 fp32 elements read once = 2^63 bytes.
  CHECK(elementwise(std::int64_t{1} << 61, 1, 0, 0, dtype::fp32).bytes() == (std::uint64_t{1} << 63));

  CHECK_THROWS_AS(parse_dtype("fp12"), std::invalid_argument);
  CHECK(contains(error_message([] { parse_dtype("fp12"); }), "fp12"));
  CHECK_THROWS_AS(workload{}.intensity(), std::domain_error);
}

TEST_CASE("element types") {
  CHECK(bytes_per_element(dtype::tf32) == 4);
  CHECK(bytes_per_element(dtype::bf16) == 2);
  CHECK(bytes_per_element(dtype::fp8) == 1);
  CHECK(parse_dtype("half") == dtype::fp16);
  CHECK(parse_dtype("e5m2") == dtype::fp8);
  for (dtype t : {dtype::fp64, dtype::fp32, dtype::tf32, dtype::fp16, dtype::bf16, dtype::fp8, dtype::int8,
                  dtype::int32})
    CHECK(parse_dtype(to_string(t)) == t);
  const element_types h = dtype::fp16;  // fp16 in and out, fp32 accumulate
  CHECK(h.accumulate == dtype::fp32);
  CHECK(element_types{dtype::int8}.accumulate == dtype::int32);
}
