// SPDX-License-Identifier: Apache-2.0
// napkin/mpi.hpp — napkin in an MPI job: every rank's summary (napkin/report/cross_rank.hpp) gathered to
// one rank, which builds the cross-rank table, prints it and writes the job's JSON document.
//
//   napkin::kernel_reports k = prof.per_kernel([&] { step(); });
//   auto table = napkin::mpi::gather(napkin::summary_of(k, napkin::mpi::context()));  // collective
//   if (table) napkin::mpi::report(*table, "job.json");  // rank 0: the table on stdout, the JSON file
//
// OPTIONAL: needs MPI's <mpi.h> (link CMake's napkin::mpi, which links MPI::MPI_CXX); nothing else in
// napkin includes this header. The rank and world size come from MPI_Comm_rank / MPI_Comm_size of the
// communicator, overriding what the launcher's environment says (napkin/document/rank.hpp).
//
// On the wire each summary is napkin's own compact byte format (summary_bytes, report/rank_summary_bytes.hpp): a magic "NPKS",
// a version byte, then the context and the rows, integers as 8 little-endian bytes, doubles as their
// IEEE-754 bits in the same order. Root reads it back with every length checked, so a truncated or
// foreign buffer is an error, never a read past its end. MPI_Gather of the sizes, then MPI_Gatherv.
// MPI failures go through napkin's failure path (with MPI's default MPI_ERRORS_ARE_FATAL handler MPI
// aborts first).
#pragma once

#include "napkin/config.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/rank.hpp"
#include "napkin/document/text_file.hpp"
#include "napkin/error.hpp"
#include "napkin/report/cross_rank.hpp"
#include "napkin/report/job_documents.hpp"
#include "napkin/report/rank_summary_bytes.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace mpi {

// The byte format lives in napkin/report/rank_summary_bytes.hpp (no MPI needed, so it can be fuzzed); its
// functions keep their napkin::mpi names here.
using napkin::summary_bytes;
using napkin::summary_from_bytes;

// ---------------------------------------------------------------------------------------------------
// The MPI calls.

namespace detail {
// An MPI call's failure (reached only when the communicator's error handler returns errors).
inline void check_mpi(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(status, text, &length);
  napkin::error_info info;
  info.library = "MPI";
  info.code = status;
  info.name = call;
  info.description = text;
  info.expression = call;
  napkin::detail::raise_as<std::runtime_error>(std::move(info));
}
}  // namespace detail

// This process's context in `comm`: the host, the rank and world size from MPI, and the local rank as the
// rank among the processes of this host (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED). Collective.
inline report_context context(MPI_Comm comm = MPI_COMM_WORLD) {
  report_context c = process_context();
  int rank = 0, size = 0;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  c.rank = rank;
  c.world_size = size;
  MPI_Comm local = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local), "MPI_Comm_split_type");
  int local_rank = 0;
  detail::check_mpi(MPI_Comm_rank(local, &local_rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_free(&local), "MPI_Comm_free");
  c.local_rank = local_rank;
  return c;
}

// Gathers every rank's summary to `root`, which returns the cross-rank table; the other ranks return
// nullopt. Collective over `comm`. The summary's rank and world size are set from MPI (whatever the
// summary said); its host from gethostname when it has none.
inline std::optional<cross_rank_table> gather(rank_summary summary, MPI_Comm comm = MPI_COMM_WORLD, int root = 0) {
  int rank = 0, size = 0;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (root < 0 || root >= size)
    napkin::detail::raise_input_error<std::invalid_argument>("napkin::mpi: root " + std::to_string(root) +
                                                             " is not a rank of a communicator of size " + std::to_string(size));
  summary.context.rank = rank;
  summary.context.world_size = size;
  if (!summary.context.host) summary.context.host = host_name();
  const std::string bytes = summary_bytes(summary);
  // A summary past INT_MAX bytes cannot be an MPI count; the size is sent anyway (as -1) so that no rank
  // is left waiting, and the root refuses.
  const int my_size = bytes.size() > static_cast<std::size_t>(INT_MAX) ? -1 : static_cast<int>(bytes.size());
  std::vector<int> sizes(rank == root ? static_cast<std::size_t>(size) : 0);
  detail::check_mpi(MPI_Gather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, root, comm), "MPI_Gather");
  std::vector<int> displacements;
  std::string all;
  std::string problem;
  if (rank == root) {
    long long total = 0;
    for (int r = 0; r < size; ++r) {
      const int n = sizes[static_cast<std::size_t>(r)];
      displacements.push_back(static_cast<int>(total <= INT_MAX ? total : 0));
      if (n < 0) problem = "rank " + std::to_string(r) + "'s summary is larger than 2 GiB";
      total += n < 0 ? 0 : n;
    }
    if (total > INT_MAX) problem = "the summaries together are larger than 2 GiB";
    if (problem.empty()) all.resize(static_cast<std::size_t>(total));
  }
  // Root's verdict on the sizes reaches every rank first, so that none waits in MPI_Gatherv for a gather
  // root has refused.
  int refused = problem.empty() ? 0 : 1;
  detail::check_mpi(MPI_Bcast(&refused, 1, MPI_INT, root, comm), "MPI_Bcast");
  if (refused) {
    if (rank == root) napkin::detail::raise_input_error<std::length_error>("napkin::mpi::gather: " + problem);
    return std::nullopt;
  }
  const int my_count = my_size;  // >= 0: root refuses a rank that sent -1
  detail::check_mpi(MPI_Gatherv(bytes.data(), my_count, MPI_CHAR, all.data(), sizes.data(), displacements.data(),
                                MPI_CHAR, root, comm),
                    "MPI_Gatherv");
  if (rank != root) return std::nullopt;
  std::vector<rank_summary> summaries;
  for (int r = 0; r < size; ++r) {
    const std::size_t at = static_cast<std::size_t>(displacements[static_cast<std::size_t>(r)]);
    rank_summary s = summary_from_bytes(all.data() + at, static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]), problem);
    if (!problem.empty())
      napkin::detail::raise_input_error<std::invalid_argument>("napkin::mpi::gather: rank " + std::to_string(r) + ": " + problem);
    summaries.push_back(std::move(s));
  }
  return make_cross_rank_table(std::move(summaries));
}

// Writes the job document (job_documents.hpp) to `path`; returns why it could not, or "".
inline std::string write_job_json(const cross_rank_table& t, const std::string& path, const document_options& o = {}) {
  const std::string why = write_text_file(path, to_json(t, o));
  return why.empty() ? why : "napkin::mpi: cannot write " + path + ": " + why;
}

// Root's report: the table on `out` (stdout), and the job document in `json_path` when one is given.
// Returns why the file could not be written, or "".
inline std::string report(const cross_rank_table& t, const std::string& json_path = {}, std::FILE* out = stdout) {
  std::fputs(to_text(t).c_str(), out);
  std::fflush(out);
  return json_path.empty() ? std::string() : write_job_json(t, json_path);
}

}  // namespace mpi
NAPKIN_END_NAMESPACE
