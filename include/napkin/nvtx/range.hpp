// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/range.hpp — napkin's ranges and marks, compiled in and compiled out.
//
//   napkin::range r{"gemm"};                       push/pop for the rest of the scope (range_in<D>)
//   auto job = napkin::unique_range{"request"};    start/end: movable, may end on another thread
//   napkin::mark("checkpoint");                    an instant event (mark_in<D>)
//
// Compiled in, a range's constructor does one load of the run-time switch and one test of NVTX's
// pointer (napkin/nvtx/switch.hpp) and nothing else unless a tool listens or a listener is installed;
// everything else is in a cold, out-of-line function. Compiled out (NAPKIN_NVTX_DISABLE, NVTX_DISABLE)
// the same overloads are empty: a compiled-out build accepts and rejects the same code. The two live in
// different inline namespaces (nvtx_on, nvtx_off), so units of both kinds link into one program.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/attributes.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/domain.hpp"
#include "napkin/nvtx/format.hpp"

#include <cstddef>

#if NAPKIN_NVTX_ENABLED
#include "napkin/nvtx/call_site.hpp"
#include "napkin/nvtx/event.hpp"
#include "napkin/nvtx/listener.hpp"
#include "napkin/nvtx/switch.hpp"

#include <atomic>
#include <utility>
#endif

NAPKIN_BEGIN_NAMESPACE

#if NAPKIN_NVTX_ENABLED
inline namespace nvtx_on {

// A push/pop range: opens in the constructor, closes in the destructor, on the same thread, in
// reverse order of opening. With no tool attached or napkin switched off it does one load of the
// switch, one pointer test and nothing else: no formatting, hashing or allocation.
template <class D = default_domain>
class [[nodiscard]] range_in {
 public:
  // range_in r{"name", napkin::payload{n}, napkin::rgb{..}, napkin::category{2}} — attributes optional.
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit range_in(const Name& name, const Attributes&... attributes) {
    const unsigned char s = detail::nvtx_switch.load(std::memory_order_acquire);
    if (NAPKIN_DETAIL_LIKELY(s == detail::switch_on)) {
      if (NAPKIN_DETAIL_UNLIKELY(detail::tool_takes_pushes())) state_ = push(name, attributes...);
    } else if (s != detail::switch_off) {
      state_ = push_slow(s, name, attributes...);
    }
  }
  // range_in r{"layer {} of {}", i, n} — formatted only when a tool listens.
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit range_in(format_string<Args...> fmt, const Args&... args) {
    const unsigned char s = detail::nvtx_switch.load(std::memory_order_acquire);
    if (NAPKIN_DETAIL_LIKELY(s == detail::switch_on)) {
      if (NAPKIN_DETAIL_UNLIKELY(detail::tool_takes_pushes())) {
        state_ = push(lazy_format<Args...>{fmt, args...});
      }
    } else if (s != detail::switch_off) {
      state_ = push_slow(s, lazy_format<Args...>{fmt, args...});
    }
  }
  // For NAPKIN_FUNC_RANGE and NAPKIN_RANGE (which passes its literal again): one registration per site.
  template <class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] range_in(detail::call_site<D>& site, const Attributes&... attributes) noexcept
      : range_in(&site, attributes...) {}
  template <std::size_t N, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] range_in(detail::call_site<D>& site, const char (&)[N], const Attributes&... attributes) noexcept
      : range_in(&site, attributes...) {}
  ~range_in() {
    if (NAPKIN_DETAIL_UNLIKELY(state_ != 0)) pop(state_);
  }
  range_in(const range_in&) = delete;
  range_in& operator=(const range_in&) = delete;
  range_in(range_in&&) = delete;
  range_in& operator=(range_in&&) = delete;
  static void* operator new(std::size_t) = delete;  // scope-bound by design; see unique_range_in
  static void* operator new[](std::size_t) = delete;

 private:
  // Bit 0: pushed to NVTX; bit 1 + slot: that slot's listener accepted the push and is owed its pop.
  enum : unsigned char { pushed_to_nvtx = 1, first_listener_owed_pop = 2 };

  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD static unsigned char push(const Name& name, const Attributes&... attributes) {
    nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
    detail::with_attributes<D>(
        name, [domain](const nvtxEventAttributes_t* a) { nvtxDomainRangePushEx(domain, a); }, attributes...);
    return pushed_to_nvtx;
  }
  // Off the hot path: the switch is unread, or a listener is installed (napkin's profiler watches a phase,
  // napkin's monitor attributes kernels to phases).
  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD static unsigned char push_slow(unsigned char s, const Name& name,
                                                        const Attributes&... attributes) {
    unsigned char state = 0;
    if (detail::should_push()) state = push(name, attributes...);
    if ((s & detail::switch_listened) != 0) {
      for (unsigned slot = 0; slot < detail::range_listener_slots; ++slot) {
        detail::range_listener* l = detail::installed_listener(static_cast<detail::listener_slot>(slot));
        if (l == nullptr) continue;
#if NAPKIN_HAS_EXCEPTIONS
        try {
#endif
          if (l->on_push(detail::domain_name_of<D>(), detail::name_text<D>(name)))
            state |= static_cast<unsigned char>(first_listener_owed_pop << slot);
#if NAPKIN_HAS_EXCEPTIONS
        } catch (...) {  // building the name failed (out of memory, a callable name threw): not listened to
        }
#endif
      }
    }
    return state;
  }
  NAPKIN_DETAIL_COLD static void pop(unsigned char state) noexcept {
    // Pops in the reverse order of the pushes' slots.
    for (unsigned slot = detail::range_listener_slots; slot-- > 0;) {
      if ((state & (first_listener_owed_pop << slot)) == 0) continue;
      if (detail::range_listener* l = detail::installed_listener(static_cast<detail::listener_slot>(slot))) l->on_pop();
    }
    if ((state & pushed_to_nvtx) != 0) nvtxDomainRangePop(nvtx3::v1::domain::get<D>());
  }
  unsigned char state_ = 0;
};
using range = range_in<>;

