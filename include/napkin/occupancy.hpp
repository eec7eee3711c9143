// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy.hpp — exact, constexpr theoretical occupancy for CUDA kernels (the umbrella header).
//
// Plain C++17, no CUDA header. Given a compute capability (or device limits), a block size, the
// kernel's registers per thread and shared memory, it computes what the CUDA driver computes
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor): blocks per SM allowed by each resource, active warps,
// occupancy and the limiting resource(s); then what it would take to reach the next occupancy level,
// the best block size, and the data of Nsight Compute's three occupancy graphs.
//
//   constexpr auto r = napkin::occupancy(napkin::compute_capability{9, 0}, 256, 32, 8 * 1024);
//   static_assert(r.blocks_per_sm == 8 && r.active_warps() == 64);
//   std::puts(napkin::to_text(napkin::limits_of({8, 6}), 256, {128}).c_str());
//
// The rules (docs/occupancy.md has them with their public sources) were written from the CUDA Programming
// Guide's compute capability tables, the CUDA C++ Best Practices Guide's occupancy section and the
// behaviour of the toolkit's cuda_occupancy.h; tests/occupancy checks them against that header over
// millions of launches. Bad input (a launch, a compute capability, or the fields of a user-built
// sm_limits) is a compile error in constant evaluation: the failing call is a non-constexpr function in
// napkin::detail whose name (or template argument) says what is wrong. At run time it is napkin's input
// error (napkin/error.hpp): std::invalid_argument by default; without exceptions, the message and an
// abort, or the failure handler.
//
// The parts, each usable alone:
//   occupancy/compute_capability.hpp  compute_capability
//   occupancy/limits.hpp              sm_limits, its validation (check_limits, limits_error)
//   occupancy/limits_table.hpp        limits_of(cc): napkin's table with its sources; known_compute_capabilities
//   occupancy/launch.hpp              kernel_resources; validate_launch, launch_error
//   occupancy/calculator.hpp          occupancy, try_occupancy, occupancy_result, limiter
//   occupancy/next_step.hpp           next_step: what raises occupancy
//   occupancy/best_block_size.hpp     best_block_size, max_dynamic_smem_for
//   occupancy/graphs.hpp              graph_block_size, graph_registers, graph_shared_memory
//   occupancy/text.hpp                to_text
// napkin/occupancy/cuda.hpp adds the same for a compiled kernel on a device.
#pragma once

#include "napkin/config.hpp"

#include "napkin/occupancy/best_block_size.hpp"
#include "napkin/occupancy/calculator.hpp"
#include "napkin/occupancy/compute_capability.hpp"
#include "napkin/occupancy/graphs.hpp"
#include "napkin/occupancy/launch.hpp"
#include "napkin/occupancy/limits.hpp"
#include "napkin/occupancy/limits_table.hpp"
#include "napkin/occupancy/next_step.hpp"
#include "napkin/occupancy/text.hpp"
