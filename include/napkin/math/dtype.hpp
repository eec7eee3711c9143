// SPDX-License-Identifier: Apache-2.0
// napkin/math/dtype.hpp — element types: their sizes and names, the accumulator that normally goes with
// each, and element_types (the input, output and accumulate types of one kernel).
//
// Plain C++17, no CUDA, usable in constant expressions. An enum value outside its enumerators (a dtype
// cast from an integer) is refused wherever it would give a number, and prints as "unknown".
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "napkin/math/detail/errors.hpp"
#include "napkin/text/enum_names.hpp"

NAPKIN_BEGIN_NAMESPACE

// Element types. tf32 is stored in 4 bytes (it is fp32 in memory; only the tensor core rounds it).
enum class dtype : unsigned char { fp64, fp32, tf32, fp16, bf16, fp8, int8, int32 };
inline constexpr std::array<dtype, 8> all_dtypes{dtype::fp64, dtype::fp32, dtype::tf32, dtype::fp16,
                                                 dtype::bf16, dtype::fp8,  dtype::int8, dtype::int32};

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

// The other spellings parse_dtype accepts besides to_string's names (the CLI's `napkin dtypes` lists them).
struct dtype_alias {
  std::string_view alias;
  dtype type;
};
inline constexpr std::array<dtype_alias, 13> dtype_aliases{{
    {"f64", dtype::fp64},
    {"double", dtype::fp64},
    {"f32", dtype::fp32},
    {"float", dtype::fp32},
    {"f16", dtype::fp16},
    {"half", dtype::fp16},
    {"e4m3", dtype::fp8},
    {"e5m2", dtype::fp8},
    {"fp8e4m3", dtype::fp8},
    {"fp8e5m2", dtype::fp8},
    {"i8", dtype::int8},
    {"s8", dtype::int8},
    {"i32", dtype::int32},
}};

// Accepts to_string's names plus dtype_aliases (float, half, double, e4m3, e5m2, ...).
constexpr dtype parse_dtype(std::string_view s) {
  if (const std::optional<dtype> t = from_string(s, all_dtypes)) return *t;
  for (const dtype_alias& a : dtype_aliases)
    if (a.alias == s) return a.type;
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
