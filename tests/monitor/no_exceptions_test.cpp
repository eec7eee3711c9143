// The monitor's checks in a translation unit built without exceptions (-fno-exceptions): failures go through
// napkin's failure policy, never a throw. A plain main (doctest's is built with exceptions); CTest checks
// the exit status and the output (tests/monitor/CMakeLists.txt).
//   no_exceptions_test sample   a NaN reading: the handler sees napkin's message, exits with 3
//   no_exceptions_test env      NAPKIN_MONITOR=interval=2xs through monitor_settings_from_env(): the same
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "napkin/monitor/attribution.hpp"
#include "napkin/monitor/settings.hpp"
#include "../support/print_and_exit.hpp"

#if NAPKIN_HAS_EXCEPTIONS
#error "build this test with -fno-exceptions"
#endif

using napkin_test::print_and_exit;

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  napkin::set_failure_handler(print_and_exit);
  if (mode == "sample") {
    std::vector<napkin::pm_sample> s(2);
    s[0].start_ns = 0;
    s[0].end_ns = 10;
    s[1].start_ns = 10;
    s[1].end_ns = 20;
    s[1].dram_pct = std::numeric_limits<double>::quiet_NaN();
    (void)napkin::attribute(s, {});
  } else if (mode == "env") {
    // The typo-tolerant path first: the error as a value, no failure.
    setenv("NAPKIN_MONITOR", "interval=2xs", 1);
    if (napkin::try_monitor_settings_from_env().ok()) return 1;
    (void)napkin::monitor_settings_from_env();
  } else {
    std::fprintf(stderr, "usage: no_exceptions_test sample|env\n");
    return 2;
  }
  std::puts("not reached: the failure returned");
  return 0;
}
