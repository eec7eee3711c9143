// Source lines on a GPU (CUPTI PC sampling): kernels with one clear hot line, built with -lineinfo; the
// line napkin names is the line the kernel's source marks (hot_line_* below, from __LINE__).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "napkin/profiler/source_sampler.hpp"

// Kernels at global scope, static: their readable names are "strided_load" and "bank_conflict".
// A strided load: each lane its own sector, every iteration waits on global memory (long scoreboard).
constexpr unsigned hot_line_strided = __LINE__ + 6;
static __global__ void strided_load(const float* __restrict__ in, std::size_t n, int stride, float* __restrict__ out) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  float acc = 0.0f;
  for (std::size_t i = t * stride; i < n; i += threads * stride)
    acc += in[i];
  out[t] = acc;
}

// 32-way bank conflicts: every lane of a warp in one bank of shared memory.
constexpr unsigned hot_line_conflict = __LINE__ + 9;
static __global__ void bank_conflict(int iterations, float never, float* out) {
  __shared__ float s[8][32 * 32];
  volatile float* row = &s[threadIdx.x / 32][(threadIdx.x % 32) * 32];
  for (int k = 0; k < 32; ++k) row[k] = static_cast<float>(k);
  __syncwarp();
  float acc = 0.0f;
  for (int i = 0; i < iterations; ++i) {
    const float v = row[i & 31];
    row[(i + 1) & 31] = v + 1.0f; acc += v;
  }
  if (acc == never) out[threadIdx.x] = acc;
}

namespace {

struct device_buffers {
  float* in = nullptr;
  float* out = nullptr;
  std::size_t n = std::size_t(1) << 26;
  device_buffers() {
    REQUIRE(cudaMalloc(&in, n * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, (std::size_t(1) << 20) * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(in, 0, n * sizeof(float)) == cudaSuccess);
  }
  ~device_buffers() {
    (void)cudaFree(in);
    (void)cudaFree(out);
  }
};

int sms() {
  int device = 0, count = 0;
  (void)cudaGetDevice(&device);
  (void)cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
  return count > 0 ? count : 1;
}

}  // namespace

// First in the file: the module loads (lazily) inside this sampling, so its cubin is captured here.
TEST_CASE("the hot line of a strided load is its load, with a memory stall on top") {
  device_buffers b;
  const napkin::source_lines_report r = napkin::sample_source_lines([&] {
    for (int rep = 0; rep < 20; ++rep) strided_load<<<sms() * 8, 256>>>(b.in, b.n, 32, b.out);
  });
  std::printf("%s\n", napkin::to_text(r).c_str());
  const napkin::function_lines* f = r.find("strided_load");
  REQUIRE(f != nullptr);
  CHECK(f->line_info);
  REQUIRE_FALSE(f->lines.empty());
  CHECK(f->lines[0].where.file.find("gpu_source_lines_test.cu") != std::string::npos);
  CHECK(f->lines[0].where.line == hot_line_strided);
  CHECK(f->lines[0].samples * 2 > f->samples);  // a clear leader
  CHECK(r.cost.total_samples > 0);
  CHECK(r.cost.pc_records > 0);
  CHECK(r.cost.run_s > 0);
}

TEST_CASE("a second sampling finds the module captured by the first; only the kernels asked for") {
  device_buffers b;
  napkin::source_sampling_options o;
  o.kernels = {"bank_conflict"};
  o.period_log2 = 12;
  const napkin::source_lines_report r = napkin::sample_source_lines([&] {
    strided_load<<<sms() * 8, 256>>>(b.in, b.n, 32, b.out);
    bank_conflict<<<sms() * 4, 256>>>(20000, -1.0f, b.out);
  }, o);
  std::printf("%s\n", napkin::to_text(r).c_str());
  CHECK(r.cost.period_log2 == 12);
  REQUIRE(r.functions.size() == 1);
  const napkin::function_lines& f = r.functions[0];
  CHECK(f.function == "bank_conflict");
  REQUIRE(f.line_info);
  CHECK(f.lines[0].where.line == hot_line_conflict);
}

TEST_CASE("no kernel, no samples: an empty result that says so") {
  const napkin::source_lines_report r = napkin::sample_source_lines([] {});
  CHECK(r.functions.empty());
  CHECK_FALSE(r.notes.empty());
}

TEST_CASE("a second module capture while one lives says who holds CUPTI's one subscription") {
  const napkin::detail::module_capture first;
  REQUIRE(first.unavailable_reason().empty());
  const napkin::detail::module_capture second;
  CHECK(second.unavailable_reason().find("cuptiSubscribe") != std::string::npos);
  std::printf("%s\n", second.unavailable_reason().c_str());
}
