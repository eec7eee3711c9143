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

TEST_CASE("NCCL's last message is attached to the failure that left it, not to a later one") {
  // NCCL keeps its last error message until another replaces it; napkin says when it is not new.
  ncclComm_t comm = nullptr;
  ncclUniqueId id{};
  std::string first;
  try {
    NAPKIN_CUDA_CHECK(ncclCommInitRank(&comm, 0, id, 0));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    first = e.what();
  }
  const char* last = ncclGetLastError(nullptr);
  REQUIRE(last != nullptr);
  if (*last == '\0') return;  // this NCCL recorded nothing: nothing to attach
  CHECK(first.find(last) != std::string::npos);
  try {
    NAPKIN_CUDA_CHECK(ncclInvalidArgument);  // an unrelated failure: NCCL recorded no message for it
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    const std::string what = e.what();
    CHECK(what.find("NCCL says") == std::string::npos);
    CHECK(what.find("already reported with an earlier failure") != std::string::npos);
  }
}
