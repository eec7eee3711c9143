// The unit compiled as another napkin version would be: CTest builds it with
// -DNAPKIN_DETAIL_VERSION_NAMESPACE=v0_2 (napkin/config.hpp), with exceptions. Everything it uses from
// napkin, functions and process-wide state alike, is then napkin::v0_2's, never napkin::v0_1's.
#include <napkin/check.hpp>

#include <type_traits>
#include <typeinfo>

#include "units.hpp"

static_assert(std::is_same_v<napkin::error_info, napkin::v0_2::error_info>,
              "this unit must be compiled with -DNAPKIN_DETAIL_VERSION_NAMESPACE=v0_2");

void other_failing_check() { NAPKIN_CUDA_CHECK(cudaErrorInvalidValue); }

int other_check_throws() {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
  } catch (const napkin::cuda_error& e) {
    return e.code() == cudaErrorInvalidValue ? 0 : 2;
  } catch (...) {
    return 3;
  }
  return 1;  // no throw
}

void other_set_abort_policy() { napkin::set_failure_policy(napkin::failure_policy::abort_process); }

void other_set_launch_sync(bool on) { napkin::set_launch_sync(on); }
bool other_launch_sync() { return NAPKIN_LAUNCH_SYNC(); }
state_addresses other_state() {
  return {&napkin::process_state::policy, &napkin::process_state::handler, &napkin::process_state::launch_sync};
}

const char* other_error_info_type() { return typeid(napkin::error_info).name(); }
