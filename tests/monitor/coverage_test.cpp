// What a monitor report says when not every launch was sampled (the hardware buffer holds a bounded number
// of samples, so at short intervals most launches can fall outside every kept window), and the share of a
// phase's GPU time in communication kernels. Expected values are hand arithmetic on the windows below.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "monitor/helpers.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_report.hpp"

using namespace napkin;
using monitor_test::keep_first;
using monitor_test::kernel;
using monitor_test::sample;

namespace {
// `name` is a C string: a std::string temporary argument makes GCC 14+ suspect the returned reference
// (-Wdangling-reference).
const monitor_row& row(const std::vector<monitor_row>& rows, const char* name) {
  for (const monitor_row& r : rows)
    if (r.name == name) return r;
  FAIL("no row " << name);
  return rows.front();
}
}  // namespace

// Two windows, then none (the samples ran out): [0,1000) 600 + 400 B, [1000,2000) 300 + 200 B.
// "copy" runs [0,1000), [1000,2000), [2000,3000), [3000,4000): the first two are complete and get all of
// their window's bytes (1000 and 500); the last two were never sampled.
TEST_CASE("launches outside every window: the row is partial; bytes per complete launch stay comparable") {
  const std::vector<pm_sample> samples = {sample(0, 1000, 50, 40, 10, 10, 600, 400),
                                          sample(1000, 2000, 50, 40, 10, 10, 300, 200)};  // steady readings: a rate
  const std::vector<kernel_record> k = {kernel("copy", 0, 1000, {"step"}), kernel("copy", 1000, 2000, {"step"}),
                                        kernel("copy", 2000, 3000, {"step"}), kernel("copy", 3000, 4000, {"step"})};
  const monitor_report r = make_monitor_report(k, attribute(samples, k, {}, keep_first()), 1);
  CHECK(r.context.device_index == 1);
  for (const monitor_row* x : {&row(r.kernels, "copy"), &row(r.phases, "step"), &row(r.paths, "step")}) {
    CHECK(x->totals.count == 4);
    CHECK(x->totals.incomplete == 2);
    CHECK(x->complete == 2);
    CHECK(x->partial);
    CHECK(x->totals.gpu_ns == 4000);
    CHECK(*x->dram_bytes == doctest::Approx(1500));  // the sampled half only: never scaled up
    CHECK(*x->dram_bytes_per_complete_launch == doctest::Approx(750));  // (1000 + 500) / 2
    CHECK(*x->dram_bytes_per_s == doctest::Approx(1500 / 2000e-9));     // over the 2000 ns sampled
  }
  const std::string text = to_text(r);
  CHECK(text.find("1.500 kB*") != std::string::npos);
  CHECK(text.find("* partial: 2 of 4 launches fully sampled (2.00 us not sampled)") != std::string::npos);
  CHECK(text.find("DRAM bytes per fully sampled launch 750") != std::string::npos);
  const std::string kv = to_key_values(r);
  CHECK(kv.find("by=kernel name=copy count=4 gpu_ns=4000 mean_ns=1000 sampled_ns=2000 dropped_ns=0 concurrent_ns=0 "
                "incomplete=2 complete=2 partial=1") != std::string::npos);
  CHECK(kv.find("dram_bytes_per_complete_launch=750") != std::string::npos);
}

// One window [0,2000) of 1000 + 500 B; "k" runs [0,1000) and [1500,2500): U = S = 1500 ns, so the first
// gets 1500 x 1000 / 1500 = 1000 B and the second, cut at the window's end, 500 B for its sampled half.
TEST_CASE("a launch cut by the last window counts in the totals but not in the per-launch figure") {
  const std::vector<kernel_record> k = {kernel("k", 0, 1000), kernel("k", 1500, 2500)};
  const monitor_report r =
      make_monitor_report(k, attribute({sample(0, 2000, 10, 10, 10, 10, 1000, 500)}, k, {}, keep_first()));
  const monitor_row x = row(r.kernels, "k");
  CHECK(x.complete == 1);
  CHECK(x.partial);
  CHECK(*x.dram_bytes == doctest::Approx(1500));
  CHECK(*x.dram_bytes_per_complete_launch == doctest::Approx(1000));
}

TEST_CASE("a complete launch without DRAM byte readings gives no per-launch figure") {
  pm_sample no_bytes = sample(0, 1000, 10, 10);
  no_bytes.dram_read_bytes.reset();
  no_bytes.dram_write_bytes.reset();
  const std::vector<kernel_record> k = {kernel("k", 0, 1000)};
  const monitor_report r = make_monitor_report(k, attribute({no_bytes}, k, {}, keep_first()));
  CHECK(r.kernels[0].complete == 1);
  CHECK_FALSE(r.kernels[0].partial);
  CHECK_FALSE(r.kernels[0].dram_bytes_per_complete_launch.has_value());
}

