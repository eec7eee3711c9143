// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/event.hpp — an NVTX event built from a napkin name and its attributes: the name converted,
// formatted or looked up at its call site, the default color hashed from it. Only ever reached when a
// tool listens (the cold path of a range or a mark), so this is where the work is.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/attributes.hpp"
#include "napkin/nvtx/call_site.hpp"
#include "napkin/nvtx/color.hpp"
#include "napkin/nvtx/config.hpp"

#include <string>
#include <string_view>
#include <type_traits>

#if NAPKIN_NVTX_ENABLED
NAPKIN_BEGIN_NAMESPACE
namespace detail {
// Calls emit(const nvtxEventAttributes_t*) with the name and attributes; only reached when a tool
// listens, so this is where names are converted, formatted and hashed.
template <class D, class Name, class... Attributes, class Emit>
void with_attributes(const Name& name, Emit&& emit, const Attributes&... attributes) {
  constexpr bool has_color = (is_color_v<Attributes> || ...);
  const auto finish = [&](const nvtx3::v1::message& m, const auto& default_color) {
    if constexpr (has_color) {
      (void)default_color;
      const nvtx3::v1::event_attributes a{attributes..., m};
      emit(a.get());
    } else {
      const nvtx3::v1::event_attributes a{attributes..., m, default_color()};
      emit(a.get());
    }
  };
  using N = std::decay_t<Name>;
  if constexpr (std::is_same_v<N, call_site<D>*>) {
    finish(name->message(), [&] { return name->default_color(); });
  } else if constexpr (std::is_array_v<Name>) {
    const char* const s = name;
    finish(nvtx3::v1::message{s}, [&] { return color_of(s); });
  } else if constexpr (std::is_same_v<N, const char*> || std::is_same_v<N, char*>) {
    const char* const s = name != nullptr ? static_cast<const char*>(name) : "(null)";
    finish(nvtx3::v1::message{s}, [&] { return color_of(s); });
  } else if constexpr (std::is_same_v<N, std::string>) {
    finish(nvtx3::v1::message{name.c_str()}, [&] { return color_of(name); });
  } else if constexpr (std::is_convertible_v<const Name&, std::string_view>) {
    const std::string s{std::string_view{name}};  // NVTX needs a terminated string
    finish(nvtx3::v1::message{s.c_str()}, [&] { return color_of(s); });
  } else if constexpr (std::is_invocable_v<const Name&>) {
    const std::string s{name()};  // napkin::format(...) or any callable returning a string
    finish(nvtx3::v1::message{s.c_str()}, [&] { return color_of(s); });
  } else {
    require_name<Name, false>();  // nothing above takes it: stops the compiler with napkin's wording
  }
}
}  // namespace detail
NAPKIN_END_NAMESPACE
#endif  // NAPKIN_NVTX_ENABLED
