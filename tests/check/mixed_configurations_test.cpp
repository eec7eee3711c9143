// One program, three translation units of napkin built with different configurations
// (mixed_configurations/units.hpp): with exceptions, with -fno-exceptions, and as another napkin version
// (napkin::v0_2). CTest links it twice, in both orders. In each order, the two units of this version
// share what must be shared and keep apart what must be kept apart:
//   - a failed check in the exceptions unit throws a napkin::cuda_error that can be caught;
//   - a failed check in the no-exceptions unit prints the message and aborts;
//   - the failure policy, the handler and the launch-sync switch are process-wide: set in one unit, they
//     act in the other (one object each, at one address);
//   - napkin::error_info and napkin::failure_handler are the same types in both units.
// and the unit of the other version shares nothing with them: other types, its own failure policy,
// handler and launch-sync switch (napkin/config.hpp, "Namespaces").
// Before napkin's inline namespaces, napkin::detail::raise had two bodies under one name and the linker
// kept whichever came first: one of the two orders threw from the -fno-exceptions unit or aborted in the
// exceptions unit. Two napkin versions in one program would likewise have shared one failure policy
// whose layout and meaning could differ between them.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include "mixed_configurations/units.hpp"

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
bool same(const state_addresses& a, const state_addresses& b) {
  return a.policy == b.policy && a.handler == b.handler && a.launch_sync == b.launch_sync;
}
bool apart(const state_addresses& a, const state_addresses& b) {
  return a.policy != b.policy && a.handler != b.handler && a.launch_sync != b.launch_sync;
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

  // The launch-sync switch, like the failure policy, is one per version.
  expect(same(exc_state(), noexc_state()), "both units of this version use one policy, handler and launch-sync switch");
  exc_set_launch_sync(true);
  expect(noexc_launch_sync(), "launch sync set on by the exceptions unit is on in the no-exceptions unit");
  noexc_set_launch_sync(false);
  expect(!exc_launch_sync(), "... and set off by the no-exceptions unit, off in the exceptions unit");

  // Another napkin version in the same program: nothing shared.
  expect(std::strcmp(exc_error_info_type(), other_error_info_type()) != 0,
         "napkin::error_info of another version is another type");
  expect(apart(exc_state(), other_state()), "another version has its own policy, handler and launch-sync switch");
  exc_set_launch_sync(true);
  other_set_launch_sync(false);
  expect(exc_launch_sync() && noexc_launch_sync() && !other_launch_sync(),
         "launch sync set in one version leaves the other's as it was");
  exc_set_launch_sync(false);
  other_set_launch_sync(true);
  expect(!exc_launch_sync() && other_launch_sync(), "... either way");
  exc_install_handler_of_noexc();
  const int calls = noexc_handler_calls();
  expect(other_check_throws() == 0 && noexc_handler_calls() == calls,
         "a handler installed in this version is not called for another version's failure, which throws");
  exc_failing_check();
  expect(noexc_handler_calls() == calls + 1, "... while this version's failures still go to it");
  exc_clear_handler();
  err.clear();
  expect(aborts_with([] {
                   other_set_abort_policy();
                   if (exc_check_throws() == 0) std::fputs("this version threw\n", stderr);
                   other_failing_check();
                 }, err) && contains(err, "this version threw\nnapkin: fatal: "),
         "abort_process set in another version aborts its failures and leaves this version throwing");

  std::printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
