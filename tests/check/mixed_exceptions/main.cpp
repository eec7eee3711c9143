// One program, two kinds of translation unit: with_exceptions.cpp (exceptions) and without_exceptions.cpp
// (-fno-exceptions), both using NAPKIN_CUDA_CHECK. CTest links it twice, in both orders. In each order:
//   - a failed check in the exceptions unit throws a napkin::cuda_error that can be caught;
//   - a failed check in the no-exceptions unit prints the message and aborts;
//   - the failure policy and the handler are process-wide: set in one unit, they act in the other;
//   - napkin::error_info and napkin::failure_handler are the same types in both units.
// Before napkin's inline namespaces, napkin::detail::raise had two bodies under one name and the linker
// kept whichever came first: one of the two orders threw from the -fno-exceptions unit or aborted in the
// exceptions unit.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include "units.hpp"

namespace {
int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

// Runs `fn` in a child process; returns its stderr and whether it died of SIGABRT.
template <class Fn>
bool aborts_with(Fn fn, std::string& err) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    std::signal(SIGABRT, SIG_DFL);
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    fn();
    _exit(0);  // not reached when the check aborts
  }
  close(pipe_fds[1]);
  char buf[1024];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }
int count(const std::string& s, const char* needle) {
  int n = 0;
  for (auto p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}
}  // namespace

int main() {
  expect(std::strcmp(exc_error_info_type(), noexc_error_info_type()) == 0,
         "napkin::error_info is one type in both units");
  expect(std::strcmp(exc_handler_type(), noexc_handler_type()) == 0,
         "napkin::failure_handler is one type in both units");

  expect(exc_check_throws() == 0, "the exceptions unit throws a catchable napkin::cuda_error");

  std::string err;
  expect(aborts_with(noexc_failing_check, err), "the no-exceptions unit aborts");
  expect(contains(err, "napkin: fatal (built without exceptions)") && contains(err, "cudaErrorInvalidValue") &&
             contains(err, "without_exceptions.cpp"),
         "... after printing the message");

  // Policy set in one unit, failure in the other.
  exc_install_handler_of_noexc();
  exc_failing_check();  // handled: returns
  expect(noexc_handler_calls() == 1, "a handler installed by the exceptions unit (defined in the other) runs");
  noexc_failing_check();
  expect(noexc_handler_calls() == 2, "... for the no-exceptions unit's failures too");
  noexc_install_handler_of_exc();
  exc_failing_check();
  noexc_failing_check();
  expect(exc_handler_calls() == 2, "a handler installed by the no-exceptions unit runs for both units");
  exc_clear_handler();
  expect(exc_check_throws() == 0, "clearing the handler in one unit restores throwing");

  err.clear();
  expect(aborts_with([] {
                   noexc_set_abort_policy();
                   exc_failing_check();
                 }, err) && contains(err, "napkin: fatal: "),
         "abort_process set by the no-exceptions unit aborts the exceptions unit's failure");

  // Built without exceptions, a failure inside the handler is printed once, then the process aborts.
  err.clear();
  expect(aborts_with(noexc_nested_failure, err), "a failure inside the handler of a no-exceptions unit aborts");
  expect(count(err, "napkin: ") == 1 && count(err, "napkin: failure inside the failure handler") == 1,
         "... after printing it once");

  std::printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
