// The profiler in a translation unit built without exceptions (-fno-exceptions): its failures go through
// napkin's failure policy, never a throw (issue #12, item 14). A plain main (doctest's is built with
// exceptions); CTest checks the exit status and the output (tests/profiler/CMakeLists.txt).
//   no_exceptions_test handler   a failure handler sees the profiler's error, names it, exits with 3
//   no_exceptions_test input     bad input to the report (a NaN percentage): the handler sees it, exits with 3
//   no_exceptions_test status    a failed CUPTI call through the profiler's check: the handler sees it, exits with 3
//   no_exceptions_test abort     no handler: the message on stderr, then abort (in a child; exit 0 if so)
// The failing call is host-only (CUPTI's metric planning for GH100), so this runs without a GPU.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <cupti_version.h>

#include "napkin/profiler.hpp"

#if NAPKIN_HAS_EXCEPTIONS
#error "build this test with -fno-exceptions"
#endif

namespace {

void print_and_exit(const napkin::error_info& info) {
  std::printf("handler: library=%s code=%lld message=%s\n", info.library.c_str(),
              static_cast<long long>(info.code), info.message().c_str());
  std::fflush(stdout);
  std::_Exit(3);  // a failed measurement has nothing to continue with
}

// A metric set CUPTI would refuse: a counter's base name without a rollup.
void plan_a_bad_set() {
  (void)napkin::plan_passes("GH100", napkin::metric_sets::custom("bad", {"dram__bytes"}));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "handler") {
    napkin::set_failure_handler(print_and_exit);
    plan_a_bad_set();
    std::puts("not reached: the failure returned");
    return 0;
  }
  if (mode == "input") {
    napkin::set_failure_handler(print_and_exit);
    (void)napkin::classify_by_sol_table(10.0, std::strtod("nan", nullptr), 5.0);
    std::puts("not reached: the failure returned");
    return 0;
  }
  if (mode == "status") {
    napkin::set_failure_handler(print_and_exit);
    NAPKIN_DETAIL_PROFILER_CHECK(cuptiGetVersion(nullptr));  // CUPTI refuses a null argument
    std::puts("not reached: the failure returned");
    return 0;
  }
  if (mode == "abort") {
    int out[2];
    if (pipe(out) != 0) return 10;
    const pid_t child = fork();
    if (child == 0) {
      dup2(out[1], STDERR_FILENO);
      close(out[0]);
      plan_a_bad_set();
      std::_Exit(0);  // not reached
    }
    close(out[1]);
    std::string text;
    char buf[512];
    for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child stderr: %s\n", text.c_str());
    const bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    const bool named = text.find("built without exceptions") != std::string::npos &&
                       text.find("dram__bytes") != std::string::npos &&
                       text.find("needs a rollup suffix such as .sum") != std::string::npos;
    std::printf("aborted=%d named=%d\n", aborted ? 1 : 0, named ? 1 : 0);
    return aborted && named ? 0 : 1;
  }
  std::fprintf(stderr, "usage: no_exceptions_test handler|input|status|abort\n");
  return 2;
}
