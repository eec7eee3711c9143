// Run by CTest with NAPKIN_NVTX=0 under the recorder tool: napkin emits nothing until the API turns
// it back on, and the tool itself is working (a raw NVTX call is recorded).
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "recorder.hpp"

namespace {
void instrumented() { NAPKIN_FUNC_RANGE(); }
}  // namespace

TEST_CASE("NAPKIN_NVTX=0 turns napkin off for the whole process; the API turns it back on") {
  REQUIRE(std::string{std::getenv("NAPKIN_NVTX")} == "0");
  CHECK_FALSE(napkin::nvtx_enabled());
  REQUIRE(napkin::nvtx_tool_attached());  // the tool is there; napkin chooses to be silent
  napkin_test::take();
  {
    napkin::range r{"gemm"};
    napkin::range f{"layer {}", 3};
    napkin::unique_range u{"job"};
    napkin::mark("checkpoint");
    napkin::name_current_thread("main");
    napkin::name_stream(nullptr, "s");
    napkin::name_device(0, "d");
    instrumented();
    NAPKIN_RANGE("lit");
  }
  CHECK(napkin_test::take().empty());

  nvtxMarkA("raw");  // the tool records what napkin does not send
  CHECK(napkin_test::take_without_tids() ==
        std::vector<std::string>{R"(mark domain=<global> name="raw" color=none category=0 payload=none)"});

  napkin::set_nvtx_enabled(true);
  { napkin::range r{"gemm"}; }
  CHECK(napkin_test::take_without_tids() ==
        std::vector<std::string>{R"(push domain=napkin name="gemm" color=0xFF5939E6 category=0 payload=none)",
                                 "pop domain=napkin"});
}
