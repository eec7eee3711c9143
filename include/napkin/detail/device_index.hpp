// SPDX-License-Identifier: Apache-2.0
// Whether a device index names a CUDA device this process sees, in words: shared by every napkin call that
// takes a device (the profiler, device_gpu_spec, device_limits), so a bad index reads the same everywhere.
//
// Plain C++17 (the caller asks the runtime for the count), so the text is tested without a GPU.
#pragma once

#include "napkin/config.hpp"

#include <string>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// -1 means "the calling thread's current device" wherever napkin takes a device index.
inline constexpr int current_device_index = -1;

// Empty when `device` is -1 (current) or in [0, count); otherwise why not, naming `who` (the parameter).
// CUDA_VISIBLE_DEVICES renumbers what a process sees, which is the usual cause of a surprise here.
inline std::string device_index_problem(int device, int count, const char* who) {
  if (device == current_device_index || (device >= 0 && device < count)) return {};
  std::string what = std::string("napkin: ") + who + " is " + std::to_string(device) + ", ";
  if (device < 0) return what + "but a device index is 0 or more (-1 means the current device)";
  if (count <= 0) return what + "but this process sees no CUDA device";
  return what + "but this process sees " + std::to_string(count) + (count == 1 ? " CUDA device (0)" : " CUDA devices (0..") +
         (count == 1 ? "" : std::to_string(count - 1) + ")") +
         "; CUDA_VISIBLE_DEVICES renumbers the devices a process sees";
}

}  // namespace detail
NAPKIN_END_NAMESPACE
