// napkin::profiler with NAPKIN_SEPARATE_COMPILATION=1: this unit sees the declarations only (no CUDA runtime,
// no CUPTI header but cupti_result.h, no profiler core), and the bodies come from the one unit that includes
// napkin/compiled.hpp (separate_compilation_bodies.cpp). The reports are made and read as header-only; the
// profiler itself is made when a GPU is there and refused with its reason when not.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/profiler.hpp"
#include "support/complete_type.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "this unit is built with NAPKIN_SEPARATE_COMPILATION=1 (tests/profiler/CMakeLists.txt)"
#endif
// What the declaring header must not bring: CUPTI's, the driver's and the CUDA runtime's headers (their guards).
#if defined(_CUPTI_H_) || defined(__CUDA_RUNTIME_API_H__) || defined(__cuda_cuda_h__) || \
    defined(_CUPTI_RANGE_PROFILER_H_) || defined(_CUPTI_PROFILER_HOST_H_)
#error "napkin/profiler.hpp brought a CUDA or CUPTI header into a NAPKIN_SEPARATE_COMPILATION unit"
#endif

namespace {
int calls_of_free_function = 0;
void free_function() { ++calls_of_free_function; }
}  // namespace

TEST_CASE("separately compiled: the profiler's core is defined only where the bodies are") {
  static_assert(!napkin_test::is_complete<napkin::detail::profiler_core>::value,
                "the core is defined only where napkin/compiled.hpp is included");
}

TEST_CASE("separately compiled: a report made from values reads and renders as header-only") {
  using namespace napkin;
  // The values of profiler_report's "report from values" case, with its expectations.
  const metric_set set = metric_sets::roofline_full();
  sol_report r = make_report("k", set, std::vector<double>(set.metrics.size(), 0.0));
  r.values[metric::duration_ns] = 2'000'000;  // 2 ms
  r.values[metric::dram_bytes] = 6e9;         // 6 GB in 2 ms = 3e12 B/s
  r.values[metric::sm_throughput_pct] = 20;
  r.values[metric::memory_throughput_pct] = 90;
  r.values[metric::dram_throughput_pct] = 88;
  CHECK(*r.dram_bytes_per_s() == doctest::Approx(3e12));
  CHECK(r.sol_table().kind == bottleneck::memory_bound_dram);
  CHECK(r.ncu_rule()->kind == ncu_bottleneck::high_throughput);
  std::ostringstream out;
  out << r;
  CHECK(out.str().find("k") != std::string::npos);
  CHECK(out.str().find("DRAM") != std::string::npos);
  CHECK_THROWS_AS(make_report("k", set, {1.0}), std::invalid_argument);
}

TEST_CASE("separately compiled: callable_ref calls what it refers to, and lets its exceptions through") {
  int calls = 0;
  auto lambda = [&calls] { ++calls; };
  const auto const_lambda = [&calls] { calls += 10; };
  napkin::detail::callable_ref a(lambda), b(const_lambda), c(free_function);
  a();
  b();
  c();
  CHECK(calls == 11);
  CHECK(calls_of_free_function == 1);
  auto throws = [] { throw std::runtime_error("from the callable"); };
  const napkin::detail::callable_ref t(throws);
  CHECK_THROWS_WITH_AS(t(), "from the callable", std::runtime_error);
}

TEST_CASE("separately compiled: the profiler is made on a GPU, refused with its reason without one") {
  napkin::profiler_options bad;
  bad.device = 1 << 20;  // no such device, with or without a driver
  CHECK_THROWS_AS(napkin::profiler(napkin::metric_sets::sol_fast(), bad), napkin::profiler_error);
  bool made = false;
  std::string why;
  try {
    const napkin::profiler p;
    made = true;
    CHECK_FALSE(p.chip().empty());
    CHECK(p.passes() >= 1);
    CHECK(p.usable());
  } catch (const napkin::profiler_error& e) {
    why = e.what();
  }
  if (!made) {  // no driver or GPU (the runtime says so), or a GPU whose counters CUPTI refused
    MESSAGE("the profiler was refused: " << why);
    CHECK((why.find("cudaGetDeviceCount") != std::string::npos || why.find("CUPTI") != std::string::npos));
  }
}
