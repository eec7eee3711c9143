// A NAPKIN_SEPARATE_COMPILATION=1 program without the unit that includes napkin/compiled.hpp: it compiles,
// and the link fails naming the profiler's members (profiler_separate_compilation_missing_bodies).
#include "napkin/profiler.hpp"

int main() {
  const napkin::profiler p;
  return p.usable() ? 0 : 1;
}
