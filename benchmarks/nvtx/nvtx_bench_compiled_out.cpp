// Built with NAPKIN_NVTX_DISABLE (see CMakeLists.txt): the same range as napkin_range_literal and
// napkin_range_formatted, compiled out. Compare with empty_loop.
#include <benchmark/benchmark.h>
#include <napkin/nvtx.hpp>

#if NAPKIN_NVTX_ENABLED
#error "nvtx_bench_compiled_out.cpp must be compiled with NAPKIN_NVTX_DISABLE"
#endif

namespace {

void napkin_range_compiled_out(benchmark::State& state) {
  int layer = 0;
  for (auto _ : state) {
    napkin::range r{"layer {}", layer++};
    benchmark::ClobberMemory();
  }
}
BENCHMARK(napkin_range_compiled_out);

}  // namespace
