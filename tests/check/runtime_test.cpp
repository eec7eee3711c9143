// NAPKIN_CUDA_CHECK on the real CUDA runtime. Expected codes come from calling the runtime directly;
// without a driver the calls fail with cudaErrorInsufficientDriver/cudaErrorNoDevice, with a GPU they fail
// for the reason the argument gives (an invalid device ordinal).
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <string>
#include <type_traits>
#include <utility>

#include "support/gpu.hpp"

namespace {

// A call that fails on every machine: device ordinal -1 does not exist.
cudaError_t failing_call() { return cudaSetDevice(-1); }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("a failing runtime call throws cuda_error with code, name, text, expression and location") {
  const cudaError_t expected = failing_call();
  (void)cudaGetLastError();
  REQUIRE(expected != cudaSuccess);
  if (!napkin_test::why_no_gpu().empty()) {
    // No driver here: the failure is real and says so.
    CHECK((expected == cudaErrorInsufficientDriver || expected == cudaErrorNoDevice));
  } else {
    CHECK(expected == cudaErrorInvalidDevice);
  }

  int line = 0;
  try {
    line = __LINE__ + 1;
    NAPKIN_CUDA_CHECK(failing_call());
    FAIL("NAPKIN_CUDA_CHECK did not throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.code() == static_cast<int>(expected));
    CHECK(e.name() == cudaGetErrorName(expected));
    CHECK(e.description() == cudaGetErrorString(expected));
    CHECK(e.library() == "CUDA runtime");
    CHECK(e.expression() == "failing_call()");
    CHECK(std::string(e.file()).find("runtime_test.cpp") != std::string::npos);
    CHECK(e.line() == static_cast<unsigned>(line));
    CHECK_FALSE(e.is_sticky());
    CHECK_FALSE(e.is_pending());
    const std::string what = e.what();
    CHECK(contains(what, "runtime_test.cpp:" + std::to_string(line)));
    CHECK(contains(what, "`failing_call()`"));
    CHECK(contains(what, cudaGetErrorName(expected)));
    CHECK(contains(what, cudaGetErrorString(expected)));
    CHECK(contains(what, "(" + std::to_string(static_cast<int>(expected)) + ")"));
  }
}

TEST_CASE("the function name is the enclosing function's") {
  struct local {
    static void allocate_buffers() { NAPKIN_CUDA_CHECK(failing_call()); }
  };
  try {
    local::allocate_buffers();
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(std::string(e.function()) == "allocate_buffers");
    CHECK(contains(e.what(), "in allocate_buffers()"));
  }
}

TEST_CASE("the checked expression is evaluated exactly once, on success and on failure") {
  int calls = 0;
  auto succeed = [&] { ++calls; return cudaSuccess; };
  auto fail = [&] { ++calls; return cudaErrorInvalidValue; };
  NAPKIN_CUDA_CHECK(succeed());
  CHECK(calls == 1);
  CHECK_THROWS_AS(NAPKIN_CUDA_CHECK(fail()), napkin::cuda_error);
  CHECK(calls == 2);
  CHECK(NAPKIN_CUDA_CHECK(succeed()) == cudaSuccess);
  CHECK(calls == 3);
}

TEST_CASE("CUDA_CHECK is an alias and expressions with commas work") {
  auto pick = [](int a, int b) { return a + b == 0 ? cudaSuccess : cudaErrorInvalidValue; };
  CHECK_NOTHROW(CUDA_CHECK(pick(1, -1)));
  CHECK_THROWS_AS(CUDA_CHECK(pick(1, 1)), napkin::cuda_error);
}

TEST_CASE("NAPKIN_CUDA_CHECK_ALLOW lets one status through") {
  CHECK(NAPKIN_CUDA_CHECK_ALLOW(cudaErrorNotReady, cudaErrorNotReady) == cudaErrorNotReady);
  CHECK_THROWS_AS(NAPKIN_CUDA_CHECK_ALLOW(cudaErrorInvalidValue, cudaErrorNotReady), napkin::cuda_error);
}

TEST_CASE("a failed check clears the runtime's last error, so a later launch check does not repeat it") {
  CHECK_THROWS(NAPKIN_CUDA_CHECK(failing_call()));
  if (napkin_test::why_no_gpu().empty()) {
    CHECK(cudaPeekAtLastError() == cudaSuccess);
  } else {
    // Without a driver the runtime keeps its initialization failure pending: nothing can clear it.
    CHECK(cudaPeekAtLastError() == cudaErrorInsufficientDriver);
  }
}

TEST_CASE("sticky errors are classified as such, and the others are not") {
  // The runtime documents these as leaving the context unusable (driver_types.h); CTest's
  // check_status_tables_match_toolkit compares napkin's list with that header's wording.
  for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorAssert,
                        cudaErrorMisalignedAddress, cudaErrorIllegalInstruction}) {
    CHECK(napkin::is_sticky(e));
    try {
      NAPKIN_CUDA_CHECK(e);
      FAIL("no throw");
    } catch (const napkin::cuda_error& err) {
      CHECK(err.is_sticky());
      CHECK(contains(err.what(), "sticky"));
      CHECK(contains(err.what(), "only a new process recovers"));
    }
  }
  for (cudaError_t e : {cudaErrorMemoryAllocation, cudaErrorInvalidValue, cudaErrorInsufficientDriver,
                        cudaErrorNotReady, cudaErrorLaunchOutOfResources})
    CHECK_FALSE(napkin::is_sticky(e));
}

TEST_CASE("hints say what to do for the errors that have an obvious next step") {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorNoKernelImageForDevice);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(contains(e.what(), "CMAKE_CUDA_ARCHITECTURES"));
  }
}

// napkin::to_string and napkin::describe take every checkable status and nothing else (an enum of the
// user's, an int: their own overloads, or none, apply).
template <class T, class = void>
struct has_napkin_to_string : std::false_type {};
template <class T>
struct has_napkin_to_string<T, std::void_t<decltype(napkin::to_string(std::declval<T>()))>> : std::true_type {};
static_assert(has_napkin_to_string<cudaError_t>::value && !has_napkin_to_string<int>::value);

TEST_CASE("to_string and describe name a status without a failure") {
  CHECK(napkin::to_string(cudaErrorMemoryAllocation) == "cudaErrorMemoryAllocation");
  CHECK(napkin::describe(cudaErrorMemoryAllocation) == "out of memory");
  static_assert(noexcept(napkin::to_string(cudaSuccess)) && noexcept(napkin::describe(cudaSuccess)));
}
