// SPDX-License-Identifier: Apache-2.0
// napkin/math/workloads.hpp — FLOPs and minimum bytes of common GPU kernels: GEMM, reduction, softmax,
// elementwise, layer and RMS norm, attention, 2-D convolution. Each returns a napkin::workload
// (napkin/math/workload.hpp).
//
// Plain C++17, no CUDA; every function is usable in constant expressions:
//
//   constexpr auto w = napkin::gemm(4096, 4096, 4096, napkin::dtype::fp32);
//   static_assert(w.intensity() > 682 && w.intensity() < 683);   // FLOP per byte
//
// Conventions (docs/napkin-math.md has the full text and the sources):
// * An FMA is 2 FLOPs; exp, division and sqrt count 1 each: the convention datasheet peaks are quoted in,
//   so `workload::flops` (and everything napkin/math/roofline.hpp computes from it) always uses it.
//   `counting` selects another convention for the FLOPs a workload reports (MACs, Dongarra's weights;
//   `counting::attention_softmax` adds the softmax to attention): `workload::counted_flops()`.
// * Bytes are the compulsory DRAM traffic: every input read once, every output written once, no
//   write-allocate, no index or metadata bytes. Softmax can instead count what a multi-pass algorithm
//   really reads (`softmax_algorithm`).
// * A zero or negative size, a count that overflows 64-bit arithmetic and an enum value outside its
//   enumerators fail to compile in constant evaluation and fail through napkin's failure policy at run
//   time (napkin/math/detail/errors.hpp).
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/dtype.hpp"
#include "napkin/math/workload.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// Ops of the mathematical softmax per element: max (compare), subtract, exp, sum, normalize.
constexpr std::uint64_t softmax_ops_per_element(const counting& c) { return add(add(3, c.exp), c.div); }
}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// GEMM: C[m×n] = alpha·A[m×k]·B[k×n] (+ beta·C). FLOPs = fma·m·n·k per batch (the alpha/beta scaling,
// m·n operations, is not counted, as in NVIDIA's guide). Bytes: A and B read once, C written once, and
// C read once more when beta ≠ 0 (read_c).
struct gemm_options {
  std::int64_t batch = 1;  // strided-batched GEMM: `batch` independent products
  bool read_c = false;     // beta ≠ 0
};

