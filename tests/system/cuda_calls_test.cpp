// What a CUDA call does to the host, from the names CUPTI gives its API records (cuptiGetCallbackName):
// versioned and per-thread-stream names classify as their base call; only calls without "Async" copy or set
// memory synchronously (CUDA Runtime API, "API synchronization behavior").
#include <doctest/doctest.h>

#include "napkin/system/cuda_calls.hpp"

using napkin::classify_cuda_call;
using napkin::host_call_kind;

TEST_CASE("base names drop CUPTI's version and per-thread default stream suffixes") {
  CHECK(napkin::cuda_call_base_name("cudaMemcpy_v3020") == "cudaMemcpy");
  CHECK(napkin::cuda_call_base_name("cudaLaunchKernel_ptsz_v7000") == "cudaLaunchKernel");
  CHECK(napkin::cuda_call_base_name("cudaMemcpy_ptds_v7000") == "cudaMemcpy");
  CHECK(napkin::cuda_call_base_name("cuMemcpyHtoD_v2") == "cuMemcpyHtoD");
  CHECK(napkin::cuda_call_base_name("cudaStreamSynchronize") == "cudaStreamSynchronize");
  CHECK(napkin::cuda_call_base_name("cuda_v") == "cuda_v");      // no digits after _v: kept
  CHECK(napkin::cuda_call_base_name("_v12") == "");               // a bare suffix is all suffix
  CHECK(napkin::cuda_call_base_name("") == "");
}

TEST_CASE("synchronizing calls, runtime and driver") {
  CHECK(classify_cuda_call("cudaDeviceSynchronize_v3020") == host_call_kind::device_synchronize);
  CHECK(classify_cuda_call("cudaThreadSynchronize_v3020") == host_call_kind::device_synchronize);
  CHECK(classify_cuda_call("cuCtxSynchronize") == host_call_kind::device_synchronize);
  CHECK(classify_cuda_call("cudaStreamSynchronize_ptsz_v7000") == host_call_kind::stream_synchronize);
  CHECK(classify_cuda_call("cuStreamSynchronize_ptsz") == host_call_kind::stream_synchronize);
  CHECK(classify_cuda_call("cudaEventSynchronize_v3020") == host_call_kind::event_synchronize);
  CHECK(classify_cuda_call("cuEventSynchronize") == host_call_kind::event_synchronize);
  // Waiting on another stream's event is ordering on the GPU, not the host.
  CHECK(classify_cuda_call("cudaStreamWaitEvent_v3020") == host_call_kind::other);
  CHECK(classify_cuda_call("cudaStreamQuery_v3020") == host_call_kind::other);
}

TEST_CASE("copies and memsets: synchronous without Async") {
  for (const char* name : {"cudaMemcpy_v3020", "cudaMemcpy2D_v3020", "cudaMemcpyToSymbol_v3020",
                           "cudaMemcpyFromSymbol_v3020", "cudaMemcpyPeer_v4000", "cudaMemcpy3D_ptds_v7000",
                           "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpy"}) {
    CAPTURE(name);
    CHECK(classify_cuda_call(name) == host_call_kind::synchronous_copy);
  }
  for (const char* name : {"cudaMemcpyAsync_v3020", "cudaMemcpyAsync_ptsz_v7000", "cudaMemcpy2DAsync_v3020",
                           "cudaMemcpyPeerAsync_v4000", "cuMemcpyHtoDAsync_v2"}) {
    CAPTURE(name);
    CHECK(classify_cuda_call(name) == host_call_kind::other);
  }
  CHECK(classify_cuda_call("cudaMemset_v3020") == host_call_kind::synchronous_memset);
  CHECK(classify_cuda_call("cuMemsetD32_v2") == host_call_kind::synchronous_memset);
  CHECK(classify_cuda_call("cudaMemsetAsync_v3020") == host_call_kind::other);
  CHECK(classify_cuda_call("cuMemsetD8Async") == host_call_kind::other);
}

