// SPDX-License-Identifier: Apache-2.0
// Kernel names: readable names of mangled ones (demangled once each, for the activity collector), and the
// names of the kernels launched while CUPTI's auto-range profiler runs (it names ranges "0", "1", ...).
//
// A CUPTI callback subscription records each launch's symbol at API entry, in launch order, which is the
// order of the auto ranges because kernel replay serializes launches; each recorder keeps the launches made
// on its profiler's context. Only one CUPTI subscriber may exist per process, so napkin's recorders share
// one (process-wide, below); when another tool holds it, names fall back to "kernel #i" and the reason,
// naming the other tool where CUPTI says it, is kept.
#pragma once

#include "napkin/config.hpp"

#include <cuda.h>  // CUcontext (a type only)
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__GNUC__) || defined(__clang__)
#include <cxxabi.h>
#endif

#include "napkin/cupti/errors.hpp"

NAPKIN_BEGIN_NAMESPACE

// A demangled kernel name, without its parameter list ("void scale<float>(float*, int)" -> "scale<float>").
inline std::string readable_kernel_name(const char* symbol) {
  if (symbol == nullptr) return {};
  std::string name = symbol;
#if defined(__GNUC__) || defined(__clang__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                                   std::free);
  if (status == 0 && demangled) name = demangled.get();
#endif
  // Drop the parameter list: the last top-level "(...)".
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.erase(i);
        break;
      }
    }
  }
  // Drop a leading return type ("void ").
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);
  return name;
}

namespace detail {

// Readable names of mangled kernel names, demangled once each: demangling costs microseconds and a workload
// launches the same kernels again and again (the collector names ~10,000 kernel records a second). CUPTI
// shares one name string among the records of a kernel, so a small table by the string's address answers
// most lookups without building a key or hashing the name; the address is checked against the name it was
// seen with (strcmp), since CUPTI may free a name and reuse its memory for another. Bounded: past
// `max_names` distinct names (a program generating kernels forever) everything is forgotten and starts over.
class readable_name_cache {
 public:
  explicit readable_name_cache(std::size_t max_names = 65536) : max_names_(max_names) {}

  const std::string& of(const char* mangled) {
    static const std::string unnamed = "(unnamed kernel)";
    if (mangled == nullptr) return unnamed;
    recent_name& recent = recent_[(reinterpret_cast<std::uintptr_t>(mangled) >> 4) % recent_.size()];
    if (recent.address == mangled && std::strcmp(recent.entry->first.c_str(), mangled) == 0)
      return recent.entry->second;
    auto it = names_.find(mangled);
    if (it == names_.end()) {
      if (names_.size() >= max_names_) {
        names_.clear();
        recent_.fill({});
      }
      it = names_.emplace(mangled, readable_kernel_name(mangled)).first;
    }
    recent = {mangled, &*it};  // the map's entries stay where they are until clear()
    return it->second;
  }
  std::size_t size() const noexcept { return names_.size(); }

 private:
  struct recent_name {
    const char* address = nullptr;
    const std::pair<const std::string, std::string>* entry = nullptr;  // in names_
  };
  std::size_t max_names_;
  std::unordered_map<std::string, std::string> names_;  // mangled -> readable
  std::array<recent_name, 64> recent_{};
};

// What a kernel_name_recorder saw: one entry per launch, in launch order. A value, so that a recording can
// end (the recorder destroyed) before the ranges are decoded.
struct launch_log {
  // Graph launches record `graph_marker` (their kernels' names are not visible).
  static constexpr const char* graph_marker = "\x01graph";
  std::vector<std::string> launches;
  bool available = false;  // false when another CUPTI subscriber kept napkin from recording

