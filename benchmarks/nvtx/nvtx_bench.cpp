// Cost of an empty range with no NVTX tool attached (run without NVTX_INJECTION64_PATH).
// Every loop body ends with benchmark::ClobberMemory() so that no variant's NVTX state loads can be
// hoisted out of the loop: a range in real code surrounds other work that may touch memory.
#include <benchmark/benchmark.h>
#include <napkin/nvtx.hpp>

#include <cstdio>

namespace {

void empty_loop(benchmark::State& state) {
  for (auto _ : state) benchmark::ClobberMemory();
}
BENCHMARK(empty_loop);

void raw_c_api_push_pop(benchmark::State& state) {
  for (auto _ : state) {
    nvtxRangePushA("range");
    nvtxRangePop();
    benchmark::ClobberMemory();
  }
}
BENCHMARK(raw_c_api_push_pop);

void nvtx3_scoped_range(benchmark::State& state) {
  for (auto _ : state) {
    nvtx3::v1::scoped_range r{"range"};
    benchmark::ClobberMemory();
  }
}
BENCHMARK(nvtx3_scoped_range);

void napkin_range_literal(benchmark::State& state) {
  for (auto _ : state) {
    napkin::range r{"range"};
    benchmark::ClobberMemory();
  }
}
BENCHMARK(napkin_range_literal);

void napkin_range_formatted(benchmark::State& state) {
  int layer = 0;
  for (auto _ : state) {
    napkin::range r{"layer {}", layer++};
    benchmark::ClobberMemory();
  }
}
BENCHMARK(napkin_range_formatted);

void napkin_func_range(benchmark::State& state) {
  for (auto _ : state) {
    NAPKIN_FUNC_RANGE();
    benchmark::ClobberMemory();
  }
}
BENCHMARK(napkin_func_range);

void napkin_range_disabled_at_run_time(benchmark::State& state) {
  napkin::set_nvtx_enabled(false);
  for (auto _ : state) {
    napkin::range r{"range"};
    benchmark::ClobberMemory();
  }
  napkin::set_nvtx_enabled(true);
}
BENCHMARK(napkin_range_disabled_at_run_time);

}  // namespace

int main(int argc, char** argv) {
  // NVTX looks for a tool on its first call; do it here, outside every timed loop.
  const bool tool = napkin::nvtx_tool_attached();
  std::fprintf(stderr, "NVTX tool attached: %s\n", tool ? "yes (these are not no-tool figures)" : "no");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
