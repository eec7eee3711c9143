// The system view's arithmetic on hand-built records: projections and spans, busy and idle time, what the
// host did while the GPU idled, stream gaps, copies, graphs, chunks (settle), late, refused and other
// devices' records, the kernel-name cap, the histogram and the next kernel to profile. Each expected number
// is worked out from the records in the comment beside it.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/system_view.hpp"
#include "support/text.hpp"
#include "support/value_lists.hpp"
#include "system/helpers.hpp"

using namespace napkin;
using namespace napkin_test;

namespace {
const std::vector<std::string> names{"", "a", "b", "outer/inner"};
}  // namespace

TEST_CASE("a phase's span is the union of its instances' projections, not first-to-last") {
  // a#1 [0, 100), b#2 [100, 400), a#3 [400, 500): a's span is 100 + 100 = 200 us, not 500 us.
  system_view v;
  system_records r;
  r.work = {kernel(0, 100, 1, 1), kernel(100, 400, 2, 2), kernel(400, 500, 1, 3)};
  v.add(r);
  const system_report rep = v.report(names);
  const system_phase* a = find_phase(rep, "a");
  const system_phase* b = find_phase(rep, "b");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->instances == 2);
  CHECK(a->span_ns == 200 * us);
  CHECK(a->busy_ns == 200 * us);
  CHECK(a->idle_ns == 0);
  CHECK(b->span_ns == 300 * us);
  CHECK(rep.run.name == "(run)");
  CHECK(rep.run.span_ns == 500 * us);
  CHECK(rep.run.busy_ns == 500 * us);
  CHECK(rep.run.instances == 3);
  CHECK(rep.run.kernels == 3);
  CHECK(rep.phases.front().name == "b");  // largest span first
}

TEST_CASE("overlapping instances count once; idle inside a projection is idle") {
  // a#1: [0, 50) and [80, 100) on stream 1 -> projection [0, 100), GPU idle [50, 80).
  // a#2: [60, 200) on stream 2 -> projection [60, 200). Union [0, 200): 200 us, not 100 + 140.
  // Busy: [0, 50) + [60, 200) = 190 us (a#2's kernel fills [60, 80) of a#1's gap); idle [50, 60) = 10 us.
  system_view v;
  system_records r;
  r.work = {kernel(0, 50, 1, 1), kernel(80, 100, 1, 1), kernel(60, 200, 1, 2, 2)};
  v.add(r);
  const system_report rep = v.report(names);
  const system_phase* a = find_phase(rep, "a");
  REQUIRE(a);
  CHECK(a->instances == 2);
  CHECK(a->span_ns == 200 * us);
  CHECK(a->busy_ns == 190 * us);
  CHECK(a->idle_ns == 10 * us);
  CHECK(a->idle_by_host.host_outside_ns == 10 * us);
}

TEST_CASE("busy time counts any phase's work: a phase's span covered by another's kernel is not idle") {
  // a#1: [0, 10) and [90, 100) -> span 100 us; b#2's kernel [5, 95) on stream 2 covers the gap: a is busy.
  system_view v;
  system_records r;
  r.work = {kernel(0, 10, 1, 1), kernel(90, 100, 1, 1), kernel(5, 95, 2, 2, 2)};
  v.add(r);
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  CHECK(a->span_ns == 100 * us);
  CHECK(a->idle_ns == 0);
}

