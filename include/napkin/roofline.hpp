// SPDX-License-Identifier: Apache-2.0
// napkin/roofline.hpp — the roofline model (napkin/math/roofline.hpp) with the workloads and GPU specs it
// takes (napkin/math.hpp has all the math).
#pragma once

#include "napkin/gpus.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/workloads.hpp"