  // Names for `ranges` auto ranges: recorded names while they line up with the launches, "kernel #i" after
  // the first graph launch (a graph holds an unknown number of kernels) or when names are unavailable.
  std::vector<std::string> names_for(std::size_t ranges) const {
    std::vector<std::string> out;
    bool aligned = true;
    for (std::size_t i = 0; i < ranges; ++i) {
      const bool known = i < launches.size();
      if (aligned && (!known || launches[i] == graph_marker)) aligned = false;
      if (aligned && !launches[i].empty())
        out.push_back(launches[i]);
      else
        out.push_back("kernel #" + std::to_string(i) + (known && launches[i] == graph_marker ? " (in a graph)" : ""));
    }
    return out;
  }
  bool saw_graph() const {
    for (const auto& l : launches)
      if (l == graph_marker) return true;
    return false;
  }
  // Kernels launched, when known: none if names are unavailable or a graph hid its kernels.
  std::optional<std::size_t> kernel_launches() const {
    if (!available || saw_graph()) return std::nullopt;
    return launches.size();
  }
};

// A recorder of one profiler's launches, as the shared subscription (below) sees it.
class launch_listener {
 public:
  launch_listener(CUcontext context, bool names) : context_(context), names_(names) {}
  CUcontext context() const noexcept { return context_; }
  bool wants_names() const noexcept { return names_; }
  void add(std::string name) {
    const std::lock_guard<std::mutex> lock(mutex_);
    launches_.push_back(std::move(name));
  }
  std::vector<std::string> launches() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return launches_;
  }
  std::size_t count() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return launches_.size();
  }

 private:
  CUcontext context_;
  bool names_;
  mutable std::mutex mutex_;
  std::vector<std::string> launches_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE

// The one CUPTI callback subscription napkin holds while any profiler records launches, shared by every
// recorder. Process-wide because CUPTI allows one subscriber per process (CUDA 13.0's cupti_callbacks.h:
// "Only a single subscriber can be registered at a time"): two profilers on two threads recording at once
// (per_kernel on two devices) share it, each listener receiving the launches made on its context.
// `launch_subscription_mutex` serializes subscribing and unsubscribing; `launch_listeners_mutex` guards
// the list the callback reads. The callback takes only the second, and CUPTI is never called with it held,
// so a launch on one thread cannot deadlock against a recorder ending on another.
NAPKIN_BEGIN_PROCESS_STATE
inline std::mutex launch_subscription_mutex;
inline CUpti_SubscriberHandle launch_subscriber = nullptr;  // guarded by launch_subscription_mutex
inline std::atomic<std::uint64_t> launch_subscriptions{0};  // subscriptions made so far (the callback's epoch)
inline std::mutex launch_listeners_mutex;
inline std::vector<napkin::detail::launch_listener*> launch_listeners;  // guarded by launch_listeners_mutex
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// The launch callbacks napkin enables: every way to launch a kernel or a graph, runtime and driver.
inline void enable_launch_callbacks(CUpti_SubscriberHandle subscriber) {
  for (CUpti_CallbackId id : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                              CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                              CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
                              CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000})
    (void)cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
  for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                              CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    (void)cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
}

// Which listeners a launch made on `context` belongs to: those of that context; a launch whose context
// CUPTI does not know (null: the runtime had not bound one yet) goes to a lone listener only.
inline bool launch_belongs_to(const launch_listener& l, CUcontext context, std::size_t listeners) noexcept {
  return context != nullptr ? l.context() == context : listeners == 1;
}

inline void CUPTIAPI on_launch_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  // The runtime calls the driver underneath: count a runtime launch once, not again at the driver level.
  // A subscription made or ended by another thread in the middle of this thread's launch delivers an EXIT
  // without its ENTER, or an ENTER without its EXIT: the depth restarts with each subscription and never
  // goes below 0 (else this thread's driver-level callbacks would count twice, or never).
  thread_local int inside_runtime_launch = 0;
  thread_local std::uint64_t seen_subscription = 0;
  const std::uint64_t subscription = process_state::launch_subscriptions.load(std::memory_order_relaxed);
  if (seen_subscription != subscription) {
    seen_subscription = subscription;
    inside_runtime_launch = 0;
  }
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (cb->callbackSite == CUPTI_API_EXIT) {
      if (inside_runtime_launch > 0) --inside_runtime_launch;
      return;
    }
    ++inside_runtime_launch;
  } else if (inside_runtime_launch > 0 || cb->callbackSite != CUPTI_API_ENTER) {
    return;
  }
  const bool graph = (domain == CUPTI_CB_DOMAIN_RUNTIME_API && (id == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
                                                                id == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000)) ||
                     (domain == CUPTI_CB_DOMAIN_DRIVER_API && (id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
                                                               id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz));
  const std::lock_guard<std::mutex> lock(process_state::launch_listeners_mutex);
  const std::size_t listeners = process_state::launch_listeners.size();
  std::optional<std::string> name;  // demangled once, only when a listener wants it
  for (launch_listener* l : process_state::launch_listeners) {
    if (!launch_belongs_to(*l, cb->context, listeners)) continue;
    if (graph) {
      l->add(launch_log::graph_marker);
    } else if (l->wants_names()) {
      if (!name) name = readable_kernel_name(cb->symbolName);
      l->add(*name);
    } else {
      l->add(std::string());
    }
  }
}