constexpr workload gemm(std::int64_t m, std::int64_t n, std::int64_t k, element_types t = {},
                        gemm_options o = {}, counting c = {}) {
  using namespace detail;
  const std::uint64_t M = positive(m, "GEMM M"), N = positive(n, "GEMM N"), K = positive(k, "GEMM K");
  const std::uint64_t batch = positive(o.batch, "GEMM batch");
  const std::uint64_t c_elements = mul(M, N);
  std::uint64_t read = add(bytes_of(mul(M, K), t.input), bytes_of(mul(K, N), t.input));
  if (o.read_c) read = add(read, bytes_of(c_elements, t.output));
  workload w;
  set_flops(w, c, [&](const counting& cc) { return mul(mul(cc.fma, c_elements), mul(K, batch)); });
  w.bytes_read = mul(read, batch);
  w.bytes_written = mul(bytes_of(c_elements, t.output), batch);
  w.types = t;
  w.matrix = true;
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Reduction: n elements summed into `outputs` results (1: a full sum; r: r row sums). One add per
// element read, N FLOPs, as the roofline literature counts a sum (the exact minimum is n − outputs adds;
// the difference is invisible at napkin precision). An add is 1 FLOP in every convention.
constexpr workload reduction(std::int64_t n, element_types t = {}, std::int64_t outputs = 1) {
  using namespace detail;
  const std::uint64_t N = positive(n, "reduction size");
  const std::uint64_t out = positive(outputs, "reduction outputs");
  if (out > N) value_out_of_range("a reduction cannot have more outputs than inputs");
  workload w;
  w.flops = N;
  w.bytes_read = bytes_of(N, t.input);
  w.bytes_written = bytes_of(out, t.output);
  w.types = t;
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Softmax over each row of a rows×cols matrix. FLOPs count the mathematical softmax (3 + exp + div
// per element: max, subtract, exp, sum, normalize), whatever the algorithm. Bytes depend on how many
// times the algorithm reads the input; every algorithm writes the output once:
enum class softmax_algorithm : unsigned char {
  fused,       // 1 read: the row stays on chip (registers/shared memory). The compulsory minimum.
  online,      // 2 reads: online max+sum pass, then normalize (Milakov & Gimelshein 2018)
  three_pass,  // 3 reads: max pass, sum-of-exp pass, normalize pass ("safe" softmax)
};
inline constexpr std::array<softmax_algorithm, 3> all_softmax_algorithms{
    softmax_algorithm::fused, softmax_algorithm::online, softmax_algorithm::three_pass};

// "fused", "online", "three-pass" (the CLI's --algorithm); "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(softmax_algorithm a) noexcept {
  switch (a) {
    case softmax_algorithm::fused: return "fused";
    case softmax_algorithm::online: return "online";
    case softmax_algorithm::three_pass: return "three-pass";
  }
  return "unknown";
}

constexpr std::uint64_t input_reads(softmax_algorithm a) {
  switch (a) {
    case softmax_algorithm::fused: return 1;
    case softmax_algorithm::online: return 2;
    case softmax_algorithm::three_pass: return 3;
  }
  detail::enum_value_out_of_range("softmax_algorithm", static_cast<int>(a));
}

constexpr workload softmax(std::int64_t rows, std::int64_t cols, element_types t = {},
                           softmax_algorithm a = softmax_algorithm::fused, counting c = {}) {
  using namespace detail;
  const std::uint64_t elements = mul(positive(rows, "softmax rows"), positive(cols, "softmax columns"));
  workload w;
  set_flops(w, c, [&](const counting& cc) { return mul(elements, softmax_ops_per_element(cc)); });
  w.bytes_read = mul(bytes_of(elements, t.input), input_reads(a));
  w.bytes_written = bytes_of(elements, t.output);
  w.types = t;
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Elementwise: n elements, each reading `inputs` input values and writing `outputs` values, with
// `ops_per_element` operations. ReLU is (n, 1, 1, 1); a copy is (n, 1, 1, 0); AXPY is (n, 2, 1, 2).
constexpr workload elementwise(std::int64_t n, std::int64_t inputs = 1, std::int64_t outputs = 1,
                               std::int64_t ops_per_element = 1, element_types t = {}) {
  using namespace detail;
  const std::uint64_t N = positive(n, "elementwise size");
  const std::uint64_t in = non_negative(inputs, "elementwise input count");
  const std::uint64_t out = non_negative(outputs, "elementwise output count");
  if (in == 0 && out == 0) value_out_of_range("an elementwise kernel needs at least one input or output");
  workload w;
  w.flops = mul(N, non_negative(ops_per_element, "elementwise ops per element"));
  w.bytes_read = bytes_of(mul(N, in), t.input);
  w.bytes_written = bytes_of(mul(N, out), t.output);
  w.types = t;
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Layer norm and RMS norm over each row of rows×cols, with a per-column scale gamma (and shift beta for
// layer norm) read once in the input type. Per element, layer norm: sum, subtract mean, square-accumulate
// (FMA), multiply by rstd, gamma·x̂ + beta (FMA) = 3 + 2·fma (7 by default, as LLM-Viewer counts).
// RMS norm: square-accumulate (FMA), multiply by rstd, multiply by gamma = 2 + fma (4).
// Per row: layer norm divides twice (mean, variance), RMS norm once; both add eps and take one rsqrt.
namespace detail {
// A normalization over each row of rows×cols; besides `divs` divisions a row takes one rsqrt and one add
// (eps).
struct row_norm_ops {
  const char* rows_what;  // the sizes, as error messages name them
  const char* cols_what;
  std::uint64_t plain;    // operations per element other than FMAs
  std::uint64_t fmas;     // FMAs per element
  std::uint64_t divs;     // divisions per row
  std::uint64_t vectors;  // per-column parameter vectors read once (gamma; beta)
};

constexpr workload row_norm(const row_norm_ops& n, std::int64_t rows, std::int64_t cols, element_types t,
                            counting c) {
  const std::uint64_t R = positive(rows, n.rows_what), C = positive(cols, n.cols_what);
  workload w;
  set_flops(w, c, [&](const counting& cc) {
    const std::uint64_t per_element = add(n.plain, mul(n.fmas, cc.fma));
    const std::uint64_t per_row = add(add(mul(n.divs, cc.div), cc.sqrt), 1);
    return add(mul(mul(R, C), per_element), mul(R, per_row));
  });
  w.bytes_read = add(bytes_of(mul(R, C), t.input), bytes_of(mul(n.vectors, C), t.input));
  w.bytes_written = bytes_of(mul(R, C), t.output);
  w.types = t;
  return w;
}
}  // namespace detail

// x, gamma and beta read; 3 + 2·fma per element, 2 divisions per row.
constexpr workload layer_norm(std::int64_t rows, std::int64_t cols, element_types t = {}, counting c = {}) {
  return detail::row_norm({"layer norm rows", "layer norm columns", 3, 2, 2, 2}, rows, cols, t, c);
}

// x and gamma read; 2 + fma per element, 1 division per row.
constexpr workload rms_norm(std::int64_t rows, std::int64_t cols, element_types t = {}, counting c = {}) {
  return detail::row_norm({"RMS norm rows", "RMS norm columns", 2, 1, 1, 1}, rows, cols, t, c);
}

// ---------------------------------------------------------------------------------------------------
// Attention, FlashAttention's convention (flops() in flash-attention's benchmarks): forward =
// 2 matmuls = 2·fma·b·h·Nq·Nk·d (4·b·h·Nq·Nk·d), halved when causal; backward = 2.5 × forward
// (5 matmuls, recomputing S); forward+backward = 3.5 × forward. Softmax ops are not counted unless
// counting::attention_softmax is set (then 3 + exp + div per score element, before the causal halving).
// Bytes are the fused (FlashAttention) minimum in the input/output types:
//   forward:  read Q, K, V; write O.
//   backward: read Q, K, V, O, dO and the fp32 log-sum-exp; write dQ, dK, dV.
//   forward+backward: both, plus the forward's fp32 log-sum-exp write.
// kv_heads < heads is grouped-query attention (0 means kv_heads = heads).
enum class pass : unsigned char { forward, backward, forward_backward };
inline constexpr std::array<pass, 3> all_passes{pass::forward, pass::backward, pass::forward_backward};

// "fwd", "bwd", "fwd+bwd" (the CLI's --pass); "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(pass p) noexcept {
  switch (p) {
    case pass::forward: return "fwd";
    case pass::backward: return "bwd";
    case pass::forward_backward: return "fwd+bwd";
  }
  return "unknown";
}

struct attention_shape {
  std::int64_t batch = 1;
  std::int64_t heads = 1;
  std::int64_t seqlen_q = 1;
  std::int64_t seqlen_k = 1;
  std::int64_t head_dim = 1;
  std::int64_t kv_heads = 0;  // 0: same as heads
  bool causal = false;
};

constexpr workload attention(const attention_shape& s, element_types t = dtype::fp16, pass p = pass::forward,
                             counting c = {}) {
  using namespace detail;
  const std::uint64_t B = positive(s.batch, "attention batch"), H = positive(s.heads, "attention heads");
  const std::uint64_t Nq = positive(s.seqlen_q, "attention query length");
  const std::uint64_t Nk = positive(s.seqlen_k, "attention key length");
  const std::uint64_t D = positive(s.head_dim, "attention head dimension");
  const std::uint64_t Hkv = s.kv_heads == 0 ? H : positive(s.kv_heads, "attention kv heads");
  if (Hkv > H || H % Hkv != 0) value_out_of_range("attention heads must be a multiple of kv_heads");

  const std::uint64_t scores = mul(mul(B, H), mul(Nq, Nk));
  const auto flops_of_pass = [&](const counting& cc) {
    std::uint64_t forward = mul(mul(2, cc.fma), mul(scores, D));
    if (cc.attention_softmax) forward = add(forward, mul(scores, softmax_ops_per_element(cc)));
    if (s.causal) forward /= 2;
    switch (p) {
      case pass::forward: return forward;
      case pass::backward: return mul(forward, 5) / 2;
      case pass::forward_backward: return mul(forward, 7) / 2;
    }
    enum_value_out_of_range("pass", static_cast<int>(p));
  };

  const std::uint64_t q = bytes_of(mul(mul(B, H), mul(Nq, D)), t.input);     // Q, dO (input type)
  const std::uint64_t kv = bytes_of(mul(mul(B, Hkv), mul(Nk, D)), t.input);  // K or V
  const std::uint64_t o = bytes_of(mul(mul(B, H), mul(Nq, D)), t.output);     // O, dQ
  const std::uint64_t kv_out = bytes_of(mul(mul(B, Hkv), mul(Nk, D)), t.output);  // dK or dV
  const std::uint64_t lse = bytes_of(mul(B, mul(H, Nq)), dtype::fp32);

  const std::uint64_t fwd_read = add(q, mul(2, kv)), fwd_written = o;
  const std::uint64_t bwd_read = add(add(mul(2, q), mul(2, kv)), add(o, lse));  // Q, dO, K, V, O, LSE
  const std::uint64_t bwd_written = add(o, mul(2, kv_out));                     // dQ, dK, dV

  workload w;
  w.types = t;
  w.matrix = true;
  set_flops(w, c, flops_of_pass);
  switch (p) {
    case pass::forward:
      w.bytes_read = fwd_read;
      w.bytes_written = fwd_written;
      break;
    case pass::backward:
      w.bytes_read = bwd_read;
      w.bytes_written = bwd_written;
      break;
    case pass::forward_backward:
      w.bytes_read = add(fwd_read, bwd_read);
      w.bytes_written = add(add(fwd_written, lse), bwd_written);
      break;
  }
  return w;
}

// ---------------------------------------------------------------------------------------------------
// 2-D convolution, NCHW input, K filters of (C/groups)×R×S, output N×K×P×Q with
//   P = (H + 2·padding − dilation·(R − 1) − 1) / stride + 1   (Q likewise with W and S).
// FLOPs = fma·N·K·P·Q·(C/groups)·R·S (the implicit GEMM M = N·P·Q, N = K, K = C·R·S / groups).
// Bytes: input, filters and output once each (bias not counted).
struct conv2d_shape {
  std::int64_t n = 1, c = 1, h = 1, w = 1;  // input batch, channels, height, width
  std::int64_t k = 1, r = 1, s = 1;         // filters, filter height, filter width
  std::int64_t stride = 1, padding = 0, dilation = 1, groups = 1;
};

constexpr std::int64_t conv_output_size(std::int64_t input, std::int64_t filter, std::int64_t stride,
                                        std::int64_t padding, std::int64_t dilation) {
  detail::positive(input, "convolution input size");
  detail::positive(filter, "convolution filter size");
  detail::positive(stride, "convolution stride");
  detail::positive(dilation, "convolution dilation");
  detail::non_negative(padding, "convolution padding");
  const std::uint64_t extent = detail::add(detail::mul(static_cast<std::uint64_t>(dilation),
                                                       static_cast<std::uint64_t>(filter - 1)), 1);
  const std::uint64_t padded = detail::add(static_cast<std::uint64_t>(input),
                                           detail::mul(2, static_cast<std::uint64_t>(padding)));
  if (extent > padded) detail::value_out_of_range("the convolution filter is larger than the padded input");
  const std::uint64_t out = (padded - extent) / static_cast<std::uint64_t>(stride) + 1;
  if (out > static_cast<std::uint64_t>(INT64_MAX)) detail::arithmetic_overflows_64_bits("the convolution output size");
  return static_cast<std::int64_t>(out);
}

constexpr workload conv2d(const conv2d_shape& s, element_types t = {}, counting c = {}) {
  using namespace detail;
  const std::uint64_t N = positive(s.n, "convolution batch"), C = positive(s.c, "convolution channels");
  const std::uint64_t H = positive(s.h, "convolution input height");
  const std::uint64_t W = positive(s.w, "convolution input width");
  const std::uint64_t K = positive(s.k, "convolution filters"), G = positive(s.groups, "convolution groups");
  const std::uint64_t R = positive(s.r, "convolution filter height");
  const std::uint64_t S = positive(s.s, "convolution filter width");
  if (C % G != 0 || K % G != 0) value_out_of_range("convolution channels and filters must be multiples of groups");
  const auto P = static_cast<std::uint64_t>(conv_output_size(s.h, s.r, s.stride, s.padding, s.dilation));
  const auto Q = static_cast<std::uint64_t>(conv_output_size(s.w, s.s, s.stride, s.padding, s.dilation));
  const std::uint64_t outputs = mul(mul(N, K), mul(P, Q));
  const std::uint64_t filter = mul(C / G, mul(R, S));  // multiply-adds per output element
  workload w;
  set_flops(w, c, [&](const counting& cc) { return mul(mul(cc.fma, outputs), filter); });
  w.bytes_read = add(bytes_of(mul(mul(N, C), mul(H, W)), t.input), bytes_of(mul(K, filter), t.input));
  w.bytes_written = bytes_of(outputs, t.output);
  w.types = t;
  w.matrix = true;
  return w;
}

NAPKIN_END_NAMESPACE
