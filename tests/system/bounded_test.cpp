// The system view's memory stays bounded: 3 million kernels in batches, settled after each, leave nothing
// pending and sums exactly equal to the arithmetic of the construction, instances split across chunks
// included.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/system/system_view.hpp"
#include "system/helpers.hpp"

using namespace napkin;
using namespace napkin_test;

TEST_CASE("3 million kernels in batches: pending stays bounded, totals are exact") {
  // Kernel i: [t0 + 10 i, t0 + 10 i + 6) ns on stream 1; instance i / 1000 + 1 of phase (i / 1000) % 3 + 1.
  // Batches of 29,500 records (reversed: any order), settled at the batch's last end, so that instances
  // split across chunks. Each instance: projection 999 x 10 + 6 = 9996 ns, busy 1000 x 6, idle 999 x 4.
  // Each phase: 1000 instances. The run: span (N-1) x 10 + 6, busy 6 N; N-1 stream gaps of 4 ns.
  constexpr std::uint64_t n = 3'000'000, batch = 29'500;
  system_options o;
  o.max_pending_records = 40'000;
  system_view v(o);
  std::uint64_t most_pending = 0;
  for (std::uint64_t first = 0; first < n; first += batch) {
    const std::uint64_t last = std::min(n, first + batch);
    system_records r;
    r.work.reserve(last - first);
    for (std::uint64_t i = last; i-- > first;) {
      gpu_work w;
      w.start_ns = t0 + 10 * i;
      w.end_ns = w.start_ns + 6;
      w.stream = 1;
      w.phase = static_cast<std::uint32_t>((i / 1000) % 3 + 1);
      w.instance = i / 1000 + 1;
      w.name = "k";
      r.work.push_back(std::move(w));
    }
    v.add(std::move(r));
    most_pending = std::max(most_pending, v.pending());
    v.settle(t0 + 10 * (last - 1) + 6);
    CHECK(v.pending() == 0);
  }
  CHECK(most_pending == batch);
  const system_report rep = v.report({"", "x", "y", "z"});
  CHECK(rep.records_dropped == 0);
  CHECK(rep.late_records == 0);
  CHECK(rep.run.kernels == n);
  CHECK(rep.run.kernel_ns == 6 * n);
  CHECK(rep.run.span_ns == (n - 1) * 10 + 6);
  CHECK(rep.run.busy_ns == 6 * n);
  CHECK(rep.run.idle_ns == (n - 1) * 10 + 6 - 6 * n);
  CHECK(rep.run.stream_gaps.total == n - 1);
  CHECK(rep.run.stream_gaps.sum_ns == static_cast<long double>(4 * (n - 1)));
  CHECK(rep.run.instances == 3000);
  REQUIRE(rep.phases.size() == 3);
  for (const system_phase& p : rep.phases) {
    CHECK(p.instances == 1000);
    CHECK(p.span_ns == 1000 * 9996);
    CHECK(p.busy_ns == 1000 * 1000 * 6);
    CHECK(p.idle_ns == 1000 * 999 * 4);
    CHECK(p.kernels == 1'000'000);
  }
  REQUIRE(rep.kernels.size() == 1);
  CHECK(rep.kernels[0].count == n);
}