// Subscribes napkin's callback; returns why not (empty on success). With cuptiSubscribe_v2 (CUDA >= 12.8's
// CUPTI) the reason names the client that holds the subscription.
inline std::string subscribe_launch_callback(CUpti_SubscriberHandle& subscriber) {
#ifdef CUPTI_SUBSCRIBER_NAME_MAX_LEN
  char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "napkin";
  params.oldSubscriberName = holder;
  params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
  const CUptiResult s = cuptiSubscribe_v2(&subscriber, &on_launch_callback, nullptr, &params);
  if (s == CUPTI_SUCCESS) return {};
  std::string why = describe_cupti_failure("cuptiSubscribe_v2 (kernel names)", s);
  if (holder[0] != '\0') why += std::string(" The subscriber already attached: \"") + holder + "\".";
  return why;
#else
  const CUptiResult s = cuptiSubscribe(&subscriber, &on_launch_callback, nullptr);
  return s == CUPTI_SUCCESS ? std::string() : describe_cupti_failure("cuptiSubscribe (kernel names)", s);
#endif
}

// Records the symbol of every kernel launched on `context` (from any thread) while it lives, through the
// shared subscription. With names = false it only counts launches (no demangling inside the launch path:
// measure() counts the launches of every pass inside the measured range).
class kernel_name_recorder {
 public:
  explicit kernel_name_recorder(CUcontext context, bool names = true) : listener_(context, names) {
    const std::lock_guard<std::mutex> subscription(process_state::launch_subscription_mutex);
    if (process_state::launch_subscriber == nullptr) {
      CUpti_SubscriberHandle subscriber = nullptr;
      unavailable_ = subscribe_launch_callback(subscriber);
      if (!unavailable_.empty()) return;
      process_state::launch_subscriptions.fetch_add(1, std::memory_order_relaxed);
      enable_launch_callbacks(subscriber);
      process_state::launch_subscriber = subscriber;
    }
    const std::lock_guard<std::mutex> lock(process_state::launch_listeners_mutex);
    process_state::launch_listeners.push_back(&listener_);
    listening_ = true;
  }
  kernel_name_recorder(const kernel_name_recorder&) = delete;
  kernel_name_recorder& operator=(const kernel_name_recorder&) = delete;
  ~kernel_name_recorder() {
    if (!listening_) return;
    const std::lock_guard<std::mutex> subscription(process_state::launch_subscription_mutex);
    bool last = false;
    {
      const std::lock_guard<std::mutex> lock(process_state::launch_listeners_mutex);
      auto& all = process_state::launch_listeners;
      all.erase(std::remove(all.begin(), all.end(), &listener_), all.end());
      last = all.empty();
    }
    if (last) {
      (void)cuptiUnsubscribe(process_state::launch_subscriber);  // nothing useful to do with a failure here
      process_state::launch_subscriber = nullptr;
    }
  }

  launch_log log() const { return {listener_.launches(), listening_}; }
  // Launches recorded so far (graph launches count once); none when recording is unavailable.
  std::optional<std::size_t> count() const {
    if (!listening_) return std::nullopt;
    return listener_.count();
  }
  const std::string& unavailable_reason() const noexcept { return unavailable_; }

 private:
  launch_listener listener_;
  bool listening_ = false;
  std::string unavailable_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
