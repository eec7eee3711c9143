// The two translation units of the mixed-exceptions program: `exc_*` are compiled with exceptions,
// `noexc_*` with -fno-exceptions. main.cpp includes no napkin header, so only these two units hold
// napkin's inline functions, and the link order decides which unit's copy comes first.
#pragma once

// Each runs NAPKIN_CUDA_CHECK on a failing status (cudaErrorInvalidValue: no driver needed).
void exc_failing_check();
void noexc_failing_check();
// 0 when the exceptions unit's NAPKIN_CUDA_CHECK threw a catchable napkin::cuda_error with that code.
int exc_check_throws();

// The failure policy is process-wide: set in one unit, seen by the other.
void exc_install_handler_of_noexc();  // installs noexc_handler from the exceptions unit
void noexc_install_handler_of_exc();  // installs exc_handler from the no-exceptions unit
void exc_clear_handler();
void noexc_set_abort_policy();
int noexc_handler_calls();
// Installs a handler (no-exceptions unit) that itself fails a NAPKIN_CUDA_CHECK, then fails a check there.
void noexc_nested_failure();
int exc_handler_calls();

// The vocabulary types must be the same types in both units (a handler declared in one is called by the
// other): their mangled names, from typeid, must agree.
const char* exc_error_info_type();
const char* noexc_error_info_type();
const char* exc_handler_type();
const char* noexc_handler_type();
