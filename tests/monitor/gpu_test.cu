// napkin::monitor on a GPU: when sampling cannot start the program runs on and status() says why in one
// message; an overflowing hardware buffer costs samples (counted) and a restart (counted), never the
// monitor; NAPKIN_MONITOR switches it. Skips (exit 77) without a device.
#include <doctest/doctest.h>

#include <cuda_runtime.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "napkin/cupti/session.hpp"
#include "napkin/monitor.hpp"
#include "napkin/monitor/pm_sampler.hpp"
#include "napkin/profiler.hpp"

namespace {

__global__ void spin_kernel(float* out, int iterations) {
  float x = static_cast<float>(threadIdx.x);
  for (int i = 0; i < iterations; ++i) x = x * 0.999f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

struct device_buffer {
  float* p = nullptr;
  device_buffer() { REQUIRE(cudaMalloc(&p, 1024 * 256 * sizeof(float)) == cudaSuccess); }
  ~device_buffer() { cudaFree(p); }
  void spin(int iterations = 20000) const { spin_kernel<<<1024, 256>>>(p, iterations); }
};

// Launches kernels for `seconds` of wall time.
void keep_busy(const device_buffer& b, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 20; ++i) b.spin();
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  }
}

napkin::monitor_settings on() {  // sampling all the time (sample=all): these tests read what it samples
  napkin::monitor_settings s;
  s.enabled = true;
  s.sample_for_ns = s.sample_every_ns = 0;
  return s;
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a monitor started during a measurement waits, paused, and samples once the measurement ends") {
  device_buffer b;
  napkin::profiler prof;
  std::optional<napkin::monitor> inside;
  bool first = true;
  const napkin::sol_report r = prof.measure("spin", [&] {
    b.spin();
    if (!first) return;
    first = false;
    inside.emplace(on());  // napkin::profiler holds the counters: the monitor registers paused
  });
  CHECK(r.duration_ns().has_value());
  REQUIRE(inside);
  std::printf("monitor started inside measure(): %s\n", inside->status().c_str());
  CHECK(inside->running());
  keep_busy(b, 0.3);  // the measurement is over: the monitor samples
  inside->stop();
  CHECK(inside->report().totals.samples_kept > 0);
}

TEST_CASE("busy: a profiler that keeps its session enabled holds the counters; the monitor says so, the program runs on") {
  device_buffer b;
  {
    napkin::profiler prof;  // keeps its CUPTI session between measurements while no monitor runs
    (void)prof.measure("spin", [&] { b.spin(); });
    napkin::monitor refused(on());
    std::printf("monitor started beside an enabled profiler session: %s\n", refused.status().c_str());
    CHECK_FALSE(refused.running());
    CHECK(has(refused.status(), "off: the GPU's performance monitors on device 0 are held by another profiling client"));
    CHECK(has(refused.status(), "The program runs on without the monitor."));
  }
  b.spin();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // CUDA still works
  napkin::monitor after(on());  // the profiler is gone: a new monitor samples
  INFO(after.status());
  CHECK(after.running());
  keep_busy(b, 0.3);
  after.stop();
  CHECK(after.report().totals.samples_kept > 0);
}