TEST_CASE("idle time split by what the host did, by priority over threads; the parts add up") {
  // a#1: kernels [100, 200) and [1100, 1200): idle [200, 1100) = 900 us.
  // Thread 1: other [200, 400), other [700, 800); thread 2: launch [300, 500); thread 3: stream sync [450, 600).
  //   [200, 300) other 100; [300, 450) launch 150 (beats other); [450, 600) waiting 150 (beats launch);
  //   [600, 700) outside 100; [700, 800) other 100; [800, 1100) outside 300.
  // waiting 150, launching 150, other 200, outside 400 = 900.
  system_view v;
  system_records r;
  r.work = {kernel(100, 200, 1, 1), kernel(1100, 1200, 1, 1)};
  r.calls = {call(host_call_kind::other, 200, 400, 1, 1, 1), call(host_call_kind::other, 700, 800, 1, 1, 1),
             call(host_call_kind::launch, 300, 500, 1, 1, 2),
             call(host_call_kind::stream_synchronize, 450, 600, 1, 1, 3)};
  v.add(r);
  const system_report rep = v.report(names);
  for (const system_phase* p : {find_phase(rep, "a"), &rep.run}) {
    REQUIRE(p);
    CHECK(p->span_ns == 1100 * us);
    CHECK(p->idle_ns == 900 * us);
    CHECK(p->idle_by_host.host_waiting_ns == 150 * us);
    CHECK(p->idle_by_host.host_launching_ns == 150 * us);
    CHECK(p->idle_by_host.host_other_api_ns == 200 * us);
    CHECK(p->idle_by_host.host_outside_ns == 400 * us);
    CHECK(p->host_calls[static_cast<std::size_t>(host_call_kind::other)].count == 2);
    CHECK(p->host_calls[static_cast<std::size_t>(host_call_kind::other)].ns == 300 * us);
    CHECK(p->host_blocked_ns == 150 * us);
  }
}

TEST_CASE("stream gaps: per stream, carried across settles, in the later kernel's phase") {
  // Stream 1: a [0, 100), settle, a [150, 200), b [260, 300): gaps 50 us (a) and 60 us (b).
  // Stream 2: a [10, 20) alone: no gap. The run: [0, 300) with [100, 150) and [200, 260) idle.
  system_view v;
  system_records r1;
  r1.work = {kernel(0, 100, 1, 1), kernel(10, 20, 1, 1, 2)};
  v.add(r1);
  v.settle(t0 + 120 * us);
  CHECK(v.pending() == 0);
  system_records r2;
  r2.work = {kernel(150, 200, 1, 1), kernel(260, 300, 2, 2)};
  v.add(r2);
  const system_report rep = v.report(names);
  const system_phase* a = find_phase(rep, "a");
  const system_phase* b = find_phase(rep, "b");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->stream_gaps.total == 1);
  CHECK(a->stream_gaps.sum_ns == 50 * us);
  CHECK(b->stream_gaps.total == 1);
  CHECK(b->stream_gaps.sum_ns == 60 * us);
  CHECK(rep.run.span_ns == 300 * us);
  CHECK(rep.run.busy_ns == 190 * us);
  CHECK(rep.run.idle_ns == 110 * us);
  // a#1 split across the settle keeps one projection [0, 200): one instance, span 200 us, idle [100, 150).
  CHECK(a->instances == 1);
  CHECK(a->span_ns == 200 * us);
  CHECK(a->idle_ns == 50 * us);
}

TEST_CASE("late records are counted and analyzed in a later chunk") {
  // [0, 100) settled at 500 us; then [300, 400) arrives (ends before 500 us): late, still analyzed.
  system_view v;
  system_records r1;
  r1.work = {kernel(0, 100, 1, 1)};
  v.add(r1);
  v.settle(t0 + 500 * us);
  system_records r2;
  r2.work = {kernel(300, 400, 1, 1)};
  v.add(r2);
  CHECK(v.pending() == 1);
  const system_report rep = v.report(names);
  CHECK(rep.late_records == 1);
  CHECK(rep.run.kernels == 2);
  CHECK(rep.run.span_ns == 400 * us);
  CHECK(rep.run.busy_ns == 200 * us);
}

TEST_CASE("refused records and other devices' work are counted, never analyzed") {
  system_view v;
  system_records r;
  gpu_work zero = kernel(0, 10, 1, 1);
  zero.start_ns = 0;
  gpu_work backwards = kernel(20, 10, 1, 1);
  host_call no_end = call(host_call_kind::launch, 0, 10, 1, 1);
  no_end.end_ns = 0;
  gpu_work other = kernel(0, 10, 1, 1);
  other.device = 1;
  r.work = {zero, backwards, other, kernel(0, 10, 1, 1)};
  r.calls = {no_end};
  v.add(r);
  const system_report rep = v.report(names);
  CHECK(rep.records_refused == 3);
  CHECK(rep.records_other_device == 1);
  CHECK(rep.run.kernels == 1);
  CHECK(rep.run.span_ns == 10 * us);

  system_options o;
  o.device = 1;
  system_view d1(o);
  d1.add(r);
  const system_report rep1 = d1.report(names);
  CHECK(rep1.run.kernels == 1);
  CHECK(rep1.records_other_device == 1);  // the device-0 kernel
}

