// SPDX-License-Identifier: Apache-2.0
// The comparison of a report with napkin math (workloads, GPU specs, the roofline): now in
// napkin/profiler/comparison.hpp, which napkin/profiler.hpp includes. Kept so that existing includes work.
#pragma once

#include "napkin/config.hpp"

#include "napkin/profiler/comparison.hpp"
