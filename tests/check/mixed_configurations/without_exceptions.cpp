// The unit compiled with -fno-exceptions.
#include <napkin/check.hpp>

#include <type_traits>
#include <typeinfo>

#include "units.hpp"

static_assert(!NAPKIN_HAS_EXCEPTIONS, "this unit must be compiled with -fno-exceptions");
static_assert(std::is_same_v<napkin::error_info, napkin::v0_1::error_info>, "this unit is napkin 0.1");

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

void noexc_set_launch_sync(bool on) { napkin::set_launch_sync(on); }
bool noexc_launch_sync() { return NAPKIN_LAUNCH_SYNC(); }
state_addresses noexc_state() {
  return {&napkin::process_state::policy, &napkin::process_state::handler, &napkin::process_state::launch_sync};
}

const char* noexc_error_info_type() { return typeid(napkin::error_info).name(); }
const char* noexc_handler_type() { return typeid(napkin::failure_handler).name(); }
