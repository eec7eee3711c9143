// The collector's table of recent correlation ids and their phases (napkin/cupti/activity_records.hpp),
// without a GPU: what it finds, and what a later id that takes a slot makes it forget; its kernel names and
// the monitor's phase paths.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "napkin/cupti/activity_records.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/monitor/kernel_activity.hpp"

using napkin::detail::correlation_phases;

TEST_CASE("correlation phases: an id finds the external id remembered for it, and nothing else") {
  correlation_phases t;
  CHECK(t.find(5) == nullptr);  // nothing remembered yet (and nothing allocated)
  t.remember(5, 42);
  t.remember(6, 43);
  REQUIRE(t.find(5) != nullptr);
  CHECK(*t.find(5) == 42);
  CHECK(*t.find(6) == 43);
  CHECK(t.find(7) == nullptr);
  CHECK(t.find(0) == nullptr);  // an unused slot is not id 0's
  t.remember(5, 44);            // the same id again (a graph's launch): the latest wins
  CHECK(*t.find(5) == 44);
}

TEST_CASE("correlation phases: the id `capacity` later takes the slot; the ids between stay") {
  correlation_phases t;
  const auto later = static_cast<std::uint32_t>(5 + correlation_phases::capacity);
  t.remember(5, 1);
  t.remember(later - 1, 2);  // slot 4: 5's neighbour, untouched
  t.remember(later, 3);      // slot 5: 5 is forgotten
  CHECK(t.find(5) == nullptr);
  REQUIRE(t.find(later) != nullptr);
  CHECK(*t.find(later) == 3);
  CHECK(*t.find(later - 1) == 2);
  t.clear();
  CHECK(t.find(later) == nullptr);
}

// The collector's names (napkin/cupti/kernel_names.hpp): demangled once each, looked up by the string's
// address first, and never wrong when an address is reused for another name.
TEST_CASE("readable name cache: a name demangles once; the address is checked against the name") {
  napkin::detail::readable_name_cache names(3);
  char buffer[64] = "_Z5scalePfi";  // scale(float*, int)
  const std::string& first = names.of(buffer);
  CHECK(first == "scale");
  CHECK(&names.of(buffer) == &first);  // the same entry, by the address
  const std::string copy = "_Z5scalePfi";
  CHECK(&names.of(copy.c_str()) == &first);  // another address, the same name: the same entry
  CHECK(names.size() == 1);
  // The same address now holds another name (CUPTI freed one name and reused its memory): never the old one.
  std::snprintf(buffer, sizeof buffer, "%s", "_Z4fillPfif");
  CHECK(names.of(buffer) == "fill");
  CHECK(names.size() == 2);
  CHECK(names.of("not_mangled") == "not_mangled");
  CHECK(names.of(nullptr) == "(unnamed kernel)");
  // Bounded: the fourth distinct name starts over, and names are still right after it.
  CHECK(names.of("_Z3addPKfS0_Pfi") == "add");
  CHECK(names.size() == 1);
  std::snprintf(buffer, sizeof buffer, "%s", "_Z5scalePfi");
  CHECK(names.of(buffer) == "scale");
  CHECK(names.of("_Z4fillPfif") == "fill");
}

// The monitor's phase paths (napkin/monitor/kernel_activity.hpp): each opened range path gets an id, and a
// record's external id gives back the path outermost first.
TEST_CASE("phase tracker: paths by id, nested, and the names of all of them") {
  auto& tracker = napkin::detail::phase_tracker::instance();
  REQUIRE(tracker.on_push("napkin", "outer_path_test"));
  REQUIRE(tracker.on_push("napkin", "inner"));
  const std::vector<std::string> names = tracker.path_names();
  tracker.on_pop();
  tracker.on_pop();
  std::uint64_t outer = 0, inner = 0;
  for (std::uint64_t id = 0; id < names.size(); ++id) {
    if (names[id] == "outer_path_test") outer = id;
    if (names[id] == "outer_path_test/inner") inner = id;
  }
  REQUIRE(outer > 1);
  REQUIRE(inner > 1);
  CHECK(names[0].empty());
  CHECK(names[1] == "(other phases)");
  CHECK(tracker.path(0).empty());
  CHECK(tracker.path(outer) == std::vector<std::string>{"outer_path_test"});
  CHECK(tracker.path(inner) == std::vector<std::string>{"outer_path_test", "inner"});
  // An external id carries the opening's number above the path id: the path is the same for every opening.
  CHECK(tracker.path(napkin::detail::phase_external_id(inner, 12345)) == tracker.path(inner));
  CHECK(tracker.path(names.size() + 100).empty());  // an id never given: no path
  // Opening the same path again gives the same id.
  REQUIRE(tracker.on_push("napkin", "outer_path_test"));
  CHECK(tracker.path_names().size() == names.size());
  tracker.on_pop();
}

// The monitor's kernel record of an activity record: its grid's warps, what PM sampling's instruction counts owe to
// warp launches (napkin/monitor/rate_solver.hpp, warp_launch_excess).
TEST_CASE("a kernel record counts its grid's warps: blocks times the warps a block needs") {
  const auto warps_of = [](std::uint64_t blocks, napkin::launch_dims block) {
    napkin::detail::kernel_activity k;
    k.blocks = blocks;
    k.launch.block = block;
    return napkin::detail::to_kernel_record(std::move(k)).warps;
  };
  CHECK(warps_of(393217, {256, 1, 1}) == 393217u * 8u);
  CHECK(warps_of(100, {32, 8, 1}) == 800);  // 256 threads in two dimensions
  CHECK(warps_of(10, {33, 1, 1}) == 20);    // a partial warp is a warp
  CHECK(warps_of(10, {1, 1, 1}) == 10);
  CHECK(warps_of(0, {256, 1, 1}) == 0);     // an unknown grid: unknown warps
  CHECK(warps_of(10, {0, 1, 1}) == 0);      // a block the record gave no size
}
