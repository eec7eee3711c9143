// Test support: a failure handler that records what it was given.
#pragma once
#include <napkin/check.hpp>

#include <optional>
#include <vector>

namespace napkin_test {

inline std::vector<napkin::error_info>& captured() {
  static std::vector<napkin::error_info> v;
  return v;
}
inline void capture_handler(const napkin::error_info& info) { captured().push_back(info); }

// Installs the recording handler for a scope (and empties the record).
struct capturing {
  napkin::scoped_failure_policy policy{napkin::failure_policy::call_handler, &capture_handler};
  capturing() { captured().clear(); }
};

}  // namespace napkin_test
