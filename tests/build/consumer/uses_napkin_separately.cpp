// The monitor and the profiler separately compiled, as docs/compile-time.md ("Separate compilation") shows it:
// this unit sees their declarations, napkin_compiled.cpp compiles their bodies. Without NAPKIN_MONITOR the
// monitor stays off; the profiler is made where a GPU is, refused with its reason where none is.
#include <napkin/monitor.hpp>
#include <napkin/profiler.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main() {
  unsetenv("NAPKIN_MONITOR");
  napkin::monitor m;
  std::printf("monitor: %s\n", m.status().c_str());
  const bool monitor_off = !m.running() && m.status() == "off (NAPKIN_MONITOR is not set to on)";
  bool profiler_answered = false;
  try {
    const napkin::profiler p;
    std::printf("profiler: %s, %zu pass(es) per measurement\n", p.chip().c_str(), p.passes());
    profiler_answered = !p.chip().empty();
  } catch (const napkin::profiler_error& e) {
    std::printf("profiler: %s\n", e.what());
    profiler_answered = std::string(e.what()).find("napkin") != std::string::npos;
  }
  return monitor_off && profiler_answered ? 0 : 1;
}
