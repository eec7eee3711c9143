// Counting conventions (MACs, Dongarra's weights, attention with its softmax) change the FLOPs a workload
// reports, never what the roofline computes from them: time, regime, intensity and every ratio come from
// the standard count (FMA = 2, every other op 1), the convention the datasheet peaks are quoted in.
// Expected values are hand-computed in the comments.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "napkin/math.hpp"

using namespace napkin;

namespace {

// Every field of the roofline that must not depend on the convention.
constexpr bool same_roofline(const roofline_estimate& a, const roofline_estimate& b) {
  return a.flops == b.flops && a.bytes == b.bytes && a.intensity == b.intensity && a.ridge == b.ridge &&
         a.compute_seconds == b.compute_seconds && a.memory_seconds == b.memory_seconds &&
         a.attainable_flops == b.attainable_flops && a.bound == b.bound &&
         a.lower_bound_seconds() == b.lower_bound_seconds() && a.no_overlap_seconds() == b.no_overlap_seconds() &&
         a.max_bytes_for_compute_bound() == b.max_bytes_for_compute_bound();
}

constexpr const gpu_spec& h100 = gpus::h100_sxm;
constexpr std::uint64_t n4096 = 4096;

}  // namespace

// The case of the report: 4096³ fp16 GEMM on H100 tensor cores. 2·4096³ = 137,438,953,472 FLOP at
// 989.4e12 FLOP/s is 138.9 µs; counting MACs (4096³ = 68,719,476,736) must not halve that to 69.46 µs.
constexpr workload hgemm_std = gemm(4096, 4096, 4096, dtype::fp16);
constexpr workload hgemm_macs = gemm(4096, 4096, 4096, dtype::fp16, {}, counting::macs());
static_assert(hgemm_macs.counted_flops() == n4096 * n4096 * n4096);
static_assert(hgemm_macs.flops == 2 * n4096 * n4096 * n4096);
static_assert(hgemm_std.counted_flops() == hgemm_std.flops);
static_assert(same_roofline(estimate(hgemm_macs, h100, pipe::fp16_tensor),
                            estimate(hgemm_std, h100, pipe::fp16_tensor)));
static_assert(estimate(hgemm_macs, h100, pipe::fp16_tensor).lower_bound_seconds() > 138.9e-6 &&
              estimate(hgemm_macs, h100, pipe::fp16_tensor).lower_bound_seconds() < 139.0e-6);

// Dongarra's weights on a softmax: 3 + exp 8 + div 4 = 15 per element counted, 5 for the roofline; the
// intensity stays 5 / 8 B = 0.625 FLOP/B in fp32 (not 15 / 8 = 1.875).
constexpr workload softmax_dongarra = softmax(1024, 1024, dtype::fp32, softmax_algorithm::fused, counting::dongarra());
static_assert(softmax_dongarra.counted_flops() == 15ull * 1024 * 1024);
static_assert(softmax_dongarra.flops == 5ull * 1024 * 1024);
static_assert(softmax_dongarra.intensity() == 0.625);

