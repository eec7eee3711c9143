// The parts of napkin/nvtx/ included one at a time, after the user's own <nvtx3/nvtx3.hpp>: each part
// brings what it declares, NVTX3's configuration macros are as the user left them (napkin uses only
// nvtx3::v1), and the helper macros napkin's headers keep to themselves are gone. Built twice: NVTX on,
// and compiled out (NAPKIN_NVTX_DISABLE). No tool needed.
#include <nvtx3/nvtx3.hpp>  // the user's own NVTX3, first: its unversioned names (nvtx3::scoped_range)

#include <napkin/nvtx/range.hpp>

#if defined(NVTX3_CPP_REQUIRE_EXPLICIT_VERSION) || defined(NVTX_AS_SYSTEM_HEADER)
#error "napkin/nvtx/config.hpp must leave NVTX3's configuration macros as the user had them"
#endif

#include <napkin/nvtx/macros.hpp>
#include <napkin/nvtx/naming.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {
NAPKIN_DOMAIN(parts_domain, "parts");

int instrumented() {
  NAPKIN_FUNC_RANGE();
  NAPKIN_RANGE("literal");
  napkin::range r{"layer {}", 3};
  napkin::mark_in<parts_domain>("mark");
  return 1;
}
}  // namespace

TEST_CASE("each part alone declares its API, next to the user's own NVTX3") {
  const nvtx3::scoped_range users{"user's range"};  // NVTX3's unversioned names still the user's
  napkin::name_current_thread("main");
  CHECK(instrumented() == 1);
  CHECK(napkin::color_of("gemm").get_value() == 0xFF5939E6u);  // color.hpp, through range.hpp
  CHECK(napkin::format("x{}", 7)() == "x7");                    // format.hpp, through range.hpp
}

#include <napkin/nvtx.hpp>  // the umbrella after its parts: nothing defined twice

// Helper macros napkin's headers #undef at their end (napkin/nvtx/macros.hpp lists them) ...
#if defined(NAPKIN_DETAIL_NVTX_TOOL) || defined(NAPKIN_DETAIL_FORMAT_CHECK) || defined(NAPKIN_DETAIL_UNUSED_TYPE) || \
    defined(NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT) || defined(NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM)
#error "a helper macro of napkin/nvtx/ leaked out of its header"
#endif
// ... and those user code expands through NAPKIN_RANGE and NAPKIN_FUNC_RANGE, which stay.
#if !defined(NAPKIN_DETAIL_CAT) || !defined(NAPKIN_DETAIL_CAT2) || !defined(NAPKIN_DETAIL_FIRST) || \
    !defined(NAPKIN_DETAIL_FIRST2) || !defined(NAPKIN_DETAIL_FUNC_RANGE) || !defined(NAPKIN_DETAIL_PRETTY_FUNCTION)
#error "a macro that NAPKIN_RANGE or NAPKIN_FUNC_RANGE expands to is missing"
#endif
