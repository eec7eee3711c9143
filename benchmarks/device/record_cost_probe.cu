// SPDX-License-Identifier: Apache-2.0
// Probe for docs/monitor.md (issue 27, "Done when": the monitor's wall time): what each kind of CUPTI activity
// record costs the thread that launches. The monitor turns on kernel records (CONCURRENT_KERNEL), external
// correlation (the phase of each launch) and, because CUPTI emits an external-correlation record for a call only
// while that call's own records are on, the runtime and driver API records. This probe times two patterns with
// each set of kinds on, in interleaved rounds, and counts the records each set produced:
//   launch: LAUNCHES back-to-back launches of an empty kernel, then one sync (host-bound: time per launch);
//   sync:   one empty kernel, then cudaStreamSynchronize, LAUNCHES times (a service's latency path).
// Sets: none; kernel; kernel+runtime; kernel+runtime+driver; the monitor's (those + external correlation, one
// id pushed); the monitor's with the runtime and driver records on only for the launch calls
// (cuptiActivityEnableRuntimeApi/DriverApi per call, without the RUNTIME and DRIVER kinds); and the monitor's
// with the kinds on and every other call's records turned off per call. At the end, which calls made records.
//
//   nvcc -std=c++17 -O2 -arch=sm_90 benchmarks/device/record_cost_probe.cu -o /tmp/record_cost \
//     -lcupti -L/usr/local/cuda/extras/CUPTI/lib64
//   /tmp/record_cost [LAUNCHES] [ROUNDS] [prealloc]
// prealloc: CUPTI's device buffers preallocated (64, CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE) before
// CUDA starts, to see whether the per-launch cost is pool growth (the semaphores' equivalent is not supported
// on CUDA 13.0: CUPTI_ERROR_NOT_SUPPORTED). Each set's cost is the median over rounds of its time minus the
// time with nothing on in the same round (rounds interleave the sets, so a drift of the machine cancels).
// Standalone on purpose (no napkin header, its own PROBE_CHECK): the costs measured are CUPTI's alone.
#include <cuda_runtime.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#define PROBE_CHECK(x)                                                                  \
  do {                                                                                  \
    if ((x) != 0) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #x, int(x)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__global__ void empty_kernel() {}

namespace {

constexpr int kinds = 4;  // kernel, runtime, driver, external correlation
std::atomic<std::uint64_t> record_count[kinds];
std::atomic<std::uint64_t> call_count[2][1024];  // [runtime, driver][cbid]: which calls made records

int kind_slot(CUpti_ActivityKind k) {
  switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return 0;
    case CUPTI_ACTIVITY_KIND_RUNTIME: return 1;
    case CUPTI_ACTIVITY_KIND_DRIVER: return 2;
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return 3;
    default: return -1;
  }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    const int slot = kind_slot(record->kind);
    if (slot >= 0) record_count[slot].fetch_add(1, std::memory_order_relaxed);
    if (slot == 1 || slot == 2) {
      const auto* api = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      if (api->cbid < 1024) call_count[slot - 1][api->cbid].fetch_add(1, std::memory_order_relaxed);
    }
  }
  std::free(buffer);
}

const CUpti_CallbackId runtime_launches[] = {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                                             CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                                             CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000};
const CUpti_CallbackId driver_launches[] = {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz};

enum set_id { none, kernel, kernel_runtime, kernel_runtime_driver, monitor, monitor_launch_calls, monitor_launch_records, sets };
const char* set_name[sets] = {"none", "kernel", "kernel+runtime", "kernel+runtime+driver", "monitor",
                              "monitor,launch-calls-only", "monitor,others-off"};

bool is_launch(CUpti_CallbackId id, bool runtime) {
  const CUpti_CallbackId* b = runtime ? std::begin(runtime_launches) : std::begin(driver_launches);
  const CUpti_CallbackId* e = runtime ? std::end(runtime_launches) : std::end(driver_launches);
  return std::find(b, e, id) != e;
}

// Every runtime and driver call's records off except the launches' (after the kinds are on).
void only_launch_records(uint8_t on_others) {
  for (CUpti_CallbackId id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id)
    if (!is_launch(id, true)) (void)cuptiActivityEnableRuntimeApi(id, on_others);
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id)
    if (!is_launch(id, false)) (void)cuptiActivityEnableDriverApi(id, on_others);
}

void turn_on(set_id s) {
  if (s == none) return;
  PROBE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  if (s == monitor || s == monitor_launch_calls || s == monitor_launch_records) {
    PROBE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
    PROBE_CHECK(cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 42));
  }
  if (s == kernel_runtime || s == kernel_runtime_driver || s == monitor || s == monitor_launch_records)
    PROBE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
  if (s == kernel_runtime_driver || s == monitor || s == monitor_launch_records)
    PROBE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
  if (s == monitor_launch_records) only_launch_records(0);
  if (s == monitor_launch_calls) {
    for (CUpti_CallbackId id : runtime_launches) PROBE_CHECK(cuptiActivityEnableRuntimeApi(id, 1));
    for (CUpti_CallbackId id : driver_launches) PROBE_CHECK(cuptiActivityEnableDriverApi(id, 1));
  }
}

