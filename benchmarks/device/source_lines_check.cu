// SPDX-License-Identifier: Apache-2.0
// napkin's source lines (CUPTI PC sampling, in-process) against Nsight Compute's Source page on the zoo's
// kernels with a clear hot line. The five kernels are copies of benchmarks/zoo/zoo.cu's, bodies and launch
// shapes identical (the pointer chase's body is examples/kernels/kernels.cuh's, as in the zoo), so that
// their hot lines can be compared with the zoo's ncu data too. benchmarks/device/source_lines.sh runs it.
//
// Usage: source_lines_check napkin [period_log2 [worker_sleep_ms]]   sample each case with napkin, one line per case:
//          "case <name> top <file>:<line> samples <n> share <pct> total <n> dropped <n> setup_s <s> run_s <s>
//           drain_s <s> correlate_s <s>", then napkin's text report of each
//        source_lines_check plain                    run each case once (for ncu)
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/profiler/source_sampler.hpp"

namespace {
constexpr std::size_t big_n = std::size_t(1) << 26;
constexpr std::size_t smem_n = std::size_t(1) << 24;
constexpr int smem_rounds = 16;
constexpr int spill_iterations = 256;
constexpr int strided_stride = 16;
constexpr int chase_steps = 2048;
constexpr int conflict_iterations = 512;
}  // namespace

// ---- copies of benchmarks/zoo/zoo.cu's kernels (bodies unchanged) ------------------------------------
static __global__ void zoo_setup_pattern(float* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = static_cast<float>(static_cast<int>(i % 1021u)) * (1.0f / 1021.0f);
}

static __global__ void zoo_setup_chain(unsigned* next, std::size_t n) {
  napkin_kernels::lcg_chain(next, n);
}

static __global__ void zoo_smem_tree_reduce(const float* __restrict__ in, int rounds, float* __restrict__ out) {
  __shared__ float s[512];
  const unsigned t = threadIdx.x;
  const float x = in[blockIdx.x * 512u + t];
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    s[t] = x + static_cast<float>(r);
    __syncthreads();
    for (unsigned half = 256; half > 0; half >>= 1) {
      if (t < half) s[t] += s[t + half];
      __syncthreads();
    }
    if (t == 0) acc += s[0];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = acc;
}

static __global__ void zoo_local_spill(const unsigned* __restrict__ seed, int iterations, float never, float* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = static_cast<float>(threadIdx.x + i);
  unsigned k = seed[t];
  for (int i = 0; i < iterations; ++i) {
    k = k * 1664525u + 1013904223u;
    arr[k & 63u] += arr[(k >> 8) & 63u];
  }
  float r = 0.0f;
  for (int i = 0; i < 64; ++i) r += arr[i];
  if (r == never) out[t] = r;
}

static __global__ void zoo_strided_load(const float* __restrict__ in, std::size_t n, int stride,
                                 float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = t * stride; i < n; i += threads * stride) acc += in[i];
  out[t] = acc;
}

static __global__ void zoo_pointer_chase(const unsigned* __restrict__ next, std::size_t n, int steps, unsigned* out) {
  out[threadIdx.x] = napkin_kernels::chase_chain(next, n, steps);
}

