// SPDX-License-Identifier: Apache-2.0
// Names of the kernels launched while CUPTI's auto-range profiler runs (it names ranges "0", "1", ...).
//
// A CUPTI callback subscription records each launch's symbol at API entry, in launch order, which is the
// order of the auto ranges because kernel replay serializes launches. Only one CUPTI subscriber may exist
// per process: when another tool holds it, names fall back to "kernel #i" and the reason is kept.
#pragma once

#include "napkin/config.hpp"

#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#if defined(__GNUC__) || defined(__clang__)
#include <cxxabi.h>
#endif

#include "napkin/profiler/errors.hpp"

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

// Records the symbol of every kernel launched on any thread while it lives (a CUPTI callback subscription).
// With names = false it only counts launches (no demangling inside the launch path: measure() counts the
// launches of every pass inside the measured range).
class kernel_name_recorder {
 public:
  explicit kernel_name_recorder(bool names = true) : names_(names) {
    const CUptiResult s = cuptiSubscribe(&subscriber_, &kernel_name_recorder::on_callback, this);
    if (s != CUPTI_SUCCESS) {
      subscriber_ = nullptr;
      unavailable_ = describe_cupti_failure("cuptiSubscribe (kernel names)", s);
      return;
    }
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
      (void)cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API, id);
    for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
      (void)cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id);
  }
  kernel_name_recorder(const kernel_name_recorder&) = delete;
  kernel_name_recorder& operator=(const kernel_name_recorder&) = delete;
  ~kernel_name_recorder() {
    if (subscriber_ != nullptr) (void)cuptiUnsubscribe(subscriber_);
  }

  launch_log log() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {launches_, subscriber_ != nullptr};
  }
  // Launches recorded so far (graph launches count once); none when recording is unavailable.
  std::optional<std::size_t> count() const {
    if (subscriber_ == nullptr) return std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    return launches_.size();
  }
  const std::string& unavailable_reason() const noexcept { return unavailable_; }

 private:
  static void CUPTIAPI on_callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    auto* me = static_cast<kernel_name_recorder*>(self);
    const auto* cb = static_cast<const CUpti_CallbackData*>(data);
    // The runtime calls the driver underneath: count a runtime launch once, not again at the driver level.
    thread_local int inside_runtime_launch = 0;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      if (cb->callbackSite == CUPTI_API_EXIT) {
        --inside_runtime_launch;
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
    std::string name = graph ? std::string(launch_log::graph_marker)
                              : me->names_ ? readable_kernel_name(cb->symbolName) : std::string();
    std::lock_guard<std::mutex> lock(me->mutex_);
    me->launches_.push_back(std::move(name));
  }

  bool names_ = true;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::string unavailable_;
  mutable std::mutex mutex_;
  std::vector<std::string> launches_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
