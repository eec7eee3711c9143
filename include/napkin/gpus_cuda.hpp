// SPDX-License-Identifier: Apache-2.0
// napkin/gpus_cuda.hpp — a napkin::gpu_spec for the running device, from the CUDA runtime
// (napkin/math/gpus_cuda.hpp), with the rest of napkin/gpus.hpp. Needs the CUDA runtime's header.
#pragma once

#include "napkin/gpus.hpp"
#include "napkin/math/gpus_cuda.hpp"
