// Probe behind docs/profiler.md "Why measure() reads longer than per_kernel()": times each CUPTI call of a
// user-range pass and the range's GPU duration of one copy kernel, with and without holding the legacy
// stream (cuStreamWaitValue32 on a host-mapped word) at four places in the pass. A watchdog releases a hold
// after 150 ms, so a call that blocks on the GPU shows up as ~150000 us.
// Build and run on the GPU machine (CUDA 13, CUPTI from the toolkit):
//   nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/user_range_probe.cu -o /tmp/probe -lcupti && /tmp/probe
#include <cuda.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include "napkin/profiler.hpp"

__global__ void copy_kernel(const float* in, float* out, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}
using clk = std::chrono::steady_clock;
static double us(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }

int main() {
  size_t n = size_t(1) << 26;
  float *a, *b;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
  cudaFree(nullptr);
  CUcontext ctx; 
  napkin::detail::driver_entry_point<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&ctx);
  auto wait = napkin::detail::driver_entry_point<CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned)>("cuStreamWaitValue32");
  volatile uint32_t* word; cudaHostAlloc((void**)&word, 4, cudaHostAllocMapped); *word = 0;
  void* dword; cudaHostGetDevicePointer(&dword, (void*)word, 0);
  napkin::detail::cupti_initialization init;
  napkin::profiler dummy(napkin::metric_sets::one_pass());  // to get chip/config easily
  napkin::metric_config config(dummy.chip(), napkin::metric_sets::one_pass());
  uint32_t target = 0;
  for (const char* order : {"none", "A:start,close,push,fn,pop,open,stop", "B:start,push,close,fn,open,pop,stop",
                            "C:close,start,push,fn,pop,open,stop", "D:start,push,close,fn,pop,open,stop", "none"}) {
    for (int rep = 0; rep < 3; ++rep) {
    napkin::detail::cupti_session rp(ctx, napkin::detail::user_range_user_replay);
    rp.set_config(config, 1);
    const std::vector<std::uint8_t>& data = rp.data();
    cudaDeviceSynchronize();
    std::atomic<bool> opened{false};
    ++target;
    std::thread watchdog;
    auto close = [&] {
      wait(CU_STREAM_LEGACY, (CUdeviceptr)dword, target, CU_STREAM_WAIT_VALUE_GEQ);
      watchdog = std::thread([&] { std::this_thread::sleep_for(std::chrono::milliseconds(150)); if (!opened.exchange(true)) { *word = target; std::printf("  watchdog fired\n"); } });
    };
    auto open = [&] { if (!opened.exchange(true)) *word = target; };
    std::string o = order;
    std::string log;
    auto step = [&](const char* what, auto f) { auto t0 = clk::now(); f(); char buf[64]; std::snprintf(buf, 64, "%s %.0f  ", what, us(t0, clk::now())); log += buf; };
    bool gate = o != "none";
    // execute in the order given
    std::string seq = gate ? o.substr(2) : "start,push,fn,pop,stop";
    size_t p = 0;
    while (p < seq.size()) {
      size_t q = seq.find(',', p); if (q == std::string::npos) q = seq.size();
      std::string s = seq.substr(p, q - p); p = q + 1;
      if (s == "start") step("start", [&] { rp.start(); });
      else if (s == "push") step("push", [&] { rp.push("r"); });
      else if (s == "fn") step("fn", [&] { copy_kernel<<<1024, 256>>>(a, b, n); });
      else if (s == "pop") step("pop", [&] { rp.pop(); });
      else if (s == "stop") step("stop", [&] { rp.stop(); });
      else if (s == "close") step("close", close);
      else if (s == "open") step("open", open);
    }
    step("sync", [] { cudaDeviceSynchronize(); });
    open();
    if (watchdog.joinable()) watchdog.join();
    rp.decode();
    auto v = config.evaluate(data, 0);
    double dur = 0;
    for (size_t i = 0; i < config.set().metrics.size(); ++i) if (config.set().metrics[i] == "gpu__time_duration.sum") dur = v[i];
    std::printf("%-40s duration %.1f us | %s\n", order, dur / 1e3, log.c_str());
    }
  }
}
