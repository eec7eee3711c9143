// The system view's rules, one synthetic program per rule: each asserts its rule fires with the numbers
// worked out by hand from the records, and that no other rule fires (where the construction makes another
// rule's condition true, the comment says why it still must not fire).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_rules.hpp"
#include "napkin/system/system_view.hpp"
#include "support/text.hpp"
#include "system/helpers.hpp"

using namespace napkin;
using namespace napkin_test;

namespace {

// Phase ids: 1 loop, 2 load, 3 step, 4 tiny, 5 serve, 6 allreduce, 7 train, 8 io.
const std::vector<std::string> names{"", "loop", "load", "step", "tiny", "serve", "allreduce", "train", "io"};

system_report report_of(const system_records& r, const system_options& o = {}) {
  system_view v(o);
  v.add(r);
  return v.report(names);
}

// 50 kernels of 100 us, each launched (10 us) and followed by a 10 us device synchronize; period 120 us:
// launch [b, b+10), kernel [b+10, b+110), sync [b+100, b+110). Span [10, 5990) = 5980 us; 49 gaps of 20 us:
// idle 980 us, of it [b+110, b+120) outside (490 us) and the next launch [b+120, b+130) (490 us).
void sync_per_kernel_program(system_records& r, double offset_us) {
  for (int i = 0; i < 50; ++i) {
    const double b = offset_us + i * 120.0;
    r.calls.push_back(call(host_call_kind::launch, b, b + 10, 1, 1));
    r.work.push_back(kernel(b + 10, b + 110, 1, 1));
    r.calls.push_back(call(host_call_kind::device_synchronize, b + 100, b + 110, 1, 1));
  }
}

// 10 kernels of 1 ms, launched 10 us before each, 1 ms apart: b = 10 + 2000 i, launch [b-10, b), kernel
// [b, b+1000). Span 19000 us, idle 9 x 1000 = 9000 us: 90 us launching, 8910 us outside. With `wait`, the
// host also sits in cudaStreamSynchronize [b+500, b+1900): 900 us of each gap waiting, 90 outside.
system_records starved_program(bool wait, double offset_us = 0) {
  system_records r;
  for (int i = 0; i < 10; ++i) {
    const double b = offset_us + 10 + i * 2000.0;
    r.calls.push_back(call(host_call_kind::launch, b - 10, b, 7, 1));
    r.work.push_back(kernel(b, b + 1000, 7, 1));
    if (wait) r.calls.push_back(call(host_call_kind::stream_synchronize, b + 500, b + 1900, 7, 1));
  }
  return r;
}

}  // namespace

TEST_CASE("sync_per_kernel: a synchronize after every kernel") {
  system_records r;
  sync_per_kernel_program(r, 0);
  const system_report rep = report_of(r);
  const system_phase* p = find_phase(rep, "loop");
  REQUIRE(p);
  CHECK(p->span_ns == 5980 * us);
  CHECK(p->idle_ns == 980 * us);
  CHECK(p->idle_by_host.host_launching_ns == 490 * us);
  CHECK(p->idle_by_host.host_outside_ns == 490 * us);
  CHECK(p->host_blocked_ns == 500 * us);
  CHECK(p->stream_gaps.total == 49);
  CHECK(p->stream_gaps.sum_ns == 49 * 20 * us);
  // gpu_starved: idle 980 us is under 1 ms (and 16.4 % < 20 %); launch_bound: 50 kernels < 100.
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::sync_per_kernel});
  const system_finding& f = rep.findings.front();
  CHECK(f.phase == "loop");
  CHECK(f.at_stake_ns == 980 * us);
  CHECK(contains(f.evidence, "50 synchronizing calls for 50 kernels"));
  CHECK(contains(f.advice, "cudaStreamWaitEvent"));
}

