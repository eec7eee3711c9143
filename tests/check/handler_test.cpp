// A failure handler that fails again. Before the re-entry guard, a NAPKIN_CUDA_CHECK (or its no-throw
// variant) on a failing call inside the handler called the handler again, which failed again, until the
// stack overflowed. Each case runs in a child process so that such a recursion fails the case instead of
// killing the test program. Expected: the handler runs once; the nested failure is printed once and then
// treated as if no handler were installed (thrown; a no-throw check returns false).
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <stdexcept>
#include <string>

#include "check/capture.hpp"

using napkin_test::contains;
using napkin_test::count;

namespace {
int handler_calls = 0;
bool nested_nothrow_result = true;

// A real call with an invalid argument would do, but which error a runtime call returns without a driver
// is the driver's business (cudaErrorInsufficientDriver comes first): the status is returned directly.
cudaError_t fails_with_invalid_value() { return cudaErrorInvalidValue; }

void handler_that_checks(const napkin::error_info&) {
  ++handler_calls;
  NAPKIN_CUDA_CHECK(fails_with_invalid_value());
}
void handler_that_checks_nothrow(const napkin::error_info&) {
  ++handler_calls;
  nested_nothrow_result = NAPKIN_CUDA_CHECK_NOTHROW(fails_with_invalid_value());
}
void handler_that_throws(const napkin::error_info& info) {
  ++handler_calls;
  throw std::runtime_error("from the handler: " + info.name);
}
void counting_handler(const napkin::error_info&) { ++handler_calls; }
}  // namespace

#if NAPKIN_TEST_HAS_FORK
using napkin_test::run_in_child;

TEST_CASE("a NAPKIN_CUDA_CHECK that fails inside the handler is printed and thrown, not handled again") {
  const auto r = run_in_child([] {
    napkin::set_failure_handler(&handler_that_checks);
    try {
      NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
      return 10;  // not reached: the nested failure throws out of the handler
    } catch (const napkin::cuda_error& e) {
      if (e.code() != cudaErrorInvalidValue) return 11;
    }
    if (handler_calls != 1) return 12;
    // The guard is released: the next failure goes to the handler again.
    napkin::set_failure_handler(&counting_handler);
    NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
    return handler_calls == 2 ? 0 : 13;
  });
  INFO(r.err);
  CHECK(r.signal == 0);
  CHECK(r.exited);
  CHECK(r.code == 0);
  CHECK(count(r.err, "napkin: failure inside the failure handler") == 1);
  CHECK(count(r.err, "cudaErrorInvalidValue") == 1);
  CHECK(contains(r.err, "fails_with_invalid_value()"));
}

TEST_CASE("a no-throw check that fails inside the handler is printed once and returns false") {
  const auto r = run_in_child([] {
    napkin::set_failure_handler(&handler_that_checks_nothrow);
    const cudaError_t s = NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);  // handled: execution continues
    if (s != cudaErrorMemoryAllocation) return 10;
    if (handler_calls != 1) return 11;
    return nested_nothrow_result ? 12 : 0;
  });
  INFO(r.err);
  CHECK(r.signal == 0);
  CHECK(r.exited);
  CHECK(r.code == 0);
  CHECK(count(r.err, "napkin: failure inside the failure handler") == 1);
  CHECK(count(r.err, "cudaErrorInvalidValue") == 1);  // not printed a second time as "not thrown"
}

TEST_CASE("a no-throw check whose handler fails again returns false and swallows the nested throw") {
  const auto r = run_in_child([] {
    napkin::set_failure_handler(&handler_that_checks);
    if (NAPKIN_CUDA_CHECK_NOTHROW(cudaErrorMemoryAllocation)) return 10;
    return handler_calls == 1 ? 0 : 11;
  });
  INFO(r.err);
  CHECK(r.signal == 0);
  CHECK(r.exited);
  CHECK(r.code == 0);
  CHECK(count(r.err, "napkin: failure inside the failure handler") == 1);
  CHECK(contains(r.err, "exception from the failure handler swallowed"));
}

TEST_CASE("bad input reported inside the handler is thrown as its own exception, not handled again") {
  const auto r = run_in_child([] {
    napkin::set_failure_handler([](const napkin::error_info&) {
      ++handler_calls;
      napkin::detail::raise_input_error("napkin: a test's bad input");
    });
    try {
      NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
      return 10;
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()) != "napkin: a test's bad input") return 11;
    }
    return handler_calls == 1 ? 0 : 12;
  });
  INFO(r.err);
  CHECK(r.exited);
  CHECK(r.code == 0);
  CHECK(count(r.err, "napkin: failure inside the failure handler (not passed to the handler again): "
                     "napkin: a test's bad input") == 1);
}
#endif

TEST_CASE("a handler that throws: the exception reaches the caller and the handler stays in charge") {
  handler_calls = 0;
  napkin::scoped_failure_policy scope(napkin::failure_policy::call_handler, &handler_that_throws);
  try {
    NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL("no throw");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "from the handler: cudaErrorMemoryAllocation");
  }
  CHECK(handler_calls == 1);
  // Thrown out of the handler, the guard was released: the next failure is the handler's again.
  CHECK_THROWS_WITH_AS(NAPKIN_CUDA_CHECK(cudaErrorInvalidValue), "from the handler: cudaErrorInvalidValue",
                       std::runtime_error);
  CHECK(handler_calls == 2);
  CHECK(napkin::process_state::handler_depth == 0);
}
