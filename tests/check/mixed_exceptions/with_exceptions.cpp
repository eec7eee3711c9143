// The unit compiled with exceptions.
#include <napkin/check.hpp>

#include <typeinfo>

#include "units.hpp"

static_assert(NAPKIN_HAS_EXCEPTIONS, "this unit must be compiled with exceptions");

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

const char* exc_error_info_type() { return typeid(napkin::error_info).name(); }
const char* exc_handler_type() { return typeid(napkin::failure_handler).name(); }