TEST_CASE("pageable_copy: the same program with pageable memory fires, with pinned memory does not") {
  // 10 iterations of 300 us: copy h2d 1 MiB [b, b+200) on stream 1, kernel [b+50, b+300) on stream 2.
  // The GPU is busy throughout (span 3000 us, idle 0); 150 of each copy's 200 us are under a kernel
  // (75 % overlapped: copy_not_overlapped stays quiet). Pageable: 2000 us >= 5 % of 3000 us.
  auto program = [](host_memory m) {
    system_records r;
    for (int i = 0; i < 10; ++i) {
      const double b = 10 + i * 300.0;
      r.work.push_back(copy(b, b + 200, 2, 1, 1, copy_direction::host_to_device, m, 1 << 20));
      r.work.push_back(kernel(b + 50, b + 300, 2, 1, 2));
    }
    return r;
  };
  const system_report pageable = report_of(program(host_memory::pageable));
  const system_phase* p = find_phase(pageable, "load");
  REQUIRE(p);
  CHECK(p->span_ns == 3000 * us);
  CHECK(p->idle_ns == 0);
  CHECK(p->copy_overlapped_ns == 1500 * us);
  REQUIRE(fired(pageable) == std::vector<system_rule>{system_rule::pageable_copy});
  CHECK(pageable.findings.front().at_stake_ns == 2000 * us);
  CHECK(contains(pageable.findings.front().evidence, "10.49 MB"));  // 10 x 2^20 B
  CHECK(contains(pageable.findings.front().advice, "cudaHostRegister"));

  const system_report pinned = report_of(program(host_memory::pinned));
  CHECK(pinned.findings.empty());
}

TEST_CASE("copy_not_overlapped: copy and compute on one stream fire, on two streams they overlap") {
  // One stream: 10 x (copy [b, b+200), kernel [b+200, b+400)) on stream 1, pinned. Busy 4000 us, kernels
  // and copies 2000 us each (50 % of busy), nothing overlapped: at stake min(2000, 2000) us.
  system_records one;
  for (int i = 0; i < 10; ++i) {
    const double b = 10 + i * 400.0;
    one.work.push_back(copy(b, b + 200, 3, 1, 1, copy_direction::host_to_device, host_memory::pinned, 1 << 20));
    one.work.push_back(kernel(b + 200, b + 400, 3, 1, 1));
  }
  const system_report serialized = report_of(one);
  const system_phase* p = find_phase(serialized, "step");
  REQUIRE(p);
  CHECK(p->busy_ns == 4000 * us);
  CHECK(p->copy_overlapped_ns == 0);
  CHECK(p->copies_on_kernel_streams == 10);
  REQUIRE(fired(serialized) == std::vector<system_rule>{system_rule::copy_not_overlapped});
  CHECK(serialized.findings.front().at_stake_ns == 2000 * us);
  CHECK(contains(serialized.findings.front().advice, "serialized on one stream"));

  // The same times with the copies on stream 2: still serialized (a dependency), the other advice.
  for (gpu_work& w : one.work)
    if (w.kind == gpu_work_kind::copy) w.stream = 2;
  const system_report other_stream = report_of(one);
  CHECK(find_phase(other_stream, "step")->copies_on_kernel_streams == 0);
  REQUIRE(fired(other_stream) == std::vector<system_rule>{system_rule::copy_not_overlapped});
  CHECK(other_stream.findings.front().at_stake_ns == 2000 * us);
  CHECK(contains(other_stream.findings.front().advice, "copies on other streams still do not overlap"));

  // Two streams: kernel i [200 i, 200 i + 200) on stream 1 while copy i runs on stream 2: all overlapped.
  system_records two;
  for (int i = 0; i < 10; ++i) {
    const double b = 10 + i * 200.0;
    two.work.push_back(kernel(b, b + 200, 3, 1, 1));
    two.work.push_back(copy(b, b + 200, 3, 1, 2, copy_direction::host_to_device, host_memory::pinned, 1 << 20));
  }
  const system_report overlapped = report_of(two);
  CHECK(find_phase(overlapped, "step")->copy_overlapped_ns == 2000 * us);
  CHECK(overlapped.findings.empty());
}

TEST_CASE("launch_bound: 10,000 kernels of 3 us with 3 us gaps") {
  // Kernel i [10 + 6 i, 13 + 6 i); launch i [7 + 6 i, 13 + 6 i) covers the gap before it. Span 9999 x 6 + 3 =
  // 59997 us; 9999 gaps of 3 us: idle 29997 us, all launching. gpu_starved's condition holds (50 % idle,
  // >= 1 ms) but launch_bound explains the idle: gpu_starved is folded into it.
  system_records r;
  for (int i = 0; i < 10000; ++i) {
    r.work.push_back(kernel(10 + 6.0 * i, 13 + 6.0 * i, 4, 1));
    r.calls.push_back(call(host_call_kind::launch, 7 + 6.0 * i, 13 + 6.0 * i, 4, 1));
  }
  const system_report rep = report_of(r);
  const system_phase* p = find_phase(rep, "tiny");
  REQUIRE(p);
  CHECK(p->span_ns == 59997 * us);
  CHECK(p->idle_ns == 29997 * us);
  CHECK(p->idle_by_host.host_launching_ns == 29997 * us);
  CHECK(median_ns(p->kernel_durations) == doctest::Approx(3000).epsilon(0.09));
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::launch_bound});
  CHECK(rep.findings.front().at_stake_ns == 29997 * us);
  CHECK(contains(rep.findings.front().evidence, "10000 kernels"));
  CHECK(contains(rep.findings.front().advice, "cudaGraphLaunch"));
}

