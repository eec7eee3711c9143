// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy_cuda.hpp — napkin/occupancy.hpp for a compiled __global__ function on the current device
// (the umbrella header of napkin/occupancy/cuda.hpp; needs the CUDA runtime, through napkin::napkin).
#pragma once

#include "napkin/config.hpp"

#include "napkin/occupancy/cuda.hpp"
