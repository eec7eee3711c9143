// How napkin's constexpr math reports bad input.
//
// Each failure is a call to a non-constexpr function whose *name* states the problem. In constant
// evaluation (constexpr variables, static_assert, template arguments) the call cannot be evaluated, so
// the compiler stops and its diagnostic names the function, e.g.
//   error: call to non-'constexpr' function '... napkin::detail::size_must_be_positive(const char*)'
// At run time the same call throws an exception with a readable message. Never a wrapped number.
#pragma once

#include "napkin/error.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

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

[[noreturn]] inline void unknown_gpu(std::string_view key) {
  raise_input_error("napkin: unknown GPU '" + std::string(key) +
                              "' (napkin::gpu_table lists the known keys; `napkin gpus` prints them)");
}

[[noreturn]] inline void unknown_name(const char* kind, std::string_view name, const char* choices) {
  raise_input_error(std::string("napkin: unknown ") + kind + " '" + std::string(name) + "' (" + choices +
                              ")");
}

[[noreturn]] inline void pipe_not_available_on_this_gpu(std::string_view gpu, std::string_view pipe) {
  raise_input_error("napkin: GPU '" + std::string(gpu) + "' has no '" + std::string(pipe) +
                              "' pipe in napkin's table (absent on this chip, or no published figure)");
}

[[noreturn]] inline void no_pipe_for_these_types(const char* why) {
  raise_input_error(std::string("napkin: no math pipe for ") + why);
}

[[noreturn]] inline void sparsity_needs_a_sparse_tensor_pipe(std::string_view gpu, std::string_view pipe) {
  raise_input_error("napkin: 2:4 sparsity is not available for pipe '" + std::string(pipe) +
                              "' on GPU '" + std::string(gpu) + "'");
}

}  // namespace detail
NAPKIN_END_NAMESPACE