TEST_CASE("graph_gaps: a graph relaunched with 200 us of host work between 100 us executions") {
  // b = 10 + 300 i: graph launch [b-5, b), kernels [b, b+40) and [b+40, b+100) of graph 7, correlation 100+i.
  // Span 2800 us; 9 gaps of 200 us: idle 1800 us (45 us launching, 1755 us outside). gpu_starved's condition
  // holds (64 %) but graph_gaps explains the idle and folds it.
  system_records r;
  for (int i = 0; i < 10; ++i) {
    const double b = 10 + 300.0 * i;
    const auto c = static_cast<std::uint32_t>(100 + i);
    r.calls.push_back(call(host_call_kind::graph_launch, b - 5, b, 5, 1, 1, c));
    for (gpu_work k : {kernel(b, b + 40, 5, 1), kernel(b + 40, b + 100, 5, 1)}) {
      k.graph = 7;
      k.correlation = c;
      r.work.push_back(k);
    }
  }
  const system_report rep = report_of(r);
  const system_phase* p = find_phase(rep, "serve");
  REQUIRE(p);
  CHECK(p->span_ns == 2800 * us);
  CHECK(p->idle_ns == 1800 * us);
  CHECK(p->idle_by_host.host_launching_ns == 45 * us);
  CHECK(p->idle_by_host.host_outside_ns == 1755 * us);
  CHECK(p->graph_launches == 10);
  CHECK(p->graph_spans.sum_ns == 1000 * us);
  CHECK(p->graph_gaps.total == 9);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::graph_gaps});
  CHECK(rep.findings.front().at_stake_ns == 1800 * us);
  CHECK(contains(rep.findings.front().advice, "host nodes"));
}

TEST_CASE("communication_bound: NCCL kernels take most of the phase's GPU time") {
  // 10 x (gemm [b, b+100) on stream 1, allreduce [b+100, b+500) on stream 2): kernels 5000 us, NCCL 4000 us.
  system_records r;
  for (int i = 0; i < 10; ++i) {
    const double b = 10 + 500.0 * i;
    r.work.push_back(kernel(b, b + 100, 6, 1, 1, "gemm"));
    r.work.push_back(kernel(b + 100, b + 500, 6, 1, 2, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  }
  const system_report rep = report_of(r);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::communication_bound});
  CHECK(rep.findings.front().phase == "allreduce");
  CHECK(rep.findings.front().at_stake_ns == 4000 * us);
  CHECK(contains(rep.findings.front().evidence, "80.0%"));
  CHECK(contains(rep.findings.front().advice, "NCCL_DEBUG=INFO"));
}

TEST_CASE("gpu_starved: advice by what the host did while the GPU idled") {
  const system_report outside = report_of(starved_program(false));
  const system_phase* p = find_phase(outside, "train");
  REQUIRE(p);
  CHECK(p->span_ns == 19000 * us);
  CHECK(p->idle_ns == 9000 * us);
  CHECK(p->idle_by_host.host_launching_ns == 90 * us);
  CHECK(p->idle_by_host.host_outside_ns == 8910 * us);
  REQUIRE(fired(outside) == std::vector<system_rule>{system_rule::gpu_starved});
  CHECK(outside.findings.front().at_stake_ns == 9000 * us);
  CHECK(contains(outside.findings.front().evidence, "47.4%"));  // 9000 / 19000
  CHECK(contains(outside.findings.front().advice, "another thread"));

  // Waiting: 900 us of each gap in cudaStreamSynchronize. sync_per_kernel: 10 syncs for 10 kernels, but
  // fewer than 20 kernels.
  const system_report waiting = report_of(starved_program(true));
  CHECK(find_phase(waiting, "train")->idle_by_host.host_waiting_ns == 8100 * us);
  REQUIRE(fired(waiting) == std::vector<system_rule>{system_rule::gpu_starved});
  CHECK(contains(waiting.findings.front().advice, "queue more work before synchronizing"));
}

TEST_CASE("gpu_starved on the phase outside every range, never on the run row") {
  system_records r = starved_program(false);
  for (gpu_work& w : r.work) w.phase = 0, w.instance = 0;
  for (host_call& c : r.calls) c.phase = 0, c.instance = 0;
  const system_report rep = report_of(r);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::gpu_starved});
  CHECK(rep.findings.front().phase == "");
  CHECK(rep.run.idle_ns == 9000 * us);
}

