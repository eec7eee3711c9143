// The collector's table of recent correlation ids and their phases (napkin/cupti/activity_records.hpp),
// without a GPU: what it finds, and what a later id that takes a slot makes it forget.
#include <doctest/doctest.h>

#include <cstdint>

#include "napkin/cupti/activity_records.hpp"

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
