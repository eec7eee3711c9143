// The unit compiled with -fno-exceptions.
#include <napkin/check.hpp>

#include <typeinfo>

#include "units.hpp"

static_assert(!NAPKIN_HAS_EXCEPTIONS, "this unit must be compiled with -fno-exceptions");

namespace {
int handler_calls = 0;
}  // namespace

void noexc_handler(const napkin::error_info& info) { handler_calls += info.code == cudaErrorInvalidValue ? 1 : 100; }

void noexc_failing_check() { NAPKIN_CUDA_CHECK(cudaErrorInvalidValue); }

void exc_handler_for_noexc(const napkin::error_info& info);  // defined in with_exceptions.cpp
void noexc_install_handler_of_exc() { napkin::set_failure_handler(&exc_handler_for_noexc); }
void noexc_set_abort_policy() { napkin::set_failure_policy(napkin::failure_policy::abort_process); }
int noexc_handler_calls() { return handler_calls; }

void noexc_nested_failure() {
  napkin::set_failure_handler([](const napkin::error_info&) { NAPKIN_CUDA_CHECK(cudaErrorInvalidValue); });
  NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
}

const char* noexc_error_info_type() { return typeid(napkin::error_info).name(); }
const char* noexc_handler_type() { return typeid(napkin::failure_handler).name(); }
