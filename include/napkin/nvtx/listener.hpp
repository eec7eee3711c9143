// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/listener.hpp — the range-listener hook: how napkin's profiler (profiler::watch_phase) sees
// the ranges of an annotated phase, with or without an NVTX tool.
//
//   class my_listener final : public napkin::detail::range_listener { ... };   // on_push, on_pop
//   napkin::detail::install_range_listener(&l, slot);   napkin::detail::remove_range_listener(&l, slot);
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
// (NAPKIN_NVTX_DISABLE) are not seen. napkin::profiler::watch_phase and napkin::monitor each install one,
// in their own slot. Each
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
// The process-wide listener slots (null almost always), one per kind of user: napkin::profiler::watch_phase
// and napkin::monitor can listen at the same time. Ranges look at them only when the switch's listened bit
// sends them off the hot path. Written by detail::install/remove_range_listener, under the lock (a spin
// lock on an atomic flag rather than a std::mutex: installs are rare, and <mutex> costs every unit).
inline constexpr unsigned range_listener_slots = 2;
inline std::atomic<range_listener*> installed_range_listeners[range_listener_slots] = {};
inline std::atomic_flag range_listener_lock = ATOMIC_FLAG_INIT;
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {
using process_state::range_listener;  // declared in process_state: one type for every kind of unit
using process_state::range_listener_slots;

// Who listens: each user has its own slot, so one does not replace the other.
enum class listener_slot : unsigned char { phase_watch = 0, monitor = 1 };

inline std::atomic<range_listener*>& listener_in(listener_slot slot) noexcept {
  return process_state::installed_range_listeners[static_cast<unsigned>(slot)];
}
inline range_listener* installed_listener(listener_slot slot) noexcept {
  return listener_in(slot).load(std::memory_order_acquire);
}

// Holds process_state::range_listener_lock for its scope.
class listener_lock {
 public:
  listener_lock() noexcept {
    while (process_state::range_listener_lock.test_and_set(std::memory_order_acquire)) yield_thread();
  }
  ~listener_lock() { process_state::range_listener_lock.clear(std::memory_order_release); }
  listener_lock(const listener_lock&) = delete;
  listener_lock& operator=(const listener_lock&) = delete;
};

// Installs `l` (static storage) in `slot`; replaces any other listener of that slot.
inline void install_range_listener(range_listener* l, listener_slot slot = listener_slot::phase_watch) noexcept {
  const listener_lock lock;
  listener_in(slot).store(l, std::memory_order_release);
  nvtx_switch.fetch_or(switch_listened, std::memory_order_release);
}
// Removes `l` if it is the one installed in `slot`. A range it accepted that is still open loses its pop.
// The switch leaves the listened state when no slot holds a listener.
inline void remove_range_listener(range_listener* l, listener_slot slot = listener_slot::phase_watch) noexcept {
  const listener_lock lock;
  range_listener* expected = l;
  if (!listener_in(slot).compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) return;
  for (unsigned i = 0; i < range_listener_slots; ++i)
    if (process_state::installed_range_listeners[i].load(std::memory_order_acquire) != nullptr) return;
  nvtx_switch.fetch_and(static_cast<unsigned char>(~switch_listened), std::memory_order_release);
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
