// SPDX-License-Identifier: Apache-2.0
// A cold, clean L2 before each replay pass, like ncu's --cache-control all.
//
// Why not cudaMemset (what nvbench and napkin first did): a memset of 2 x L2 evicts the previous contents
// but leaves L2 full of *dirty* lines, which the measured kernel then has to write back to DRAM. On H100
// that added ~23 MB of DRAM writes and 13-35 us to a memory-bound kernel (docs/profiler.md, "Cache state").
// Reading 2 x L2 instead writes every dirty line back and leaves only clean lines of a buffer no kernel
// uses, which costs the measured kernel nothing to evict.
//
// The read kernel is PTX, JIT-compiled by the driver through the runtime's library API (cudaLibraryLoadData),
// so this header needs no nvcc: it works from a .cpp compiled by any C++17 compiler, and never links libcuda.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "napkin/cupti/errors.hpp"

// napkin_l2_clean, from a library loaded once per process and never unloaded, like a kernel compiled into the
// program (a library is context-independent: it serves every device, and every context made later). Each
// profiler used to load and unload its own: after an unload, CUPTI named its own range-profiler kernel
// ("WaitNs", grid 1, on CUPTI's stream, launched by the range's pop) after the flush kernel in some later
// sessions, so that measure() counted it as the range's work (benchmarks/device/launch_record_probe.cu,
// docs/profiler.md). The mutex guards the first load; a failed load is tried again by the next profiler.
NAPKIN_BEGIN_PROCESS_STATE
inline std::mutex l2_clean_kernel_mutex;
inline cudaKernel_t l2_clean_kernel = nullptr;
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// napkin_l2_clean(const uint4* buf, uint64 n4, uint32* sink, uint32 never): a grid-stride read of n4 16-byte
// words, XORed together; the XOR is stored only if it equals `never` (it cannot: the buffer is zero and
// `never` is not), so the loads cannot be optimized away and nothing is written. sm_75 is the oldest chip
// CUPTI's range profiler supports; the driver JIT-compiles this for the actual device.
inline constexpr const char* l2_clean_ptx = R"PTX(
.version 6.4
.target sm_75
.address_size 64

.visible .entry napkin_l2_clean(
  .param .u64 p_buf,
  .param .u64 p_n4,
  .param .u64 p_sink,
  .param .u32 p_never
)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;

  ld.param.u64 %rd1, [p_buf];
  ld.param.u64 %rd2, [p_n4];
  ld.param.u64 %rd3, [p_sink];
  ld.param.u32 %r1, [p_never];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd4, %r2, %r3;
  cvt.u64.u32 %rd5, %r4;
  add.u64 %rd4, %rd4, %rd5;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd6, %r5, %r3;
  mov.u32 %r6, 0;
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
LOOP:
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.v4.u32 {%r7, %r8, %r9, %r10}, [%rd8];
  xor.b32 %r6, %r6, %r7;
  xor.b32 %r6, %r6, %r8;
  xor.b32 %r6, %r6, %r9;
  xor.b32 %r6, %r6, %r10;
  add.u64 %rd4, %rd4, %rd6;
  setp.lt.u64 %p1, %rd4, %rd2;
  @%p1 bra LOOP;
DONE:
  setp.ne.u32 %p2, %r6, %r1;
  @%p2 bra END;
  st.global.u32 [%rd3], %r6;
END:
  ret;
}
)PTX";

// napkin_l2_clean from the process's one library (process_state::l2_clean_kernel, above).
inline cudaError_t load_l2_clean_kernel(cudaKernel_t& kernel) noexcept {
  const std::lock_guard<std::mutex> lock(process_state::l2_clean_kernel_mutex);
  cudaKernel_t& loaded = process_state::l2_clean_kernel;
  if (loaded == nullptr) {
    cudaLibrary_t library = nullptr;
    // The driver JIT-compiles the PTX.
    cudaError_t e = cudaLibraryLoadData(&library, l2_clean_ptx, nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (e != cudaSuccess) return e;
    e = cudaLibraryGetKernel(&loaded, library, "napkin_l2_clean");
    if (e != cudaSuccess) {
      loaded = nullptr;
      (void)cudaLibraryUnload(library);
      return e;
    }
  }
  kernel = loaded;
  return cudaSuccess;
}

// napkin_l2_clean with nothing to read, one warp on the legacy default stream: a kernel that executes no
// memory instruction (n4 = 0 skips the loop; the XOR, 0, is not `never`, so nothing is stored). The replay
// overhead's reference (replay_overhead.hpp).
inline cudaError_t launch_no_memory_kernel(cudaKernel_t kernel) noexcept {
  const void* buf = nullptr;
  std::uint64_t n4 = 0;
  void* sink = nullptr;
  std::uint32_t never = 0xffffffffU;
  void* args[] = {&buf, &n4, &sink, &never};
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(32), args, 0, nullptr);
}

// What a failed step of the flush's set-up says: it can be done without.
inline constexpr const char* l2_flush_note =
    "napkin's L2 flush before each pass; profiler_options::flush_l2 = false skips it";

// Owns the flush buffer (2 x L2, zeroed) and the loaded read kernel. flush() queues the read on the legacy
// default stream; the caller synchronizes.
class l2_flusher {
 public:
  explicit l2_flusher(int device) {
    int l2 = 0, sms = 0;
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), l2_flush_note);
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                                      l2_flush_note);
    if (l2 <= 0) return;  // nothing to flush
    words_ = static_cast<std::uint64_t>(l2) * 2 / 16;
    blocks_ = static_cast<unsigned>(sms > 0 ? sms : 1) * 8;
    const std::size_t bytes = static_cast<std::size_t>(words_) * 16 + 16;  // the words, then the sink
    void* buffer = nullptr;
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaMalloc(&buffer, bytes), l2_flush_note);
    buffer_.reset(buffer);
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaMemset(buffer, 0, bytes), l2_flush_note);
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(load_l2_clean_kernel(kernel_), l2_flush_note);
  }

  std::size_t bytes() const noexcept { return static_cast<std::size_t>(words_) * 16; }

  void flush() {
    if (kernel_ == nullptr) return;
    const void* buf = buffer_.get();
    std::uint64_t n4 = words_;
    void* sink = static_cast<char*>(buffer_.get()) + words_ * 16;
    std::uint32_t never = 0xffffffffU;  // the XOR of a zero buffer is 0
    void* args[] = {&buf, &n4, &sink, &never};
    NAPKIN_DETAIL_PROFILER_CHECK(
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(blocks_), dim3(256), args, 0, nullptr));
  }

 private:
  // Statuses of a release are not checked: a destructor has nothing useful to do with them.
  struct device_free {
    void operator()(void* p) const noexcept { (void)cudaFree(p); }
  };

  std::unique_ptr<void, device_free> buffer_;
  cudaKernel_t kernel_ = nullptr;  // never unloaded (process_state::l2_clean_kernel)
  std::uint64_t words_ = 0;
  unsigned blocks_ = 0;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
