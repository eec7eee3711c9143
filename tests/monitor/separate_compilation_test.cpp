// napkin::monitor with NAPKIN_SEPARATE_COMPILATION=1: this unit sees the declarations only (no CUDA, no CUPTI
// header, no engine), and the members come from the one unit that includes napkin/compiled.hpp
// (separate_compilation_bodies.cpp). Without a GPU the monitor stays off; what it says is the same as
// header-only.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "napkin/monitor.hpp"
#include "support/complete_type.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "this unit is built with NAPKIN_SEPARATE_COMPILATION=1 (tests/monitor/CMakeLists.txt)"
#endif
// What the declaration-only header must not bring: CUPTI's and CUDA's runtime headers (their include guards).
#if defined(_CUPTI_H_) || defined(__CUDA_RUNTIME_API_H__)
#error "napkin/monitor.hpp brought a CUDA or CUPTI header into a NAPKIN_SEPARATE_COMPILATION unit"
#endif

TEST_CASE("separately compiled: the monitor off by default, its members linked from napkin/compiled.hpp") {
  static_assert(!napkin_test::is_complete<napkin::detail::monitor_engine>::value,
                "the engine is defined only where napkin/compiled.hpp is included");
  unsetenv("NAPKIN_MONITOR");
  napkin::monitor m;
  CHECK_FALSE(m.running());
  CHECK(m.status() == "off (NAPKIN_MONITOR is not set to on)");
  const napkin::monitor_report r = m.report();
  CHECK(r.kernels.empty());
  CHECK(r.phases.empty());
  CHECK(m.cpu_seconds() == 0.0);
  CHECK(m.restarts() == 0);
  CHECK(m.diagnostics().find("kernel records 0") == 0);
  m.stop();  // a monitor that never ran stops quietly
  CHECK_FALSE(m.running());
}

TEST_CASE("separately compiled: bad settings leave the monitor off and say why") {
  napkin::monitor_settings s;
  s.enabled = true;
  s.interval_ns = 0;
  napkin::monitor m(s);
  CHECK_FALSE(m.running());
  CHECK(m.status() == "off: napkin: monitor interval must be > 0");
}
