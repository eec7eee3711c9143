// SPDX-License-Identifier: Apache-2.0
// Which kernels move data between GPUs, so that a phase's GPU time splits into communication and compute:
// "allreduce: 83 % of its GPU time in NCCL kernels" says a phase waits on its peers, not on its own math.
//
// Communication kernels are recognised by name: NCCL's (ncclDevKernel_AllReduce_Sum_f32_RING_LL, or
// ncclKernel_... before NCCL 2.19) and NVSHMEM's (nvshmemi_...), demangled, mangled (_Z28ncclDevKernel_...)
// or with a leading return type. Copies between GPUs that are not kernels (cudaMemcpyPeer) are not seen.
//
// Plain C++17: no CUDA header, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <string_view>

NAPKIN_BEGIN_NAMESPACE

// True for a kernel that a communication library launched (NCCL, NVSHMEM).
constexpr bool is_communication_kernel(std::string_view name) noexcept {
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  if (name.substr(0, 2) == "_Z") {  // Itanium mangling: _Z, then the name's length in digits
    name.remove_prefix(2);
    if (name.substr(0, 1) == "N") name.remove_prefix(1);  // a nested name
    while (!name.empty() && name.front() >= '0' && name.front() <= '9') name.remove_prefix(1);
  }
  return name.substr(0, 4) == "nccl" || name.substr(0, 7) == "nvshmem";
}

// GPU time split into communication and compute kernels.
struct time_split {
  double compute_ns = 0;
  double communication_ns = 0;

  constexpr void add(std::string_view kernel_name, double gpu_ns) noexcept {
    (is_communication_kernel(kernel_name) ? communication_ns : compute_ns) += gpu_ns;
  }
  constexpr double total_ns() const noexcept { return compute_ns + communication_ns; }
  // communication / total, 0 when there was no GPU time.
  constexpr double communication_fraction() const noexcept {
    return total_ns() > 0 ? communication_ns / total_ns() : 0;
  }
  // More than half the time in communication kernels: the phase is reported as communication.
  constexpr bool mostly_communication() const noexcept { return communication_fraction() > 0.5; }
};

NAPKIN_END_NAMESPACE