TEST_CASE("pm_sampler: decodes append to one image, emptied only when what waits might not fit; samples abut") {
  // 2 ms samples (a pace CUPTI's decode keeps up with: ~0.2-0.6 ms of CPU a sample on an H200) into a 64 MiB
  // buffer and an image of 512: a decode after ~0.3 s of work finds ~150 samples, one after ~50 ms more
  // ~50-100, both appended to the image the constructor initialized. Then an image of 64 with ~0.3 s
  // waiting (~150 samples): the decode fills it, which is counted, and goes on in an emptied image.
  // The samples are contiguous, which is what lets the timeline call a hole a loss (sample_timeline.hpp).
  device_buffer b;
  napkin::detail::cupti_initialization cupti;
  const std::string chip = napkin::detail::pm_sampling_chip(0);
  const napkin::detail::pm_sampling_config config(chip, napkin::detail::monitor_metrics(chip));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> times;
  const auto keep = [&](std::uint64_t t0, std::uint64_t t1, const double*) { times.emplace_back(t0, t1); };
  {
    napkin::detail::pm_sampler sampler(0, config, 2'000'000, std::size_t{64} << 20, 512);
    sampler.start();
    keep_busy(b, 0.3);
    const napkin::detail::pm_decode_result first = sampler.decode(keep);
    keep_busy(b, 0.05);
    const napkin::detail::pm_decode_result second = sampler.decode(keep);
    sampler.stop();
    std::printf("pm_sampler: decodes of %zu and %zu samples into one image of %zu (%zu bytes), emptied %zu and %zu "
                "times\n",
                first.samples, second.samples, first.image_samples, sampler.image_bytes(), first.images_initialized,
                second.images_initialized);
    CHECK(first.samples >= 100);  // ~0.3 s of 2 ms samples, the setup sample among them
    CHECK(second.samples >= 20);
    CHECK(first.image_samples >= 512);  // the capacity asked of CUPTI (it could round up)
    for (const napkin::detail::pm_decode_result& r : {first, second}) {
      CHECK(r.images_filled == 0);
      CHECK(r.images_initialized == 0);  // appended: 512 holds both
    }
  }
  std::size_t holes = 0;
  for (std::size_t i = 2; i < times.size(); ++i)  // from the second: the first spans the setup
    if (times[i].first > times[i - 1].second + 1000 || times[i].first + 1000 < times[i - 1].second) ++holes;
  CHECK(holes == 0);

  napkin::detail::pm_sampler small(0, config, 2'000'000, std::size_t{64} << 20, 64);
  small.start();
  keep_busy(b, 0.3);
  std::size_t n = 0;
  const napkin::detail::pm_decode_result r = small.decode([&](std::uint64_t, std::uint64_t, const double*) { ++n; });
  small.stop();
  std::printf("pm_sampler: %zu samples waiting for an image of 64: emptied %zu times, filled %zu\n", r.samples,
              r.images_initialized, r.images_filled);
  CHECK(r.images_filled >= 1);       // ~150 waiting cannot fit in 64: counted, never silent
  CHECK(r.images_initialized >= 1);  // the step after a full image starts on an emptied one
  CHECK(r.samples == n);
}

TEST_CASE("overflow: a tiny hardware buffer drained late loses samples (counted) and restarts, never dies") {
  device_buffer b;
  napkin::monitor_settings s = on();
  s.interval_ns = 25'000;               // 25 us: ~100 KB of records per sample on an H200
  s.hardware_buffer_bytes = 4u << 20;   // 4 MiB: a few dozen samples
  s.drain_period_ns = 500'000'000;      // drained every 500 ms: far too late
  napkin::monitor mon(s);
  REQUIRE_MESSAGE(mon.running(), mon.status());
  keep_busy(b, 2.0);
  const napkin::monitor_report r = mon.report();
  std::printf("overflow: %s; samples kept %llu, lost %llu, restarts %zu\n", mon.diagnostics().c_str(),
              static_cast<unsigned long long>(r.totals.samples_kept),
              static_cast<unsigned long long>(r.totals.samples_dropped), mon.restarts());
  CHECK(mon.running());
  CHECK(r.totals.samples_dropped + mon.restarts() > 0);
  keep_busy(b, 0.5);  // still sampling after the overflow
  mon.stop();
  CHECK(mon.report().totals.samples_kept > r.totals.samples_kept);
}

TEST_CASE("a bad device index: a clear status, the program runs on") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  napkin::monitor_settings s = on();
  s.device = count;
  napkin::monitor mon(s);
  CHECK_FALSE(mon.running());
  CHECK(mon.status() == napkin::monitor_start_message(napkin::monitor_start_failure::bad_device, count, count));
  CHECK(cudaGetLastError() == cudaSuccess);  // no sticky error left for the application
  CHECK(mon.report().kernels.empty());
}

TEST_CASE("NAPKIN_MONITOR: off by default, on through the environment, off with a clear status on a typo") {
  unsetenv("NAPKIN_MONITOR");
  {
    napkin::monitor off;
    CHECK_FALSE(off.running());
    CHECK(off.status() == "off (NAPKIN_MONITOR is not set to on)");
  }
  setenv("NAPKIN_MONITOR", "interval=1xs", 1);
  {
    napkin::monitor typo;
    CHECK_FALSE(typo.running());
    CHECK(has(typo.status(), "interval: \"1xs\" is not a duration"));
  }
  setenv("NAPKIN_MONITOR", "on", 1);
  {
    device_buffer b;
    napkin::monitor mon;
    INFO(mon.status());
    CHECK(mon.running());
    keep_busy(b, 0.2);
    mon.stop();
    CHECK(mon.report().totals.samples_kept > 0);
  }
  unsetenv("NAPKIN_MONITOR");
}

