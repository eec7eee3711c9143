// SPDX-License-Identifier: Apache-2.0
// napkin/cupti/system_queues.hpp — the activity collector's queues for the system view (napkin/system/):
// copies and memsets of the devices a holder watches, and every runtime and driver call, each holder with its
// own cursor into the calls (a process with a monitor per device has one host), bounded, what they refuse
// counted; calls that only read state (is_state_query) left out. The collector (cupti/activity.hpp) owns them and holds its mutex around every call: system_queues
// is not synchronized.
#pragma once

#include "napkin/config.hpp"

#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "napkin/system/cuda_calls.hpp"
#include "napkin/system/records.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

class system_queues {
 public:
  explicit system_queues(std::size_t max_queued) : max_queued_(max_queued) {}

  // A holder watching `device`'s copies; its slot, for take() and release().
  std::size_t hold(std::uint32_t device) {
    std::size_t slot = 0;
    while (slot < slots_.size() && slots_[slot].used) ++slot;
    if (slot == slots_.size()) slots_.emplace_back();
    slots_[slot] = {true, device, calls_base_ + calls_.size()};
    return slot;
  }
  // False when the slot was not held (nothing released).
  bool release(std::size_t slot) noexcept {
    if (slot >= slots_.size() || !slots_[slot].used) return false;
    slots_[slot].used = false;
    trim_calls();
    return true;
  }

  // The copies and memsets of the slot's device and the host calls it has not seen; set_phase(correlation,
  // phase, instance) gives each its launch's phase.
  template <class SetPhase>
  system_records take(std::size_t slot, SetPhase&& set_phase) {
    system_records out;
    if (slot >= slots_.size() || !slots_[slot].used) return out;
    holder& me = slots_[slot];
    std::deque<gpu_work> keep;
    for (gpu_work& w : copies_) {
      if (w.device != me.device) {
        keep.push_back(std::move(w));
        continue;
      }
      set_phase(w.correlation, w.phase, w.instance);
      out.work.push_back(std::move(w));
    }
    copies_.swap(keep);
    for (std::uint64_t i = std::max(me.cursor, calls_base_); i < calls_base_ + calls_.size(); ++i) {
      host_call c = calls_[static_cast<std::size_t>(i - calls_base_)];
      set_phase(c.correlation, c.phase, c.instance);
      out.calls.push_back(c);
    }
    me.cursor = calls_base_ + calls_.size();
    trim_calls();
    return out;
  }

  // Copies and host calls refused because a queue was full.
  std::size_t dropped() const noexcept { return dropped_; }

  void keep_copy(gpu_work w) {
    if (!wants(w.device)) return;
    if (copies_.size() >= max_queued_) {
      ++dropped_;
      return;
    }
    copies_.push_back(std::move(w));
  }
  void keep_call(const CUpti_ActivityAPI& a, bool runtime) {
    if (std::none_of(slots_.begin(), slots_.end(), [](const holder& s) { return s.used; })) return;
    if (calls_.size() >= max_queued_) {
      ++dropped_;
      return;
    }
    const signed char kind = call_kind(a.cbid, runtime);
    if (kind == state_query) return;  // is_state_query (cuda_calls.hpp): the view leaves these out
    host_call c;
    c.kind = static_cast<host_call_kind>(kind);
    c.start_ns = a.start;
    c.end_ns = a.end;
    c.thread = a.threadId;
    c.correlation = a.correlationId;
    calls_.push_back(c);
  }

 private:
  struct holder {
    bool used = false;
    std::uint32_t device = 0;
    std::uint64_t cursor = 0;  // the next host call it takes (calls_base_ counts those trimmed)
  };
  bool wants(std::uint32_t device) const noexcept {
    for (const holder& s : slots_)
      if (s.used && s.device == device) return true;
    return false;
  }
  void trim_calls() noexcept {  // drop the host calls every holder has taken
    std::uint64_t upto = calls_base_ + calls_.size();
    for (const holder& s : slots_)
      if (s.used) upto = std::min(upto, s.cursor);
    while (calls_base_ < upto && !calls_.empty()) {
      calls_.pop_front();
      ++calls_base_;
    }
  }
  // What a call does, by callback id: its name classified once (cuda_calls.hpp), then a table lookup. A
  // host_call_kind, or state_query.
  static constexpr signed char unknown = -1, state_query = -2;
  signed char call_kind(std::uint32_t cbid, bool runtime) {
    std::vector<signed char>& kinds = call_kinds_[runtime ? 1 : 0];
    if (cbid >= max_callback_id) return static_cast<signed char>(host_call_kind::other);
    if (cbid >= kinds.size()) kinds.resize(cbid + 1, unknown);
    if (kinds[cbid] == unknown) {
      const char* name = nullptr;
      (void)cuptiGetCallbackName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name);
      kinds[cbid] = name != nullptr && is_state_query(name)
                        ? state_query
                        : static_cast<signed char>(name != nullptr ? classify_cuda_call(name) : host_call_kind::other);
    }
    return kinds[cbid];
  }
  static constexpr std::uint32_t max_callback_id = 1u << 16;  // a table bound; CUDA 13 numbers its calls below 1,000

  std::size_t max_queued_;
  std::vector<holder> slots_;
  std::deque<gpu_work> copies_;       // copies and memsets of the watched devices
  std::deque<host_call> calls_;       // runtime and driver calls
  std::uint64_t calls_base_ = 0;      // host calls trimmed from calls_'s front
  std::vector<signed char> call_kinds_[2];  // [driver, runtime][cbid] -> host_call_kind, unknown or state_query
  std::size_t dropped_ = 0;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
