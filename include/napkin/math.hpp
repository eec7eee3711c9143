// SPDX-License-Identifier: Apache-2.0
// napkin math: FLOPs, minimum bytes and arithmetic intensity of common kernels, the GPU table, the one
// roofline model, and the "quantify" formulas. Plain C++17, no CUDA; everything usable in constant
// expressions. Link napkin::math. See docs/napkin-math.md.
//
//   napkin/math/dtype.hpp          element types (dtype, element_types)
//   napkin/math/workload.hpp       napkin::workload and the counting conventions
//   napkin/math/workloads.hpp      gemm, reduction, softmax, elementwise, layer/RMS norm, attention, conv2d
//   napkin/math/pipes.hpp          math pipes and per-pipe numbers
//   napkin/math/gpu_spec.hpp       napkin::gpu_spec
//   napkin/math/gpu_table.hpp      the datasheet table (napkin::gpus::*, gpu_table, find_gpu)
//   napkin/math/derived_spec.hpp   a spec from device properties (derive_gpu_spec)
//   napkin/math/roofline.hpp       napkin::estimate: ridge, attainable FLOP/s, time bounds, regime
//   napkin/math/quantify.hpp       what a profiled problem costs and what fixing it could gain
//   napkin/math/detail/errors.hpp  how bad input fails (a compile error in constant evaluation)
// The CUDA-facing part, a spec for the running device, is napkin/math/gpus_cuda.hpp (not included here).
#pragma once

#include "napkin/math/derived_spec.hpp"
#include "napkin/math/dtype.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/gpu_table.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/math/quantify.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workload.hpp"
#include "napkin/math/workloads.hpp"
