// SPDX-License-Identifier: Apache-2.0
// detail::callable_ref: a non-owning reference to something callable with no arguments (a lambda, a function
// object), so that a template front end (profiler::measure(fn)) can hand the user's callable to a member that
// is not a template, and whose body NAPKIN_SEPARATE_COMPILATION compiles once. Like std::function without the
// allocation, and like C++26's std::function_ref: it must not outlive what it refers to, which holds for an
// argument passed down a call. An exception the callable throws passes through.
#pragma once

#include "napkin/config.hpp"

#include <memory>
#include <type_traits>

NAPKIN_BEGIN_NAMESPACE
namespace detail {

class callable_ref {
 public:
  template <class Fn, class = std::enable_if_t<!std::is_same_v<std::remove_cv_t<Fn>, callable_ref>>>
  callable_ref(Fn& fn) noexcept {  // NOLINT(google-explicit-constructor): stands for the callable it refers to
    if constexpr (std::is_function_v<Fn>) {  // a function: its address, called as such
      target_.function = reinterpret_cast<void (*)()>(&fn);
      call_ = [](target t) { reinterpret_cast<Fn*>(t.function)(); };
    } else {
      target_.object = const_cast<void*>(static_cast<const void*>(std::addressof(fn)));
      call_ = [](target t) { (*static_cast<Fn*>(t.object))(); };
    }
  }

  // A temporary would be gone before the call: refused.
  template <class Fn>
  callable_ref(const Fn&&) = delete;

  void operator()() const { call_(target_); }

 private:
  union target {
    void* object;
    void (*function)();
  };
  target target_{};
  void (*call_)(target) = nullptr;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