TEST_CASE("beyond max_pending_records, records are dropped") {
  system_options o;
  o.max_pending_records = 10;
  system_view v(o);
  system_records r;
  for (int i = 0; i < 15; ++i) r.work.push_back(kernel(i * 10, i * 10 + 5, 1, 1));
  v.add(r);
  CHECK(v.pending() == 10);
  const system_report rep = v.report(names);
  CHECK(rep.records_dropped == 5);
  CHECK(rep.run.kernels == 10);
}

TEST_CASE("host calls are bounded apart from GPU work: a flood of calls never pushes kernels out") {
  // Cap 10: 15 polling calls 1 us apart (5 dropped) and then 3 kernels, all kept.
  system_options o;
  o.max_pending_records = 10;
  system_view v(o);
  system_records r;
  for (int i = 0; i < 15; ++i) r.calls.push_back(call(host_call_kind::other, 2 * i, 2 * i + 1, 1, 1));
  for (int i = 0; i < 3; ++i) r.work.push_back(kernel(100 + i * 10, 105 + i * 10, 1, 1));
  v.add(r);
  CHECK(v.pending() == 13);
  const system_report rep = v.report(names);
  CHECK(rep.records_dropped == 5);
  CHECK(rep.run.kernels == 3);
}

TEST_CASE("host calls are kept as time by class: a call made inside another is one piece") {
  // Thread 1: a launch [10, 20) with a driver launch [12, 18) made inside it (the inner one delivered first),
  // then a stream sync [30, 40) and another launch [50, 55): 3 pieces pending, 4 calls counted.
  // A kernel [60, 70) of phase a: no idle in its span; the calls count in phase a.
  system_view v;
  system_records r;
  r.calls = {call(host_call_kind::launch, 12, 18, 1, 1), call(host_call_kind::launch, 10, 20, 1, 1),
             call(host_call_kind::stream_synchronize, 30, 40, 1, 1), call(host_call_kind::launch, 50, 55, 1, 1)};
  r.work = {kernel(60, 70, 1, 1)};
  v.add(r);
  CHECK(v.pending() == 4);  // 3 pieces of host time and the kernel
  const system_report rep = v.report(names);
  const system_phase* a = find_phase(rep, "a");
  REQUIRE(a);
  CHECK(a->host_calls[static_cast<std::size_t>(host_call_kind::launch)].count == 3);
  CHECK(a->host_calls[static_cast<std::size_t>(host_call_kind::launch)].ns == (6 + 10 + 5) * us);
  CHECK(a->host_blocked_ns == 10 * us);
  CHECK(rep.records_dropped == 0);
}

TEST_CASE("a range open across more busy intervals than the history keeps: its pieces are projected apart") {
  // train#1: a kernel [0, 10), settled; then 5,000 kernels of b#2, [100 + 20 i, 110 + 20 i), settled (more
  // than the 4,096 intervals of busy time kept: the kept history starts at b's kernel 904, 18,180 us);
  // then train#1's last kernel [200000, 200010). Joining the pieces would read the 200 ms between them,
  // b's kernels and their gaps, as train's, with the gaps idle although no record of them is kept any
  // more: the pieces stay apart: span 20 us, idle 0, one opening.
  system_view v;
  system_records r1;
  r1.work = {kernel(0, 10, 1, 1)};
  v.add(r1);
  v.settle(t0 + 50 * us);
  system_records r2;
  for (int i = 0; i < 5000; ++i) r2.work.push_back(kernel(100 + 20 * i, 110 + 20 * i, 2, 2));
  v.add(r2);
  v.settle(t0 + 150000 * us);
  system_records r3;
  r3.work = {kernel(200000, 200010, 1, 1)};
  v.add(r3);
  const system_report rep = v.report(names);
  const system_phase* train = find_phase(rep, "a");
  REQUIRE(train);
  CHECK(train->instances == 1);
  CHECK(train->span_ns == 20 * us);
  CHECK(train->idle_ns == 0);
}

