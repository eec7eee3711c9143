// SPDX-License-Identifier: Apache-2.0
// profiler::phase's listener and members: the range listener that turns a watched phase's occurrences into
// passes. Included by profiler/phase.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION,
// only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler/core.hpp"
#include "napkin/profiler/pass.hpp"
#include "napkin/profiler/phase.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {
// The range listener napkin installs while a phase is watched. Static storage, since a range may hold
// its address past the watch; one mutex around the watched phases, one per watching thread (a thread's
// ranges go to its own watch, so two threads may each watch a phase on their own profiler and device).
// Never destroyed through a base pointer (static storage, final), hence no virtual destructor.
class phase_listener final : public range_listener {  // NOLINT(cppcoreguidelines-virtual-class-destructor)
 public:
  class target {
   public:
    virtual bool push(const char* domain, std::string_view name) noexcept = 0;
    // Returns false when the watch is over (report ready or failed): the listener then detaches, so
    // napkin's ranges are back on their fast path while the finished phase object still lives.
    virtual bool pop() noexcept = 0;

   protected:
    target() = default;
    ~target() = default;
    target(const target&) = default;
    target& operator=(const target&) = default;
  };

  static phase_listener& instance() noexcept {
    static phase_listener listener;
    return listener;
  }
  void attach(target* t) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (find(std::this_thread::get_id()) != watches_.end())
      raise_profiler_error("napkin: a phase is already watched on this thread (one per thread at a time)");
    watches_.push_back({t, std::this_thread::get_id()});
    if (watches_.size() == 1) install_range_listener(this);
  }
  void detach(const target* t) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = watches_.begin(); it != watches_.end(); ++it)
      if (it->t == t) {
        drop(it);
        return;
      }
  }
  bool on_push(const char* domain, std::string_view name) noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = find(std::this_thread::get_id());
    return it != watches_.end() && it->t->push(domain, name);
  }
  void on_pop() noexcept override {
    const std::lock_guard<std::mutex> lock(mutex_);
    // Pops from threads without a watch belong to ranges an earlier watch accepted there: not ours.
    const auto it = find(std::this_thread::get_id());
    if (it != watches_.end() && !it->t->pop()) drop(it);
  }

 private:
  struct watch {
    target* t;
    std::thread::id owner;
  };
  phase_listener() = default;
  std::vector<watch>::iterator find(std::thread::id owner) noexcept {
    for (auto it = watches_.begin(); it != watches_.end(); ++it)
      if (it->owner == owner) return it;
    return watches_.end();
  }
  // The listener stays installed while any thread watches a phase.
  void drop(std::vector<watch>::iterator it) noexcept {
    watches_.erase(it);
    if (watches_.empty()) remove_range_listener(this);
  }
  std::mutex mutex_;
  std::vector<watch> watches_;  // one per watching thread
};
}  // namespace detail

// Owned by unique_ptr<state> (never deleted as a target), hence no virtual destructor.
struct profiler_phase::state final : detail::phase_listener::target {  // NOLINT(cppcoreguidelines-virtual-class-destructor)
  std::string domain, name;
  std::size_t passes_needed = 0;
  std::size_t passes_done = 0;
  std::optional<detail::measurement> watch;  // from watch_phase() until the watch ends
  std::optional<detail::replay_pass> occurrence;    // a pass, while an occurrence of the phase runs
  std::string error;
  std::optional<sol_report> result;

  state(detail::profiler_core& core, const char* d, std::string n)
      : domain(d), name(std::move(n)), passes_needed(core.config().passes()) {
    watch.emplace(core, "phase \"" + name + "\"", /*current=*/false);  // the program keeps its device
    watch->configure(detail::user_range_user_replay, 1, /*own=*/true);  // dropped when the watch ends
  }

  bool push(const char* d, std::string_view n) noexcept override {
    if (occurrence || !watch || d != domain || n != name) return false;
    // Called from a range's constructor (noexcept): a failure becomes the watch's error. Without exceptions
    // a failure here ends the process (napkin's failure policy: print and abort, or the handler).
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      const detail::context_guard current = watch->core().on_device();
      occurrence.emplace(*watch, name.c_str());
      return true;
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const std::exception& e) {
      fail(e.what());
      return false;
    }
#endif
  }
  bool pop() noexcept override {
    if (!occurrence) return watch.has_value();
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      const detail::context_guard current = watch->core().on_device();
      const bool all = occurrence->end();
      occurrence.reset();
      passes_done = watch->passes_run();
      if (all) {
        result = watch->report(name, measured_by::phase);
        finish_watch();
      } else {
        watch->refuse_endless_replay("each occurrence must launch the same kernels");
      }
#if NAPKIN_HAS_EXCEPTIONS
    } catch (const std::exception& e) {
      fail(e.what());
    }
#endif
    return watch.has_value();
  }
  void fail(const char* what) noexcept {
#if NAPKIN_HAS_EXCEPTIONS
    try {
#endif
      error = what;
#if NAPKIN_HAS_EXCEPTIONS
    } catch (...) {
      error = "napkin: phase failed";
    }
#endif
    finish_watch();
  }
  // Ends CUPTI's part (closing an open pass, disabling the phase's session) and frees the profiler.
  void finish_watch() noexcept {
    if (!watch) return;
    const detail::context_guard current(watch->core().device().context, std::nothrow);
    occurrence.reset();
    watch.reset();
  }
};

NAPKIN_DETAIL_FUNC profiler_phase::profiler_phase(detail::profiler_core& core, const char* domain, std::string name)
    : state_(std::make_unique<state>(core, domain, std::move(name))) {
  detail::phase_listener::instance().attach(state_.get());
}
NAPKIN_DETAIL_FUNC profiler_phase::profiler_phase(profiler_phase&&) noexcept = default;
NAPKIN_DETAIL_FUNC profiler_phase::~profiler_phase() {
  if (!state_) return;
  detail::phase_listener::instance().detach(state_.get());
  state_->finish_watch();
}

NAPKIN_DETAIL_FUNC bool profiler_phase::done() const noexcept {
  return state_->result.has_value() || !state_->error.empty();
}
NAPKIN_DETAIL_FUNC std::size_t profiler_phase::passes_done() const noexcept { return state_->passes_done; }
NAPKIN_DETAIL_FUNC std::size_t profiler_phase::passes_needed() const noexcept { return state_->passes_needed; }
NAPKIN_DETAIL_FUNC const std::string& profiler_phase::name() const noexcept { return state_->name; }

NAPKIN_DETAIL_FUNC sol_report profiler_phase::report() const {
  if (!state_->error.empty()) detail::raise_profiler_error(state_->error);
  if (!state_->result)
    detail::raise_profiler_error("napkin: phase \"" + state_->name + "\" has run " +
                                 std::to_string(state_->passes_done) + " of " +
                                 std::to_string(state_->passes_needed) +
                                 " passes: the report is ready when done() is true");
  return *state_->result;
}

NAPKIN_END_NAMESPACE
