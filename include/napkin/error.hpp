// SPDX-License-Identifier: Apache-2.0
// napkin/error.hpp — what napkin does when something fails: one policy for the whole library.
//
// Two kinds of failure reach this header:
//   - a failed CUDA/library status (NAPKIN_CUDA_CHECK and the rest of napkin/check.hpp);
//   - bad input to napkin itself (a negative size, an unknown GPU, a malformed NVTX format, ...).
// Both become an error_info and go through the failure policy:
//   throw_exception (default)  throw: napkin::cuda_error for statuses, the std exception named at the
//                              failing call (std::invalid_argument, ...) for bad input;
//   abort_process              print the message to stderr and std::abort();
//   call_handler               call the installed handler. After a status failure execution continues
//                              when the handler returns; bad input has no value to continue with, so a
//                              handler that returns from it ends the process (print + abort).
// Built without exceptions (-fno-exceptions), throw_exception prints and aborts instead, or calls the
// handler when one is installed. In constant evaluation nothing here runs: the failing call is not
// constexpr, so the compiler stops with its name (see napkin/math/detail/errors.hpp).
//
// A handler that fails again (a NAPKIN_CUDA_CHECK inside the handler, say) is not called again for the
// nested failure: that one is printed and then treated as if no handler were installed (thrown, or
// print + abort without exceptions; a no-throw check inside the handler just returns false).
//
// Process-wide state: the policy and the handler are two atomics shared by every translation unit of
// this napkin version (with or without exceptions); the nesting depth is per thread.
#pragma once

#include "napkin/config.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

// The vocabulary both kinds of translation unit share (napkin/config.hpp): a handler written in a unit
// built without exceptions is called by one built with them, with this same error_info.
NAPKIN_BEGIN_COMMON_NAMESPACE

// Where a check was written.
struct source_site {
  const char* file;
  unsigned line;
  const char* function;
};

// Everything known about one failure. Built only on failure.
struct error_info {
  std::string library;      // "CUDA runtime", "cuBLAS", ...; "napkin" for bad input to napkin
  std::int64_t code = 0;    // the numeric status (0 for bad input)
  std::string name;         // "cudaErrorMemoryAllocation"; "invalid input" for bad input
  std::string description;  // "out of memory"; for bad input the whole message
  std::string expression;   // the checked expression as written ("" for bad input)
  source_site site{"", 0, ""};
  bool sticky = false;   // the CUDA context is unusable: only a new process recovers
  bool pending = false;  // the error was left by earlier work, not produced by `expression`
  std::string note;      // hints, library detail, attribution

  // A status failure: "file:line: in function(): <library> call `expr` failed: NAME (code): text; note".
  // Bad input: the description (it names napkin and the problem).
  std::string message() const {
    std::string m;
    if (expression.empty() && *site.file == '\0') {
      m = description;
    } else {
      m.reserve(160 + expression.size() + note.size());
      m += site.file;
      m += ':';
      m += std::to_string(site.line);
      m += ": in ";
      m += site.function;
      m += "(): ";
      m += library;
      m += pending ? " error found pending before `" : " call `";
      m += expression;
      m += pending ? "`: " : "` failed: ";
      m += name;
      m += " (";
      m += std::to_string(code);
      m += ')';
      if (!description.empty() && description != name) {
        m += ": ";
        m += description;
      }
    }
    if (!note.empty()) {
      m += " [";
      m += note;
      m += ']';
    }
    return m;
  }
};

// The exception napkin throws for a failed status of any library. Copying it never throws (shared,
// immutable payload).
class cuda_error : public std::runtime_error {
 public:
  explicit cuda_error(error_info info) : cuda_error(std::make_shared<const error_info>(std::move(info))) {}

  const error_info& info() const noexcept { return *info_; }
  std::int64_t code() const noexcept { return info_->code; }
  const std::string& library() const noexcept { return info_->library; }
  const std::string& name() const noexcept { return info_->name; }
  const std::string& description() const noexcept { return info_->description; }
  const std::string& expression() const noexcept { return info_->expression; }
  const char* file() const noexcept { return info_->site.file; }
  unsigned line() const noexcept { return info_->site.line; }
  const char* function() const noexcept { return info_->site.function; }
  // True when the CUDA context is unusable (cudaErrorIllegalAddress and the like): catch, report,
  // and end the process; retrying cannot succeed.
  bool is_sticky() const noexcept { return info_->sticky; }
  // True when the error was pending from earlier work rather than produced by expression().
  bool is_pending() const noexcept { return info_->pending; }

 private:
  explicit cuda_error(std::shared_ptr<const error_info> p) : std::runtime_error(p->message()), info_(std::move(p)) {}
  std::shared_ptr<const error_info> info_;
};

// What a failure does.
enum class failure_policy : int {
  throw_exception,  // throw (the default; print + abort when built without exceptions)
  abort_process,    // print the message to stderr and std::abort()
  call_handler,     // call the handler installed with set_failure_handler
};
using failure_handler = void (*)(const error_info&);

NAPKIN_END_COMMON_NAMESPACE

NAPKIN_BEGIN_PROCESS_STATE
inline std::atomic<failure_policy> policy{failure_policy::throw_exception};
inline std::atomic<failure_handler> handler{nullptr};
// How many failure handlers are running on this thread (re-entry guard).
inline thread_local int handler_depth = 0;
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE

inline void set_failure_policy(failure_policy p) noexcept { process_state::policy.store(p); }
inline failure_policy get_failure_policy() noexcept { return process_state::policy.load(); }
// Installs `h` and, when it is not null, selects failure_policy::call_handler (null: throw_exception).
// Returns the previous handler. The handler may throw its own exception, log, or terminate.
inline failure_handler set_failure_handler(failure_handler h) noexcept {
  failure_handler old = process_state::handler.exchange(h);
  set_failure_policy(h ? failure_policy::call_handler : failure_policy::throw_exception);
  return old;
}

