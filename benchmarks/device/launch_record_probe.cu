// SPDX-License-Identifier: Apache-2.0
// Probe behind the intermittent `REQUIRE(r.launch.has_value())` of profiler_gpu's launch test: measure() of one
// kernel sometimes gave no single launch. measure() takes a pass's launches from CUPTI's kernel records that
// started inside the pass's window (CUPTI timestamps: the pass's push to its synchronization), so the window
// held zero or two records. This repeats the test's sequence (per_kernel() in CUPTI's kernel replay and in
// application replay, then measure()) ITERATIONS times, and for each measure() without a launch prints which
// pass and what its window held, from measure()'s own recording (napkin::detail::pass_recording).
//   nvcc -std=c++17 -O2 -arch=sm_90 -Iinclude benchmarks/device/launch_record_probe.cu -o /tmp/lrp -lcupti
//   /tmp/lrp ITERATIONS [measure-only]
//   /tmp/lrp clock ITERATIONS SLEEP_US   # no profiler: napkin's L2 flush, then the kernel, each synchronized,
//                                        # with SLEEP_US of host sleep after each; the bounds that CUPTI's kernel
//                                        # records and cuptiGetTimestamp() put on the offset between their clocks
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <string>

#include "napkin/profiler.hpp"
#include "napkin/profiler/pass.hpp"

namespace {
__global__ void copy_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
// The test's kernel: static and dynamic shared memory, a 2-D grid and block.
__global__ void staged_kernel(const float* in, float* out, std::size_t n) {
  __shared__ float tile[256];
  extern __shared__ float extra[];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  const std::size_t block = std::size_t(blockIdx.y) * gridDim.x + blockIdx.x;
  const std::size_t i = block * 256 + t;
  tile[t] = i < n ? in[i] : 0.0f;
  extra[t] = tile[t] * 2.0f;
  __syncthreads();
  if (i < n) out[i] = extra[255 - t] + tile[t];
}
constexpr std::size_t n = std::size_t(1) << 26;
}  // namespace

// The offset d = (record's clock) - (cuptiGetTimestamp's clock) that each iteration's records allow: the flush
// ran between t0 (before its launch) and t1 (its synchronization returned), the kernel between t2 and t3, so
// d lies in [max(flush.end - t1, kernel.end - t3), min(flush.start - t0, kernel.start - t2)].
int clock_probe(int iterations, int sleep_us, const dim3& grid, const dim3& block, float* a, float* b) {
  auto& collector = napkin::detail::activity_collector::instance();
  if (!collector.hold_intervals() || !collector.hold_launches()) {
    std::printf("CUPTI refused the activity records\n");
    return 1;
  }
  napkin::detail::l2_flusher flusher(0);
  struct times {
    std::uint64_t t0, t1, t2, t3;
  };
  std::vector<times> ts;
  const auto stamp = [] {
    std::uint64_t t = 0;
    (void)cuptiGetTimestamp(&t);
    return t;
  };
  for (int it = 0; it < iterations; ++it) {
    times t{};
    t.t0 = stamp();
    flusher.flush();
    cudaDeviceSynchronize();
    t.t1 = stamp();
    t.t2 = stamp();
    staged_kernel<<<grid, block, 256 * sizeof(float)>>>(a, b, n);
    cudaDeviceSynchronize();
    t.t3 = stamp();
    ts.push_back(t);
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  }
  napkin::detail::activity_collector::flush_forced();
  std::vector<napkin::detail::kernel_activity> records = collector.take_launches(0);
  std::sort(records.begin(), records.end(), [](const auto& x, const auto& y) { return x.correlation < y.correlation; });
  std::printf("%zu kernel records for %d iterations (a flush and a kernel each)\n", records.size(), iterations);
  if (records.size() != 2 * ts.size()) return 1;
  int outside = 0;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const auto& f = records[2 * i];
    const auto& k = records[2 * i + 1];
    const double lo = std::max(double(f.end_ns) - double(ts[i].t1), double(k.end_ns) - double(ts[i].t3));
    const double hi = std::min(double(f.start_ns) - double(ts[i].t0), double(k.start_ns) - double(ts[i].t2));
    const bool zero_inside = lo <= 0 && 0 <= hi;
    if (!zero_inside) ++outside;
    if (i % (ts.size() / 20 + 1) == 0 || (!zero_inside && outside <= 10))
      std::printf("iteration %zu at %.3f s: offset in [%.1f, %.1f] us%s; flush %.1f us, kernel %.1f us\n", i,
                  (ts[i].t0 - ts[0].t0) * 1e-9, lo * 1e-3, hi * 1e-3, zero_inside ? "" : "  (0 outside)",
                  (f.end_ns - f.start_ns) * 1e-3, (k.end_ns - k.start_ns) * 1e-3);
  }
  std::printf("%d of %zu iterations whose records put the two clocks apart\n", outside, ts.size());
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "clock") == 0) {
    float *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) return 1;
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));
    return clock_probe(argc > 2 ? std::atoi(argv[2]) : 1000, argc > 3 ? std::atoi(argv[3]) : 0, dim3(512, 2),
                       dim3(128, 2), a, b);
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 50;
  const bool measure_only = argc > 2 && std::strcmp(argv[2], "measure-only") == 0;
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  const dim3 grid(512, 2), block(128, 2);
  auto staged = [&] { staged_kernel<<<grid, block, 256 * sizeof(float)>>>(a, b, n); };
  auto copy = [&] { copy_kernel<<<1024, 256>>>(a, b, n); };
  int missing = 0;
  for (int it = 0; it < iterations; ++it) {
    if (!measure_only) {
      napkin::profiler prof;
      (void)prof.per_kernel([&] {
        copy();
        staged();
      });
      (void)prof.per_kernel(staged, napkin::replay::application);
    }
    // measure("one kernel", staged), as session_impl.hpp's measure_callable does it, keeping the recording.
    napkin::detail::profiler_core core(napkin::metric_sets::sol_fast(), napkin::profiler_options{});
    napkin::detail::measurement m(core, "measure(\"one kernel\")");
    staged();  // the warm-up run
    core.sync("warm-up");
    m.configure(napkin::detail::user_range_user_replay, 1);
    napkin::detail::pass_recording recording(core.device().index);
    auto no_reset = [] {};
    napkin::detail::replay_until_complete(m, "one kernel", staged, no_reset, true, &recording);
    const napkin::range_activity activity = recording.finish();
    const auto samples = recording.take_samples();
    m.keep_session();
    if (!recording.single_launch()) {
      ++missing;
      std::printf("iteration %d: no single launch: %s; kernels per pass by busy intervals:", it,
                  recording.no_single_launch().c_str());
      for (const auto& s : samples) std::printf(" %zu", s.launches.value_or(999));
      std::printf(" (passes %zu)\n", activity.passes);
    }
  }
  std::printf("%d of %d measure() calls without a single launch\n", missing, iterations);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