TEST_CASE("every workload: a convention changes the counted FLOPs, never the roofline") {
  const counting softmax_too = [] {
    counting c;
    c.attention_softmax = true;
    return c;
  }();
  struct row {
    const char* name;
    workload standard;
    workload macs;
    workload dongarra;
  };
  const attention_shape att{2, 8, 512, 512, 64};
  const conv2d_shape conv{1, 64, 56, 56, 64, 3, 3, 1, 1};
  const row rows[] = {
      {"gemm", gemm(512, 256, 128, dtype::bf16), gemm(512, 256, 128, dtype::bf16, {}, counting::macs()),
       gemm(512, 256, 128, dtype::bf16, {}, counting::dongarra())},
      {"softmax", softmax(64, 1000), softmax(64, 1000, dtype::fp32, softmax_algorithm::fused, counting::macs()),
       softmax(64, 1000, dtype::fp32, softmax_algorithm::fused, counting::dongarra())},
      {"layer_norm", layer_norm(64, 1000), layer_norm(64, 1000, dtype::fp32, counting::macs()),
       layer_norm(64, 1000, dtype::fp32, counting::dongarra())},
      {"rms_norm", rms_norm(64, 1000), rms_norm(64, 1000, dtype::fp32, counting::macs()),
       rms_norm(64, 1000, dtype::fp32, counting::dongarra())},
      {"attention", attention(att), attention(att, dtype::fp16, pass::forward, counting::macs()),
       attention(att, dtype::fp16, pass::forward, counting::dongarra())},
      {"conv2d", conv2d(conv, dtype::fp16), conv2d(conv, dtype::fp16, counting::macs()),
       conv2d(conv, dtype::fp16, counting::dongarra())},
  };
  for (const row& r : rows) {
    CAPTURE(std::string(r.name));
    CHECK(r.macs.flops == r.standard.flops);
    CHECK(r.dongarra.flops == r.standard.flops);
    CHECK(r.macs.intensity() == r.standard.intensity());
    CHECK(r.dongarra.intensity() == r.standard.intensity());
    for (pipe p : {pipe::fp32, pipe::fp16_tensor}) {
      CHECK(same_roofline(estimate(r.macs, h100, p), estimate(r.standard, h100, p)));
      CHECK(same_roofline(estimate(r.dongarra, h100, p), estimate(r.standard, h100, p)));
    }
    CHECK(same_roofline(estimate(r.macs, h100), estimate(r.standard, h100)));
  }
  // Attention with its softmax counted (LLM-Viewer): more FLOPs reported, the same matmul roofline.
  const workload att_sm = attention(att, dtype::fp16, pass::forward, softmax_too);
  CHECK(same_roofline(estimate(att_sm, h100), estimate(attention(att), h100)));
}

TEST_CASE("the counted FLOPs themselves, by hand") {
  // GEMM 512 x 256 x 128: MACs 16,777,216; standard and Dongarra (FMA = 2 in both) 33,554,432.
  CHECK(gemm(512, 256, 128, dtype::fp32, {}, counting::macs()).counted_flops() == 16777216u);
  CHECK(gemm(512, 256, 128, dtype::fp32, {}, counting::dongarra()).counted_flops() == 33554432u);
  // Layer norm 64 x 1000, MACs: per element 3 + 2·1 = 5, per row 2·1 + 1 + 1 = 4 -> 320,000 + 256.
  CHECK(layer_norm(64, 1000, dtype::fp32, counting::macs()).counted_flops() == 320256u);
  // RMS norm 64 x 1000, Dongarra: per element 2 + 2 = 4, per row div 4 + sqrt 4 + 1 = 9 -> 256,000 + 576.
  CHECK(rms_norm(64, 1000, dtype::fp32, counting::dongarra()).counted_flops() == 256576u);
  // Attention 1 x 1 x 4 x 8 x 32 with the softmax: 4·4·8·32 = 4,096 matmul + 5·4·8 = 160 softmax; the
  // roofline keeps 4,096.
  counting c;
  c.attention_softmax = true;
  const workload a = attention(attention_shape{1, 1, 4, 8, 32}, dtype::fp16, pass::forward, c);
  CHECK(a.counted_flops() == 4096u + 160u);
  CHECK(a.flops == 4096u);
  // Conv2d ResNet-50 3x3 layer, MACs: 231,211,008 / 2 = 115,605,504.
  CHECK(conv2d(conv2d_shape{1, 64, 56, 56, 64, 3, 3, 1, 1}, dtype::fp16, counting::macs()).counted_flops() ==
        115605504u);
  // A workload built by hand has the standard convention: counted == flops.
  workload w;
  w.flops = 1000;
  w.bytes_read = 4000;
  CHECK(w.counted_flops() == 1000u);
}
