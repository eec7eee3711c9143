// What the system view costs the monitor's thread: one second of the records of
// examples/monitor/monitor_workload.cu's run mode (~460 iterations a second on an H100 or H200, each with 26
// kernels of 7 names in three phases, 16 copies and ~100 runtime and driver calls), handed over as the
// monitor does: a batch per 10 ms drain, a settle every 500 ms two seconds behind. The time per iteration of
// the benchmark is the CPU time per second of such a workload, i.e. the share of a core (1 ms = 0.1 %).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_view.hpp"

namespace {

constexpr std::uint64_t ms = 1'000'000;
constexpr int iterations_per_second = 460;
constexpr int drains_per_second = 100;

// One iteration of the workload starting at t: records in the order CUPTI delivers them (by end).
void add_iteration(napkin::system_records& out, std::uint64_t t, std::uint64_t instance, std::uint32_t& corr) {
  static const std::string names[] = {
      "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>(cutlass_80_simt_sgemm_128x128_8x4_nn_align1::Params)",
      "void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>(float)",
      "(anonymous namespace)::softmax_rows(float const*, float*, int, int)",
      "(anonymous namespace)::scale(float*, float, int)",
      "(anonymous namespace)::argmax_rows(float const*, int*, int, int)",
      "(anonymous namespace)::gather(float const*, int const*, float*, int)",
      "(anonymous namespace)::add_bias(float*, float const*, int)"};
  auto kernel = [&](std::uint64_t start, std::uint64_t d, std::uint32_t phase, const std::string& name) {
    napkin::gpu_work w;
    w.start_ns = start;
    w.end_ns = start + d;
    w.stream = 7;
    w.phase = phase;
    w.instance = instance * 4 + phase;
    w.correlation = ++corr;
    w.name = name;
    out.work.push_back(std::move(w));
  };
  auto call = [&](napkin::host_call_kind kind, std::uint64_t start, std::uint64_t d, std::uint32_t phase) {
    napkin::host_call c;
    c.kind = kind;
    c.start_ns = start;
    c.end_ns = start + d;
    c.thread = 1;
    c.phase = phase;
    c.instance = instance * 4 + phase;
    c.correlation = ++corr;
    out.calls.push_back(c);
  };
  std::uint64_t g = t;  // GPU time
  std::uint64_t h = t;  // host time
  for (int i = 0; i < 2; ++i) {  // prefill: two GEMMs, cuBLAS's calls around them
    for (int j = 0; j < 4; ++j) call(napkin::host_call_kind::other, h, 300, 1), h += 400;
    call(napkin::host_call_kind::launch, h, 2500, 1), call(napkin::host_call_kind::launch, h + 100, 2200, 1), h += 2600;
    kernel(g, 600'000, 1, names[0]), g += 601'000;
  }
  for (int i = 0; i < 16; ++i) {  // decode: 16 copies, 4 softmaxes and 16 small kernels
    call(napkin::host_call_kind::other, h, 2500, 2), call(napkin::host_call_kind::other, h + 100, 2200, 2), h += 2600;
    napkin::gpu_work c;
    c.kind = napkin::gpu_work_kind::copy;
    c.start_ns = g;
    c.end_ns = g + 8'000;
    c.stream = 8;
    c.phase = 2;
    c.instance = instance * 4 + 2;
    c.correlation = corr;
    c.direction = i % 2 ? napkin::copy_direction::device_to_host : napkin::copy_direction::host_to_device;
    c.memory = napkin::host_memory::pinned;
    c.bytes = 1 << 20;
    out.work.push_back(std::move(c));
    g += 9'000;
    call(napkin::host_call_kind::launch, h, 2500, 2), call(napkin::host_call_kind::launch, h + 100, 2200, 2), h += 2600;
    kernel(g, 20'000, 2, names[i % 4 == 0 ? 2 : 1 + 2 + i % 4]), g += 21'000;
  }
  for (int i = 0; i < 6; ++i) {  // sample: small kernels and host waits
    call(napkin::host_call_kind::launch, h, 2500, 3), call(napkin::host_call_kind::launch, h + 100, 2200, 3), h += 2600;
    kernel(g, 5'000, 3, names[3 + i % 4]), g += 6'000;
    if (i % 2) {
      call(napkin::host_call_kind::stream_synchronize, std::max(h, g - 5'000), 6'000, 3);
      h = std::max(h, g) + 10'000;
      g = h;
    }
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
      for (int i = 0; i < iterations_per_second / drains_per_second + (d % 5 < 3 ? 1 : 0); ++i) {
        add_iteration(batch, now, ++instance, corr);
        now += iteration_ns;
      }
      records += batch.work.size() + batch.calls.size();
      view.add(std::move(batch));
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
