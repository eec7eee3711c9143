// A CUDA fault inside measured work: reported with the CUDA error, and the profiler disables itself
// (the context is unusable after a fault). Its own executable: the fault kills this process's context.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <string>

#include "napkin/profiler.hpp"

namespace {
__global__ void write_through_null(float* p) { p[threadIdx.x] = 1.0f; }
}  // namespace

TEST_CASE("a fault inside measure() is reported and disables the profiler cleanly") {
  napkin::profiler_options options;
  options.warm_up = false;  // the fault inside a replay pass (CUPTI fails after it too), not in the warm-up run
  napkin::profiler prof(napkin::metric_sets::one_pass(), options);
  try {
    (void)prof.measure("faulty", [] { write_through_null<<<1, 32>>>(nullptr); });
    FAIL("expected profiler_error");
  } catch (const napkin::profiler_error& e) {
    MESSAGE(e.what());
    CHECK(std::string(e.what()).find("cudaErrorIllegalAddress") != std::string::npos);
  }
  CHECK_FALSE(prof.usable());
  try {
    (void)prof.measure("after", [] {});
    FAIL("expected profiler_error");
  } catch (const napkin::profiler_error& e) {
    CHECK(std::string(e.what()).find("disabled") != std::string::npos);
  }
}
