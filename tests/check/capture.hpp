// Test support: a failure handler that records what it was given, and a child process to run a case in
// that could crash or abort the test program.
#pragma once
#include <napkin/check.hpp>

#include <optional>
#include <string>
#include <vector>

#if NAPKIN_TEST_HAS_FORK
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#endif

namespace napkin_test {

inline std::vector<napkin::error_info>& captured() {
  static std::vector<napkin::error_info> v;
  return v;
}
inline void capture_handler(const napkin::error_info& info) { captured().push_back(info); }

// Installs the recording handler for a scope (and empties the record).
struct capturing {
  napkin::scoped_failure_policy policy{napkin::failure_policy::call_handler, &capture_handler};
  capturing() { captured().clear(); }
};

inline bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }
inline int count(const std::string& s, const char* needle) {
  int n = 0;
  for (auto p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

#if NAPKIN_TEST_HAS_FORK
struct child_result {
  bool exited = false;  // exited normally (then `code`), else killed by `signal`
  int code = -1;
  int signal = 0;
  std::string err;  // everything it wrote to stderr
};

// Runs `fn` (returning an exit code) in a forked child with stderr captured. A case that recursed until
// the stack overflowed, or aborted, shows up here as a signal instead of killing the test program.
template <class Fn>
child_result run_in_child(Fn fn) {
  child_result r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  const pid_t pid = fork();
  if (pid < 0) return r;
  if (pid == 0) {
    std::signal(SIGABRT, SIG_DFL);  // the test framework's crash handlers must not report the child
    std::signal(SIGSEGV, SIG_DFL);
    dup2(fds[1], 2);
    close(fds[0]);
    _exit(fn());
  }
  close(fds[1]);
  char buf[1024];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.err.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return r;
  r.exited = WIFEXITED(status);
  if (r.exited) r.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}
#endif

}  // namespace napkin_test
