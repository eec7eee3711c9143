// The names CUPTI gives the API records the monitor collects (cuptiGetCallbackName: a table in CUPTI, no
// driver or GPU needed), classified: every runtime and driver call of the kinds the system view counts.
#include <doctest/doctest.h>

#include <cupti.h>

#include <cstddef>
#include <string>
#include <utility>

#include "napkin/system/cuda_calls.hpp"

namespace {
std::string name_of(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  const char* name = nullptr;
  REQUIRE(cuptiGetCallbackName(domain, id, &name) == CUPTI_SUCCESS);
  REQUIRE(name != nullptr);
  return name;
}
napkin::host_call_kind runtime(CUpti_CallbackId id) {
  return napkin::classify_cuda_call(name_of(CUPTI_CB_DOMAIN_RUNTIME_API, id));
}
napkin::host_call_kind driver(CUpti_CallbackId id) {
  return napkin::classify_cuda_call(name_of(CUPTI_CB_DOMAIN_DRIVER_API, id));
}
}  // namespace

using napkin::host_call_kind;

TEST_CASE("runtime API records by their CUPTI names") {
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020) == host_call_kind::device_synchronize);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020) == host_call_kind::stream_synchronize);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000) == host_call_kind::stream_synchronize);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020) == host_call_kind::event_synchronize);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020) == host_call_kind::synchronous_copy);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000) == host_call_kind::synchronous_copy);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020) == host_call_kind::synchronous_copy);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000) == host_call_kind::synchronous_copy);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020) == host_call_kind::other);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000) == host_call_kind::other);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020) == host_call_kind::synchronous_memset);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020) == host_call_kind::other);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000) == host_call_kind::launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000) == host_call_kind::launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060) == host_call_kind::launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000) == host_call_kind::launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000) == host_call_kind::graph_launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000) == host_call_kind::graph_launch);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020) == host_call_kind::other);
  CHECK(runtime(CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020) == host_call_kind::other);
}

TEST_CASE("driver API records by their CUPTI names") {
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize) == host_call_kind::device_synchronize);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize) == host_call_kind::stream_synchronize);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz) == host_call_kind::stream_synchronize);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize) == host_call_kind::event_synchronize);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2) == host_call_kind::synchronous_copy);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2) == host_call_kind::synchronous_copy);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2) == host_call_kind::other);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2) == host_call_kind::synchronous_memset);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) == host_call_kind::launch);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) == host_call_kind::launch);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx) == host_call_kind::launch);
  CHECK(driver(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch) == host_call_kind::graph_launch);
}

TEST_CASE("the state queries by their CUPTI names, and no call of another kind among them") {
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020)));
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020)));
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020)));
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent)));
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute)));
  // The name lookup the CUDA 13 runtime makes inside every cudaLaunchKernel.
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuKernelGetName)));
  CHECK(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuFuncGetName)));
  CHECK_FALSE(napkin::is_state_query(name_of(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020)));
  // Every call CUPTI names: a state query is never one the view counts as a wait, a copy or a launch.
  std::size_t queries = 0;
  for (const auto& [domain, size] : {std::pair<CUpti_CallbackDomain, int>{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                                     std::pair<CUpti_CallbackDomain, int>{CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}})
    for (int id = 1; id < size; ++id) {
      const char* name = nullptr;
      if (cuptiGetCallbackName(domain, static_cast<CUpti_CallbackId>(id), &name) != CUPTI_SUCCESS || name == nullptr) continue;
      if (!napkin::is_state_query(name)) continue;
      ++queries;
      CAPTURE(name);
      CHECK(napkin::classify_cuda_call(name) == host_call_kind::other);
    }
  CHECK(queries >= 20);  // the list's names, several with CUPTI's _v2 and per-thread variants
}
