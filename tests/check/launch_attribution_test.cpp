// Who is blamed for an error the launch checks find, for each kind of error, without a GPU: this test
// program defines its own cudaGetLastError and cudaDeviceSynchronize (calls from this executable bind to
// them, not to the runtime library's), which model the runtime's last-error state as its documentation
// describes it: cudaGetLastError returns the last error and resets it to cudaSuccess, except that sticky
// errors and a failed initialization are returned again and again.
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <string>

namespace {
cudaError_t last_error = cudaSuccess;
bool persistent = false;  // sticky, or initialization: cudaGetLastError cannot clear it
cudaError_t sync_result = cudaSuccess;

void leave(cudaError_t e, bool keeps = false) {
  last_error = e;
  persistent = keeps;
}
bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }
}  // namespace

extern "C" cudaError_t CUDARTAPI cudaGetLastError(void) {
  const cudaError_t e = last_error;
  if (!persistent) last_error = cudaSuccess;
  return e;
}
extern "C" cudaError_t CUDARTAPI cudaDeviceSynchronize(void) { return sync_result; }

TEST_CASE("before a launch: an ordinary error is pending, left by an earlier call, and cleared") {
  napkin::set_launch_sync(false);
  leave(cudaErrorInvalidValue);
  int launched = 0;
  try {
    NAPKIN_CUDA_LAUNCH(++launched);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.is_pending());
    CHECK_FALSE(e.is_sticky());
    CHECK(contains(e.what(), "error found pending before `++launched`: cudaErrorInvalidValue"));
    CHECK(contains(e.what(), "left by an earlier, unchecked call; not produced by this launch"));
  }
  CHECK(launched == 0);
  NAPKIN_CUDA_LAUNCH(++launched);  // cleared by the report
  CHECK(launched == 1);
}

TEST_CASE("before a launch: a sticky error is pending and blamed on earlier asynchronous work") {
  napkin::set_launch_sync(false);
  leave(cudaErrorIllegalAddress, true);
  int launched = 0;
  try {
    NAPKIN_CUDA_LAUNCH(++launched);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.is_pending());
    CHECK(e.is_sticky());
    CHECK(contains(e.what(), "earlier asynchronous work"));
    CHECK(contains(e.what(), "found before this launch; not produced by it"));
    CHECK_FALSE(contains(e.what(), "unchecked call"));  // a checked launch can fault later, too
  }
  CHECK(launched == 0);
  leave(cudaSuccess);
}

TEST_CASE("before a launch: an initialization failure is nobody's pending error") {
  napkin::set_launch_sync(false);
  for (const cudaError_t init : {cudaErrorInsufficientDriver, cudaErrorNoDevice, cudaErrorSystemDriverMismatch}) {
    CAPTURE(init);
    leave(init, true);
    int launched = 0;
    try {
      NAPKIN_CUDA_LAUNCH(++launched);
      FAIL("no throw");
    } catch (const napkin::cuda_error& e) {
      CHECK_FALSE(e.is_pending());
      CHECK_FALSE(e.is_sticky());
      CHECK(contains(e.what(), "CUDA runtime call `++launched` failed"));
      CHECK(contains(e.what(), "CUDA could not be initialized in this process"));
      CHECK_FALSE(contains(e.what(), "left by"));
      if (init == cudaErrorNoDevice) CHECK(contains(e.what(), "no CUDA-capable device is visible"));
    }
    CHECK(launched == 0);
  }
  leave(cudaSuccess);
}

TEST_CASE("after a launch: each kind of error gets its own attribution") {
  napkin::set_launch_sync(false);
  struct kind {
    cudaError_t error;
    bool keeps;
    const char* says;
  };
  for (const kind& k : {kind{cudaErrorInvalidConfiguration, false, "launch configuration error"},
                        kind{cudaErrorLaunchFailure, true, "raised by earlier asynchronous work"},
                        kind{cudaErrorInsufficientDriver, true, "CUDA could not be initialized in this process"}}) {
    CAPTURE(k.error);
    leave(k.error, k.keeps);
    try {
      NAPKIN_CUDA_CHECK_LAUNCH();
      FAIL("no throw");
    } catch (const napkin::cuda_error& e) {
      CHECK(e.code() == k.error);
      CHECK_FALSE(e.is_pending());
      CHECK(contains(e.what(), k.says));
    }
  }
  leave(cudaSuccess);
  // With synchronization on, the kernel's own fault is attributed to the launch.
  napkin::set_launch_sync(true);
  sync_result = cudaErrorIllegalAddress;
  CHECK_THROWS_WITH(NAPKIN_CUDA_CHECK_LAUNCH(), doctest::Contains("asynchronous fault in this launch"));
  sync_result = cudaSuccess;
  napkin::set_launch_sync(false);
}
