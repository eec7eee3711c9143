// The success path of NAPKIN_CUDA_CHECK against calling the wrapped function directly.
// Pairs: a runtime call that succeeds without a driver (cudaRuntimeGetVersion); an opaque function that
// only returns cudaSuccess (the check's own cost and nothing else), also tested by hand; and, where a
// device exists, cudaGetDevice. Ratio = checked / direct; docs/check.md records the figures.
#include <benchmark/benchmark.h>
#include <napkin/check.hpp>

#include <cstdlib>

namespace {

// Opaque to the optimizer, so that neither variant can be folded away.
__attribute__((noinline, noipa)) cudaError_t succeed(int* out) {
  benchmark::DoNotOptimize(out);
  return cudaSuccess;
}

void direct_trivial(benchmark::State& state) {
  int v = 0;
  for (auto _ : state) {
    cudaError_t e = succeed(&v);
    benchmark::DoNotOptimize(e);
  }
}
// What napkin replaces: the status tested by hand, with no message.
void handwritten_trivial(benchmark::State& state) {
  int v = 0;
  for (auto _ : state) {
    cudaError_t e = succeed(&v);
    if (e != cudaSuccess) std::abort();
    benchmark::DoNotOptimize(e);
  }
}
void checked_trivial(benchmark::State& state) {
  int v = 0;
  for (auto _ : state) {
    cudaError_t e = NAPKIN_CUDA_CHECK(succeed(&v));
    benchmark::DoNotOptimize(e);
  }
}

void direct_runtime_version(benchmark::State& state) {
  int v = 0;
  for (auto _ : state) {
    cudaError_t e = cudaRuntimeGetVersion(&v);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(v);
  }
}
void checked_runtime_version(benchmark::State& state) {
  int v = 0;
  for (auto _ : state) {
    cudaError_t e = NAPKIN_CUDA_CHECK(cudaRuntimeGetVersion(&v));
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(v);
  }
}

bool have_device() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

void direct_get_device(benchmark::State& state) {
  if (!have_device()) return state.SkipWithError("no CUDA device");
  int d = 0;
  for (auto _ : state) {
    cudaError_t e = cudaGetDevice(&d);
    benchmark::DoNotOptimize(e);
  }
}
void checked_get_device(benchmark::State& state) {
  if (!have_device()) return state.SkipWithError("no CUDA device");
  int d = 0;
  for (auto _ : state) {
    cudaError_t e = NAPKIN_CUDA_CHECK(cudaGetDevice(&d));
    benchmark::DoNotOptimize(e);
  }
}

}  // namespace

BENCHMARK(direct_trivial);
BENCHMARK(handwritten_trivial);
BENCHMARK(checked_trivial);
BENCHMARK(direct_runtime_version);
BENCHMARK(checked_runtime_version);
BENCHMARK(direct_get_device);
BENCHMARK(checked_get_device);
BENCHMARK_MAIN();