TEST_CASE("synchronous_copy: blocking copies, small host-to-device ones left out") {
  // b = 10 + 500 i: a 4 KiB h2d cudaMemcpy [b, b+20) (copy [b+5, b+15)), a 1 MiB d2h cudaMemcpy [b+20, b+140)
  // (copy [b+50, b+70)), a kernel [b+70, b+500). Span [15, 5010) = 4995 us; busy 10 x (10 + 450) = 4600 us;
  // idle 395 us, all in the copies' calls (waiting). Counted: the 10 d2h calls, 1200 us >= 1 % of the span.
  // Copies take 300 us, under 10 % of busy: copy_not_overlapped stays quiet; idle < 1 ms: no gpu_starved.
  system_records r;
  for (int i = 0; i < 10; ++i) {
    const double b = 10 + 500.0 * i;
    const auto c = static_cast<std::uint32_t>(2 * i + 1);
    r.calls.push_back(call(host_call_kind::synchronous_copy, b, b + 20, 8, 1, 1, c));
    r.work.push_back(copy(b + 5, b + 15, 8, 1, 1, copy_direction::host_to_device, host_memory::pinned, 4096, c));
    r.calls.push_back(call(host_call_kind::synchronous_copy, b + 20, b + 140, 8, 1, 1, c + 1));
    r.work.push_back(
        copy(b + 50, b + 70, 8, 1, 1, copy_direction::device_to_host, host_memory::pinned, 1 << 20, c + 1));
    r.work.push_back(kernel(b + 70, b + 500, 8, 1, 1));
  }
  const system_report rep = report_of(r);
  const system_phase* p = find_phase(rep, "io");
  REQUIRE(p);
  CHECK(p->span_ns == 4995 * us);
  CHECK(p->busy_ns == 4600 * us);
  CHECK(p->idle_by_host.host_waiting_ns == 395 * us);
  CHECK(p->synchronous_copies.count == 10);
  CHECK(p->synchronous_copies.ns == 1200 * us);
  CHECK(p->synchronous_copies.bytes == 10u << 20);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::synchronous_copy});
  CHECK(rep.findings.front().at_stake_ns == 1200 * us);
  CHECK(contains(rep.findings.front().advice, "cudaMemcpyAsync"));
}

TEST_CASE("findings are sorted by time at stake; thresholds are members") {
  // train (gpu_starved, 9000 us at stake) and, after it, loop (sync_per_kernel, 980 us).
  system_records r = starved_program(false);
  sync_per_kernel_program(r, 30000);
  const system_report rep = report_of(r);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::gpu_starved, system_rule::sync_per_kernel});
  CHECK(rep.findings[0].phase == "train");
  CHECK(rep.findings[1].phase == "loop");

  // Lower gpu_starved's thresholds below loop's 980 us and 16.4 %: loop starves too.
  system_thresholds t;
  t.starved_min_idle_ns = 500 * us;
  t.starved_idle_fraction = 0.10;
  const std::vector<system_finding> f = find_system_issues(rep, t);
  REQUIRE(f.size() == 3);
  CHECK(f[1].rule == system_rule::gpu_starved);
  CHECK(f[1].phase == "loop");
  CHECK(f[1].at_stake_ns == 980 * us);
}

TEST_CASE("launch_bound's time at stake is at most the phase's idle time") {
  // loop [0, 100) on stream 1, then tiny: 100 kernels [10000 + 6 i, 10003 + 6 i) on stream 1. tiny's gaps:
  // 9900 us back to loop's kernel, then 99 x 3 us = 297 us: 10197 us in all, but tiny's span (597 us) has
  // only 297 us idle, which is what graphs could save.
  system_records r;
  r.work.push_back(kernel(0, 100, 1, 1));
  for (int i = 0; i < 100; ++i) {
    r.work.push_back(kernel(10000 + 6.0 * i, 10003 + 6.0 * i, 4, 2));
    r.calls.push_back(call(host_call_kind::launch, 9997 + 6.0 * i, 10003 + 6.0 * i, 4, 2));
  }
  const system_report rep = report_of(r);
  const system_phase* p = find_phase(rep, "tiny");
  REQUIRE(p);
  CHECK(p->stream_gaps.total == 100);
  CHECK(p->stream_gaps.sum_ns == static_cast<long double>(10197 * us));
  CHECK(p->idle_ns == 297 * us);
  REQUIRE(fired(rep) == std::vector<system_rule>{system_rule::launch_bound});
  CHECK(rep.findings.front().at_stake_ns == 297 * us);
}
