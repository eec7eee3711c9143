// The translation units of the mixed-configurations program (mixed_configurations_test.cpp):
//   exc_*    with_exceptions.cpp      this napkin version, compiled with exceptions;
//   noexc_*  without_exceptions.cpp   this napkin version, compiled with -fno-exceptions;
//   other_*  other_version.cpp        compiled as another napkin version would be (namespace napkin::v0_2,
//                                     through napkin/config.hpp's NAPKIN_DETAIL_VERSION_NAMESPACE).
// mixed_configurations_test.cpp includes no napkin header, so only these units hold napkin's inline
// functions and variables, and the link order decides which unit's copy comes first.
#pragma once

// Each runs NAPKIN_CUDA_CHECK on a failing status (cudaErrorInvalidValue: no driver needed).
void exc_failing_check();
void noexc_failing_check();
void other_failing_check();
// 0 when the unit's NAPKIN_CUDA_CHECK threw a catchable napkin::cuda_error (its version's) with that code.
int exc_check_throws();
int other_check_throws();

// The failure policy is process-wide within a version: set in one unit, seen by the other.
void exc_install_handler_of_noexc();  // installs noexc_handler from the exceptions unit
void noexc_install_handler_of_exc();  // installs exc_handler from the no-exceptions unit
void exc_clear_handler();
void noexc_set_abort_policy();
void other_set_abort_policy();
int noexc_handler_calls();
// Installs a handler (no-exceptions unit) that itself fails a NAPKIN_CUDA_CHECK, then fails a check there.
void noexc_nested_failure();
int exc_handler_calls();

// Launch synchronization (napkin::set_launch_sync, NAPKIN_LAUNCH_SYNC()), as each unit sets and sees it.
void exc_set_launch_sync(bool on);
void noexc_set_launch_sync(bool on);
void other_set_launch_sync(bool on);
bool exc_launch_sync();
bool noexc_launch_sync();
bool other_launch_sync();

// Where each unit finds napkin's process-wide state: one object per version, whatever the unit's
// exception setting.
struct state_addresses {
  const void* policy;
  const void* handler;
  const void* launch_sync;
};
state_addresses exc_state();
state_addresses noexc_state();
state_addresses other_state();

// The vocabulary types must be the same types in the units of one version (a handler declared in one is
// called by the other) and other types in another version: their mangled names, from typeid.
const char* exc_error_info_type();
const char* noexc_error_info_type();
const char* other_error_info_type();
const char* exc_handler_type();
const char* noexc_handler_type();
