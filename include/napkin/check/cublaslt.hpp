// SPDX-License-Identifier: Apache-2.0
// napkin/check/cublaslt.hpp — NAPKIN_CUDA_CHECK for cuBLASLt. cuBLASLt returns cublasStatus_t, like
// cuBLAS, so this is the same specialization as napkin/check/cublas.hpp.
#pragma once

#include "napkin/check/cublas.hpp"
