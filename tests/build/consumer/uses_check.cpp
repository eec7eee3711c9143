#include <napkin/check.hpp>

#include <cstdio>

int main() {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
  } catch (const napkin::cuda_error& e) {
    std::printf("caught: %s\n", e.name().c_str());
    return e.name() == "cudaErrorInvalidValue" ? 0 : 1;
  }
  return 1;
}
