// The system view on a GPU, on scenarios whose answers are known by construction: each in its own napkin::range
// phase, run under one napkin::monitor at its defaults. Every rule must fire where the construction says and
// nowhere else, and the measured sync, idle and overlap figures must agree with the construction within 5 %.
// Prints the system report (docs/system.md quotes it). Skips (exit 77) without a device.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "napkin/monitor.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/system/system_text.hpp"

namespace {

#define SYS_CHECK(call) REQUIRE((call) == cudaSuccess)

// Keeps one SM busy for `ns` of GPU time (the global timer, in ns).
__global__ void wait_kernel(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Keeps the host thread busy for `us` microseconds (its own work, outside CUDA).
double host_work_us(double us) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto end = t0 + std::chrono::duration<double, std::micro>(us);
  while (std::chrono::steady_clock::now() < end) {
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

const napkin::system_phase* find_phase(const napkin::system_report& r, const std::string& name) {
  for (const napkin::system_phase& p : r.phases)
    if (p.name == name) return &p;
  return nullptr;
}

std::set<std::string> rules_on(const napkin::system_report& r, const std::string& phase) {
  std::set<std::string> out;
  for (const napkin::system_finding& f : r.findings)
    if (f.phase == phase) out.insert(std::string(napkin::to_string(f.rule)));
  return out;
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += (out.empty() ? "" : ",") + x;
  return out.empty() ? "(none)" : out;
}

constexpr std::size_t copy_bytes = 8u << 20;

}  // namespace

TEST_CASE("system view scenarios: each rule fires where the construction says, figures within 5 %") {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("SKIPPED: no CUDA device");
    std::exit(77);
  }
  napkin::monitor_settings settings;  // the defaults, on
  settings.enabled = true;
  napkin::monitor mon(settings);
  if (!mon.running()) {
    std::printf("SKIPPED: the monitor cannot run here: %s\n", mon.status().c_str());
    std::exit(77);
  }
  cudaStream_t s1 = nullptr, s2 = nullptr;
  SYS_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  SYS_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  void *d_a = nullptr, *d_b = nullptr, *pinned = nullptr;
  SYS_CHECK(cudaMalloc(&d_a, copy_bytes));
  SYS_CHECK(cudaMalloc(&d_b, copy_bytes));
  SYS_CHECK(cudaMallocHost(&pinned, copy_bytes));
  std::vector<char> pageable(copy_bytes, 1);
  wait_kernel<<<1, 32, 0, s1>>>(1000);  // warm-up: module load outside the scenarios
  SYS_CHECK(cudaDeviceSynchronize());

  // 1. A sync after every kernel: 100 kernels of 500 us, each followed by cudaStreamSynchronize. By
  // construction the host waits for each kernel: blocked time = the kernels' time (+ launch latency).
  {
    napkin::range r("sync_every_kernel");
    for (int i = 0; i < 100; ++i) {
      wait_kernel<<<1, 32, 0, s1>>>(500'000);
      SYS_CHECK(cudaStreamSynchronize(s1));
    }
  }
  // 2. Pageable and pinned copies: 20 asynchronous 8 MiB host-to-device copies each; only the source differs.
  {
    napkin::range r("pageable_copies");
    for (int i = 0; i < 20; ++i) SYS_CHECK(cudaMemcpyAsync(d_a, pageable.data(), copy_bytes, cudaMemcpyHostToDevice, s1));
    SYS_CHECK(cudaStreamSynchronize(s1));
  }
  {
    napkin::range r("pinned_copies");
    for (int i = 0; i < 20; ++i) SYS_CHECK(cudaMemcpyAsync(d_a, pinned, copy_bytes, cudaMemcpyHostToDevice, s1));
    SYS_CHECK(cudaStreamSynchronize(s1));
  }
  // 3. Synchronous copies: 20 cudaMemcpy of 8 MiB device-to-host into pinned memory.
  {
    napkin::range r("synchronous_copies");
    for (int i = 0; i < 20; ++i) SYS_CHECK(cudaMemcpy(pinned, d_b, copy_bytes, cudaMemcpyDeviceToHost));
  }
  // 4. Copy and compute on one stream (serialized: no overlap) and on two (independent: copies overlap the
  // kernels entirely, since the kernels are queued first and take twice as long).
  {
    napkin::range r("one_stream");
    for (int i = 0; i < 20; ++i) {
      SYS_CHECK(cudaMemcpyAsync(d_a, pinned, copy_bytes, cudaMemcpyHostToDevice, s1));
      wait_kernel<<<1, 32, 0, s1>>>(600'000);
    }
    SYS_CHECK(cudaStreamSynchronize(s1));
  }
  {
    napkin::range r("two_streams");
    for (int i = 0; i < 20; ++i) wait_kernel<<<1, 32, 0, s1>>>(600'000);
    for (int i = 0; i < 20; ++i) SYS_CHECK(cudaMemcpyAsync(d_a, pinned, copy_bytes, cudaMemcpyHostToDevice, s2));
    SYS_CHECK(cudaDeviceSynchronize());
  }
  // 5. 10,000 kernels of 3 us, the host spending 5 us of its own between launches: launch-bound by construction.
  {
    napkin::range r("tiny_kernels");
    for (int i = 0; i < 10000; ++i) {
      wait_kernel<<<1, 32, 0, s1>>>(3'000);
      host_work_us(5);
    }
    SYS_CHECK(cudaStreamSynchronize(s1));
  }
  // 6. A CUDA graph of 4 kernels of 250 us, relaunched 30 times with 2 ms of host work between executions.
  double host_between_graphs_us = 0;
  {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    SYS_CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < 4; ++k) wait_kernel<<<1, 32, 0, s2>>>(250'000);
    SYS_CHECK(cudaStreamEndCapture(s2, &graph));
    SYS_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    napkin::range r("graph_relaunch");
    for (int i = 0; i < 30; ++i) {
      SYS_CHECK(cudaGraphLaunch(exec, s2));
      SYS_CHECK(cudaStreamSynchronize(s2));
      if (i + 1 < 30) host_between_graphs_us += host_work_us(2000);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  mon.stop();
  const napkin::monitor_report report = mon.report();
  REQUIRE(report.system.has_value());
  const napkin::system_report& sys = *report.system;
  std::printf("%s\n", napkin::to_text(sys).c_str());

  struct expectation {
    const char* phase;
    std::set<std::string> rules;
  };
  const expectation expected[] = {
      {"sync_every_kernel", {"sync-per-kernel"}},
      {"pageable_copies", {"pageable-copy"}},
      {"pinned_copies", {}},
      {"synchronous_copies", {"synchronous-copy"}},
      {"one_stream", {"copy-not-overlapped"}},
      {"two_streams", {}},
      {"tiny_kernels", {"launch-bound"}},
      {"graph_relaunch", {"graph-gaps"}},
      {"", {}},
  };
  for (const expectation& e : expected) {
    CAPTURE(e.phase);
    const std::set<std::string> fired = rules_on(sys, e.phase);
    std::printf("SCENARIO %-20s expected %-22s fired %s\n", e.phase[0] ? e.phase : "(no phase)",
                join(e.rules).c_str(), join(fired).c_str());
    CHECK(fired == e.rules);
  }

  // The figures against the construction.
  const napkin::system_phase* sync = find_phase(sys, "sync_every_kernel");
  REQUIRE(sync != nullptr);
  CHECK(sync->kernels == 100);
  const auto stream_syncs = sync->host_calls[static_cast<std::size_t>(napkin::host_call_kind::stream_synchronize)];
  CHECK(stream_syncs.count == 100);
  const double blocked_over_kernels = static_cast<double>(sync->host_blocked_ns) / static_cast<double>(sync->kernel_ns);
  std::printf("FIGURE sync_every_kernel host blocked / kernel time = %.4f (construction 1, within 5 %%)\n",
              blocked_over_kernels);
  CHECK(blocked_over_kernels >= 0.95);
  CHECK(blocked_over_kernels <= 1.05);

  const napkin::system_phase* pageable_phase = find_phase(sys, "pageable_copies");
  REQUIRE(pageable_phase != nullptr);
  const auto& pg = pageable_phase->copies_by_memory[static_cast<std::size_t>(napkin::host_memory::pageable)];
  CHECK(pg.count == 20);
  CHECK(pg.bytes == 20ull * copy_bytes);
  const napkin::system_phase* pinned_phase = find_phase(sys, "pinned_copies");
  REQUIRE(pinned_phase != nullptr);
  const auto& pn = pinned_phase->copies_by_memory[static_cast<std::size_t>(napkin::host_memory::pinned)];
  CHECK(pn.count == 20);
  CHECK(pn.bytes == 20ull * copy_bytes);
  std::printf("FIGURE pageable %.1f GB/s, pinned %.1f GB/s (host-to-device)\n",
              static_cast<double>(pg.bytes) / static_cast<double>(std::max<std::uint64_t>(pg.ns, 1)),
              static_cast<double>(pn.bytes) / static_cast<double>(std::max<std::uint64_t>(pn.ns, 1)));

  for (const char* name : {"one_stream", "two_streams"}) {
    const napkin::system_phase* p = find_phase(sys, name);
    REQUIRE(p != nullptr);
    const double overlapped = static_cast<double>(p->copy_overlapped_ns) / static_cast<double>(p->copy_ns());
    std::printf("FIGURE %s copies overlapped with kernels %.4f (construction %s)\n", name, overlapped,
                std::strcmp(name, "one_stream") == 0 ? "0" : "1");
    if (std::strcmp(name, "one_stream") == 0)
      CHECK(overlapped <= 0.05);
    else
      CHECK(overlapped >= 0.95);
  }

  const napkin::system_phase* tiny = find_phase(sys, "tiny_kernels");
  REQUIRE(tiny != nullptr);
  CHECK(tiny->kernels == 10000);

  const napkin::system_phase* graphs = find_phase(sys, "graph_relaunch");
  REQUIRE(graphs != nullptr);
  CHECK(graphs->kernels == 120);  // every kernel of every execution has the phase (one correlation id each)
  CHECK(graphs->graph_launches == 30);
  // By construction the GPU is idle between executions for the host's work (+ the sync's return and the
  // next launch): the phase's idle time over the host work between them.
  const double idle_over_host = static_cast<double>(graphs->idle_ns) / (host_between_graphs_us * 1e3);
  std::printf("FIGURE graph_relaunch idle / host work between executions = %.4f (construction 1, within 5 %%)\n",
              idle_over_host);
  CHECK(idle_over_host >= 0.95);
  CHECK(idle_over_host <= 1.05);

  cudaFreeHost(pinned);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}
