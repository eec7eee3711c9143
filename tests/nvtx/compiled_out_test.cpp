// Compiled twice: with NAPKIN_NVTX_DISABLE and with NVTX_DISABLE. Every napkin call must compile
// (same API) and reach no tool, even though the recorder tool is configured for this process.
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "recorder.hpp"

#if NAPKIN_NVTX_ENABLED
#error "this test must be compiled with NAPKIN_NVTX_DISABLE or NVTX_DISABLE"
#endif

namespace {
NAPKIN_DOMAIN(my_library, "my-library");
void instrumented() { NAPKIN_FUNC_RANGE(); }
void instrumented_in() { NAPKIN_FUNC_RANGE_IN(my_library); }
void instrumented_with() { NAPKIN_FUNC_RANGE_WITH(my_library, napkin::payload{1}); }
}  // namespace

// A compiled-out range is an empty object with nothing to construct or destroy.
static_assert(std::is_empty_v<napkin::range>);
static_assert(std::is_trivially_destructible_v<napkin::range>);
static_assert(std::is_empty_v<napkin::unique_range_in<my_library>>);

TEST_CASE("compiled out: the whole API is accepted and nothing reaches the tool") {
  napkin::set_nvtx_enabled(true);  // cannot turn on what is not compiled in
  CHECK_FALSE(napkin::nvtx_enabled());
  CHECK_FALSE(napkin::nvtx_tool_attached());
  {
    napkin::range a{"gemm"};
    napkin::range b{"layer {}", 3};
    napkin::range c{"io", napkin::rgb{1, 2, 3}, napkin::payload{2.5}, napkin::category{1}};
    napkin::range_in<my_library> d{std::string{"dyn"}};
    napkin::range e{napkin::format("x{}", 1)};
    napkin::unique_range u{"job {}", 7};
    auto moved = std::move(u);
    moved.end();
    CHECK_FALSE(moved.running());
    napkin::mark("checkpoint");
    napkin::mark_in<my_library>("x", napkin::payload{1});
    napkin::name_current_thread("main");
    napkin::name_stream(nullptr, "s");
    napkin::name_device(0, "d");
    napkin::name_event(nullptr, "e");
    CHECK(napkin::name_category<my_library>(3, "IO").get_id() == 3);
    instrumented();
    instrumented_in();
    instrumented_with();
    NAPKIN_RANGE("lit");
    NAPKIN_RANGE_IN(my_library, "lit", napkin::payload{1});
  }
  // Colors stay available (they are constexpr values, not events).
  static_assert(napkin::color_of("gemm").get_value() == 0xFF5939E6u);
#if defined(NVTX_DISABLE)
  // NVTX itself is compiled out: it never even looks for a tool.
  nvtxInitialize(nullptr);
  CHECK_FALSE(napkin_test::recorder_loaded());
#else
  // NVTX is live and finds the tool, which recorded nothing from napkin — only this raw mark.
  nvtxInitialize(nullptr);
  REQUIRE(napkin_test::recorder_loaded());
  nvtxMarkA("raw");
  CHECK(napkin_test::without_tids(napkin_test::history()) ==
        std::vector<std::string>{R"(mark domain=<global> name="raw" color=none category=0 payload=none)"});
#endif
}
