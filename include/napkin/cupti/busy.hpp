// SPDX-License-Identifier: Apache-2.0
// When the GPU's counters are busy: profiler_options::busy_wait's retry (with backoff, until a deadline) and
// what napkin says when it gives up.
//
// CUPTI answers CUPTI_ERROR_HARDWARE_BUSY while another client holds the device's performance monitors:
// another process profiling the GPU (ncu, nsys with GPU metrics, another napkin profiler or monitor) or
// DCGM's profiling module. The holder usually lets go (ncu finishes a kernel, a napkin measurement ends), so
// waiting is a sensible option; the default stays "fail at once" so nothing blocks unasked.
//
// The loop takes the CUPTI call, the clock and the sleep as arguments, so tests drive it with a fake clock
// and a fake call (tests/profiler/busy_test.cpp); the profiler passes the real ones. Plain C++17 and
// cupti_result.h (a toolkit header; no GPU or driver).
#pragma once

#include "napkin/config.hpp"

#include <cupti_result.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The first wait after a busy answer, and the most any one wait lasts: the wait doubles from the first to
// the cap (10, 20, 40 ... 640 ms, 1 s, 1 s ...), so a holder that lets go soon is noticed soon and a long
// wait costs ~1 call per second.
inline constexpr std::chrono::milliseconds busy_first_wait{10};
inline constexpr std::chrono::milliseconds busy_longest_wait{1000};

// How long to sleep before attempt `retry` + 1 (retry 0 is the first retry), never past `left`.
inline std::chrono::milliseconds busy_backoff(std::size_t retry, std::chrono::milliseconds left) {
  std::chrono::milliseconds wait = busy_first_wait;
  for (std::size_t i = 0; i < retry && wait < busy_longest_wait; ++i) wait *= 2;
  return std::max(std::chrono::milliseconds(0), std::min({wait, busy_longest_wait, left}));
}

// How a profiler meets busy counters: how long to wait (profiler_options::busy_wait) and the device's
// words for messages ("device 1 (NVIDIA H200, 0000:19:00.0)").
struct busy_policy {
  std::chrono::milliseconds wait{0};
  std::string device;
};

// What a retried call came to.
struct busy_outcome {
  CUptiResult status = CUPTI_SUCCESS;  // the last answer
  std::size_t retries = 0;             // calls after the first
  std::chrono::milliseconds waited{0};  // time spent sleeping between calls
};

// Calls `call` (returning CUptiResult) until it answers anything but CUPTI_ERROR_HARDWARE_BUSY, or until
// `busy_wait` has passed since the first call (0: one call only). `now()` gives a steady_clock::time_point;
// `sleep(ms)` waits.
template <class Call, class Now, class Sleep>
busy_outcome retry_while_busy(Call&& call, std::chrono::milliseconds busy_wait, Now&& now, Sleep&& sleep) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  busy_outcome out;
  const auto start = now();
  out.status = call();
  while (out.status == CUPTI_ERROR_HARDWARE_BUSY) {
    const milliseconds left = busy_wait - duration_cast<milliseconds>(now() - start);
    if (left <= milliseconds(0)) break;
    const milliseconds wait = busy_backoff(out.retries, left);
    sleep(wait);
    out.waited += wait;
    ++out.retries;
    out.status = call();
  }
  return out;
}

// The same with the real clock and sleep.
template <class Call>
busy_outcome retry_while_busy(Call&& call, std::chrono::milliseconds busy_wait) {
  return retry_while_busy(
      call, busy_wait, [] { return std::chrono::steady_clock::now(); },
      [](std::chrono::milliseconds ms) { std::this_thread::sleep_for(ms); });
}

// The note a busy failure carries after CUPTI's text and advice (detail/cupti_advice.hpp): the device, and how long
// napkin waited or how to make it wait. Empty for any other outcome.
inline std::string busy_note(const busy_outcome& o, const std::string& device, std::chrono::milliseconds busy_wait) {
  if (o.status != CUPTI_ERROR_HARDWARE_BUSY) return {};
  std::string note = "the counters of " + device + " are held by another client";
  if (busy_wait.count() <= 0) return note + "; napkin did not wait (profiler_options::busy_wait = 0)";
  return note + "; napkin waited " + std::to_string(o.waited.count()) + " ms (" + std::to_string(o.retries + 1) +
         " attempts, profiler_options::busy_wait = " + std::to_string(busy_wait.count()) +
         " ms) and they stayed busy";
}

}  // namespace detail
NAPKIN_END_NAMESPACE
