// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/domain.hpp — NVTX domains: where a range lands.
//
//   napkin::default_domain                  "napkin", every range's domain unless told otherwise
//   napkin::global_domain                   NVTX's unnamed global domain (what nvtxRangePushA uses)
//   NAPKIN_DOMAIN(my_lib, "my-lib");        a tag type for range_in<my_lib>, mark_in<my_lib>, ...
// Any tag type with `static constexpr const char* name` is a domain too.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/config.hpp"

#include <type_traits>

NAPKIN_BEGIN_NAMESPACE

// In ncu: `--nvtx-include "napkin@name/"`.
struct default_domain {
  static constexpr const char* name{"napkin"};
};
// In ncu: `--nvtx-include "name/"`.
using global_domain = nvtx3::v1::domain::global;

namespace detail {
// NVTX's name for domain D: "" for the global domain.
template <class D>
constexpr const char* domain_name_of() noexcept {
  if constexpr (std::is_same_v<D, nvtx3::v1::domain::global>) {
    return "";
  } else {
    return D::name;
  }
}
}  // namespace detail

NAPKIN_END_NAMESPACE

// NAPKIN_DOMAIN(my_lib, "my-lib"); declares the domain tag type my_lib (user code expands it).
#define NAPKIN_DOMAIN(tag, domain_name)                              \
  struct tag {                                                       \
    [[maybe_unused]] static constexpr const char* name{domain_name}; \
  }