TEST_CASE("the periodic report: on_report's callback is called every report_every_ns from the monitor's thread") {
  device_buffer b;
  napkin::monitor_settings s = on();
  s.report_every_ns = 100'000'000;  // every 100 ms
  napkin::monitor mon(s);
  REQUIRE_MESSAGE(mon.running(), mon.status());
  std::atomic<int> calls{0};
  std::atomic<unsigned long long> last_kept{0};
  mon.on_report([&](const napkin::monitor_report& r) {
    ++calls;
    last_kept = r.totals.samples_kept;
  });
  keep_busy(b, 1.0);  // ~10 periods (drains every 10-100 ms, so a period may be late, never doubled)
  mon.stop();
  std::printf("periodic: %d reports in 1 s, the last with %llu samples\n", calls.load(), last_kept.load());
  // A period ends at the first drain after it (up to 100 ms late) and the first waits for the session's start
  // and first decode (~150-190 ms of CPU): at worst one report per 200 ms after 200 ms. Seen on an H100 at
  // the 1 ms default interval: 3, 4, 4 and 5 reports in 1 s.
  CHECK(calls.load() >= 3);
  CHECK(calls.load() <= 11);
  CHECK(last_kept.load() > 0);
  const napkin::monitor_report r = mon.report();  // where it was made: the device and the process
  REQUIRE(r.context.device_uuid.has_value());
  CHECK(r.context.device_uuid->rfind("GPU-", 0) == 0);
  CHECK(r.context.device_index == 0);
  CHECK(r.context.host.has_value());
}

TEST_CASE("sample=: the monitor samples its stretches only, counts every kernel, and the stretches read the kernels") {
  device_buffer b;
  napkin::monitor_settings s = on();
  s.interval_ns = 1'000'000;          // 1 ms
  s.sample_for_ns = 200'000'000;      // the first 200 ms
  s.sample_every_ns = 600'000'000;    // of every 600 ms
  napkin::monitor mon(s);
  REQUIRE_MESSAGE(mon.running(), mon.status());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past the first setup sample
  keep_busy(b, 1.8);  // three periods
  mon.stop();
  const napkin::monitor_report r = mon.report();
  std::printf("sample=200ms/600ms over 2.1 s: %llu samples kept, sampled %.3f s, not sampled %.3f s, busy %.3f s; %s\n",
              static_cast<unsigned long long>(r.totals.samples_kept), static_cast<double>(r.totals.sampled_ns) * 1e-9,
              static_cast<double>(r.totals.dropped_ns) * 1e-9, static_cast<double>(r.totals.busy_ns) * 1e-9,
              mon.diagnostics().c_str());
  CHECK(has(mon.diagnostics(), "refused data 0"));
  // Four stretches of 200 ms in 2.1 s: at most ~800 samples of 1 ms, where sampling all the time keeps ~2,100
  // (the session's first sample may reach back seconds, so the report's wall time is no yardstick here).
  CHECK(r.totals.samples_kept > 150);
  CHECK(r.totals.samples_kept < 900);
  CHECK(r.totals.sampled_ns < 900'000'000);
  // Every launch is counted from the activity records, sampled or not; the spin kernel is resolved from the
  // stretches' windows (it runs alone), and launches outside them make its row partial.
  REQUIRE_FALSE(r.kernels.empty());
  const napkin::monitor_row& spin = r.kernels.front();
  CHECK(has(spin.name, "spin_kernel"));
  CHECK(spin.partial);
  CHECK(spin.resolution.resolved());
  REQUIRE(spin.sm_pct);
  CHECK(*spin.sm_pct > 5.0);
}

TEST_CASE("the default schedule: 1 ms samples, the first second of every minute counted from the first kernel") {
  device_buffer b;
  napkin::monitor_settings s;
  s.enabled = true;
  napkin::monitor mon(s);
  REQUIRE_MESSAGE(mon.running(), mon.status());
  // A start-up longer than the first stretch: with a schedule counted from the start, nothing the program
  // runs below would be sampled.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  keep_busy(b, 2.5);
  mon.stop();
  const napkin::monitor_report r = mon.report();
  const double busy_s = static_cast<double>(r.totals.busy_ns) * 1e-9;
  std::printf("default schedule, 1.5 s idle then 2.5 s busy: %llu samples kept, sampled %.3f s, busy in them "
              "%.3f s; %s\n",
              static_cast<unsigned long long>(r.totals.samples_kept), static_cast<double>(r.totals.sampled_ns) * 1e-9,
              busy_s, mon.diagnostics().c_str());
  // About one second of the 2.5 busy seconds: the stretch starts within a drain (50 ms) of the first kernel
  // record and after a new session's setup, and ends a second after the anchor.
  CHECK(busy_s > 0.5);
  CHECK(busy_s < 1.3);
  REQUIRE_FALSE(r.kernels.empty());
  const napkin::monitor_row& spin = r.kernels.front();
  CHECK(has(spin.name, "spin_kernel"));
  CHECK(spin.partial);  // launches after the stretch are counted, not read
  CHECK(spin.resolution.resolved());
}
