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
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "napkin/document/report_context.hpp"

NAPKIN_BEGIN_NAMESPACE

// The value of an environment variable, or nullopt when it is not set.
using environment_lookup = std::function<std::optional<std::string>(const char* name)>;

// The process's own environment (std::getenv).
std::optional<std::string> process_environment(const char* name);

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

// The rank, world size and local rank from the first convention whose rank variable is set.
detected_rank detect_rank(const environment_lookup& env = process_environment);

// This machine's host name (gethostname); nullopt when the call fails.
std::optional<std::string> host_name();

// The context of this process: host, and rank / world size / local rank from the environment. A
// malformed variable leaves the rank fields empty and comes back in `problem` (when given), so that a
// report is never labelled with a wrong rank.
report_context process_context(const environment_lookup& env = process_environment, std::string* problem = nullptr);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/document/rank_impl.hpp"
#endif
