// The monitor separately compiled, as docs/compile-time.md ("Separate compilation") shows it: this unit sees
// its declarations, napkin_compiled.cpp compiles its members. Without NAPKIN_MONITOR the monitor stays off.
#include <napkin/monitor.hpp>

#include <cstdio>
#include <cstdlib>

int main() {
  unsetenv("NAPKIN_MONITOR");
  napkin::monitor m;
  std::printf("monitor: %s\n", m.status().c_str());
  return !m.running() && m.status() == "off (NAPKIN_MONITOR is not set to on)" ? 0 : 1;
}