TEST_CASE("work running at a settle's cut is busy in that chunk, not idle") {
  // a#1: kernels [0, 100) and [150, 190) on stream 1; b#2: a copy [50, 400) on stream 2, still running at
  // settle(200). The chunk holds a's kernels only: a's span [0, 190) is busy throughout, since the copy ran
  // over [100, 150); counted without it, those 50 us would stay idle for good.
  system_view v;
  system_records r;
  r.work = {kernel(0, 100, 1, 1), kernel(150, 190, 1, 1),
            copy(50, 400, 2, 2, 2, copy_direction::host_to_device, host_memory::pinned, 1024, 7)};
  v.add(r);
  v.settle(t0 + 200 * us);
  const system_report rep = v.report(names);
  const system_phase* a = find_phase(rep, "a");
  REQUIRE(a);
  CHECK(a->span_ns == 190 * us);
  CHECK(a->idle_ns == 0);
  CHECK(a->busy_ns == 190 * us);
  CHECK(rep.run.span_ns == 400 * us);
  CHECK(rep.run.idle_ns == 0);
}

TEST_CASE("kernel names beyond the cap fold into (other kernels); the table stays within the cap") {
  // Cap 3. First seen: a 10 us, b 20 us, c 30 us; then d 40 us and e 5 us go to "(other kernels)" (45 us).
  // The table keeps 3 rows: c, b and "(other kernels)" with a folded in: 55 us. Total 105 us.
  system_options o;
  o.max_kernel_names = 3;
  system_view v(o);
  system_records r;
  r.work = {kernel(0, 10, 1, 1, 1, "a"), kernel(10, 30, 1, 1, 1, "b"), kernel(30, 60, 3, 2, 1, "c"),
            kernel(60, 100, 1, 1, 1, "d"), kernel(100, 105, 1, 1, 1, "e")};
  v.add(r);
  const system_report rep = v.report(names);
  REQUIRE(rep.kernels.size() == 3);
  CHECK(rep.kernels[0].name == "(other kernels)");
  CHECK(rep.kernels[0].gpu_ns == 55 * us);
  CHECK(rep.kernels[0].count == 3);
  CHECK(rep.kernels[1].name == "c");
  CHECK(rep.kernels[1].share == doctest::Approx(30.0 / 105));
  CHECK(rep.kernels[1].top_phase == "outer/inner");
  CHECK(rep.kernels[2].name == "b");
  CHECK(rep.kernels[2].top_phase == "a");
  CHECK(rep.run.kernel_ns == 105 * us);
}

TEST_CASE("copies: direction, host memory, overlap with kernels, streams; memsets") {
  // Kernel a [0, 100) stream 1. Copies of a: h2d pinned [50, 150) 1000 B stream 2 (50 us under the kernel);
  // d2h pageable [100, 120) 500 B stream 1 (none under a kernel, on the kernel's stream). Memset [150, 160) 64 B.
  system_view v;
  system_records r;
  r.work = {kernel(0, 100, 1, 1),
            copy(50, 150, 1, 1, 2, copy_direction::host_to_device, host_memory::pinned, 1000),
            copy(100, 120, 1, 1, 1, copy_direction::device_to_host, host_memory::pageable, 500)};
  gpu_work m = copy(150, 160, 1, 1, 3, copy_direction::other, host_memory::none, 64);
  m.kind = gpu_work_kind::memset;
  r.work.push_back(m);
  v.add(r);
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  const auto& h2d = a->copies_by_direction[static_cast<std::size_t>(copy_direction::host_to_device)];
  const auto& d2h = a->copies_by_direction[static_cast<std::size_t>(copy_direction::device_to_host)];
  CHECK(h2d.count == 1);
  CHECK(h2d.ns == 100 * us);
  CHECK(h2d.bytes == 1000);
  CHECK(d2h.ns == 20 * us);
  CHECK(a->copies_by_memory[static_cast<std::size_t>(host_memory::pageable)].bytes == 500);
  CHECK(a->copies_by_memory[static_cast<std::size_t>(host_memory::pinned)].count == 1);
  CHECK(a->copy_ns() == 120 * us);
  CHECK(a->copy_overlapped_ns == 50 * us);
  CHECK(a->copies_on_kernel_streams == 1);
  CHECK(a->memsets.count == 1);
  CHECK(a->memsets.ns == 10 * us);
  CHECK(a->memsets.bytes == 64);
  CHECK(a->span_ns == 160 * us);
  CHECK(a->idle_ns == 0);
}

