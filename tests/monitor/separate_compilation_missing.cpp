// A NAPKIN_SEPARATE_COMPILATION=1 program without the unit that includes napkin/compiled.hpp: it compiles,
// and the link fails naming the monitor's members (monitor_separate_compilation_missing_bodies).
#include "napkin/monitor.hpp"

int main() {
  napkin::monitor m;
  return m.running() ? 1 : 0;
}