static __global__ void zoo_bank_conflict32(int iterations, float never, float* out) {
  __shared__ float s[8][32 * 32];
  volatile float* row = &s[threadIdx.x / 32][(threadIdx.x % 32) * 32];  // volatile: every access happens
  for (int k = 0; k < 32; ++k) row[k] = static_cast<float>(k);
  __syncwarp();
  float acc = 0.0f;
  for (int i = 0; i < iterations; ++i) {
    const float v = row[i & 31];
    row[(i + 1) & 31] = v + 1.0f;
    acc += v;
  }
  if (acc == never) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

namespace {

struct buffers {
  float* a = nullptr;
  float* b = nullptr;
  unsigned* u = nullptr;
  float* small = nullptr;
  int sms = 1;
  buffers() {
    int device = 0;
    NAPKIN_CUDA_CHECK(cudaGetDevice(&device));
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    NAPKIN_CUDA_CHECK(cudaMalloc(&a, 2 * big_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&b, big_n * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&u, big_n * sizeof(unsigned)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&small, std::size_t(1) << 22));
  }
  void setup() const {
    zoo_setup_pattern<<<sms * 8, 256>>>(a, 2 * big_n);
    zoo_setup_chain<<<sms * 8, 256>>>(u, big_n);
    NAPKIN_CUDA_CHECK_LAUNCH();
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~buffers() {
    (void)cudaFree(a);
    (void)cudaFree(b);
    (void)cudaFree(u);
    (void)cudaFree(small);
  }
};

struct check_case {
  const char* name;  // the kernel's name, as both tools print it
  std::function<void()> launch;
};

std::vector<check_case> cases(const buffers& s) {
  return {
      {"zoo_strided_load", [&s] { zoo_strided_load<<<s.sms * 8, 256>>>(s.a, 2 * big_n, strided_stride, s.small); }},
      {"zoo_bank_conflict32", [&s] { zoo_bank_conflict32<<<s.sms * 4, 256>>>(conflict_iterations, -1.0f, s.small); }},
      {"zoo_local_spill", [&s] { zoo_local_spill<<<s.sms * 8, 256>>>(s.u, spill_iterations, -1.0f, s.small); }},
      {"zoo_pointer_chase",
       [&s] { zoo_pointer_chase<<<1, 32>>>(s.u, big_n, chase_steps, reinterpret_cast<unsigned*>(s.small)); }},
      {"zoo_smem_tree_reduce",
       [&s] { zoo_smem_tree_reduce<<<static_cast<unsigned>(smem_n / 512), 512>>>(s.a, smem_rounds, s.b); }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "napkin";
  buffers s;
  if (mode == "plain") {
    s.setup();
    for (const auto& c : cases(s)) {
      c.launch();
      NAPKIN_CUDA_CHECK_LAUNCH();
      NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    }
    return 0;
  }
  if (mode != "napkin") {
    std::fprintf(stderr, "usage: %s napkin [period_log2] | plain\n", argv[0]);
    return 2;
  }
  napkin::source_sampling_options o;
  if (argc > 2) o.period_log2 = static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 10));
  if (argc > 3) o.worker_sleep_ms = static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10));
  // The module loads (lazily) at its first launch: the setup runs under a first sampling, which captures
  // the module's cubin for every sampling after it.
  const auto first = napkin::sample_source_lines([&] { s.setup(); }, o);
  for (const auto& n : first.notes) std::printf("setup note: %s\n", n.c_str());
  std::vector<std::string> texts;
  for (const auto& c : cases(s)) {
    o.kernels = {c.name};
    const auto wall = std::chrono::steady_clock::now();
    const napkin::source_lines_report r = napkin::sample_source_lines(c.launch, o);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    const napkin::function_lines* f = r.functions.empty() ? nullptr : &r.functions.front();
    std::string top = "-";
    std::uint64_t samples = 0, fn_samples = 0;
    if (f != nullptr && !f->lines.empty()) {
      top = f->lines[0].where.file + ":" + std::to_string(f->lines[0].where.line);
      samples = f->lines[0].samples;
      fn_samples = f->samples;
    } else if (f != nullptr && !f->pcs.empty()) {
      char pc[32];
      std::snprintf(pc, sizeof pc, "pc+0x%llx", static_cast<unsigned long long>(f->pcs[0].pc_offset));
      top = pc;
      samples = f->pcs[0].samples;
      fn_samples = f->samples;
    }
    std::printf(
        "case %s top %s samples %llu share %.1f total %llu dropped %llu period %u setup_s %.6f run_s %.6f "
        "drain_s %.6f correlate_s %.6f wall_s %.6f\n",
        c.name, top.c_str(), static_cast<unsigned long long>(samples),
        fn_samples > 0 ? 100.0 * static_cast<double>(samples) / static_cast<double>(fn_samples) : 0.0,
        static_cast<unsigned long long>(r.cost.total_samples), static_cast<unsigned long long>(r.cost.dropped_samples),
        r.cost.period_log2, r.cost.setup_s, r.cost.run_s, r.cost.drain_s, r.cost.correlate_s, wall_s);
    texts.push_back(napkin::to_text(r));
  }
  for (const auto& t : texts) std::printf("\n%s", t.c_str());
  return 0;
}
