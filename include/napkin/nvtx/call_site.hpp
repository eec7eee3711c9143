// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/call_site.hpp — one object per NAPKIN_RANGE / NAPKIN_FUNC_RANGE call site: its name is
// registered with the tool once (nvtxDomainRegisterStringA), and a function's name is cleaned once.
#pragma once

#include "napkin/config.hpp"
#include "napkin/nvtx/color.hpp"
#include "napkin/nvtx/config.hpp"
#include "napkin/nvtx/function_name.hpp"
#include "napkin/nvtx/switch.hpp"

#include <atomic>
#include <cstring>
#include <string>

NAPKIN_BEGIN_NAMESPACE
namespace detail {
// One per macro call site. Constant-initialized (no guard, safe during static init) and trivially
// destructible (safe during static destruction). The name is registered with the tool on the first
// use that a tool sees; the registration is kept for the life of the process, like NVTX's domains.
template <class D>
class call_site {
 public:
  constexpr call_site(const char* name, color c, unsigned line, bool is_function) noexcept
      : source_{name}, color_{c}, line_{line}, is_function_{is_function} {}

  // nvtx attributes' message: the registered handle, or the plain name if the tool registers none.
  nvtx3::v1::message message() noexcept {
    register_once();
    if (handle_ != nullptr) return nvtx3::v1::message{handle_};
    return nvtx3::v1::message{name_ != nullptr ? name_ : source_};
  }
  [[nodiscard]] color default_color() const noexcept { return color_; }
  // The name as a tool sees it (the readable one for NAPKIN_FUNC_RANGE).
  [[nodiscard]] const char* text() noexcept {
    register_once();
    return name_ != nullptr ? name_ : source_;
  }

 private:
  // Once per call site: 0 not started, 1 registering, 2 done (an atomic rather than std::once_flag, as
  // process_state::nvtx_initialization: no <mutex>, no std::system_error, no pthread_once).
  void register_once() noexcept {
    if (NAPKIN_DETAIL_LIKELY(once_.load(std::memory_order_acquire) == 2)) return;
    unsigned char expected = 0;
    if (once_.compare_exchange_strong(expected, 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      register_name();
      once_.store(2, std::memory_order_release);  // name_, color_ and handle_ happen-before every acquire of 2
      return;
    }
    while (once_.load(std::memory_order_acquire) != 2) yield_thread();  // another thread registers
  }
  void register_name() noexcept {
    if (is_function_) {
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        const std::string readable = readable_function_name(source_, line_);
        char* copy = new char[readable.size() + 1];  // kept for the process, reachable from here
        std::memcpy(copy, readable.c_str(), readable.size() + 1);
        name_ = copy;
        color_ = color_of(readable);
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {  // out of memory: the raw signature is still a correct name
      }
#endif  // without exceptions, running out of memory ends the process, as everywhere else
    }
    handle_ = nvtxDomainRegisterStringA(nvtx3::v1::domain::get<D>(), name_ != nullptr ? name_ : source_);
  }
  const char* source_;
  const char* name_ = nullptr;
  color color_;
  unsigned line_;
  bool is_function_;
  std::atomic<unsigned char> once_{0};
  nvtxStringHandle_t handle_ = nullptr;
};
}  // namespace detail

NAPKIN_END_NAMESPACE
