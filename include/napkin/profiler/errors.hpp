// Why profiling failed, in words a user can act on.
//
// Every CUPTI failure becomes a napkin::profiler_error carrying the CUPTI status (or CUPTI_SUCCESS when the
// failure is napkin's own check), the call that failed, CUPTI's own text, and what to do about it.
#pragma once

#include <cupti_result.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace napkin {

class profiler_error : public std::runtime_error {
 public:
  profiler_error(CUptiResult status, const std::string& what) : std::runtime_error(what), status_(status) {}
  explicit profiler_error(const std::string& what) : profiler_error(CUPTI_SUCCESS, what) {}
  // The CUPTI status behind the failure; CUPTI_SUCCESS when napkin itself refused.
  CUptiResult status() const noexcept { return status_; }

 private:
  CUptiResult status_;
};

// What a user can do about a CUPTI status: empty when there is nothing better than CUPTI's own text.
inline std::string profiler_advice(CUptiResult status) {
  switch (status) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return "GPU performance counters are restricted to administrators on this machine. Run as root, or "
             "allow all users: load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0 (see "
             "https://developer.nvidia.com/ERR_NVGPUCTRPERM); in a container add --cap-add SYS_ADMIN.";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "the GPU's performance-monitor hardware is in use by another client (DCGM profiling, ncu, "
             "nsys, another process profiling this GPU). Stop it (e.g. `dcgmi profile --pause`) and retry.";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "another CUPTI client is attached to this process (Nsight Compute, Nsight Systems, cuda-gdb or "
             "a library using CUPTI). Run without the other tool, or profile with that tool instead.";
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      return "another part of this process uses an older CUPTI profiling API; CUPTI cannot mix the "
             "generations in one process.";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      return "range profiling is not available on this MIG instance; profile on a full GPU.";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "this is a virtual GPU without profiling enabled; ask the hypervisor administrator to enable "
             "profiling for the vGPU.";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      return "profiling is not available with confidential computing enabled.";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      return "profiling is not available on NVIDIA CMP devices.";
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
      return "profiling is not available with SLI enabled.";
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
      return "profiling under WSL needs driver >= 525 on Windows 11.";
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      return "a metric name is not known for this chip (ncu-only forms such as breakdown:... and launch__... "
             "are not CUPTI metrics); napkin::check_metrics lists which.";
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      return "unknown chip name; napkin::supported_chips() lists the ones this CUPTI knows.";
    case CUPTI_ERROR_NOT_INITIALIZED:
      return "no usable CUDA device or driver.";
    case CUPTI_ERROR_NOT_SUPPORTED:
      return "this CUPTI feature is not supported for this device or configuration.";
    default:
      return {};
  }
}

// "<call>: CUPTI_ERROR_X (cupti text). <advice>"
inline std::string describe_cupti_failure(const char* call, CUptiResult status) {
  const char* text = nullptr;
  std::string what = call;
  what += ": ";
  if (cuptiGetResultString(status, &text) == CUPTI_SUCCESS && text != nullptr)
    what += text;
  else
    what += "CUPTI status " + std::to_string(static_cast<int>(status));
  const char* message = nullptr;
  if (cuptiGetErrorMessage(status, &message) == CUPTI_SUCCESS && message != nullptr && *message != '\0')
    what += std::string(" (") + message + ")";
  const std::string advice = profiler_advice(status);
  if (!advice.empty()) what += ". " + advice;
  return what;
}

namespace detail {
// A zeroed CUPTI parameter struct with its size set (pPriv and every optional field null).
template <class Params>
Params cupti_params(std::size_t struct_size) noexcept {
  Params p{};
  p.structSize = struct_size;
  return p;
}

}  // namespace detail

// NAPKIN_CUPTI_PARAMS(CUpti_X_Params): a zeroed CUpti_X_Params with structSize = CUpti_X_Params_STRUCT_SIZE.
// A macro because the size constant's name is pasted from the type's. (clang-tidy's bugprone-sizeof-expression
// fires at every use: CUPTI's _STRUCT_SIZE macros take sizeof of a member through a null pointer.)
#define NAPKIN_CUPTI_PARAMS(type) /* NOLINT(cppcoreguidelines-macro-usage) */ \
  ::napkin::detail::cupti_params<type>(type##_STRUCT_SIZE)

namespace detail {
inline void cupti_check(CUptiResult status, const char* call) {
  if (status != CUPTI_SUCCESS) throw profiler_error(status, describe_cupti_failure(call, status));
}
}  // namespace detail
}  // namespace napkin