void turn_off(set_id s) {
  if (s == none) return;
  if (s == monitor_launch_calls) {
    for (CUpti_CallbackId id : runtime_launches) PROBE_CHECK(cuptiActivityEnableRuntimeApi(id, 0));
    for (CUpti_CallbackId id : driver_launches) PROBE_CHECK(cuptiActivityEnableDriverApi(id, 0));
  }
  if (s == monitor_launch_records) only_launch_records(1);
  if (s == monitor || s == monitor_launch_calls || s == monitor_launch_records) {
    std::uint64_t id = 0;
    PROBE_CHECK(cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id));
    PROBE_CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
  }
  if (s == kernel_runtime || s == kernel_runtime_driver || s == monitor || s == monitor_launch_records)
    PROBE_CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME));
  if (s == kernel_runtime_driver || s == monitor || s == monitor_launch_records)
    PROBE_CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER));
  PROBE_CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ns per launch of one pattern with set s on; the records it produced, by kind, in counts.
double run(set_id s, bool sync_each, int launches, cudaStream_t stream, std::uint64_t counts[kinds]) {
  turn_on(s);
  for (int i = 0; i < 200; ++i) empty_kernel<<<1, 32, 0, stream>>>();  // warm the path with the kinds on
  PROBE_CHECK(cudaStreamSynchronize(stream));
  PROBE_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::uint64_t before[kinds];
  for (int k = 0; k < kinds; ++k) before[k] = record_count[k].load();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i) {
    empty_kernel<<<1, 32, 0, stream>>>();
    if (sync_each) PROBE_CHECK(cudaStreamSynchronize(stream));
  }
  PROBE_CHECK(cudaStreamSynchronize(stream));
  const double s_elapsed = seconds_since(t0);
  turn_off(s);
  PROBE_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  for (int k = 0; k < kinds; ++k) counts[k] = record_count[k].load() - before[k];
  return 1e9 * s_elapsed / launches;
}

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const bool prealloc = argc > 3 && std::string(argv[3]) == "prealloc";
  if (prealloc) {
    std::size_t size = sizeof(std::size_t);
    std::size_t pools = 64;
    PROBE_CHECK(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, &size, &pools));
  }
  PROBE_CHECK(cudaFree(nullptr));
  PROBE_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  cudaStream_t stream = nullptr;
  PROBE_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int pattern = 0; pattern < 2; ++pattern) {
    const bool sync_each = pattern == 1;
    std::vector<double> ns[sets];
    std::uint64_t counts[sets][kinds] = {};
    for (int r = 0; r < rounds; ++r)
      for (int s = 0; s < sets; ++s) ns[s].push_back(run(set_id(s), sync_each, launches, stream, counts[s]));
    for (int s = 0; s < sets; ++s) {
      std::vector<double> paired;
      for (int r = 0; r < rounds; ++r) paired.push_back(ns[s][r] - ns[none][r]);
      std::sort(paired.begin(), paired.end());
      const double over_none = paired[paired.size() / 2];
      std::printf("ROUNDS pattern=%s set=%s ns=", sync_each ? "sync" : "launch", set_name[s]);
      for (double v : ns[s]) std::printf("%.0f ", v);
      std::printf("\n");
      std::vector<double> sorted = ns[s];
      std::sort(sorted.begin(), sorted.end());
      const double median = sorted[sorted.size() / 2];
      std::printf(
          "RECORD_COST%s pattern=%s set=%s ns_per_launch=%.0f min=%.0f max=%.0f over_none_ns=%.0f (paired median) "
          "records_per_launch kernel=%.2f runtime=%.2f driver=%.2f external=%.2f\n",
          prealloc ? "(prealloc)" : "", sync_each ? "sync" : "launch", set_name[s], median, sorted.front(), sorted.back(), over_none,
          double(counts[s][0]) / launches, double(counts[s][1]) / launches, double(counts[s][2]) / launches,
          double(counts[s][3]) / launches);
    }
  }
  for (int d = 0; d < 2; ++d)
    for (CUpti_CallbackId id = 0; id < 1024; ++id)
      if (const std::uint64_t n = call_count[d][id].load()) {
        const char* name = nullptr;
        (void)cuptiGetCallbackName(d == 0 ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, id, &name);
        std::printf("CALL_RECORDS %s cbid=%u name=%s records=%llu\n", d == 0 ? "runtime" : "driver", id,
                    name ? name : "?", static_cast<unsigned long long>(n));
      }
  PROBE_CHECK(cudaStreamDestroy(stream));
  return 0;
}
