// SPDX-License-Identifier: Apache-2.0
// napkin/math/dtype.hpp — element types: their sizes and names, the accumulator that normally goes with
// each, and element_types (the input, output and accumulate types of one kernel).
//
// Plain C++17, no CUDA, usable in constant expressions. An enum value outside its enumerators (a dtype
// cast from an integer) is refused wherever it would give a number, and prints as "unknown".
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <string_view>

#include "napkin/math/detail/errors.hpp"

NAPKIN_BEGIN_NAMESPACE

// Element types. tf32 is stored in 4 bytes (it is fp32 in memory; only the tensor core rounds it).
enum class dtype : unsigned char { fp64, fp32, tf32, fp16, bf16, fp8, int8, int32 };

constexpr std::uint64_t bytes_per_element(dtype t) {
  switch (t) {
    case dtype::fp64: return 8;
    case dtype::fp32:
    case dtype::tf32:
    case dtype::int32: return 4;
    case dtype::fp16:
    case dtype::bf16: return 2;
    case dtype::fp8:
    case dtype::int8: return 1;
  }
  detail::enum_value_out_of_range("dtype", static_cast<int>(t));
}

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(dtype t) noexcept {
  switch (t) {
    case dtype::fp64: return "fp64";
    case dtype::fp32: return "fp32";
    case dtype::tf32: return "tf32";
    case dtype::fp16: return "fp16";
    case dtype::bf16: return "bf16";
    case dtype::fp8: return "fp8";
    case dtype::int8: return "int8";
    case dtype::int32: return "int32";
  }
  return "unknown";
}

// Accepts the names above plus common spellings (float, half, double, e4m3, e5m2, ...).
constexpr dtype parse_dtype(std::string_view s) {
  if (s == "fp64" || s == "f64" || s == "double") return dtype::fp64;
  if (s == "fp32" || s == "f32" || s == "float") return dtype::fp32;
  if (s == "tf32") return dtype::tf32;
  if (s == "fp16" || s == "f16" || s == "half") return dtype::fp16;
  if (s == "bf16") return dtype::bf16;
  if (s == "fp8" || s == "e4m3" || s == "e5m2" || s == "fp8e4m3" || s == "fp8e5m2") return dtype::fp8;
  if (s == "int8" || s == "i8" || s == "s8") return dtype::int8;
  if (s == "int32" || s == "i32") return dtype::int32;
  detail::unknown_name("element type", s, "try fp64, fp32, tf32, fp16, bf16, fp8, int8, int32");
}

// The accumulator that normally goes with an input type: fp32 for the 16- and 8-bit floats (what
// cuBLAS, cuDNN and fused kernels use), int32 for int8.
constexpr dtype default_accumulate(dtype in) noexcept {
  switch (in) {
    case dtype::fp64: return dtype::fp64;
    case dtype::int8:
    case dtype::int32: return dtype::int32;
    default: return dtype::fp32;
  }
}

// Input, output and accumulate types of a kernel. Only input and output move bytes; the accumulate
// type picks the math pipe (an fp16 GEMM accumulating in fp32 runs at a different rate on GeForce).
struct element_types {
  dtype input = dtype::fp32;
  dtype output = dtype::fp32;
  dtype accumulate = dtype::fp32;

  constexpr element_types() noexcept = default;
  // Implicit on purpose: `gemm(m, n, k, dtype::fp16)` means fp16 in, fp16 out, fp32 accumulate.
  constexpr element_types(dtype all) noexcept  // NOLINT(google-explicit-constructor)
      : input(all), output(all), accumulate(default_accumulate(all)) {}
  constexpr element_types(dtype in, dtype out, dtype acc) noexcept : input(in), output(out), accumulate(acc) {}
};

NAPKIN_END_NAMESPACE
