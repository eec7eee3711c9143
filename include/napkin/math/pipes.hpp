// SPDX-License-Identifier: Apache-2.0
// napkin/math/pipes.hpp — the math pipes of an NVIDIA GPU (CUDA cores and tensor cores, per input and
// accumulate type): their names, the pipe a type pair runs on, and pipe_peaks, one number per pipe.
//
// Plain C++17, no CUDA, usable in constant expressions. A pipe value outside the enumerators prints as
// "unknown" and is refused by every lookup.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/math/dtype.hpp"
#include "napkin/text/enum_names.hpp"

NAPKIN_BEGIN_NAMESPACE

// Math pipes. "Vector" pipes are the CUDA cores; *_tensor pipes are the tensor cores, named by input
// type and (where it changes the rate) accumulate type.
enum class pipe : unsigned char {
  fp64,                 // CUDA cores, FP64 FMA
  fp32,                 // CUDA cores, FP32 FMA
  fp16,                 // CUDA cores, FP16 (HFMA2)
  bf16,                 // CUDA cores, BF16 (HFMA2.BF16)
  fp64_tensor,          // DMMA
  tf32_tensor,          // TF32 in, FP32 accumulate
  fp16_tensor,          // FP16 in, FP32 accumulate
  fp16_tensor_fp16acc,  // FP16 in, FP16 accumulate
  bf16_tensor,          // BF16 in, FP32 accumulate
  fp8_tensor,           // FP8 (E4M3/E5M2) in, FP32 accumulate
  fp8_tensor_fp16acc,   // FP8 in, FP16 accumulate
  int8_tensor,          // INT8 in, INT32 accumulate (OP/s, not FLOP/s)
};
inline constexpr std::size_t pipe_count = 12;

inline constexpr std::array<pipe, pipe_count> all_pipes{
    pipe::fp64,        pipe::fp32,        pipe::fp16,        pipe::bf16,
    pipe::fp64_tensor, pipe::tf32_tensor, pipe::fp16_tensor, pipe::fp16_tensor_fp16acc,
    pipe::bf16_tensor, pipe::fp8_tensor,  pipe::fp8_tensor_fp16acc, pipe::int8_tensor};

constexpr std::size_t index(pipe p) noexcept { return static_cast<std::size_t>(p); }

// False for a value outside the enumerators (static_cast<pipe>(12)): every table lookup checks it first.
constexpr bool is_valid(pipe p) noexcept { return index(p) < pipe_count; }

constexpr bool is_tensor(pipe p) noexcept { return is_valid(p) && index(p) >= index(pipe::fp64_tensor); }

// Short names, used by the command-line tool: fp32, fp16, fp16-tc, fp16-tc-f16acc, int8-tc, ...
// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(pipe p) noexcept {
  constexpr std::array<std::string_view, pipe_count> names{
      "fp64",  "fp32",     "fp16",  "bf16",           "fp64-tc", "tf32-tc",
      "fp16-tc", "fp16-tc-f16acc", "bf16-tc", "fp8-tc", "fp8-tc-f16acc", "int8-tc"};
  return is_valid(p) ? names[index(p)] : "unknown";
}

// What the pipe is, without parentheses (callers put it in some): "FP16 tensor cores, FP32 accumulate".
constexpr std::string_view describe(pipe p) noexcept {
  constexpr std::array<std::string_view, pipe_count> text{
      "FP64 CUDA cores",
      "FP32 CUDA cores",
      "FP16 CUDA cores, non-tensor",
      "BF16 CUDA cores, non-tensor",
      "FP64 tensor cores",
      "TF32 tensor cores, FP32 accumulate",
      "FP16 tensor cores, FP32 accumulate",
      "FP16 tensor cores, FP16 accumulate",
      "BF16 tensor cores, FP32 accumulate",
      "FP8 tensor cores, FP32 accumulate",
      "FP8 tensor cores, FP16 accumulate",
      "INT8 tensor cores, INT32 accumulate, OP/s"};
  return is_valid(p) ? text[index(p)] : "unknown pipe";
}

namespace detail {
constexpr std::size_t checked_index(pipe p) {
  if (!is_valid(p)) enum_value_out_of_range("pipe", static_cast<int>(p));
  return index(p);
}
}  // namespace detail

constexpr pipe parse_pipe(std::string_view s) {
  if (const std::optional<pipe> p = from_string(s, all_pipes)) return *p;
  detail::unknown_name("pipe", s,
                       "try fp64, fp32, fp16, bf16, fp64-tc, tf32-tc, fp16-tc, fp16-tc-f16acc, bf16-tc, fp8-tc, "
                       "fp8-tc-f16acc, int8-tc");
}

// The tensor pipe for (input, accumulate), e.g. (fp16, fp32) → fp16_tensor.
constexpr pipe tensor_pipe(dtype in, dtype acc) {
  if (in == dtype::fp64 && acc == dtype::fp64) return pipe::fp64_tensor;
  if (in == dtype::tf32 && acc == dtype::fp32) return pipe::tf32_tensor;
  if (in == dtype::fp16 && acc == dtype::fp32) return pipe::fp16_tensor;
  if (in == dtype::fp16 && acc == dtype::fp16) return pipe::fp16_tensor_fp16acc;
  if (in == dtype::bf16 && acc == dtype::fp32) return pipe::bf16_tensor;
  if (in == dtype::fp8 && acc == dtype::fp32) return pipe::fp8_tensor;
  if (in == dtype::fp8 && acc == dtype::fp16) return pipe::fp8_tensor_fp16acc;
  if (in == dtype::int8 && acc == dtype::int32) return pipe::int8_tensor;
  detail::no_pipe_for_these_types("this (input, accumulate) pair on tensor cores");
}

// The CUDA-core pipe that computes in `compute` (tf32 computes as fp32 off the tensor cores).
constexpr pipe vector_pipe(dtype compute) {
  switch (compute) {
    case dtype::fp64: return pipe::fp64;
    case dtype::fp32:
    case dtype::tf32: return pipe::fp32;
    case dtype::fp16: return pipe::fp16;
    case dtype::bf16: return pipe::bf16;
    default: break;
  }
  detail::no_pipe_for_these_types("this compute type on CUDA cores (napkin has no integer or fp8 vector pipe)");
}

using pipe_peaks = std::array<double, pipe_count>;

struct pipe_peak {
  pipe p;
  double value;  // dense FLOP/s (OP/s for int8), or FLOP per clock per SM in per_sm_rate_table
};

// Builds the per-pipe array from {pipe, value} pairs; a pipe listed twice is an error, and so is a value
// that is not a finite positive number.
constexpr pipe_peaks make_peaks(std::initializer_list<pipe_peak> list) {
  pipe_peaks out{};
  for (const pipe_peak& e : list) {
    const std::size_t i = detail::checked_index(e.p);
    if (out[i] != 0.0) detail::value_out_of_range("a pipe is listed twice in a GPU spec");
    out[i] = detail::positive_finite(e.value, "a listed peak");
  }
  return out;
}

NAPKIN_END_NAMESPACE