TEST_CASE("synchronous copies: small host-to-device ones are left out, the rest joined by correlation") {
  // Calls: h2d 4 KiB (left out), h2d 128 KiB and d2h 4 KiB (kept), one without a GPU copy (kept, 0 bytes).
  system_view v;
  system_records r;
  r.work = {copy(10, 20, 1, 1, 1, copy_direction::host_to_device, host_memory::pinned, 4096, 11),
            copy(40, 50, 1, 1, 1, copy_direction::host_to_device, host_memory::pinned, 131072, 12),
            copy(70, 80, 1, 1, 1, copy_direction::device_to_host, host_memory::pinned, 4096, 13)};
  r.calls = {call(host_call_kind::synchronous_copy, 0, 25, 1, 1, 1, 11),
             call(host_call_kind::synchronous_copy, 30, 55, 1, 1, 1, 12),
             call(host_call_kind::synchronous_copy, 60, 85, 1, 1, 1, 13),
             call(host_call_kind::synchronous_copy, 90, 95, 1, 1, 1, 14)};
  v.add(r);
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  CHECK(a->synchronous_copies.count == 3);
  CHECK(a->synchronous_copies.ns == 55 * us);
  CHECK(a->synchronous_copies.bytes == 131072 + 4096);
  CHECK(a->host_calls[static_cast<std::size_t>(host_call_kind::synchronous_copy)].count == 4);
  CHECK(a->host_blocked_ns == 80 * us);
}

TEST_CASE("graph executions: kernels sharing (graph, correlation), joined across a settle") {
  // Graph 5: execution 1 = [0, 50) + [50, 100) (settled in between), execution 2 = [300, 400).
  // Spans 100 us each; one gap 300 - 100 = 200 us.
  system_view v;
  gpu_work k1 = kernel(0, 50, 1, 1), k2 = kernel(50, 100, 1, 1), k3 = kernel(300, 400, 1, 2);
  k1.graph = k2.graph = k3.graph = 5;
  k1.correlation = k2.correlation = 1;
  k3.correlation = 2;
  system_records r1, r2;
  r1.work = {k1};
  r2.work = {k2, k3};
  v.add(r1);
  v.settle(t0 + 60 * us);
  v.add(r2);
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  CHECK(a->graph_launches == 2);
  CHECK(a->graph_spans.total == 2);
  CHECK(a->graph_spans.sum_ns == 200 * us);
  CHECK(a->graph_gaps.total == 1);
  CHECK(a->graph_gaps.sum_ns == 200 * us);
  CHECK(a->kernels == 3);
}

