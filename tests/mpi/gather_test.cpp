// SPDX-License-Identifier: Apache-2.0
// napkin::mpi::gather with the real MPI library, 4 ranks, no GPU. Rank r's summary (all times in ns):
//   gemm (kernel, 10 launches)         (r + 1) ms        -> 1 2 3 4 ms: median 2.5, slowest 3, imbalance 1.6
//   ncclDevKernel_AllReduce... (kernel) (4 - r) ms       -> 4 3 2 1 ms: median 2.5, slowest 0, imbalance 1.6
//   only_even (kernel)                 ranks 0 and 2: 5 and 7 us -> missing on 1 and 3, median 6 us
//   step (phase)                       10 ms (rank 2: 12 ms), 6 ms of it in NCCL -> median 10, slowest 2, 1.2
// Each summary claims rank 99: gather() must put MPI's rank there. Rank 0 checks the table and writes the
// job document to argv[1]; it also checks the byte format's refusals. Exit status 0 on every rank = pass.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "napkin/mpi.hpp"

namespace {
int failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  ++failures;
  std::fprintf(stderr, "gather_test.cpp:%d: FAILED: %s\n", line, what);
}
#define CHECK(x) check((x), #x, __LINE__)
bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); }

const char* const nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

napkin::rank_summary summary_of_rank(int r) {
  napkin::rank_summary s;
  s.context.rank = 99;
  s.context.host = "host-" + std::to_string(r / 2);
  s.rows.push_back({"gemm", napkin::row_kind::kernel, 10, (r + 1) * 1e6, std::nullopt});
  s.rows.push_back({nccl, napkin::row_kind::kernel, 10, (4 - r) * 1e6, std::nullopt});
  if (r % 2 == 0) s.rows.push_back({"only_even", napkin::row_kind::kernel, 1, r == 0 ? 5e3 : 7e3, std::nullopt});
  s.rows.push_back({"step", napkin::row_kind::phase, 1, r == 2 ? 12e6 : 10e6, 6e6});
  return s;
}

const napkin::cross_rank_row* find(const napkin::cross_rank_table& t, const std::string& name) {
  for (const auto& r : t.rows)
    if (r.name == name) return &r;
  return nullptr;
}

void check_table(const napkin::cross_rank_table& t) {
  CHECK((t.ranks == std::vector<std::int64_t>{0, 1, 2, 3}));
  CHECK(t.absent_ranks.empty());
  CHECK(t.summaries.size() == 4 && *t.summaries[3].context.host == "host-1" && *t.summaries[3].context.world_size == 4);
  const auto* gemm = find(t, "gemm");
  CHECK(gemm != nullptr);
  if (gemm) {
    CHECK(gemm->min_ns == 1e6 && gemm->median_ns == 2.5e6 && gemm->max_ns == 4e6);
    CHECK((gemm->slowest_ranks == std::vector<std::int64_t>{3}));
    CHECK(near(*gemm->imbalance, 1.6));  // 4 / 2.5
    CHECK(gemm->ranks.size() == 4 && gemm->ranks[2].launches == 10);
  }
  const auto* ar = find(t, nccl);
  CHECK(ar != nullptr);
  if (ar) {
    CHECK(ar->median_ns == 2.5e6 && (ar->slowest_ranks == std::vector<std::int64_t>{0}));
    CHECK(ar->mostly_communication());
  }
  const auto* even = find(t, "only_even");
  CHECK(even != nullptr);
  if (even) {
    CHECK((even->missing_ranks == std::vector<std::int64_t>{1, 3}));
    CHECK(even->median_ns == 6e3);  // (5 + 7) / 2
  }
  const auto* step = find(t, "step");
  CHECK(step != nullptr);
  if (step) {
    CHECK(step->median_ns == 10e6 && (step->slowest_ranks == std::vector<std::int64_t>{2}));
    CHECK(near(*step->imbalance, 1.2));
    CHECK(step->split && step->split->communication_ns == 24e6 && step->split->compute_ns == 18e6);  // 4 x 6; 3 x 4 + 6
    CHECK(step->mostly_communication());  // 24 / 42
  }
  // Rank 3's kernels: gemm 4 ms compute, all-reduce 1 ms NCCL -> 20 % communication.
  CHECK(t.per_rank[3].split && near(t.per_rank[3].split->communication_fraction(), 0.2));
  // Rank 0's: 1 ms compute + 5 us, 4 ms NCCL -> 4 / 5.005.
  CHECK(t.per_rank[0].split && t.per_rank[0].split->mostly_communication());
}

