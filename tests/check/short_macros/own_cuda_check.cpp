// A program with its own CUDA_CHECK, defined before napkin/check.hpp is included: napkin keeps it.
#include <cuda_runtime_api.h>

namespace {
int calls = 0;
}  // namespace

#define CUDA_CHECK(call) ((void)++calls, (call))

#include <napkin/check.hpp>

cudaError_t own_cuda_check(cudaError_t e) { return CUDA_CHECK(e); }
int own_cuda_check_calls() { return calls; }