// Sets a policy (and handler) for a scope and restores the previous ones at its end.
class scoped_failure_policy {
 public:
  explicit scoped_failure_policy(failure_policy p, failure_handler h = nullptr) noexcept
      : old_policy_(get_failure_policy()), old_handler_(process_state::handler.exchange(h)) {
    set_failure_policy(p);
  }
  ~scoped_failure_policy() {
    process_state::handler.store(old_handler_);
    set_failure_policy(old_policy_);
  }
  scoped_failure_policy(const scoped_failure_policy&) = delete;
  scoped_failure_policy& operator=(const scoped_failure_policy&) = delete;

 private:
  failure_policy old_policy_;
  failure_handler old_handler_;
};

namespace detail {

inline void print_failure(const char* prefix, const error_info& info) noexcept {
#if NAPKIN_HAS_EXCEPTIONS
  try {
#endif
    std::fprintf(stderr, "%s%s\n", prefix, info.message().c_str());
#if NAPKIN_HAS_EXCEPTIONS
  } catch (...) {
    std::fprintf(stderr, "%s%s error %lld (message unavailable: out of memory)\n", prefix, info.library.c_str(),
                 static_cast<long long>(info.code));
  }
#endif
}

[[noreturn]] inline void print_and_abort(const char* prefix, const error_info& info) noexcept {
  print_failure(prefix, info);
  std::abort();
}

// What the policy decided for one failure.
enum class policy_outcome {
  handled,         // the handler ran and returned
  throw_or_abort,  // the caller throws its exception (or, without exceptions, prints and aborts)
  nested,          // a failure inside the running handler: already printed; the caller throws or aborts
};

// Calls the handler when the policy says so and no handler is already running on this thread; aborts
// under abort_process. A failure inside the handler (its own NAPKIN_CUDA_CHECK, say) is not handed to
// it again, which would recurse until the stack overflowed: it is printed, and the caller then throws
// (or aborts) as if no handler were installed.
inline policy_outcome apply_policy(const error_info& info) {
  switch (get_failure_policy()) {
    case failure_policy::abort_process:
      print_and_abort("napkin: fatal: ", info);
    case failure_policy::call_handler:
      if (failure_handler h = process_state::handler.load()) {
        if (process_state::handler_depth > 0) {
          print_failure("napkin: failure inside the failure handler (not passed to the handler again): ", info);
          return policy_outcome::nested;
        }
        // Restored on return and when the handler throws. A handler that throws through code built
        // without exceptions skips this restore (no cleanups run there): let it throw only into code
        // built with exceptions.
        struct depth_guard {
          depth_guard() noexcept { ++process_state::handler_depth; }
          ~depth_guard() { --process_state::handler_depth; }
          depth_guard(const depth_guard&) = delete;
          depth_guard& operator=(const depth_guard&) = delete;
        } guard;
        h(info);
        return policy_outcome::handled;
      }
      return policy_outcome::throw_or_abort;  // no handler installed
    case failure_policy::throw_exception:
    default:
      return policy_outcome::throw_or_abort;
  }
}

// Without exceptions: the end of a failure nobody handled (a nested one was printed already).
[[noreturn]] inline void abort_unhandled(policy_outcome outcome, const error_info& info) noexcept {
  if (outcome == policy_outcome::nested) std::abort();
  print_and_abort("napkin: fatal (built without exceptions): ", info);
}

// A failed status: applies the policy; returns only when a handler handled it.
NAPKIN_DETAIL_COLD inline void raise(error_info&& info) {
  const policy_outcome outcome = apply_policy(info);
  if (outcome == policy_outcome::handled) return;
#if NAPKIN_HAS_EXCEPTIONS
  throw cuda_error(std::move(info));
#else
  abort_unhandled(outcome, info);
#endif
}

// A failure the caller cannot continue after (bad input, a failed profiler step). Throws
// `Exception(extra..., message)`; a handler that returns ends the process.
template <class Exception, class... Extra>
[[noreturn]] NAPKIN_DETAIL_COLD void raise_as(error_info&& info, Extra&&... extra) {
  const policy_outcome outcome = apply_policy(info);
  if (outcome == policy_outcome::handled)
    print_and_abort("napkin: fatal (the failure handler returned; there is no value to continue with): ", info);
#if NAPKIN_HAS_EXCEPTIONS
  throw Exception(std::forward<Extra>(extra)..., info.message());
#else
  (static_cast<void>(extra), ...);  // they only build the exception, and nothing is thrown
  abort_unhandled(outcome, info);
#endif
}

// Bad input to napkin. `message` names napkin and the problem ("napkin: rows must be positive").
template <class Exception = std::invalid_argument>
[[noreturn]] NAPKIN_DETAIL_COLD void raise_input_error(std::string message) {
  error_info info;
  info.library = "napkin";
  info.name = "invalid input";
  info.description = std::move(message);
  raise_as<Exception>(std::move(info));
}

// For code that must not throw (destructors, background threads, noexcept hooks): runs f(), and hands what
// it throws to on_error(what) instead (what() of a std::exception, else "an unknown exception"). Without
// exceptions a failure inside f() has already ended in the failure handler, so it simply runs f().
template <class F, class OnError>
void call_catching(F&& f, OnError&& on_error) noexcept {
#if NAPKIN_HAS_EXCEPTIONS
  try {
    f();
  } catch (const std::exception& e) {
    on_error(e.what());
  } catch (...) {
    on_error("an unknown exception");
  }
#else
  static_cast<void>(on_error);
  f();
#endif
}

}  // namespace detail
NAPKIN_END_NAMESPACE
