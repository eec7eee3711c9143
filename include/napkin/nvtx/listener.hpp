// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/listener.hpp — the range-listener hook: how napkin's profiler (profiler::watch_phase) sees
// the ranges of an annotated phase, with or without an NVTX tool.
//
//   class my_listener final : public napkin::detail::range_listener { ... };   // on_push, on_pop
//   napkin::detail::install_range_listener(&l);   napkin::detail::remove_range_listener(&l);
//
// While a listener is installed the switch's "listened" bit (napkin/nvtx/switch.hpp) sends every range
// off its hot path; with none installed the hot path is unchanged.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/call_site.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/switch.hpp"

#include <atomic>
#include <string>
#include <string_view>
#include <type_traits>

// Shared by every translation unit of this napkin version (napkin/config.hpp), so that a listener one
// unit installs hears the ranges of every other unit.
NAPKIN_BEGIN_PROCESS_STATE
// Told about every napkin push/pop range (range_in, NAPKIN_RANGE, NAPKIN_FUNC_RANGE) while installed,
// whether or not an NVTX tool listens and whatever napkin's NVTX switch says; ranges compiled out
// (NAPKIN_NVTX_DISABLE) are not seen. napkin::profiler::watch_phase installs one at a time. Each
// implementation must be thread-safe and outlive every range (static storage): a range may read the
// pointer just before it is cleared. A pop goes to the listener installed when the range closes: one
// installed later may hear a pop whose push it never saw (from any thread), and must ignore it.
// (Declared here, not per exception setting, so that every kind of translation unit sees one type.)
class range_listener {
 public:
  // A range opens on the calling thread; returns whether this listener wants on_pop() for it.
  virtual bool on_push(const char* domain, std::string_view name) noexcept = 0;
  // A range that a listener's on_push() accepted closes, on the thread that opened it.
  virtual void on_pop() noexcept = 0;

 protected:
  range_listener() = default;
  ~range_listener() = default;
  range_listener(const range_listener&) = default;
  range_listener& operator=(const range_listener&) = default;
};
// The process-wide listener slot (null almost always). Ranges look at it only when the switch's
// listened bit sends them off the hot path. Written by detail::install/remove_range_listener.
inline std::atomic<range_listener*> installed_range_listener{nullptr};
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {
using process_state::installed_range_listener;
using process_state::range_listener;  // declared in process_state: one type for every kind of unit

// Installs `l` (static storage); replaces any other. napkin::profiler::watch_phase is the one user.
inline void install_range_listener(range_listener* l) noexcept {
  installed_range_listener.store(l, std::memory_order_release);
  nvtx_switch.fetch_or(switch_listened, std::memory_order_release);
}
// Removes `l` if it is the installed one. A range it accepted that is still open loses its pop.
inline void remove_range_listener(range_listener* l) noexcept {
  range_listener* expected = l;
  if (installed_range_listener.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
    nvtx_switch.fetch_and(static_cast<unsigned char>(~switch_listened), std::memory_order_release);
  }
}

// The name text of any name napkin accepts, built only when a listener asks.
template <class D, class Name>
std::string name_text(const Name& name) {
  using N = std::decay_t<Name>;
  if constexpr (std::is_same_v<N, call_site<D>*>) {
    return name->text();
  } else if constexpr (std::is_array_v<Name> || std::is_same_v<N, const char*> || std::is_same_v<N, char*>) {
    const char* const s = name;
    return s != nullptr ? s : "(null)";
  } else if constexpr (std::is_convertible_v<const Name&, std::string_view>) {
    return std::string{std::string_view{name}};
  } else {
    return std::string{name()};
  }
}
}  // namespace detail

NAPKIN_END_NAMESPACE
