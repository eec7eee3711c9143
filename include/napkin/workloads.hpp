// SPDX-License-Identifier: Apache-2.0
// napkin/workloads.hpp — FLOPs, minimum bytes and arithmetic intensity of common GPU kernels, with their
// element types and counting conventions (the parts in napkin/math/; napkin/math.hpp has all the math).
#pragma once

#include "napkin/math/dtype.hpp"
#include "napkin/math/workload.hpp"
#include "napkin/math/workloads.hpp"