void check_byte_format() {
  napkin::rank_summary s = summary_of_rank(2);
  s.context.device_uuid = "GPU-0000";
  const std::string bytes = napkin::mpi::summary_bytes(s);
  std::string problem;
  const napkin::rank_summary back = napkin::mpi::summary_from_bytes(bytes.data(), bytes.size(), problem);
  CHECK(problem.empty());
  CHECK(*back.context.rank == 99 && *back.context.host == "host-1" && *back.context.device_uuid == "GPU-0000");
  CHECK(!back.context.world_size && back.rows.size() == 4 && back.rows[3].by == napkin::row_kind::phase);
  CHECK(back.rows[3].communication_ns && *back.rows[3].communication_ns == 6e6 && back.rows[2].gpu_ns == 7e3);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {  // every truncation is refused, none read past the end
    napkin::mpi::summary_from_bytes(bytes.data(), cut, problem);
    if (problem.empty()) {
      CHECK(!"a truncated summary was accepted");
      break;
    }
  }
  const std::string longer = bytes + "x";
  napkin::mpi::summary_from_bytes(longer.data(), longer.size(), problem);
  CHECK(problem == "a broken rank summary: bytes left over after the last row");
  napkin::mpi::summary_from_bytes("JSON{", 5, problem);
  CHECK(problem == "not a napkin rank summary (no \"NPKS\" magic)");
  std::string other_version = bytes;
  other_version[4] = 7;
  napkin::mpi::summary_from_bytes(other_version.data(), other_version.size(), problem);
  CHECK(problem == "rank summary format version 7, this napkin reads version 1");
  napkin::rank_summary huge = summary_of_rank(2);  // a world size of 10^12 would list 10^12 absent ranks
  huge.context.world_size = 1000000000000;
  const std::string huge_bytes = napkin::mpi::summary_bytes(huge);
  napkin::mpi::summary_from_bytes(huge_bytes.data(), huge_bytes.size(), problem);
  CHECK(problem == "a broken rank summary: the summary: context.world_size 1000000000000 is outside 1..1048576, "
                   "napkin's limit for a job's ranks");
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) std::fprintf(stderr, "gather_test: run with 4 ranks (mpiexec -n 4), got %d\n", size);
    MPI_Finalize();
    return 1;
  }
  const napkin::report_context c = napkin::mpi::context();
  CHECK(*c.rank == rank && *c.world_size == 4 && c.local_rank && c.host);
  const auto table = napkin::mpi::gather(summary_of_rank(rank));
  CHECK(table.has_value() == (rank == 0));
  if (table) {
    check_table(*table);
    check_byte_format();
    napkin::document_options o;
    o.context = c;
    const std::string problem = argc > 1 ? napkin::mpi::write_job_json(*table, argv[1], o) : std::string();
    CHECK(problem.empty());
    napkin::mpi::report(*table);
  }
  // The same gather to another root: rank 2 gets the table.
  const auto at_two = napkin::mpi::gather(summary_of_rank(rank), MPI_COMM_WORLD, 2);
  CHECK(at_two.has_value() == (rank == 2));
  if (at_two) CHECK(find(*at_two, "gemm") && find(*at_two, "gemm")->max_ns == 4e6);
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) std::printf("gather_test: %d failed checks over 4 ranks\n", all_failures);
  return all_failures == 0 ? 0 : 1;
}
