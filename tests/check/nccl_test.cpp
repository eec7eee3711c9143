#include <doctest/doctest.h>
#include <napkin/check/nccl.hpp>

#include <string>

TEST_CASE("NCCL: names from the generated table, texts from ncclGetErrorString") {
  try {
    NAPKIN_CUDA_CHECK(ncclInvalidArgument);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "NCCL");
    CHECK(e.name() == "ncclInvalidArgument");
    CHECK(e.description() == ncclGetErrorString(ncclInvalidArgument));
  }
  // Non-blocking communicators report work under way with ncclInProgress: not a failure.
  CHECK_NOTHROW(NAPKIN_CUDA_CHECK(ncclInProgress));
}

TEST_CASE("NCCL fails for real: a communicator of zero ranks") {
  ncclComm_t comm = nullptr;
  ncclUniqueId id{};
  try {
    NAPKIN_CUDA_CHECK(ncclCommInitRank(&comm, 0, id, 0));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "NCCL");
    CHECK(e.code() != 0);
    CHECK(e.expression() == "ncclCommInitRank(&comm, 0, id, 0)");
  }
}
