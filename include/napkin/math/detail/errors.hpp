// SPDX-License-Identifier: Apache-2.0
// napkin/math/detail/errors.hpp — how napkin's constexpr math reports bad input.
//
// Each failure is a call to a non-constexpr function whose *name* states the problem. In constant
// evaluation (constexpr variables, static_assert, template arguments) the call cannot be evaluated, so
// the compiler stops and its diagnostic names the function, e.g.
//   error: call to non-'constexpr' function '... napkin::detail::size_must_be_positive(const char*)'
// At run time the same call goes through napkin's failure policy (napkin/error.hpp): it throws an exception
// with a readable message, or, built without exceptions, prints the message and aborts (after the user's
// failure handler, when one is installed). Never a wrapped number.
#pragma once

#include "napkin/error.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

[[noreturn]] inline void size_must_be_positive(const char* what) {
  raise_input_error(std::string("napkin: ") + what + " must be positive");
}

[[noreturn]] inline void count_must_not_be_negative(const char* what) {
  raise_input_error(std::string("napkin: ") + what + " must not be negative");
}

[[noreturn]] inline void arithmetic_overflows_64_bits(const char* what) {
  raise_input_error<std::overflow_error>(std::string("napkin: ") + what + " overflows 64-bit arithmetic");
}

[[noreturn]] inline void value_out_of_range(const char* what) {
  raise_input_error<std::domain_error>(std::string("napkin: ") + what);
}

[[noreturn]] inline void value_not_finite(const char* what, double v) {
  raise_input_error<std::domain_error>(std::string("napkin: ") + what + " must be a finite number, got " +
                                       general(v));
}

[[noreturn]] inline void value_must_be_positive(const char* what, double v) {
  raise_input_error<std::domain_error>(std::string("napkin: ") + what + " must be positive, got " + general(v));
}

[[noreturn]] inline void value_must_not_be_negative(const char* what, double v) {
  raise_input_error<std::domain_error>(std::string("napkin: ") + what + " must not be negative, got " +
                                       general(v));
}

// A value of a napkin enum outside its enumerators (a cast from an integer).
[[noreturn]] inline void enum_value_out_of_range(const char* type, int value) {
  raise_input_error(std::string("napkin: not a napkin::") + type + " (" + std::to_string(value) +
                    "); use one of its enumerators");
}

// NaN and the infinities are not finite. (std::isfinite is not constexpr in C++17.)
constexpr bool is_finite(double v) noexcept {
  return v >= -std::numeric_limits<double>::max() && v <= std::numeric_limits<double>::max();
}

// A finite value > 0 (>= 0); `what` names it: "the memory clock (kHz)".
constexpr double positive_finite(double v, const char* what) {
  if (!is_finite(v)) value_not_finite(what, v);
  if (!(v > 0)) value_must_be_positive(what, v);
  return v;
}

constexpr double non_negative_finite(double v, const char* what) {
  if (!is_finite(v)) value_not_finite(what, v);
  if (!(v >= 0)) value_must_not_be_negative(what, v);
  return v;
}

// A computed result that must be a finite number (finite inputs can still overflow).
constexpr double finite_result(double v, const char* what) {
  if (!is_finite(v)) value_not_finite(what, v);
  return v;
}

[[noreturn]] inline void unknown_gpu(std::string_view key) {
  raise_input_error("napkin: unknown GPU '" + std::string(key) +
                    "' (napkin::gpu_table lists the known keys; the `napkin gpus` command prints them)");
}

[[noreturn]] inline void unknown_name(const char* kind, std::string_view name, const char* choices) {
  raise_input_error(std::string("napkin: unknown ") + kind + " '" + std::string(name) + "' (" + choices + ")");
}

[[noreturn]] inline void pipe_not_available_on_this_gpu(std::string_view gpu, std::string_view pipe) {
  raise_input_error("napkin: GPU '" + std::string(gpu) + "' has no '" + std::string(pipe) +
                    "' pipe in napkin's table (absent on this chip, or no published figure)");
}

[[noreturn]] inline void no_pipe_for_these_types(const char* why) {
  raise_input_error(std::string("napkin: no math pipe for ") + why);
}

[[noreturn]] inline void sparsity_needs_a_sparse_tensor_pipe(std::string_view gpu, std::string_view pipe) {
  raise_input_error("napkin: 2:4 sparsity is not available for pipe '" + std::string(pipe) + "' on GPU '" +
                    std::string(gpu) + "'");
}

}  // namespace detail
NAPKIN_END_NAMESPACE