// A start/end range: movable, may end on another thread and in any order; ends in its destructor
// unless end() was called. Costs the same as range_in when no tool listens; never allocates.
template <class D = default_domain>
class [[nodiscard]] unique_range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit unique_range_in(const Name& name, const Attributes&... attributes) {
    if (NAPKIN_DETAIL_UNLIKELY(detail::should_start())) start(name, attributes...);
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit unique_range_in(format_string<Args...> fmt, const Args&... args) {
    if (NAPKIN_DETAIL_UNLIKELY(detail::should_start())) start(lazy_format<Args...>{fmt, args...});
  }
  unique_range_in(unique_range_in&& other) noexcept
      : id_{other.id_}, started_{std::exchange(other.started_, false)} {}
  unique_range_in& operator=(unique_range_in&& other) noexcept {
    if (this != &other) {
      end();
      id_ = other.id_;
      started_ = std::exchange(other.started_, false);
    }
    return *this;
  }
  unique_range_in(const unique_range_in&) = delete;
  unique_range_in& operator=(const unique_range_in&) = delete;
  ~unique_range_in() { end(); }

  // Ends the range now, on the calling thread; later calls do nothing.
  void end() noexcept {
    if (std::exchange(started_, false)) nvtxDomainRangeEnd(nvtx3::v1::domain::get<D>(), id_);
  }
  // Whether a tool saw this range start and it has not ended yet.
  [[nodiscard]] bool running() const noexcept { return started_; }

 private:
  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD void start(const Name& name, const Attributes&... attributes) {
    nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
    detail::with_attributes<D>(
        name, [this, domain](const nvtxEventAttributes_t* a) { id_ = nvtxDomainRangeStartEx(domain, a); },
        attributes...);
    started_ = true;
  }
  nvtxRangeId_t id_ = 0;
  bool started_ = false;
};
using unique_range = unique_range_in<>;

// An instant event on the timeline.
template <class D = default_domain, class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark_in(const Name& name, const Attributes&... attributes) {
  if (NAPKIN_DETAIL_LIKELY(!detail::should_mark())) return;
  nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
  detail::with_attributes<D>(
      name, [domain](const nvtxEventAttributes_t* a) { nvtxDomainMarkEx(domain, a); }, attributes...);
}
template <class D = default_domain, class... Args, detail::if_format_arguments<Args...> = 0>
void mark_in(format_string<Args...> fmt, const Args&... args) {
  if (NAPKIN_DETAIL_UNLIKELY(detail::should_mark())) mark_in<D>(lazy_format<Args...>{fmt, args...});
}
template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark(const Name& name, const Attributes&... attributes) {
  mark_in<default_domain>(name, attributes...);
}
template <class... Args, detail::if_format_arguments<Args...> = 0>
void mark(format_string<Args...> fmt, const Args&... args) {
  if (NAPKIN_DETAIL_UNLIKELY(detail::should_mark())) mark_in<default_domain>(lazy_format<Args...>{fmt, args...});
}

}  // namespace nvtx_on
#else   // compiled out: the same overloads, empty inline bodies
// The same overloads as above, so that a compiled-out build accepts and rejects the same code (formats
// are checked here too). The types are marked unused for GCC: they are empty and trivially destructible,
// and `auto u = napkin::unique_range{"request {}", 7};` must not warn "set but not used". Each type
// declares its own [[nodiscard]] constructors rather than inheriting one base's: GCC 12 does not warn
// for a discarded temporary built by an inherited constructor (`napkin::range{"x"};` must warn).
#if defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_UNUSED_TYPE gnu::unused
#else
#define NAPKIN_DETAIL_UNUSED_TYPE maybe_unused
#endif
inline namespace nvtx_off {

template <class D = default_domain>
class [[nodiscard, NAPKIN_DETAIL_UNUSED_TYPE]] range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit range_in(const Name&, const Attributes&...) noexcept {
    detail::require_name<Name>();
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit range_in(format_string<Args...>, const Args&...) noexcept {}
  ~range_in() = default;
  range_in(const range_in&) = delete;
  range_in& operator=(const range_in&) = delete;
  range_in(range_in&&) = delete;
  range_in& operator=(range_in&&) = delete;
  static void* operator new(std::size_t) = delete;
  static void* operator new[](std::size_t) = delete;
};
using range = range_in<>;

template <class D = default_domain>
class [[nodiscard, NAPKIN_DETAIL_UNUSED_TYPE]] unique_range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit unique_range_in(const Name&, const Attributes&...) noexcept {
    detail::require_name<Name>();
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit unique_range_in(format_string<Args...>, const Args&...) noexcept {}
  void end() noexcept {}
  [[nodiscard]] bool running() const noexcept { return false; }
};
using unique_range = unique_range_in<>;

template <class D = default_domain, class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark_in(const Name&, const Attributes&...) noexcept {
  detail::require_name<Name>();
}
template <class D = default_domain, class... Args, detail::if_format_arguments<Args...> = 0>
void mark_in(format_string<Args...>, const Args&...) noexcept {}
template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark(const Name& name, const Attributes&... attributes) noexcept {
  mark_in<default_domain>(name, attributes...);
}
template <class... Args, detail::if_format_arguments<Args...> = 0>
void mark(format_string<Args...>, const Args&...) noexcept {}
}  // namespace nvtx_off
#undef NAPKIN_DETAIL_UNUSED_TYPE
#endif  // NAPKIN_NVTX_ENABLED

NAPKIN_END_NAMESPACE
