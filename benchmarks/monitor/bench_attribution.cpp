// What the monitor's attribution costs its thread: one second of the kernel records of
// examples/monitor/monitor_workload.cu's run mode as an H200 runs it (~455 iterations a second of 26 kernels:
// two SGEMMs of ~340 us under "prefill", 20 kernels of ~38 us under "decode", 4 of ~1 us under "sample"),
// handed over as the monitor does (monitor/monitor_engine.hpp): a batch per 10 ms drain, a settle at every drain two
// seconds behind. `between_stretches`: the default samples 1 s of every 60, so most of the time no window
// comes and time is closed once a second (skip_until, as sample_timeline::paused_until does). `in_a_stretch`:
// 1 ms windows all the time. The time per iteration of the benchmark is the CPU time per second of such a
// workload, i.e. the share of a core (1 ms = 0.1 %).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/monitor/accumulator.hpp"

namespace {

constexpr std::uint64_t ms = 1'000'000;
constexpr std::uint64_t lag = 2'000 * ms;  // the monitor's settle lag
constexpr int iterations_per_second = 455;
constexpr int drains_per_second = 100;

// One iteration of the workload's kernels from t on: their records, as the collector hands them over.
void add_iteration(std::vector<napkin::kernel_record>& out, std::uint64_t& t) {
  static const std::string sgemm = "cutlass::Kernel2<cutlass_80_simt_sgemm_128x128_8x4_nn_align1>";
  static const std::string copy = "napkin_kernels::copy_kernel";
  static const std::string softmax = "napkin_kernels::softmax_rows";
  static const std::string small = "napkin_kernels::scale_kernel";
  auto kernel = [&](std::uint64_t d, const char* phase, const std::string& name, std::uint64_t blocks) {
    napkin::kernel_record k;
    k.name = name;
    k.start_ns = t;
    k.end_ns = t + d;
    k.stream_id = 7;
    k.phase = {phase};
    k.blocks = blocks;
    out.push_back(std::move(k));
    t += d + 1'000;
  };
  for (int i = 0; i < 2; ++i) kernel(340'000, "prefill", sgemm, 1024);
  for (int i = 0; i < 20; ++i) kernel(38'000, "decode", i < 16 ? copy : softmax, 4096);
  for (int i = 0; i < 4; ++i) {
    kernel(1'100, "sample", small, 8);
    t += 30'000;  // the host waits, then works
  }
}

void attribution_one_second(benchmark::State& state, bool sampling) {
  napkin::attribution_options options;
  options.sm_count = 132;
  napkin::monitor_accumulator acc(options);
  std::uint64_t t = 10'000 * ms, windows_until = t, closed_at = t;
  const std::uint64_t iteration_ns = 1'000'000'000 / iterations_per_second;
  std::size_t kernels = 0;
  for (auto _ : state) {
    for (int d = 0; d < drains_per_second; ++d) {
      std::vector<napkin::kernel_record> batch;
      for (int i = 0; i < iterations_per_second / drains_per_second + (d % 20 < 11 ? 1 : 0); ++i) {  // 455
        std::uint64_t k = t;
        add_iteration(batch, k);
        t += iteration_ns;
      }
      kernels += batch.size();
      for (napkin::kernel_record& k : batch) acc.add_kernel(std::move(k));
      if (sampling) {
        for (; windows_until + ms <= t; windows_until += ms) {
          napkin::pm_sample s;
          s.start_ns = windows_until;
          s.end_ns = windows_until + ms;
          s.sm_pct = 50;
          s.l1tex_pct = 40;
          s.l2_slices_pct = 30;
          s.dram_pct = 20;
          s.dram_read_bytes = 1e6;
          s.dram_write_bytes = 5e5;
          acc.add_sample(s);
        }
        acc.settle(windows_until - lag);
      } else {
        acc.settle(closed_at - lag);
        if (t - lag >= closed_at - lag + lag / 2) {  // once a second, time a lag behind is closed
          acc.skip_until(t - lag);
          closed_at = t;
        }
      }
    }
  }
  state.counters["kernels_per_second"] = benchmark::Counter(static_cast<double>(kernels) / static_cast<double>(state.iterations()));
  benchmark::DoNotOptimize(acc.pending_kernels());
}

void between_stretches(benchmark::State& state) { attribution_one_second(state, false); }
void in_a_stretch(benchmark::State& state) { attribution_one_second(state, true); }
BENCHMARK(between_stretches)->Unit(benchmark::kMillisecond)->MinTime(3.0);
BENCHMARK(in_a_stretch)->Unit(benchmark::kMillisecond)->MinTime(3.0);

}  // namespace

BENCHMARK_MAIN();
