// Failure policies (throw, abort, handler) and the no-throw variant for destructors and shutdown.
#include <doctest/doctest.h>
#include <napkin/check.hpp>

#include <string>

#include "check/capture.hpp"

#if NAPKIN_TEST_HAS_FORK
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#endif

using napkin_test::captured;

TEST_CASE("throw is the default policy") {
  CHECK(napkin::get_failure_policy() == napkin::failure_policy::throw_exception);
  CHECK_THROWS_AS(NAPKIN_CUDA_CHECK(cudaErrorInvalidValue), napkin::cuda_error);
}

TEST_CASE("cuda_error is a std::runtime_error and copies share the payload") {
  try {
    NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL("no throw");
  } catch (const std::runtime_error& e) {
    const auto* ce = dynamic_cast<const napkin::cuda_error*>(&e);
    REQUIRE(ce != nullptr);
    napkin::cuda_error copy = *ce;
    CHECK(&copy.info() == &ce->info());
    CHECK(std::string(copy.what()) == e.what());
  }
}

TEST_CASE("the handler policy calls the handler with the error and execution continues") {
  napkin_test::capturing scope;
  CHECK(napkin::get_failure_policy() == napkin::failure_policy::call_handler);
  const cudaError_t r = NAPKIN_CUDA_CHECK(cudaErrorInvalidValue);
  CHECK(r == cudaErrorInvalidValue);
  REQUIRE(captured().size() == 1);
  CHECK(captured()[0].code == cudaErrorInvalidValue);
  CHECK(captured()[0].name == "cudaErrorInvalidValue");
  CHECK(captured()[0].expression == "cudaErrorInvalidValue");
  NAPKIN_CUDA_CHECK(cudaSuccess);
  CHECK(captured().size() == 1);
}

TEST_CASE("scoped_failure_policy restores the previous policy and handler") {
  {
    napkin_test::capturing scope;
    CHECK(napkin::get_failure_policy() == napkin::failure_policy::call_handler);
  }
  CHECK(napkin::get_failure_policy() == napkin::failure_policy::throw_exception);
  CHECK_THROWS(NAPKIN_CUDA_CHECK(cudaErrorInvalidValue));
}

TEST_CASE("set_failure_handler selects the handler policy; null goes back to throwing") {
  const auto old = napkin::set_failure_handler(&napkin_test::capture_handler);
  CHECK(!old);
  CHECK(napkin::get_failure_policy() == napkin::failure_policy::call_handler);
  napkin::set_failure_handler(nullptr);
  CHECK(napkin::get_failure_policy() == napkin::failure_policy::throw_exception);
}

TEST_CASE("call_handler with no handler installed throws rather than ignoring the error") {
  napkin::scoped_failure_policy scope(napkin::failure_policy::call_handler, nullptr);
  CHECK_THROWS_AS(NAPKIN_CUDA_CHECK(cudaErrorInvalidValue), napkin::cuda_error);
}

namespace {
struct device_buffer_like {
  cudaError_t release_status;
  bool* released_ok;  // where the destructor's check result goes
  ~device_buffer_like() { *released_ok = NAPKIN_CUDA_CHECK_NOTHROW(release_status); }
};
}  // namespace

TEST_CASE("the no-throw variant never throws, reports the failure and returns false") {
  CHECK(NAPKIN_CUDA_CHECK_NOTHROW(cudaSuccess));
  napkin_test::capturing scope;
  CHECK_FALSE(NAPKIN_CUDA_CHECK_NOTHROW(cudaErrorInvalidValue));
  REQUIRE(captured().size() == 1);
  CHECK(captured()[0].name == "cudaErrorInvalidValue");
}

TEST_CASE("the no-throw variant swallows a throwing handler") {
  static int calls = 0;
  calls = 0;
  napkin::scoped_failure_policy scope(napkin::failure_policy::call_handler, [](const napkin::error_info&) {
    ++calls;
    throw 42;
  });
  CHECK_FALSE(NAPKIN_CUDA_CHECK_NOTHROW(cudaErrorInvalidValue));
  CHECK(calls == 1);  // the handler ran; its exception stopped at the check
}

TEST_CASE("the no-throw variant with the throw policy prints instead of throwing, in a destructor too") {
  bool released_ok = true;
  CHECK_NOTHROW([&released_ok] { device_buffer_like b{cudaErrorInvalidValue, &released_ok}; }());
  CHECK_FALSE(released_ok);  // the failure was seen and reported as false
  bool clean_ok = false;
  { device_buffer_like b{cudaSuccess, &clean_ok}; }
  CHECK(clean_ok);
}

TEST_CASE("at process exit cudaErrorCudartUnloading is not an error worth reporting") {
  napkin_test::capturing scope;
  CHECK(NAPKIN_CUDA_CHECK_NOTHROW(cudaErrorCudartUnloading));
  CHECK(captured().empty());
  // The throwing check still reports it: outside shutdown paths it is a real error.
  NAPKIN_CUDA_CHECK(cudaErrorCudartUnloading);
  CHECK(captured().size() == 1);
}

#if NAPKIN_TEST_HAS_FORK
TEST_CASE("the abort policy prints the message and aborts") {
  int err_pipe[2];
  REQUIRE(pipe(err_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::signal(SIGABRT, SIG_DFL);  // the test framework's crash handler must not report the child
    dup2(err_pipe[1], 2);
    napkin::set_failure_policy(napkin::failure_policy::abort_process);
    NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
    _exit(0);  // not reached when the policy works
  }
  close(err_pipe[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(err_pipe[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(err_pipe[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
  CHECK(out.find("napkin: fatal:") != std::string::npos);
  CHECK(out.find("cudaErrorMemoryAllocation") != std::string::npos);
  CHECK(out.find("policy_test.cpp") != std::string::npos);
}

TEST_CASE("the abort policy also applies to the no-throw variant") {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::signal(SIGABRT, SIG_DFL);
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    napkin::set_failure_policy(napkin::failure_policy::abort_process);
    (void)NAPKIN_CUDA_CHECK_NOTHROW(cudaErrorInvalidValue);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
}
#endif

TEST_CASE("call_catching hands what the work throws to on_error, and nothing when it does not throw") {
  std::string got = "not called";
  napkin::detail::call_catching([] { NAPKIN_CUDA_CHECK(cudaErrorInvalidValue); },
                                [&](const char* what) { got = what; });
  CHECK(got.find("cudaErrorInvalidValue") != std::string::npos);
  got = "not called";
  napkin::detail::call_catching([] { throw 42; }, [&](const char* what) { got = what; });
  CHECK(got == "an unknown exception");
  got = "not called";
  int ran = 0;
  napkin::detail::call_catching([&] { ++ran; }, [&](const char* what) { got = what; });
  CHECK(ran == 1);
  CHECK(got == "not called");
}
