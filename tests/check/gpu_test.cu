// Real launch failures and real faults. A fault makes the context unusable for the rest of the
// process, so each faulting case runs in its own process (CTest runs this binary once per case).
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
__global__ void write_one(int* p) { *p = 1; }

bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

// Device-side checks: thread 0 gets cudaErrorInvalidValue (1), the others cudaSuccess.
__host__ __device__ cudaError_t status_for(unsigned thread) {
  return thread == 0 ? cudaErrorInvalidValue : cudaSuccess;
}
__host__ __device__ int checked(unsigned thread) { return NAPKIN_CUDA_CHECK(status_for(thread)) == cudaSuccess; }
__global__ void check_on_device(int* out) { out[threadIdx.x] = checked(threadIdx.x); }
__global__ void check_nothrow_on_device(int* out) {
  out[threadIdx.x] = NAPKIN_CUDA_CHECK_NOTHROW(status_for(threadIdx.x));
}

// Runs `fn` with this process's stdout (where device printf goes) redirected to a file; returns the text.
template <class Fn>
std::string device_output(Fn fn) {
  std::fflush(stdout);
  char path[] = "/tmp/napkin_device_printf_XXXXXX";
  const int file = mkstemp(path);
  REQUIRE(file >= 0);
  const int saved = dup(1);
  dup2(file, 1);
  fn();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  if (FILE* f = std::fopen(path, "r")) {
    char buf[512];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
  }
  close(file);
  std::remove(path);
  return text;
}
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

TEST_CASE("device_check/nothrow: a failed no-throw check in device code prints and yields false") {
  int* d = nullptr;
  NAPKIN_CUDA_CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  const std::string out = device_output([d] {
    NAPKIN_CUDA_LAUNCH(check_nothrow_on_device<<<1, 2>>>(d));
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());  // flushes the device's printf buffer
  });
  INFO(out);
  int h[2] = {-1, -1};
  NAPKIN_CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 0);  // thread 0 failed: false, and it went on to store it
  CHECK(h[1] == 1);
  CHECK(contains(out, "device-side check of `status_for(threadIdx.x)` failed: status 1 "
                      "(block [0,0,0], thread [0,0,0])"));
  CHECK(contains(out, "gpu_test.cu"));
  CHECK(contains(out, "yields false"));
  CHECK_FALSE(contains(out, "thread [1,0,0]"));
  NAPKIN_CUDA_CHECK(cudaFree(d));
}

TEST_CASE("device_check/trap: a failed check in __host__ __device__ code traps, after printing where") {
  napkin::set_launch_sync(false);
  int* d = nullptr;
  NAPKIN_CUDA_CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  std::string name;
  bool sticky = false;
  const std::string out = device_output([&] {
    NAPKIN_CUDA_LAUNCH(check_on_device<<<1, 2>>>(d));
    try {
      NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const napkin::cuda_error& e) {
      name = e.name();
      sticky = e.is_sticky();
    }
  });
  INFO(out);
  // __trap() aborts the kernel (CUDA C++ Programming Guide, "Trap function"): the host sees a sticky
  // error (expected: cudaErrorLaunchFailure, "unspecified launch failure").
  INFO("the host saw: ", name);
  CHECK_FALSE(name.empty());
  CHECK(sticky);
  CHECK(contains(out, "device-side check of `status_for(thread)` failed: status 1 (block [0,0,0], thread [0,0,0])"));
  CHECK(contains(out, "in checked()"));
  CHECK(contains(out, "this thread traps"));
  // The same function on the host throws as every host check does.
  CHECK(checked(1) == 1);
}