TEST_CASE("the accumulator gives the same coverage as the batch") {
  const std::vector<pm_sample> samples = {sample(0, 1000, 50, 40, 10, 10, 600, 400),
                                          sample(1000, 2000, 50, 40, 10, 10, 300, 200)};  // steady readings: a rate
  const std::vector<kernel_record> k = {kernel("copy", 0, 1000), kernel("copy", 1000, 2000),
                                        kernel("copy", 2500, 3000)};
  monitor_accumulator acc(keep_first());
  for (const pm_sample& s : samples) acc.add_sample(s);
  for (const kernel_record& x : k) acc.add_kernel(x);
  acc.finish();
  const monitor_row x = make_monitor_report(acc).kernels.at(0);  // a copy: the report is a temporary
  CHECK(x.complete == 2);
  CHECK(x.totals.complete_with_bytes == 2);
  CHECK(x.totals.complete_dram_bytes == doctest::Approx(1500));
  CHECK(*x.dram_bytes_per_complete_launch == doctest::Approx(750));
}

// Phase "allreduce": an NCCL kernel 800 ns and a pack kernel 200 ns (80 % communication); phase "mixed":
// an NVSHMEM kernel and a GEMM 500 ns each (50 %: not mostly communication); phase "gemm": compute only.
TEST_CASE("the communication share: a phase mostly in NCCL/NVSHMEM kernels is reported as communication") {
  const std::vector<pm_sample> samples = {sample(0, 4000, 30, 30, 10, 10, 0, 0)};
  const std::vector<kernel_record> k = {
      kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 800, {"allreduce"}),
      kernel("pack", 800, 1000, {"allreduce"}),
      kernel("nvshmemi_transfer_kernel", 1000, 1500, {"mixed"}),
      kernel("gemm", 1500, 2000, {"mixed"}),
      kernel("gemm", 2000, 4000, {"gemm"})};
  const monitor_report r = make_monitor_report(k, attribute(samples, k, {}, keep_first()));
  const monitor_row allreduce = row(r.phases, "allreduce");
  CHECK(allreduce.split.communication_ns == doctest::Approx(800));
  CHECK(allreduce.split.compute_ns == doctest::Approx(200));
  CHECK(allreduce.communication());
  const monitor_row mixed = row(r.phases, "mixed");
  CHECK(mixed.split.communication_fraction() == doctest::Approx(0.5));
  CHECK_FALSE(mixed.communication());
  CHECK(row(r.phases, "gemm").split.communication_ns == 0);
  CHECK(row(r.kernels, "ncclDevKernel_AllReduce_Sum_f32_RING_LL").communication());
  CHECK_FALSE(row(r.kernels, "gemm").communication());
  CHECK(row(r.paths, "allreduce").communication());
  const std::string text = to_text(r);
  CHECK(text.find("communication: 80.0% of GPU time in NCCL/NVSHMEM kernels (SOL: ") != std::string::npos);
  CHECK(text.find("communication 50.0% of GPU time") != std::string::npos);
  const std::string kv = to_key_values(r);
  CHECK(kv.find("communication_fraction=0.8 activity=communication") != std::string::npos);
  CHECK(kv.find("communication_fraction=0.5 activity=compute") != std::string::npos);
}

// A kernel alone in its windows whose readings disagree between them (DRAM 40 % then 20 %): the spread is
// its standard error (10 points here), above the limit, so the row is refused rather than printed as a rate.
TEST_CASE("a kernel alone in windows that disagree is imprecise: no readings, no verdict") {
  const std::vector<pm_sample> samples = {sample(0, 1000, 50, 40, 10, 10, 600, 400),
                                          sample(1000, 2000, 50, 20, 10, 10, 300, 200)};
  const std::vector<kernel_record> k = {kernel("copy", 0, 1000, {"step"}), kernel("copy", 1000, 2000, {"step"})};
  const monitor_report r = make_monitor_report(k, attribute(samples, k, {}, keep_first()), 0);
  const monitor_row x = row(r.kernels, "copy");
  CHECK(x.resolution.status == rate_status::imprecise);
  CHECK(x.resolution.reason.find("standard error") != std::string::npos);
  CHECK_FALSE(x.dram_pct.has_value());
  CHECK_FALSE(x.dram_bytes.has_value());
}
