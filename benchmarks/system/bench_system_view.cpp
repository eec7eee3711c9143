// What the system view costs the monitor's thread: one second of the records of
// examples/monitor/monitor_workload.cu's run mode as an H200 runs it (docs/system.md, "Cost": ~455
// iterations a second, each "prefill" (two cuBLAS SGEMMs of ~340 us, each with three short runtime calls
// and its launch), "decode" (20 kernels of ~38 us, 16 copy kernels and 4 softmaxes, a launch each) and
// "sample" (4 kernels of ~1 us, each launched and waited for with cudaStreamSynchronize): 26 kernels and 36
// host calls), handed over as the monitor does: a batch per 10 ms drain, a settle every 500 ms two seconds
// behind. The time per iteration of the benchmark is the CPU time per second of such a workload, i.e. the
// share of a core (1 ms = 0.1 %).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_view.hpp"

namespace {

constexpr std::uint64_t ms = 1'000'000;
constexpr int iterations_per_second = 455;
constexpr int drains_per_second = 100;

// One iteration of the workload starting at t (host and GPU clocks alike): its records.
void add_iteration(napkin::system_records& out, std::uint64_t t, std::uint64_t instance, std::uint32_t& corr) {
  static const std::string sgemm =
      "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>(cutlass_80_simt_sgemm_128x128_8x4_nn_"
      "align1::Params)";
  static const std::string copy = "napkin_kernels::copy_kernel(float const*, float*, unsigned long)";
  static const std::string softmax = "napkin_kernels::softmax_rows(float const*, float*, int, int)";
  static const std::string small = "napkin_kernels::scale_kernel(float*, float, unsigned long)";
  std::uint64_t h = t, g = t + 5'000;  // the host launches ahead of the GPU
  auto call = [&](napkin::host_call_kind kind, std::uint64_t d, std::uint32_t phase) {
    napkin::host_call c;
    c.kind = kind;
    c.start_ns = h;
    c.end_ns = h + d;
    c.thread = 1;
    c.phase = phase;
    c.instance = instance * 4 + phase;
    c.correlation = ++corr;
    out.calls.push_back(c);
    h += d + 200;
  };
  auto kernel = [&](std::uint64_t d, std::uint32_t phase, const std::string& name) {
    call(napkin::host_call_kind::launch, 2'500, phase);
    napkin::gpu_work w;
    g = std::max(g, h);
    w.start_ns = g;
    w.end_ns = g + d;
    w.stream = 7;
    w.phase = phase;
    w.instance = instance * 4 + phase;
    w.correlation = corr;
    w.name = name;
    out.work.push_back(std::move(w));
    g += d + 1'000;
  };
  for (int i = 0; i < 2; ++i) {  // prefill
    for (int j = 0; j < 3; ++j) call(napkin::host_call_kind::other, 150, 1);
    kernel(340'000, 1, sgemm);
  }
  for (int i = 0; i < 20; ++i) kernel(38'000, 2, i < 16 ? copy : softmax);  // decode
  for (int i = 0; i < 4; ++i) {  // sample: each kernel waited for
    kernel(1'100, 3, small);
    const std::uint64_t wait = g > h ? g - h : 0;
    call(napkin::host_call_kind::stream_synchronize, wait + 2'000, 3);
    h += 30'000;  // host work between
    g = h;
  }
}

void system_view_one_second(benchmark::State& state) {
  napkin::system_view view;
  std::uint64_t now = 10'000 * ms, instance = 0;
  std::uint32_t corr = 0;
  std::uint64_t settled_at = 0;
  const std::uint64_t iteration_ns = 1'000'000'000 / iterations_per_second;
  std::size_t records = 0;
  for (auto _ : state) {
    for (int d = 0; d < drains_per_second; ++d) {
      napkin::system_records batch;
      for (int i = 0; i < iterations_per_second / drains_per_second + (d % 20 < 11 ? 1 : 0); ++i) {  // 455
        add_iteration(batch, now, ++instance, corr);
        now += iteration_ns;
      }
      records += batch.work.size() + batch.calls.size();
      view.add(batch);
      if (now - settled_at >= 500 * ms) {
        view.settle(now - 2'000 * ms);
        settled_at = now;
      }
    }
  }
  state.counters["records_per_second"] = benchmark::Counter(static_cast<double>(records) / static_cast<double>(state.iterations()));
  benchmark::DoNotOptimize(view.pending());
}
BENCHMARK(system_view_one_second)->Unit(benchmark::kMillisecond)->MinTime(3.0);

}  // namespace

BENCHMARK_MAIN();
