// Real launch failures and real faults. A fault makes the context unusable for the rest of the
// process, so each faulting case runs in its own process (CTest runs this binary once per case).
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <string>

namespace {
__global__ void write_one(int* p) { *p = 1; }

bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }
}  // namespace

TEST_CASE("launch: an invalid configuration is reported at the launch") {
  napkin::set_launch_sync(false);
  int* d = nullptr;
  NAPKIN_CUDA_CHECK(cudaMalloc(&d, sizeof(int)));
  write_one<<<1, 4096>>>(d);  // more threads per block than any GPU allows
  try {
    NAPKIN_CUDA_CHECK_LAUNCH();
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    // CUDA 13 on an H100 says cudaErrorInvalidValue; older pairs said cudaErrorInvalidConfiguration.
    CHECK((e.name() == "cudaErrorInvalidConfiguration" || e.name() == "cudaErrorInvalidValue"));
    CHECK(contains(e.what(), "launch configuration error"));
    CHECK_FALSE(e.is_sticky());
  }
  // The context is fine afterwards: a correct launch passes, synchronized too.
  napkin::set_launch_sync(true);
  NAPKIN_CUDA_LAUNCH(write_one<<<1, 1>>>(d));
  int h = 0;
  NAPKIN_CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == 1);
  NAPKIN_CUDA_CHECK(cudaFree(d));
  napkin::set_launch_sync(false);
}

TEST_CASE("launch: too much dynamic shared memory is reported, and NAPKIN_CUDA_LAUNCH names the launch") {
  napkin::set_launch_sync(false);
  try {
    NAPKIN_CUDA_LAUNCH(write_one<<<1, 1, 1u << 30>>>(nullptr));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK_FALSE(e.is_pending());
    CHECK(contains(e.expression(), "write_one<<<1, 1, 1u << 30>>>(nullptr)"));
    CHECK(e.code() != 0);
  }
}

TEST_CASE("fault/synchronized: an illegal address is attributed to the launch that made it") {
  napkin::set_launch_sync(true);
  int line = 0;
  try {
    write_one<<<1, 1>>>(reinterpret_cast<int*>(0x10));  // not a device address
    line = __LINE__ + 1;
    NAPKIN_CUDA_CHECK_LAUNCH();
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.name() == "cudaErrorIllegalAddress");
    CHECK(e.is_sticky());
    CHECK(e.line() == static_cast<unsigned>(line));
    CHECK(contains(e.what(), "found by the synchronization"));
  }
  // The context stays poisoned: every later call reports the sticky error.
  int* d = nullptr;
  try {
    NAPKIN_CUDA_CHECK(cudaMalloc(&d, 4));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.is_sticky());
    CHECK(contains(e.what(), "earlier asynchronous work"));
  }
}

TEST_CASE("fault/unsynchronized: a later call reports the fault, marked as earlier asynchronous work") {
  napkin::set_launch_sync(false);
  write_one<<<1, 1>>>(reinterpret_cast<int*>(0x10));
  NAPKIN_CUDA_CHECK_LAUNCH();  // the launch itself was fine
  try {
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.name() == "cudaErrorIllegalAddress");
    CHECK(e.is_sticky());
  }
  // A destructor-style release in a poisoned context does not throw.
  CHECK_FALSE(NAPKIN_CUDA_CHECK_NOTHROW(cudaFree(nullptr)));
}
