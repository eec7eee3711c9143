// SPDX-License-Identifier: Apache-2.0
// napkin::profiler_error: every failure of the profiler, with the CUPTI status behind it. Its own header, with
// only CUPTI's status enum (cupti_result.h) and no CUDA runtime, so that a unit that declares the profiler
// (NAPKIN_SEPARATE_COMPILATION) can catch it; how failures are raised is cupti/errors.hpp.
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "napkin/check/core.hpp"

NAPKIN_BEGIN_NAMESPACE

class profiler_error : public std::runtime_error {
 public:
  profiler_error(CUptiResult status, const std::string& what) : std::runtime_error(what), status_(status) {}
  explicit profiler_error(const std::string& what) : profiler_error(CUPTI_SUCCESS, what) {}
  // Another library's failed status inside the profiler (a CUDA runtime or driver call): not CUPTI's. Never
  // asked of CUptiResult (std::conjunction stops first), so that has_traits<CUptiResult> is not settled here,
  // before napkin/check/cupti.hpp has given CUPTI its status_traits.
  template <class Status, class = std::enable_if_t<std::conjunction_v<
                              std::negation<std::is_same<Status, CUptiResult>>, detail::has_traits<Status>>>>
  profiler_error(Status, const std::string& what) : profiler_error(CUPTI_SUCCESS, what) {}
  // The CUPTI status behind the failure; CUPTI_SUCCESS when the failure is not CUPTI's (a CUDA error, or
  // napkin itself refused).
  CUptiResult status() const noexcept { return status_; }

 private:
  CUptiResult status_;
};

NAPKIN_END_NAMESPACE