TEST_CASE("communication kernels are counted by name") {
  system_view v;
  system_records r;
  r.work = {kernel(0, 30, 1, 1, 1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"), kernel(30, 40, 1, 1, 1, "gemm")};
  v.add(r);
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  CHECK(a->kernel_ns == 40 * us);
  CHECK(a->communication_ns == 30 * us);
}

TEST_CASE("phase names: 0 is outside every range, ids without a name are (phase N)") {
  system_view v;
  system_records r;
  r.work = {kernel(0, 10, 0, 0), kernel(10, 20, 9, 1)};
  v.add(r);
  const system_report rep = v.report(names);
  CHECK(find_phase(rep, ""));
  CHECK(find_phase(rep, "(phase 9)"));
  CHECK(find_phase(rep, "")->instances == 0);  // instance 0: no range opening
  CHECK(find_phase(rep, "")->span_ns == 10 * us);
}

TEST_CASE("duration histogram: bins of 2^(1/4), median within 9 %, exact mean") {
  CHECK(duration_bin(0) == 0);
  CHECK(duration_bin(1) == 0);
  CHECK(duration_bin(2) == 4);
  CHECK(duration_bin(16) == 16);
  CHECK(duration_bin(19) == 16);  // 2^4.25 = 19.03
  CHECK(duration_bin(20) == 17);
  CHECK(duration_bin(~std::uint64_t{0}) == duration_histogram::bins - 1);
  duration_histogram h;
  CHECK(median_ns(h) == 0);
  for (std::uint64_t v : {1000u, 3000u, 3000u, 3100u, 100000u}) add_duration(h, v);
  CHECK(h.total == 5);
  CHECK(mean_ns(h) == doctest::Approx(110100.0 / 5));
  CHECK(median_ns(h) == doctest::Approx(3000).epsilon(0.09));
}

TEST_CASE("next target: a dominant kernel on a busy GPU, an idle GPU, no dominant kernel, no kernels") {
  SUBCASE("dominant") {
    // big 80 us in outer/inner, small 20 us: GPU busy throughout, big has 80 %.
    system_view v;
    system_records r;
    r.work = {kernel(0, 80, 3, 1, 1, "big"), kernel(80, 100, 1, 2, 1, "small")};
    v.add(r);
    const next_target n = v.report(names).next;
    REQUIRE(n.kernel);
    CHECK(*n.kernel == "big");
    CHECK(n.share == doctest::Approx(0.8));
    CHECK(contains(n.reason, "80.0%"));
    CHECK(contains(n.how, "prof.per_kernel("));
    CHECK(contains(n.how, "napkin::replay::application"));
    CHECK(contains(n.how, "prof.watch_phase(\"inner\")"));
  }
  SUBCASE("idle GPU") {
    // [0, 100) and [800, 900): busy 200 of 900 us, idle 77.8 %.
    system_view v;
    system_records r;
    r.work = {kernel(0, 100, 1, 1, 1, "big"), kernel(800, 900, 1, 1, 1, "big")};
    v.add(r);
    const next_target n = v.report(names).next;
    CHECK(!n.kernel);
    CHECK(contains(n.reason, "the GPU was idle 77.8% of the run"));
  }
  SUBCASE("no dominant kernel") {
    // Four kernels of 25 us back to back: none reaches 30 %.
    system_view v;
    system_records r;
    r.work = {kernel(0, 25, 1, 1, 1, "w"), kernel(25, 50, 1, 1, 1, "x"), kernel(50, 75, 1, 1, 1, "y"),
              kernel(75, 100, 1, 1, 1, "z")};
    v.add(r);
    const next_target n = v.report(names).next;
    CHECK(!n.kernel);
    CHECK(contains(n.reason, "no compute kernel takes 30%"));
    CHECK(contains(n.reason, "(largest: w, 25.0%)"));
  }
  SUBCASE("no kernels") {
    system_view v;
    CHECK(v.report(names).next.reason == "no kernels");
  }
  SUBCASE("communication kernels are left out") {
    // An all-reduce of 60 us, then a GEMM of 40 us: the GEMM (40 % of 100 us) is the target, the all-reduce
    // named as left out.
    system_view v;
    system_records r;
    r.work = {kernel(0, 60, 1, 1, 1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"), kernel(60, 100, 1, 1, 1, "gemm")};
    v.add(r);
    const next_target n = v.report(names).next;
    REQUIRE(n.kernel);
    CHECK(*n.kernel == "gemm");
    CHECK(n.share == doctest::Approx(0.4));
    CHECK(contains(n.reason, "communication kernels left out: ncclDevKernel_AllReduce_Sum_f32_RING_LL, 60.0%"));
  }
  SUBCASE("only communication kernels") {
    system_view v;
    system_records r;
    r.work = {kernel(0, 60, 1, 1, 1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL")};
    v.add(r);
    const next_target n = v.report(names).next;
    CHECK(!n.kernel);
    CHECK(contains(n.reason, "only communication kernels"));
  }
}

TEST_CASE("work outside every range projects by stretches that other phases' work breaks") {
  // Setup [0, 10) outside every range, a#1 [100, 200), then outside again [1000, 1010), [1100, 1200), a settle,
  // [1300, 1400): a#1 breaks the first stretch; the second goes on across the settle. Stretches [0, 10) and
  // [1000, 1400), not [0, 1400): span 410 us, busy 10 + 10 + 100 + 100 = 220 us, idle 190 us.
  system_view v;
  system_records r1;
  r1.work = {kernel(0, 10, 0, 0), kernel(100, 200, 1, 1), kernel(1000, 1010, 0, 0), kernel(1100, 1200, 0, 0)};
  v.add(r1);
  v.settle(t0 + 1250 * us);
  system_records r2;
  r2.work = {kernel(1300, 1400, 0, 0)};
  v.add(r2);
  const system_report rep = v.report(names);
  const system_phase* outside = find_phase(rep, "");
  REQUIRE(outside);
  CHECK(outside->instances == 0);
  CHECK(outside->span_ns == 410 * us);
  CHECK(outside->idle_ns == 190 * us);
  CHECK(outside->busy_ns == 220 * us);
  CHECK(rep.run.span_ns == 1400 * us);
}

TEST_CASE("value lists of the system view's enums") {
  napkin_test::check_value_list(all_copy_directions, 6);
  napkin_test::check_value_list(all_host_memories, 5);
  napkin_test::check_value_list(all_host_call_kinds, 8);
  napkin_test::check_value_list(all_system_rules, 8);
  CHECK(from_string("gpu-starved", all_system_rules) == system_rule::gpu_starved);
  CHECK(from_string("h2d", all_copy_directions) == copy_direction::host_to_device);
}

TEST_CASE("a synchronous copy call finds its GPU copy in the chunk before") {
  // GPU copies h2d 4 KiB [10, 20) (correlation 21) and d2h 1 MiB [30, 40) (22) settle at 42 us; their calls
  // [5, 25) and [25, 45) end later, in the next chunk: the small h2d one is still left out, the d2h one kept.
  system_view v;
  system_records r1;
  r1.work = {copy(10, 20, 1, 1, 1, copy_direction::host_to_device, host_memory::pinned, 4096, 21),
             copy(30, 40, 1, 1, 1, copy_direction::device_to_host, host_memory::pinned, 1 << 20, 22)};
  r1.calls = {call(host_call_kind::synchronous_copy, 5, 25, 1, 1, 1, 21),
              call(host_call_kind::synchronous_copy, 25, 45, 1, 1, 1, 22)};
  v.add(r1);
  v.settle(t0 + 42 * us);
  CHECK(v.pending() == 2);  // the second call's record, and the host time [5, 45) (both calls', merged)
  const system_report rep_a = v.report(names);
  const system_phase* a = find_phase(rep_a, "a");
  REQUIRE(a);
  CHECK(a->synchronous_copies.count == 1);
  CHECK(a->synchronous_copies.ns == 20 * us);
  CHECK(a->synchronous_copies.bytes == 1u << 20);
}

TEST_CASE("an idle gap across a settle is split by host calls of both chunks") {
  // Kernel [0, 100), a launch [120, 140), settled at 150 us; then a stream sync [150, 210) and a kernel
  // [200, 300). The run's idle [100, 200): launching 20 us (the earlier chunk's call), waiting 50 us, outside 30.
  system_view v;
  system_records r1;
  r1.work = {kernel(0, 100, 1, 1)};
  r1.calls = {call(host_call_kind::launch, 120, 140, 1, 1)};
  v.add(r1);
  v.settle(t0 + 150 * us);
  system_records r2;
  r2.work = {kernel(200, 300, 1, 1)};
  r2.calls = {call(host_call_kind::stream_synchronize, 150, 210, 1, 1)};
  v.add(r2);
  const system_report rep = v.report(names);
  CHECK(rep.run.idle_ns == 100 * us);
  CHECK(rep.run.idle_by_host.host_launching_ns == 20 * us);
  CHECK(rep.run.idle_by_host.host_waiting_ns == 50 * us);
  CHECK(rep.run.idle_by_host.host_outside_ns == 30 * us);
  const system_phase* a = find_phase(rep, "a");
  REQUIRE(a);
  CHECK(a->idle_by_host.host_launching_ns == 20 * us);  // a#1 goes on across the settle: one projection
  CHECK(a->idle_ns == 100 * us);
}
