// A CUDA program of the consumer (CUDA_PROGRAM=ON): nvcc-compiled code and napkin::napkin in one target, so that
// the runtime CMake links for the CUDA code and the one napkin links are the same (CUDA_RUNTIME_LIBRARY).
#include <napkin/check.hpp>

#include <cstdio>

__global__ void touch(int* p) { *p = 1; }

int main() {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
  } catch (const napkin::cuda_error& e) {
    std::printf("caught: %s\n", e.name().c_str());
    return e.name() == "cudaErrorInvalidValue" ? 0 : 1;
  }
  return 1;
}
