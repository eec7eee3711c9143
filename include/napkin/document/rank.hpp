// SPDX-License-Identifier: Apache-2.0
// napkin/document/rank.hpp — which rank of a parallel job this process is, read from the environment its
// launcher set, and the host it runs on: the `report_context` every document of the process carries.
// When the program knows its rank from MPI itself (MPI_Comm_rank), that wins (napkin/mpi.hpp does so);
// this is for when napkin is not told.
//
// The launchers' variables, in the order napkin tries them (the first convention whose rank variable is
// set is used; its size and local rank are taken when set):
//   1. Open MPI (mpirun, mpiexec)  OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK
//        https://docs.open-mpi.org/en/v5.0.x/tuning-apps/environment-var.html
//   2. PMIx (Open MPI 5's prterun, srun --mpi=pmix)  PMIX_RANK (PMIx sets no size variable)
//   3. MPICH / Intel MPI (Hydra's mpiexec)  PMI_RANK, PMI_SIZE, MPI_LOCALRANKID
//   4. torchrun  RANK, WORLD_SIZE, LOCAL_RANK  https://pytorch.org/docs/stable/elastic/run.html
//   5. Slurm (srun)  SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID  https://slurm.schedmd.com/srun.html
//        (OUTPUT ENVIRONMENT VARIABLES)
// Why this order: the launcher closest to the process wins. A process started by mpirun inside a Slurm
// allocation also inherits the batch step's SLURM_PROCID (0 for all ranks), and torchrun started by srun
// once per node gives each worker its own RANK while SLURM_PROCID numbers the nodes' torchruns. MPI's own
// names come before torchrun's generic RANK, which a user may have set for something else.
// Only LOCAL_RANK set (torchrun-style single-node launchers): the local rank alone, no rank.
//
// A set variable that is not a decimal integer, is negative, overflows int64, or gives a rank (or local
// rank) >= the size is an error naming the variable, never a guessed rank. Plain C++17; the environment is
// an injectable lookup so that tests never touch the process's environment; gethostname (POSIX) for the host.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <unistd.h>

#include "napkin/document/document.hpp"

NAPKIN_BEGIN_NAMESPACE

// The value of an environment variable, or nullopt when it is not set.
using environment_lookup = std::function<std::optional<std::string>(const char* name)>;

// The process's own environment (std::getenv).
inline std::optional<std::string> process_environment(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

// One launcher's names for rank, size and local rank ("" where it has none).
struct rank_convention {
  std::string_view launcher;  // "Open MPI"
  const char* rank;
  const char* size;
  const char* local_rank;
};

// The conventions in the order they are tried (see the top of this file for why).
inline constexpr rank_convention rank_conventions[] = {
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"PMIx", "PMIX_RANK", "", ""},
    {"MPICH/Hydra", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

// What the environment says. `problem` is set (and the numbers empty) when a variable is malformed.
struct detected_rank {
  std::optional<std::int64_t> rank, world_size, local_rank;
  std::string source;   // "Open MPI (OMPI_COMM_WORLD_RANK)"; "" when no convention applied
  std::string problem;  // "napkin: OMPI_COMM_WORLD_RANK is not a rank: '3x' (expected ...)"
  bool ok() const { return problem.empty(); }
};

namespace detail {

// A non-negative decimal integer that fits int64; surrounding spaces are not accepted (a launcher never
// writes them, so they mean something else went wrong). Returns a problem or "".
inline std::string parse_rank_number(const char* variable, const std::string& text, std::int64_t& out) {
  const std::string quoted = "'" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "'";
  if (text.empty()) return std::string("napkin: ") + variable + " is set but empty";
  if (text[0] == '-') return std::string("napkin: ") + variable + " is negative: " + quoted;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::string("napkin: ") + variable + " is not a non-negative integer: " + quoted;
    const int digit = c - '0';
    if (v > (INT64_MAX - digit) / 10) return std::string("napkin: ") + variable + " overflows 64 bits: " + quoted;
    v = v * 10 + digit;
  }
  out = v;
  return {};
}

// Reads `variable` into `out` when it is set. Returns a problem or "".
inline std::string read_rank_variable(const environment_lookup& env, const char* variable,
                                      std::optional<std::int64_t>& out) {
  if (variable == nullptr || *variable == '\0') return {};
  const std::optional<std::string> text = env(variable);
  if (!text) return {};
  std::int64_t v = 0;
  std::string problem = parse_rank_number(variable, *text, v);
  if (problem.empty()) out = v;
  return problem;
}

}  // namespace detail

// The rank, world size and local rank from the first convention whose rank variable is set.
inline detected_rank detect_rank(const environment_lookup& env = process_environment) {
  detected_rank out;
  const auto fail = [&out](std::string problem) {
    detected_rank bad;
    bad.source = out.source;
    bad.problem = std::move(problem);
    return bad;
  };
  for (const rank_convention& c : rank_conventions) {
    if (!env(c.rank)) continue;
    out.source = std::string(c.launcher) + " (" + c.rank + ")";
    for (const auto& [variable, target] : {std::pair<const char*, std::optional<std::int64_t>*>{c.rank, &out.rank},
                                           {c.size, &out.world_size},
                                           {c.local_rank, &out.local_rank}}) {
      std::string problem = detail::read_rank_variable(env, variable, *target);
      if (!problem.empty()) return fail(std::move(problem));
    }
    if (out.world_size && *out.world_size == 0) return fail(std::string("napkin: ") + c.size + " is 0: a job has at least one rank");
    if (out.world_size && *out.rank >= *out.world_size)
      return fail("napkin: " + std::string(c.rank) + "=" + std::to_string(*out.rank) + " is not below " + c.size + "=" +
                  std::to_string(*out.world_size) + " (ranks count from 0)");
    if (out.world_size && out.local_rank && *out.local_rank >= *out.world_size)
      return fail("napkin: " + std::string(c.local_rank) + "=" + std::to_string(*out.local_rank) + " is not below " +
                  c.size + "=" + std::to_string(*out.world_size));
    return out;
  }
  // No rank anywhere: a local rank alone (a single-node launcher that sets only LOCAL_RANK).
  std::string problem = detail::read_rank_variable(env, "LOCAL_RANK", out.local_rank);
  if (!problem.empty()) return fail(std::move(problem));
  if (out.local_rank) out.source = "LOCAL_RANK";
  return out;
}

// This machine's host name (gethostname); nullopt when the call fails.
inline std::optional<std::string> host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return std::nullopt;
  return std::string(buf);
}

// The context of this process: host, and rank / world size / local rank from the environment. A
// malformed variable leaves the rank fields empty and comes back in `problem` (when given), so that a
// report is never labelled with a wrong rank.
inline report_context process_context(const environment_lookup& env = process_environment,
                                      std::string* problem = nullptr) {
  report_context c;
  c.host = host_name();
  const detected_rank d = detect_rank(env);
  if (problem != nullptr) *problem = d.problem;
  c.rank = d.rank;
  c.world_size = d.world_size;
  c.local_rank = d.local_rank;
  return c;
}

NAPKIN_END_NAMESPACE
