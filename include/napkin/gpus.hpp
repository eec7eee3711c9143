// SPDX-License-Identifier: Apache-2.0
// napkin/gpus.hpp — math pipes, napkin::gpu_spec, the datasheet table and specs derived from device
// properties (the parts in napkin/math/; napkin/math.hpp has all the math).
#pragma once

#include "napkin/math/derived_spec.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/gpu_table.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/workloads.hpp"
