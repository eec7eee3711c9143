// SPDX-License-Identifier: Apache-2.0
// The cross-rank table (napkin/report/cross_rank.hpp) on hand-computed examples, the summaries made from
// napkin's reports (rank_summaries.hpp) and the job document (job_documents.hpp). Every expected number
// is worked out in the comment above it. The job documents are also written to NAPKIN_RANKS_DOCUMENTS_DIR
// for the schema test (ranks_schema).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/report/cross_rank.hpp"
#include "napkin/report/job_documents.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/report/rank_summaries.hpp"

using namespace napkin;

namespace {
const std::string nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

rank_summary rank_of(std::int64_t r, std::vector<rank_row> rows, std::int64_t world = 4) {
  rank_summary s;
  s.context.rank = r;
  s.context.world_size = world;
  s.context.host = r < 2 ? "node-a" : "node-b";
  s.rows = std::move(rows);
  return s;
}
rank_row kernel(std::string name, double ns, std::uint64_t launches = 1) {
  return {std::move(name), row_kind::kernel, launches, ns, std::nullopt};
}
rank_row phase(std::string name, double ns, std::optional<double> comm = std::nullopt) {
  return {std::move(name), row_kind::phase, 1, ns, comm};
}
// `name` is a C string: a std::string temporary argument makes GCC 14+ suspect the returned reference
// (-Wdangling-reference).
const cross_rank_row& row(const cross_rank_table& t, const char* name) {
  for (const cross_rank_row& r : t.rows)
    if (r.name == name) return r;
  FAIL("no row " << name);
  return t.rows.front();
}

// Four ranks, rank 3 slow in gemm and fast in the all-reduce (the others wait for it there).
//   gemm:  1, 2, 3, 10 ms            all-reduce: 9, 8, 7, 0.5 ms       fixup: 4 us (rank 0), 6 us (rank 2)
std::vector<rank_summary> four_ranks() {
  return {rank_of(0, {kernel("gemm", 1e6, 10), kernel(nccl, 9e6, 10), kernel("fixup", 4e3)}),
          rank_of(1, {kernel("gemm", 2e6, 10), kernel(nccl, 8e6, 10)}),
          rank_of(2, {kernel("gemm", 3e6, 10), kernel(nccl, 7e6, 10), kernel("fixup", 6e3)}),
          rank_of(3, {kernel(nccl, 0.5e6, 10), kernel("gemm", 10e6, 10)})};
}

void write(const std::string& file, const std::string& text) {
  std::ofstream out(std::string(NAPKIN_RANKS_DOCUMENTS_DIR) + "/" + file, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}
}  // namespace

TEST_CASE("median: odd count the middle value, even count the mean of the middle two") {
  CHECK(median_of({5, 7, 6}) == 6);
  CHECK(median_of({10, 1, 3, 2}) == 2.5);  // sorted 1 2 3 10: (2 + 3) / 2
  CHECK(median_of({4}) == 4);
  CHECK(median_of({}) == 0);
}

TEST_CASE("four ranks (even count): min / median / max, slowest, imbalance, a missing row") {
  const cross_rank_table t = make_cross_rank_table(four_ranks());
  CHECK(t.ranks == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(t.absent_ranks.empty());
  REQUIRE(t.rows.size() == 3);
  // By max, largest first: gemm (10 ms), the all-reduce (9 ms), fixup (6 us).
  CHECK(t.rows[0].name == "gemm");
  CHECK(t.rows[1].name == nccl);
  CHECK(t.rows[2].name == "fixup");

  const cross_rank_row& gemm = row(t, "gemm");
  CHECK(gemm.min_ns == 1e6);
  CHECK(gemm.median_ns == 2.5e6);  // (2 + 3) / 2 ms
  CHECK(gemm.max_ns == 10e6);
  CHECK(gemm.slowest_ranks == std::vector<std::int64_t>{3});
  CHECK(*gemm.imbalance == doctest::Approx(4.0));  // 10 / 2.5
  CHECK(gemm.missing_ranks.empty());
  REQUIRE(gemm.split);
  CHECK(gemm.split->communication_ns == 0);
  CHECK(gemm.split->compute_ns == 16e6);  // 1 + 2 + 3 + 10 ms
  CHECK_FALSE(gemm.mostly_communication());
  CHECK(gemm.ranks[3].launches == 10);

  const cross_rank_row& ar = row(t, nccl.c_str());
  CHECK(ar.min_ns == 0.5e6);
  CHECK(ar.median_ns == 7.5e6);  // sorted 0.5 7 8 9: (7 + 8) / 2
  CHECK(ar.max_ns == 9e6);
  CHECK(ar.slowest_ranks == std::vector<std::int64_t>{0});
  CHECK(*ar.imbalance == doctest::Approx(1.2));  // 9 / 7.5
  REQUIRE(ar.split);
  CHECK(ar.split->communication_ns == 24.5e6);  // 9 + 8 + 7 + 0.5
  CHECK(ar.mostly_communication());

  const cross_rank_row& fixup = row(t, "fixup");
  CHECK(fixup.missing_ranks == std::vector<std::int64_t>{1, 3});
  CHECK(fixup.ranks.size() == 2);
  CHECK(fixup.min_ns == 4e3);
  CHECK(fixup.median_ns == 5e3);  // (4 + 6) / 2 over the two ranks that have it; missing ranks are not 0
  CHECK(fixup.max_ns == 6e3);
  CHECK(fixup.slowest_ranks == std::vector<std::int64_t>{2});
  CHECK(*fixup.imbalance == doctest::Approx(1.2));  // 6 / 5

  // Per rank: rank 0 spends 9 of 10.004 ms in NCCL (89.96 %): mostly communication; rank 3 0.5 of 10.5
  // ms (4.76 %).
  REQUIRE(t.per_rank.size() == 4);
  const rank_split& r0 = t.per_rank[0];
  CHECK(r0.rank == 0);
  CHECK(r0.gpu_ns == doctest::Approx(10.004e6));
  REQUIRE(r0.split);
  CHECK(r0.split->compute_ns == doctest::Approx(1.004e6));
  CHECK(r0.split->communication_ns == 9e6);
  CHECK(r0.split->communication_fraction() == doctest::Approx(9.0 / 10.004));
  CHECK(r0.split->mostly_communication());
  const rank_split& r3 = t.per_rank[3];
  REQUIRE(r3.split);
  CHECK(r3.split->communication_fraction() == doctest::Approx(0.5 / 10.5));
  CHECK_FALSE(r3.split->mostly_communication());
}

TEST_CASE("three ranks (odd count), ties for the slowest rank, phases with and without a split") {
  //   step (phase):       5, 7, 6 ms -> median 6, slowest rank 1, imbalance 7 / 6
  //   k (kernel):         4, 4, 2 us -> median 4, ranks 0 and 1 tie, imbalance 1
  //   allreduce (phase):  10 ms of which 8 in NCCL on every rank -> 80 % communication
  std::vector<rank_summary> s = {
      rank_of(0, {phase("step", 5e6, 1e6), phase("allreduce", 10e6, 8e6)}, 3),
      rank_of(1, {phase("step", 7e6, 1e6), phase("allreduce", 10e6, 8e6), kernel("k", 4e3)}, 3),
      rank_of(2, {phase("step", 6e6), phase("allreduce", 10e6, 8e6), kernel("k", 2e3)}, 3)};
  s[0].rows.push_back(kernel("k", 4e3));
  const cross_rank_table t = make_cross_rank_table(s);
  const cross_rank_row& step = row(t, "step");
  CHECK(step.by == row_kind::phase);
  CHECK(step.median_ns == 6e6);
  CHECK(step.slowest_ranks == std::vector<std::int64_t>{1});
  CHECK(*step.imbalance == doctest::Approx(7.0 / 6.0));
  CHECK_FALSE(step.split);  // rank 2's step has no known split
  const cross_rank_row& k = row(t, "k");
  CHECK(k.median_ns == 4e3);
  CHECK(k.slowest_ranks == std::vector<std::int64_t>{0, 1});
  CHECK(*k.imbalance == 1.0);
  const cross_rank_row& ar = row(t, "allreduce");
  REQUIRE(ar.split);
  CHECK(ar.split->communication_ns == 24e6);
  CHECK(ar.split->compute_ns == 6e6);
  CHECK(ar.mostly_communication());
  // Ranks 0 and 1 have kernel rows: their split comes from those (k: compute). Rank 0: 4 us, all compute.
  REQUIRE(t.per_rank[0].split);
  CHECK(t.per_rank[0].gpu_ns == 4e3);
  CHECK(t.per_rank[0].split->communication_ns == 0);
  const std::string text = to_text(t);
  CHECK(text.find("slowest ranks tie: 0, 1") != std::string::npos);
  CHECK(text.find("80.0% of GPU time in NCCL/NVSHMEM kernels: mostly communication") != std::string::npos);
}

TEST_CASE("a rank with phase rows only: its split from the phases, unknown when one is unknown") {
  cross_rank_table t = make_cross_rank_table({rank_of(0, {phase("a", 4e6, 3e6), phase("b", 6e6, 0.0)}, 2),
                                              rank_of(1, {phase("a", 4e6, 3e6), phase("b", 6e6)}, 2)});
  REQUIRE(t.per_rank[0].split);
  CHECK(t.per_rank[0].split->communication_ns == 3e6);
  CHECK(t.per_rank[0].split->compute_ns == 7e6);  // (4 - 3) + 6
  CHECK_FALSE(t.per_rank[0].split->mostly_communication());  // 3 / 10
  CHECK(t.per_rank[0].gpu_ns == 10e6);
  CHECK_FALSE(t.per_rank[1].split);
}

TEST_CASE("zero times: no imbalance; absent ranks of the world size") {
  const cross_rank_table t = make_cross_rank_table({rank_of(0, {kernel("idle", 0)}), rank_of(3, {kernel("idle", 0)})});
  CHECK_FALSE(t.rows[0].imbalance);
  CHECK(t.rows[0].slowest_ranks == std::vector<std::int64_t>{0, 3});
  CHECK(t.absent_ranks == std::vector<std::int64_t>{1, 2});
  CHECK(to_text(t).find("no report from ranks 1, 2") != std::string::npos);
}

TEST_CASE("bad summaries are refused with a reason") {
  CHECK(validate_summaries({}) == "napkin: no rank summaries to put in a cross-rank table");
  rank_summary no_rank;
  CHECK(validate_summaries({no_rank}) == "napkin: summary 0 has no rank (context.rank)");
  CHECK(validate_summaries({rank_of(1, {}), rank_of(1, {})}) == "napkin: rank 1 appears twice");
  CHECK(validate_summaries({rank_of(-1, {})}) == "napkin: summary 0 has a negative rank -1");
  CHECK(validate_summaries({rank_of(4, {})}) == "napkin: rank 4 is not below its world size 4");
  CHECK(validate_summaries({rank_of(0, {kernel("k", -1)})}) ==
        "napkin: rank 0, kernel 'k': GPU time must be finite and >= 0, got -1");
  CHECK(validate_summaries({rank_of(0, {kernel("k", std::nan(""))})}) ==
        "napkin: rank 0, kernel 'k': GPU time must be finite and >= 0, got nan");
  CHECK(validate_summaries({rank_of(0, {phase("p", 5, 6.0)})}) ==
        "napkin: rank 0, phase 'p': communication time must be within 0..5 ns, got 6");
  CHECK(validate_summaries({rank_of(0, {kernel("k", 1), kernel("k", 2)})}) == "napkin: rank 0, kernel 'k' appears twice");
  CHECK(validate_summaries({rank_of(0, {kernel("k", 1), phase("k", 2)})}).empty());  // a kernel and a phase
  CHECK_THROWS_WITH_AS(make_cross_rank_table({rank_of(2, {}), rank_of(2, {})}), "napkin: rank 2 appears twice",
                       std::invalid_argument);
}

// Each absent rank of the world size is an entry: a world size of 10^12 is refused, not listed, and ranks
// that disagree on it are refused (the larger used to win silently).
TEST_CASE("world size: bounded, and one value for the job") {
  CHECK(validate_summaries({rank_of(0, {}, 1000000000000)}) ==
        "napkin: rank 0: context.world_size 1000000000000 is outside 1..1048576, napkin's limit for a job's ranks");
  CHECK(validate_summaries({rank_of(0, {}, 0)}).find("context.world_size 0 is outside") != std::string::npos);
  CHECK(validate_summaries({rank_of(0, {}, max_world_size)}).empty());
  CHECK(validate_summaries({rank_of(0, {}, 4), rank_of(1, {}, 8)}) ==
        "napkin: ranks 0 and 1 disagree on the world size (context.world_size 4 and 8): reports of different jobs?");
  CHECK_THROWS_AS(make_cross_rank_table({rank_of(0, {}, 10000000)}), std::invalid_argument);
  rank_summary unsized = rank_of(1, {});
  unsized.context.world_size.reset();
  CHECK(make_cross_rank_table({rank_of(0, {}, 3), unsized}).absent_ranks == std::vector<std::int64_t>{2});
}

TEST_CASE("text: within 100 columns, long names on their own line") {
  std::vector<rank_summary> s = four_ranks();
  s[0].context.host = std::string(40, 'h');
  const std::string text = to_text(make_cross_rank_table(s));
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    CHECK(end - start <= 100);
    start = end + 1;
  }
  CHECK(text.find("napkin cross-rank table: 4 ranks (0, 1, 2, 3)") != std::string::npos);
  CHECK(text.find("  " + nccl + "\n") != std::string::npos);
  CHECK(text.find("missing on ranks 1, 3") != std::string::npos);
  // gemm: min 1 ms, median 2.5 ms, max 10 ms, slowest rank 3, 4.00 (text_table: 2 spaces before each column).
  CHECK(text.find("gemm                        kernel     4/4    1.00 ms    2.50 ms   10.00 ms        3     4.00") !=
        std::string::npos);
  CHECK(text.find("mostly communication") != std::string::npos);
}

TEST_CASE("summaries from napkin's reports") {
  namespace m = metric;
  const auto sol = [](std::string name, double ns) {
    sol_report r;
    r.name = std::move(name);
    r.values[m::duration_ns] = ns;
    return r;
  };
  kernel_reports k;
  k.kernels = {sol("gemm", 100), sol(nccl, 50), sol("gemm", 120)};
  report_context c;
  c.rank = 1;
  const rank_summary s = summary_of(k, c);
  CHECK(*s.context.rank == 1);
  REQUIRE(s.rows.size() == 2);
  CHECK(s.rows[0].name == "gemm");
  CHECK(s.rows[0].launches == 2);
  CHECK(s.rows[0].gpu_ns == 220);  // 100 + 120
  CHECK(s.rows[1].launches == 1);
  phase_reports p;
  p.phases = {sol("decode", 7)};
  CHECK(summary_of(p, c).rows[0].by == row_kind::phase);
  kernel_reports no_time;
  no_time.kernels = {sol_report{}};
  no_time.kernels[0].name = "k";
  no_time.kernels[0].metric_set = "launch";
  CHECK_THROWS_WITH_AS(summary_of(no_time, c),
                       "napkin: 'k' has no GPU time (gpu__time_duration.sum; set \"launch\"): a rank summary needs it",
                       std::invalid_argument);

  monitor_totals t;
  t.count = 3;
  t.gpu_ns = 900;
  monitor_report mr;
  mr.device = 1;
  mr.kernels = {make_monitor_row("gemm", t, {})};
  mr.phases = {make_monitor_row("step", t, {})};
  const rank_summary ms = summary_of(mr, c);
  CHECK(*ms.context.device_index == 1);
  REQUIRE(ms.rows.size() == 2);
  CHECK(ms.rows[0].by == row_kind::kernel);
  CHECK(ms.rows[0].launches == 3);
  CHECK(ms.rows[0].gpu_ns == 900);
  CHECK(ms.rows[1].by == row_kind::phase);
  CHECK(ms.rows[1].communication_ns == 0.0);  // gemm is compute: the phase's split is known, 0 ns in NCCL

  // A phase whose kernels were 600 ns of NCCL and 300 ns of compute (the monitor's split, hand-set here).
  monitor_report comm = mr;
  comm.phases[0].split = time_split{300, 600};
  const rank_summary cs = summary_of(comm, c);
  REQUIRE(cs.rows[1].communication_ns);
  CHECK(*cs.rows[1].communication_ns == 600.0);
}

TEST_CASE("the job document") {
  const cross_rank_table t = make_cross_rank_table(four_ranks());
  document_options o;
  o.context.rank = 0;
  const json_value doc = document_value(t, o);
  CHECK(doc.find("kind")->as_string() == "job");
  CHECK(doc.find("schema")->as_string() == "napkin.job");
  REQUIRE(doc.find("ranks")->items().size() == 4);
  const json_value& r3 = doc.find("ranks")->items()[3];
  CHECK(r3.find("rank")->as_number() == 3);
  CHECK(r3.find("context")->find("host")->as_string() == "node-b");
  CHECK(r3.find("rows")->items().size() == 2);
  const json_value& gemm = doc.find("table")->items()[0];
  CHECK(gemm.find("name")->as_string() == "gemm");
  CHECK(gemm.find("median_ns")->as_number() == 2.5e6);
  CHECK(gemm.find("slowest_rank")->as_number() == 3);
  CHECK(gemm.find("imbalance")->as_number() == doctest::Approx(4.0));
  const json_value& fixup = doc.find("table")->items()[2];
  REQUIRE(fixup.find("missing_ranks")->items().size() == 2);
  CHECK(fixup.find("missing_ranks")->items()[1].as_number() == 3);
  // The flattened form diff() compares: one entity per table row.
  const report_document d = to_document(t, o);
  REQUIRE(d.ok());
  CHECK(d.kind == "job");
  REQUIRE(d.entities.size() == 3);
  CHECK(d.entities[0].number("max_ns")->value == 10e6);
  // CSV: a header and one line per row.
  const std::string csv = to_csv(t);
  CHECK(csv.rfind("name,by,rank_count,missing_ranks,min_ns,median_ns,max_ns,imbalance,slowest_ranks,", 0) == 0);
  // fixup: compute 4 + 6 us, no communication.
  CHECK(csv.find("\nfixup,kernel,2,1 3,4000,5000,6000,1.2,2,10000,0,0,false") != std::string::npos);

  write("job_four_ranks.json", to_json(t, o));
  std::vector<rank_summary> phases = {rank_of(0, {phase("step", 5e6, 1e6)}, 3), rank_of(2, {phase("step", 0)}, 3)};
  write("job_phases_absent_rank.json", to_json(make_cross_rank_table(phases)));
}

// 64 ranks x 2000 kernels (128,000 rows less the missing ones): rows are matched through an index, so this
// is quick; the pairwise matching it replaces took minutes. Kernel k on rank r runs (k + 1) us + r ns;
// every tenth kernel (k % 10 == 0) runs on even ranks only.
TEST_CASE("cross-rank table: a large job, every row's numbers") {
  const int ranks = 64, kernels = 2000;
  std::vector<rank_summary> job;
  for (int r = 0; r < ranks; ++r) {
    std::vector<rank_row> rows;
    for (int k = 0; k < kernels; ++k)
      if (k % 10 != 0 || r % 2 == 0) rows.push_back(kernel("k" + std::to_string(k), (k + 1) * 1000.0 + r));
    job.push_back(rank_of(r, std::move(rows), ranks));
  }
  std::reverse(job.begin(), job.end());  // the table orders ranks itself
  const cross_rank_table t = make_cross_rank_table(std::move(job));
  REQUIRE(t.rows.size() == 2000);
  REQUIRE(t.ranks.size() == 64);
  CHECK(t.absent_ranks.empty());
  int wrong = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const int k = kernels - 1 - static_cast<int>(i);  // by max, largest first: k1999 first
    const cross_rank_row& c = t.rows[i];
    const double base = (k + 1) * 1000.0;
    const bool even_only = k % 10 == 0;
    // All ranks: times base + 0..63, median (base + 31 + base + 32) / 2, slowest 63. Even ranks: base + 0,
    // 2, .., 62, median (base + 30 + base + 32) / 2 = base + 31, slowest 62, the 32 odd ranks missing.
    const bool ok = c.name == "k" + std::to_string(k) && c.min_ns == base &&
                    c.max_ns == base + (even_only ? 62 : 63) && c.median_ns == base + (even_only ? 31 : 31.5) &&
                    c.ranks.size() == (even_only ? 32u : 64u) && c.missing_ranks.size() == (even_only ? 32u : 0u) &&
                    c.slowest_ranks == std::vector<std::int64_t>{even_only ? 62 : 63} &&
                    c.ranks.front().rank == 0 && c.ranks.back().rank == (even_only ? 62 : 63) &&
                    (!even_only || (c.missing_ranks.front() == 1 && c.missing_ranks.back() == 63));
    if (!ok) ++wrong;
  }
  CHECK(wrong == 0);
  // Rank 5's compute time: kernels not multiple of 10 (1800 of them), sum over k of (k + 1) us + 5 ns =
  // (sum of 1..2000 us - sum of the 200 k = 0, 10, .., 1990 at (k + 1) us) + 1800 x 5 ns.
  // sum 1..2000 = 2,001,000; the skipped: sum over j = 0..199 of (10 j + 1) = 10 x 19,900 + 200 = 199,200.
  CHECK(t.per_rank[5].gpu_ns == doctest::Approx((2001000.0 - 199200.0) * 1000 + 1800 * 5));
}

TEST_CASE("cross-rank table: a row twice in one rank of many is found") {
  std::vector<rank_row> rows;
  for (int k = 0; k < 5000; ++k) rows.push_back(kernel("k" + std::to_string(k), 1000));
  rows.push_back(phase("k17", 5));  // the same name as a phase: another row
  rows.push_back(kernel("k4321", 7));
  CHECK(validate_summaries({rank_of(0, rows, 1)}) == "napkin: rank 0, kernel 'k4321' appears twice");
}
