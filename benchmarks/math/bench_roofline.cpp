// How much napkin math costs at run time, when the sizes are only known then (e.g. a kernel launcher
// that picks a variant from the roofline). Everything here is also usable at compile time, for free.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "napkin/math.hpp"

namespace {

void gemm_estimate(benchmark::State& state) {
  std::int64_t m = 4096, n = 4096, k = 4096;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(k);
    const napkin::workload w = napkin::gemm(m, n, k, napkin::dtype::fp16);
    const napkin::roofline_estimate e = napkin::estimate(w, napkin::gpus::h100_sxm, napkin::pipe::fp16_tensor);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(gemm_estimate);

void attention_estimate_default_pipe(benchmark::State& state) {
  napkin::attention_shape s{8, 32, 4096, 4096, 128, 8, true};
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    const napkin::workload w = napkin::attention(s, napkin::dtype::bf16, napkin::pass::forward_backward);
    benchmark::DoNotOptimize(napkin::estimate(w, napkin::gpus::h100_sxm));
  }
}
BENCHMARK(attention_estimate_default_pipe);

// Looking a GPU up by key walks the 17-entry table.
void find_gpu_by_key(benchmark::State& state) {
  std::string key = "rtx-6000-ada";  // the last entry
  for (auto _ : state) {
    benchmark::DoNotOptimize(key);
    benchmark::DoNotOptimize(&napkin::find_gpu(key));
  }
}
BENCHMARK(find_gpu_by_key);

}  // namespace

BENCHMARK_MAIN();
