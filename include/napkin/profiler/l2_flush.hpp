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
#include <string>

#include "napkin/profiler/errors.hpp"

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

// Owns the flush buffer (2 x L2, zeroed) and the loaded read kernel. flush() queues the read on the legacy
// default stream; the caller synchronizes.
class l2_flusher {
 public:
  explicit l2_flusher(int device) {
    int l2 = 0, sms = 0;
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute(L2 size)");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute(SMs)");
    if (l2 <= 0) return;  // nothing to flush
    words_ = static_cast<std::uint64_t>(l2) * 2 / 16;
    blocks_ = static_cast<unsigned>(sms > 0 ? sms : 1) * 8;
    check(cudaMalloc(&buffer_, static_cast<std::size_t>(words_) * 16 + 16), "cudaMalloc (L2 flush buffer)");
    sink_ = static_cast<std::uint32_t*>(static_cast<void*>(static_cast<char*>(buffer_) + words_ * 16));
    check(cudaMemset(buffer_, 0, static_cast<std::size_t>(words_) * 16 + 16), "cudaMemset (L2 flush buffer)");
    check(cudaLibraryLoadData(&library_, l2_clean_ptx, nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cudaLibraryLoadData (napkin's L2 flush kernel, PTX JIT)");
    check(cudaLibraryGetKernel(&kernel_, library_, "napkin_l2_clean"), "cudaLibraryGetKernel (napkin_l2_clean)");
  }
  l2_flusher(const l2_flusher&) = delete;
  l2_flusher& operator=(const l2_flusher&) = delete;
  ~l2_flusher() { release(); }

  std::size_t bytes() const noexcept { return static_cast<std::size_t>(words_) * 16; }

  void flush() {
    if (kernel_ == nullptr) return;
    const void* buf = buffer_;
    std::uint64_t n4 = words_;
    void* sink = sink_;
    std::uint32_t never = 0xffffffffU;  // the XOR of a zero buffer is 0
    void* args[] = {&buf, &n4, &sink, &never};
    const cudaError_t e =
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(blocks_), dim3(256), args, 0, nullptr);
    if (e != cudaSuccess)
      raise_profiler_error(std::string("napkin: cudaLaunchKernel (napkin's L2 flush kernel): ") + cudaGetErrorName(e) +
                           " (" + cudaGetErrorString(e) + ")");
  }

 private:
  void release() noexcept {
    if (library_ != nullptr) (void)cudaLibraryUnload(library_);
    if (buffer_ != nullptr) (void)cudaFree(buffer_);
    library_ = nullptr;
    buffer_ = nullptr;
    kernel_ = nullptr;
  }
  // Construction only: frees what was made, then raises the error.
  void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    release();
    raise_profiler_error(std::string("napkin: ") + what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                         "); profiler_options::flush_l2 = false skips the flush");
  }

  void* buffer_ = nullptr;
  std::uint32_t* sink_ = nullptr;
  std::uint64_t words_ = 0;
  unsigned blocks_ = 0;
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
};

}  // namespace detail
NAPKIN_END_NAMESPACE
