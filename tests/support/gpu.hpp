// Test support: is a CUDA device usable here? GPU tests skip (exit 77) when it is not.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

namespace napkin_test {

// Empty when a device is usable; otherwise why not ("cudaErrorInsufficientDriver: ...").
inline std::string why_no_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  }
  if (count == 0) return "no CUDA device";
  return {};
}

}  // namespace napkin_test
