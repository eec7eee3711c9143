// SPDX-License-Identifier: Apache-2.0
// Rank detection from each launcher's environment (napkin/document/rank.hpp), on a fake environment: the
// process's own is never read or changed. Expected values are the variables' values as set here.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>

#include "napkin/document/rank.hpp"

using namespace napkin;

namespace {
struct fake_env {
  std::map<std::string, std::string> vars;
  std::optional<std::string> operator()(const char* name) const {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  }
};
detected_rank detect(std::map<std::string, std::string> vars) { return detect_rank(fake_env{std::move(vars)}); }
}  // namespace

TEST_CASE("each launcher's convention") {
  SUBCASE("Open MPI") {
    const detected_rank d = detect({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                                    {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
    REQUIRE(d.ok());
    CHECK(*d.rank == 3);
    CHECK(*d.world_size == 4);
    CHECK(*d.local_rank == 1);
    CHECK(d.source == "Open MPI (OMPI_COMM_WORLD_RANK)");
  }
  SUBCASE("PMIx: a rank, no size") {
    const detected_rank d = detect({{"PMIX_RANK", "5"}});
    REQUIRE(d.ok());
    CHECK(*d.rank == 5);
    CHECK_FALSE(d.world_size);
    CHECK_FALSE(d.local_rank);
    CHECK(d.source == "PMIx (PMIX_RANK)");
  }
  SUBCASE("MPICH / Intel MPI (Hydra)") {
    const detected_rank d = detect({{"PMI_RANK", "7"}, {"PMI_SIZE", "8"}, {"MPI_LOCALRANKID", "3"}});
    REQUIRE(d.ok());
    CHECK(*d.rank == 7);
    CHECK(*d.world_size == 8);
    CHECK(*d.local_rank == 3);
  }
  SUBCASE("torchrun") {
    const detected_rank d = detect({{"RANK", "12"}, {"WORLD_SIZE", "16"}, {"LOCAL_RANK", "4"}});
    REQUIRE(d.ok());
    CHECK(*d.rank == 12);
    CHECK(*d.world_size == 16);
    CHECK(*d.local_rank == 4);
    CHECK(d.source == "torchrun (RANK)");
  }
  SUBCASE("Slurm") {
    const detected_rank d = detect({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}});
    REQUIRE(d.ok());
    CHECK(*d.rank == 0);
    CHECK(*d.world_size == 2);
    CHECK(*d.local_rank == 0);
    CHECK(d.source == "Slurm (SLURM_PROCID)");
  }
  SUBCASE("only LOCAL_RANK: a local rank, no rank") {
    const detected_rank d = detect({{"LOCAL_RANK", "2"}});
    REQUIRE(d.ok());
    CHECK_FALSE(d.rank);
    CHECK(*d.local_rank == 2);
    CHECK(d.source == "LOCAL_RANK");
  }
  SUBCASE("nothing set: nothing known, no problem") {
    const detected_rank d = detect({});
    CHECK(d.ok());
    CHECK_FALSE(d.rank);
    CHECK_FALSE(d.world_size);
    CHECK_FALSE(d.local_rank);
    CHECK(d.source.empty());
  }
}

TEST_CASE("precedence: the launcher closest to the process wins") {
  // mpirun inside a Slurm batch step: the step's SLURM_PROCID=0 is inherited by every rank.
  detected_rank d = detect({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"SLURM_PROCID", "0"},
                            {"SLURM_NTASKS", "1"}});
  REQUIRE(d.ok());
  CHECK(*d.rank == 2);
  CHECK(*d.world_size == 4);
  // torchrun started by srun once per node: RANK is the worker's, SLURM_PROCID the node's torchrun.
  d = detect({{"RANK", "5"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}});
  REQUIRE(d.ok());
  CHECK(*d.rank == 5);
  CHECK(*d.world_size == 8);
  // Open MPI 5 sets both its own names and PMIx's; a malformed PMIX_RANK is never read then.
  d = detect({{"OMPI_COMM_WORLD_RANK", "1"}, {"PMIX_RANK", "junk"}});
  REQUIRE(d.ok());
  CHECK(*d.rank == 1);
  // A convention's size or local rank is never mixed with another's.
  d = detect({{"PMI_RANK", "1"}, {"WORLD_SIZE", "1"}});
  REQUIRE(d.ok());
  CHECK(*d.rank == 1);
  CHECK_FALSE(d.world_size);
}

TEST_CASE("malformed values are an error naming the variable, never a rank") {
  const auto problem_of = [](std::map<std::string, std::string> vars) {
    const detected_rank d = detect(std::move(vars));
    CHECK_FALSE(d.rank);
    CHECK_FALSE(d.world_size);
    CHECK_FALSE(d.local_rank);
    return d.problem;
  };
  CHECK(problem_of({{"OMPI_COMM_WORLD_RANK", "3x"}}) ==
        "napkin: OMPI_COMM_WORLD_RANK is not a non-negative integer: '3x'");
  CHECK(problem_of({{"PMI_RANK", "-1"}}) == "napkin: PMI_RANK is negative: '-1'");
  CHECK(problem_of({{"RANK", ""}}) == "napkin: RANK is set but empty");
  CHECK(problem_of({{"SLURM_PROCID", " 1"}}) == "napkin: SLURM_PROCID is not a non-negative integer: ' 1'");
  CHECK(problem_of({{"SLURM_PROCID", "1.0"}}) == "napkin: SLURM_PROCID is not a non-negative integer: '1.0'");
  CHECK(problem_of({{"SLURM_PROCID", "+1"}}) == "napkin: SLURM_PROCID is not a non-negative integer: '+1'");
  // 2^63 = 9223372036854775808 does not fit; 2^63 - 1 does.
  CHECK(problem_of({{"RANK", "9223372036854775808"}}) == "napkin: RANK overflows 64 bits: '9223372036854775808'");
  CHECK(detect({{"RANK", "9223372036854775807"}}).ok());
  CHECK(problem_of({{"RANK", "99999999999999999999999"}}) == "napkin: RANK overflows 64 bits: '99999999999999999999999'");
  CHECK(problem_of({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}}) ==
        "napkin: OMPI_COMM_WORLD_RANK=4 is not below OMPI_COMM_WORLD_SIZE=4 (ranks count from 0)");
  CHECK(problem_of({{"RANK", "0"}, {"WORLD_SIZE", "0"}}) == "napkin: WORLD_SIZE is 0: a job has at least one rank");
  CHECK(problem_of({{"RANK", "0"}, {"WORLD_SIZE", "two"}}) == "napkin: WORLD_SIZE is not a non-negative integer: 'two'");
  CHECK(problem_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "2"}}) ==
        "napkin: LOCAL_RANK=2 is not below WORLD_SIZE=2");
  CHECK(problem_of({{"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "-3"}}) == "napkin: SLURM_LOCALID is negative: '-3'");
  CHECK(problem_of({{"LOCAL_RANK", "x"}}) == "napkin: LOCAL_RANK is not a non-negative integer: 'x'");
  // A long value is quoted shortened.
  CHECK(problem_of({{"RANK", std::string(50, 'z')}}) ==
        "napkin: RANK is not a non-negative integer: '" + std::string(40, 'z') + "...'");
}

TEST_CASE("process_context: the host and the detected rank; a problem leaves the rank out") {
  std::string problem = "unset";
  report_context c = process_context(fake_env{{{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}}, &problem);
  CHECK(problem.empty());
  CHECK(*c.rank == 1);
  CHECK(*c.world_size == 2);
  CHECK_FALSE(c.local_rank);
  REQUIRE(c.host);
  CHECK(*c.host == *host_name());
  CHECK_FALSE(c.host->empty());
  c = process_context(fake_env{{{"PMI_RANK", "1"}, {"PMI_SIZE", "1"}}}, &problem);
  CHECK(problem == "napkin: PMI_RANK=1 is not below PMI_SIZE=1 (ranks count from 0)");
  CHECK_FALSE(c.rank);
  CHECK_FALSE(c.world_size);
}
