// SPDX-License-Identifier: Apache-2.0
// PC -> file:line: CUPTI's cuptiGetSassToSourceCorrelation on the cubin of the PC's module, and the cubins
// themselves, captured as modules load.
//
// cuptiGetSassToSourceCorrelation (CUDA 13.0's cupti_pcsampling.h) reads the line table nvcc writes with
// -lineinfo (or -G) from a cubin, given the function's name and the PC's offset in it, and returns the file,
// its directory (both allocated by CUPTI, freed by the caller) and the line. It is a host computation: it
// needs neither a GPU nor a driver (tests/profiler/source_lines_test.cpp runs it on a recorded cubin and
// checks it against nvdisasm --print-line-info). Without line information it fails or returns line 0.
//
// The cubin of a module comes from CUPTI's resource callback CUPTI_CBID_RESOURCE_MODULE_LOADED, whose
// CUpti_ModuleResourceData holds the cubin's bytes (NVIDIA's CUPTI documentation, "PC Sampling": source
// correlation uses the cubin captured at module load, keyed by cuptiGetCubinCrc, the CRC CUPTI writes into
// each PC record). Only modules loaded while the capture lives are seen: with CUDA's lazy loading (the
// default since CUDA 12.2, CUDA_MODULE_LOADING=LAZY) a module loads at the first launch of one of its kernels,
// so a capture started before that launch sees it. A module loaded earlier can be handed over as bytes
// (source_sampling_options::cubins).
//
// CUPTI allows one callback subscriber per process (cupti_callbacks.h); napkin's kernel-name recorder
// (cupti/kernel_names.hpp) holds it while a range profiler runs. The capture subscribes on its own and,
// when the subscription is taken, says so and keeps what it was given. Captured cubins stay for the life of
// the process (process_state::captured_cubins), so sampling the same kernels again finds them.
#pragma once

#include "napkin/config.hpp"

#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/errors.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// One module's code as loaded: the cubin's bytes and CUPTI's CRC of them.
struct cubin_image {
  std::vector<char> bytes;
  std::uint64_t crc = 0;
};

// CUPTI's CRC of a cubin (the value PC records carry in cubinCrc); 0 if CUPTI refuses.
inline std::uint64_t cubin_crc(const std::vector<char>& cubin) noexcept {
  CUpti_GetCubinCrcParams p{};
  p.size = CUpti_GetCubinCrcParamsSize;
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  if (cubin.empty() || cuptiGetCubinCrc(&p) != CUPTI_SUCCESS) return 0;
  return p.cubinCrc;
}

inline cubin_image make_cubin_image(std::vector<char> bytes) {
  cubin_image c;
  c.bytes = std::move(bytes);
  c.crc = cubin_crc(c.bytes);
  return c;
}

// A PC's place in the source, as CUPTI correlates it. `status` is CUPTI's answer; line 0 when there is no
// line information for the PC.
struct sass_line {
  std::string file;
  std::string dir;
  std::uint32_t line = 0;
  CUptiResult status = CUPTI_SUCCESS;
};

// The file and line of `pc_offset` in function `symbol` (its mangled name) of `cubin`.
inline sass_line correlate_pc(const std::vector<char>& cubin, const std::string& symbol, std::uint64_t pc_offset) {
  CUpti_GetSassToSourceCorrelationParams p{};
  p.size = CUpti_GetSassToSourceCorrelationParamsSize;
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  p.functionName = symbol.c_str();
  p.pcOffset = pc_offset;
  sass_line out;
  out.status = cuptiGetSassToSourceCorrelation(&p);
  if (p.fileName != nullptr) out.file = p.fileName;
  if (p.dirName != nullptr) out.dir = p.dirName;
  std::free(p.fileName);  // CUPTI's allocations: "It is expected from user to free allocated memory"
  std::free(p.dirName);
  if (out.status == CUPTI_SUCCESS) out.line = p.lineNumber;
  return out;
}

}  // namespace detail
NAPKIN_END_NAMESPACE

// Every cubin captured so far in the process, kept for later samplers: a module loads once, so a second
// sampling of its kernels finds its cubin here. Guarded by module_capture_mutex.
NAPKIN_BEGIN_PROCESS_STATE
inline std::mutex module_capture_mutex;
inline std::vector<napkin::detail::cubin_image> captured_cubins;
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// Captures the cubin of every module loaded while it lives, into the process-wide list. One at a time in a
// process (a second one, or another CUPTI subscriber, leaves it unavailable, with the reason).
class module_capture {
 public:
  module_capture() {
#ifdef CUPTI_SUBSCRIBER_NAME_MAX_LEN
    char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "napkin source lines";
    params.oldSubscriberName = holder;
    params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
    const CUptiResult s = cuptiSubscribe_v2(&subscriber_, &on_resource, nullptr, &params);
#else
    const char holder[1] = {};
    const CUptiResult s = cuptiSubscribe(&subscriber_, &on_resource, nullptr);
#endif
    if (s != CUPTI_SUCCESS) {
      subscriber_ = nullptr;
      unavailable_ = describe_cupti_failure("cuptiSubscribe (module loads)", s);
      if (holder[0] != '\0') unavailable_ += std::string(" The subscriber already attached: \"") + holder + "\".";
      return;
    }
    const CUptiResult e =
        cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    if (e != CUPTI_SUCCESS) unavailable_ = describe_cupti_failure("cuptiEnableCallback (module loads)", e);
  }
  module_capture(const module_capture&) = delete;
  module_capture& operator=(const module_capture&) = delete;
  ~module_capture() {
    if (subscriber_ == nullptr) return;
    (void)cuptiUnsubscribe(subscriber_);
  }

  // Why modules cannot be captured; empty when they can.
  const std::string& unavailable_reason() const noexcept { return unavailable_; }
  // Every cubin captured in the process so far (this capture's and earlier ones').
  static std::vector<cubin_image> cubins() {
    const std::lock_guard<std::mutex> lock(process_state::module_capture_mutex);
    return process_state::captured_cubins;
  }

 private:
  static void CUPTIAPI on_resource(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED || data == nullptr) return;
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
    if (module == nullptr || module->pCubin == nullptr || module->cubinSize == 0) return;
    cubin_image image = make_cubin_image(std::vector<char>(module->pCubin, module->pCubin + module->cubinSize));
    const std::lock_guard<std::mutex> lock(process_state::module_capture_mutex);
    for (const auto& c : process_state::captured_cubins)
      if (c.bytes == image.bytes) return;  // the same module loaded again (another context)
    process_state::captured_cubins.push_back(std::move(image));
  }

  CUpti_SubscriberHandle subscriber_ = nullptr;
  std::string unavailable_;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
