// SPDX-License-Identifier: Apache-2.0
// napkin/document/context_cuda.hpp — which GPU a report is about, from the CUDA runtime:
//
//   napkin::document_options o;
//   o.context = napkin::device_context(1);   // device_index 1, its name, PCI bus id and UUID
//   o.context = napkin::run_context(1);      // the same, and this process's host and rank (document/rank.hpp)
//
// The identity a person can match against nvidia-smi (-L prints the UUID, the bus id is nvidia-smi's
// "Bus-Id" column) and across ranks of a job: an index alone means different GPUs under different
// CUDA_VISIBLE_DEVICES. The profiler puts this into every report it makes (sol_report::context).
//
// Needs the CUDA runtime (cudart; no driver library). The UUID's text is document/gpu_uuid.hpp's.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "napkin/check.hpp"
#include "napkin/detail/device_index.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/gpu_uuid.hpp"
#include "napkin/document/rank.hpp"
#include "napkin/error.hpp"

NAPKIN_BEGIN_NAMESPACE

// The device fields of a report_context for `device` (default -1: the calling thread's current device);
// host and rank stay unset (document/rank.hpp fills those). std::invalid_argument for an index that names no
// device; a failed query throws napkin::cuda_error (without exceptions: prints and aborts).
inline report_context device_context(int device = detail::current_device_index) {
  int count = 0;
  NAPKIN_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (const std::string problem = detail::device_index_problem(device, count, "device_context's device");
      !problem.empty())
    detail::raise_input_error(problem);
  if (device == detail::current_device_index) NAPKIN_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  NAPKIN_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  char bus_id[32] = {};  // "0000:19:00.0" and its terminator; CUDA documents 13 as enough
  NAPKIN_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof bus_id), device));
  std::array<std::uint8_t, 16> uuid{};
  static_assert(sizeof prop.uuid.bytes == 16, "cudaUUID_t holds 16 bytes");
  std::memcpy(uuid.data(), prop.uuid.bytes, uuid.size());
  report_context c;
  c.device_index = device;
  c.device_name = std::string(prop.name, strnlen(prop.name, sizeof prop.name));
  c.device_pci_bus_id = std::string(bus_id, strnlen(bus_id, sizeof bus_id));
  c.device_uuid = gpu_uuid_text(uuid);
  return c;
}

// Where a measurement on `device` is made: device_context(device) plus this process's host, and its rank,
// world size and local rank from the launcher's environment (process_context(); a malformed rank variable
// leaves the rank out). What the profiler and the monitor put into every report.
inline report_context run_context(int device = detail::current_device_index) {
  report_context c = device_context(device);
  const report_context p = process_context();
  c.host = p.host;
  c.rank = p.rank;
  c.world_size = p.world_size;
  c.local_rank = p.local_rank;
  return c;
}

NAPKIN_END_NAMESPACE