TEST_CASE("launches and graph launches") {
  for (const char* name : {"cudaLaunchKernel_v7000", "cudaLaunchKernel_ptsz_v7000", "cudaLaunchKernelExC_v11060",
                           "cudaLaunchCooperativeKernel_v9000", "cuLaunchKernel", "cuLaunchKernelEx",
                           "cuLaunchKernel_ptsz", "cudaLaunch_v3020"}) {
    CAPTURE(name);
    CHECK(classify_cuda_call(name) == host_call_kind::launch);
  }
  CHECK(classify_cuda_call("cudaGraphLaunch_v10000") == host_call_kind::graph_launch);
  CHECK(classify_cuda_call("cudaGraphLaunch_ptsz_v10000") == host_call_kind::graph_launch);
  CHECK(classify_cuda_call("cuGraphLaunch") == host_call_kind::graph_launch);
  // Not a launch: making, instantiating or uploading a graph.
  CHECK(classify_cuda_call("cudaGraphInstantiate_v10000") == host_call_kind::other);
  CHECK(classify_cuda_call("cudaGraphUpload_v11010") == host_call_kind::other);
  CHECK(classify_cuda_call("cudaLaunchHostFunc_v10000") == host_call_kind::other);
}

TEST_CASE("blocks_host: the calls during which the host waits for the GPU") {
  CHECK(napkin::blocks_host(host_call_kind::device_synchronize));
  CHECK(napkin::blocks_host(host_call_kind::stream_synchronize));
  CHECK(napkin::blocks_host(host_call_kind::event_synchronize));
  CHECK(napkin::blocks_host(host_call_kind::synchronous_copy));
  CHECK(napkin::blocks_host(host_call_kind::synchronous_memset));
  CHECK_FALSE(napkin::blocks_host(host_call_kind::launch));
  CHECK_FALSE(napkin::blocks_host(host_call_kind::graph_launch));
  CHECK_FALSE(napkin::blocks_host(host_call_kind::other));
}

static_assert(classify_cuda_call("cudaDeviceSynchronize_v3020") == host_call_kind::device_synchronize,
              "classification is constexpr");

TEST_CASE("is_state_query: calls that only read state, which the system view leaves out") {
  using napkin::is_state_query;
  for (const char* name : {"cudaGetLastError_v3020", "cudaPeekAtLastError_v3020", "cudaGetDevice_v3020",
                           "cudaGetDeviceCount_v3020", "cudaDeviceGetAttribute_v5000", "cudaStreamGetCaptureInfo_v2_v11030",
                           "cudaStreamIsCapturing_ptsz_v10000", "cudaPointerGetAttributes_v4000", "cuCtxGetCurrent",
                           "cuDeviceGetAttribute", "cuStreamGetCaptureInfo_v2_ptsz", "cuPointerGetAttribute",
                           "cuKernelGetName", "cuFuncGetName"}) {
    CAPTURE(name);
    CHECK(is_state_query(name));
    CHECK(classify_cuda_call(name) == host_call_kind::other);
  }
  // Not queries: calls that wait, poll the GPU, launch, copy, make a context, may load a module or take long.
  for (const char* name : {"cudaStreamSynchronize_v3020", "cudaStreamQuery_v3020", "cudaEventQuery_v3020",
                           "cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020", "cudaSetDevice_v3020", "cudaMalloc_v3020",
                           "cudaFuncGetAttributes_v3020", "cudaGetDeviceProperties_v2_v12000", "cudaGetDeviceFlags_v7000",
                           "cuLaunchKernel", "cuCtxSynchronize", "cuModuleGetFunction", "cuKernelGetAttribute",
                           "cuKernelGetFunction", "cudaGetLastErrorX", ""}) {
    CAPTURE(name);
    CHECK_FALSE(is_state_query(name));
  }
}

static_assert(napkin::is_state_query("cudaGetLastError_v3020") && !napkin::is_state_query("cudaMemcpy_v3020"),
              "is_state_query is constexpr");
