// The unit compiled with exceptions.
#include <napkin/check.hpp>

#include <type_traits>
#include <typeinfo>

#include "units.hpp"

static_assert(NAPKIN_HAS_EXCEPTIONS, "this unit must be compiled with exceptions");
static_assert(std::is_same_v<napkin::error_info, napkin::v0_1::error_info>, "this unit is napkin 0.1");

namespace {
int handler_calls = 0;
void exc_handler(const napkin::error_info& info) { handler_calls += info.code == cudaErrorInvalidValue ? 1 : 100; }
}  // namespace

void exc_failing_check() { NAPKIN_CUDA_CHECK(cudaErrorInvalidValue); }

int exc_check_throws() {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
  } catch (const napkin::cuda_error& e) {
    return e.code() == cudaErrorInvalidValue ? 0 : 2;
  } catch (...) {
    return 3;
  }
  return 1;  // no throw
}

void noexc_handler(const napkin::error_info& info);  // defined in without_exceptions.cpp, outside napkin
void exc_install_handler_of_noexc() { napkin::set_failure_handler(&noexc_handler); }
void exc_clear_handler() { napkin::set_failure_handler(nullptr); }
int exc_handler_calls() { return handler_calls; }
void exc_handler_for_noexc(const napkin::error_info& info) { exc_handler(info); }

void exc_set_launch_sync(bool on) { napkin::set_launch_sync(on); }
bool exc_launch_sync() { return NAPKIN_LAUNCH_SYNC(); }
state_addresses exc_state() {
  return {&napkin::process_state::policy, &napkin::process_state::handler, &napkin::process_state::launch_sync};
}

const char* exc_error_info_type() { return typeid(napkin::error_info).name(); }
const char* exc_handler_type() { return typeid(napkin::failure_handler).name(); }
