// Launch checks without a kernel: an error left pending by an unchecked call stands in for a launch
// error (both surface through cudaGetLastError), which the runtime produces on any machine.
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <cstdlib>
#include <string>

#include "check/capture.hpp"
#include "support/gpu.hpp"

using napkin_test::captured;

// Without a driver the runtime's initialization failure stays pending for good (cudaGetLastError keeps
// returning cudaErrorInsufficientDriver); with a GPU a pending error is cleared once reported.
namespace {
cudaError_t leave_an_error_pending() { return cudaSetDevice(-1); }  // unchecked on purpose
const bool have_gpu = napkin_test::why_no_gpu().empty();
}  // namespace

TEST_CASE("the launch check reports the pending launch error and clears it") {
  napkin::set_launch_sync(false);
  const cudaError_t expected = leave_an_error_pending();
  try {
    NAPKIN_CUDA_CHECK_LAUNCH();
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.code() == expected);
    CHECK(e.expression().find("kernel launch") != std::string::npos);
    // Without a driver the "pending" error is the runtime's initialization failure, and is called that.
    CHECK(std::string(e.what()).find(have_gpu ? "launch configuration error"
                                              : "CUDA could not be initialized in this process") != std::string::npos);
  }
  if (have_gpu) {
    CHECK_NOTHROW(NAPKIN_CUDA_CHECK_LAUNCH());
  } else {
    CHECK_THROWS_AS(NAPKIN_CUDA_CHECK_LAUNCH(), napkin::cuda_error);
  }
}

TEST_CASE("NAPKIN_CUDA_LAUNCH reports an earlier pending error as pending, not as the launch's") {
  napkin::set_launch_sync(false);
  leave_an_error_pending();
  int launched = 0;
  try {
    NAPKIN_CUDA_LAUNCH(++launched);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(launched == 0);  // the launch was not made on top of an unexplained error
    if (have_gpu) {
      CHECK(e.is_pending());
      CHECK(std::string(e.what()).find("error found pending before `++launched`") != std::string::npos);
      CHECK(std::string(e.what()).find("not produced by this launch") != std::string::npos);
    } else {  // an initialization failure: nobody's pending error (launch_attribution_test.cpp has the rest)
      CHECK_FALSE(e.is_pending());
      CHECK(std::string(e.what()).find("CUDA could not be initialized in this process") != std::string::npos);
    }
  }
  if (have_gpu) {
    NAPKIN_CUDA_LAUNCH(++launched);
    CHECK(launched == 1);
  } else {
    CHECK_THROWS_AS(NAPKIN_CUDA_LAUNCH(++launched), napkin::cuda_error);
    CHECK(launched == 0);
  }
}

TEST_CASE("with launch synchronization on, the check synchronizes and attributes the result") {
  napkin_test::capturing scope;
  napkin::set_launch_sync(true);
  NAPKIN_CUDA_CHECK_LAUNCH();
  napkin::set_launch_sync(false);
  if (have_gpu) {
    CHECK(captured().empty());  // nothing launched, nothing to fault
  } else {
    REQUIRE(captured().size() == 1);  // the pending initialization failure, before any synchronization
    CHECK(captured()[0].code == cudaErrorInsufficientDriver);
  }
}

TEST_CASE("NAPKIN_SYNC_LAUNCHES in the environment decides the default, read once") {
  ::setenv("NAPKIN_SYNC_LAUNCHES", "1", 1);
  napkin::process_state::launch_sync.store(-1);
  CHECK(NAPKIN_LAUNCH_SYNC());
  ::setenv("NAPKIN_SYNC_LAUNCHES", "0", 1);
  CHECK(NAPKIN_LAUNCH_SYNC());  // already decided
  napkin::process_state::launch_sync.store(-1);
  CHECK_FALSE(NAPKIN_LAUNCH_SYNC());
  // The one reader of napkin's on/off variables: "no" used to mean on (only 0, false and off were off).
  for (const char* off : {"no", "NO", "Off", " false ", "FALSE"}) {
    ::setenv("NAPKIN_SYNC_LAUNCHES", off, 1);
    napkin::process_state::launch_sync.store(-1);
    CHECK_MESSAGE(!NAPKIN_LAUNCH_SYNC(), off);
  }
  for (const char* on : {"yes", "ON", " true", "1"}) {
    ::setenv("NAPKIN_SYNC_LAUNCHES", on, 1);
    napkin::process_state::launch_sync.store(-1);
    CHECK_MESSAGE(NAPKIN_LAUNCH_SYNC(), on);
  }
  ::setenv("NAPKIN_SYNC_LAUNCHES", "maybe", 1);  // said on stderr; the build's default holds
  napkin::process_state::launch_sync.store(-1);
#ifdef NDEBUG
  CHECK_FALSE(NAPKIN_LAUNCH_SYNC());
#else
  CHECK(NAPKIN_LAUNCH_SYNC());
#endif
  ::unsetenv("NAPKIN_SYNC_LAUNCHES");
  napkin::process_state::launch_sync.store(-1);
#ifdef NDEBUG
  CHECK_FALSE(NAPKIN_LAUNCH_SYNC());
#else
  CHECK(NAPKIN_LAUNCH_SYNC());
#endif
  // The compiled default is the caller's, passed in: the library's body is the same in every unit.
  napkin::process_state::launch_sync.store(-1);
  CHECK(napkin::detail::launch_sync(true));
  napkin::process_state::launch_sync.store(-1);
  CHECK_FALSE(napkin::detail::launch_sync(false));
  napkin::set_launch_sync(false);
}
