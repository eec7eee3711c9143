// SPDX-License-Identifier: Apache-2.0
// napkin/quantify.hpp — the "quantify" formulas: what a profiled problem costs and what fixing it could
// gain (napkin/math/quantify.hpp; napkin/math.hpp has all the math).
#pragma once

#include "napkin/math/quantify.hpp"
