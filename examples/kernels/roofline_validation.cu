// Roofline validation: times reference kernels on the GPU and compares each median time with napkin's
// roofline lower bound for the same workload, on the table entry (--gpu, default h100-sxm) and on the
// spec derived from the device's properties.
//
//   ratio = napkin lower bound / measured median time        ("fraction of the roofline achieved")
//
// A correct peak, bandwidth and counting convention give ratio <= 1 (nothing runs faster than the
// roofline). A ratio above 1 means the peak is too low, a sparse/dense or unit mix-up, or a byte or
// FLOP count that is wrong: fix the model, not the kernel.
//
// Usage: napkin_roofline_validation [--gpu KEY] [--reps N]      (docs/napkin-math.md, "Validation")
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm_cublas.cuh"
#include "kernels.cuh"
#include "napkin/math.hpp"
#include "napkin/math/gpus_cuda.hpp"

namespace {

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void cublas_ok(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

// RAII device buffer.
template <class T>
struct device_buffer {
  T* p = nullptr;
  explicit device_buffer(std::size_t n) { cuda_ok(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~device_buffer() { cudaFree(p); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

struct event_pair {
  cudaEvent_t start{}, stop{};
  event_pair() {
    cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
    cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~event_pair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
};

// Median over `reps` timed launches (CUDA events around each), after `warmup` untimed ones.
template <class Launch>
double median_seconds(Launch launch, int warmup, int reps) {
  event_pair ev;
  for (int i = 0; i < warmup; ++i) launch();
  cuda_ok(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    cuda_ok(cudaEventRecord(ev.start), "cudaEventRecord");
    launch();
    cuda_ok(cudaEventRecord(ev.stop), "cudaEventRecord");
    cuda_ok(cudaEventSynchronize(ev.stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_ok(cudaEventElapsedTime(&ms, ev.start, ev.stop), "cudaEventElapsedTime");
    t.push_back(ms * 1e-3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct row {
  std::string kernel;
  std::string workload;
  napkin::workload w;
  napkin::pipe pipe;
  double measured;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("wrong result: ") + what);
}

}  // namespace

int main(int argc, char** argv) try {
  std::string gpu_key = "h100-sxm";
  int reps = 30;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gpu" && i + 1 < argc) {
      gpu_key = argv[++i];
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
      if (reps < 1) throw std::invalid_argument("--reps must be positive");
    } else {
      throw std::invalid_argument("usage: napkin_roofline_validation [--gpu KEY] [--reps N]");
    }
  }
  const napkin::gpu_spec& table = napkin::find_gpu(gpu_key);
  const napkin::device_gpu dev = napkin::device_gpu_spec();
  const int warmup = 3;

  std::printf("device: %s, CC %d.%d, %d SMs, max SM clock %.0f MHz, memory clock %.0f MHz x %d bit, L2 %.0f MB\n",
              dev.name.c_str(), dev.facts.cc_major, dev.facts.cc_minor, dev.facts.sm_count,
              dev.facts.sm_clock_khz / 1e3, dev.facts.memory_clock_khz / 1e3, dev.facts.memory_bus_bits,
              static_cast<double>(dev.facts.l2_bytes) / 1e6);
  std::printf("table entry '%s': %.0f GB/s; derived from the device: %.0f GB/s\n", std::string(table.key).c_str(),
              table.memory_bandwidth / 1e9, dev.spec.memory_bandwidth / 1e9);
  std::printf("median of %d timed runs after %d warm-up runs (CUDA events)\n\n", reps, warmup);

  std::vector<row> rows;
  const unsigned fill_blocks = static_cast<unsigned>(dev.facts.sm_count) * 8;

  {  // copy: 256 Mi floats (1 GiB) in, 1 GiB out: 40x the L2.
    const std::size_t n = std::size_t{1} << 28;
    device_buffer<float> in(n), out(n);
    cuda_ok(napkin_kernels::fill(in.p, n, 3.0f), "fill");
    const double t = median_seconds([&] { cuda_ok(napkin_kernels::copy(in.p, out.p, n), "copy"); }, warmup, reps);
    float last = 0;
    cuda_ok(cudaMemcpy(&last, out.p + n - 1, sizeof last, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(last == 3.0f, "copy");
    rows.push_back({"copy (float4)", "elementwise(2^28, 1 in, 1 out, 0 ops) fp32",
                    napkin::elementwise(static_cast<std::int64_t>(n), 1, 1, 0, napkin::dtype::fp32), napkin::pipe::fp32,
                    t});
  }
  {  // reduction: sum of 2^28 floats.
    const std::size_t n = std::size_t{1} << 28;
    device_buffer<float> in(n), out(1);
    cuda_ok(napkin_kernels::fill(in.p, n, 1.0f), "fill");
    const double t = median_seconds([&] { cuda_ok(napkin_kernels::sum(in.p, n, out.p, fill_blocks), "sum"); },
                                    warmup, reps);
    float s = 0;
    cuda_ok(cudaMemcpy(&s, out.p, sizeof s, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(std::fabs(s - static_cast<float>(n)) <= 1e-3f * static_cast<float>(n), "sum");
    rows.push_back({"reduction (sum)", "reduction(2^28) fp32", napkin::reduction(static_cast<std::int64_t>(n)),
                    napkin::pipe::fp32, t});
  }
  {  // softmax: 32768 rows x 8192 columns fp32 (1 GiB in, 1 GiB out), both algorithms.
    const int r = 32768, c = 8192;
    const std::size_t n = static_cast<std::size_t>(r) * c;
    device_buffer<float> in(n), out(n);
    cuda_ok(napkin_kernels::fill_pattern(in.p, n), "fill");
    std::vector<float> host(c);
    const auto row_sum_is_one = [&] {
      cuda_ok(cudaMemcpy(host.data(), out.p + n - c, c * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
      double total = 0;
      for (float v : host) total += v;
      return std::fabs(total - 1.0) < 1e-3;
    };
    const napkin::workload w = napkin::softmax(r, c);  // the compulsory minimum: read once, write once
    const double t_online =
        median_seconds([&] { cuda_ok(napkin_kernels::softmax_online(in.p, out.p, r, c), "softmax"); }, warmup, reps);
    check(row_sum_is_one(), "online softmax");
    rows.push_back({"softmax, online 2-pass", "softmax(32768, 8192) fp32, minimum bytes", w, napkin::pipe::fp32,
                    t_online});
    const double t_naive = median_seconds(
        [&] { cuda_ok(napkin_kernels::softmax_three_pass(in.p, out.p, r, c), "softmax"); }, warmup, reps);
    check(row_sum_is_one(), "three-pass softmax");
    rows.push_back({"softmax, naive 3-pass", "softmax(32768, 8192) fp32, minimum bytes", w, napkin::pipe::fp32,
                    t_naive});
  }
  {  // FMA-bound loop: SMs x 32 blocks of 256 threads, 4096 iterations of 8 chains.
    const unsigned blocks = static_cast<unsigned>(dev.facts.sm_count) * 32, threads = 256;
    const int iterations = 4096;
    device_buffer<float> out(std::size_t{blocks} * threads);
    const double t = median_seconds(
        [&] { cuda_ok(napkin_kernels::fma_loop(out.p, blocks, threads, iterations), "fma_loop"); }, warmup, reps);
    napkin::workload w;  // FLOPs = threads x iterations x chains x 2; bytes: nothing reaches DRAM but a
    w.flops = std::uint64_t{blocks} * threads * iterations * napkin_kernels::fma_chains * 2;
    w.bytes_read = 0;
    w.bytes_written = 4;  // nominal (the store never happens); keeps the intensity finite
    rows.push_back({"FMA loop (FP32)", "threads x 4096 x 8 FFMA", w, napkin::pipe::fp32, t});
  }
  {  // cuBLAS GEMMs, 8192^3.
    const int m = 8192, n = 8192, k = 8192;
    const std::size_t elems = static_cast<std::size_t>(m) * k;
    cublasHandle_t h{};
    cublas_ok(cublasCreate(&h), "cublasCreate");
    {
      device_buffer<__nv_bfloat16> a(elems), b(elems), c(elems);
      cuda_ok(napkin_kernels::fill_bf16(a.p, elems, 1.0f), "fill");
      cuda_ok(napkin_kernels::fill_bf16(b.p, elems, 1.0f), "fill");
      const double t = median_seconds([&] { cublas_ok(napkin_kernels::gemm_bf16(h, m, n, k, a.p, b.p, c.p), "gemm"); },
                                      warmup, reps);
      __nv_bfloat16 c0;
      cuda_ok(cudaMemcpy(&c0, c.p, sizeof c0, cudaMemcpyDeviceToHost), "cudaMemcpy");
      check(__bfloat162float(c0) == static_cast<float>(k), "bf16 GEMM");
      rows.push_back({"cuBLAS GEMM bf16", "gemm(8192^3) bf16 in/out, fp32 acc", napkin::gemm(m, n, k, napkin::dtype::bf16),
                      napkin::pipe::bf16_tensor, t});
    }
    {
      device_buffer<float> a(elems), b(elems), c(elems);
      cuda_ok(napkin_kernels::fill(a.p, elems, 1.0f), "fill");
      cuda_ok(napkin_kernels::fill(b.p, elems, 1.0f), "fill");
      const double t =
          median_seconds([&] { cublas_ok(napkin_kernels::sgemm(h, m, n, k, a.p, b.p, c.p), "sgemm"); }, warmup,
                         std::max(3, reps / 3));
      float c0 = 0;
      cuda_ok(cudaMemcpy(&c0, c.p, sizeof c0, cudaMemcpyDeviceToHost), "cudaMemcpy");
      check(c0 == static_cast<float>(k), "SGEMM");
      rows.push_back({"cuBLAS SGEMM fp32", "gemm(8192^3) fp32 (no TF32)", napkin::gemm(m, n, k, napkin::dtype::fp32),
                      napkin::pipe::fp32, t});
    }
    cublasDestroy(h);
  }

  std::printf("| kernel | napkin workload | pipe | FLOPs | min bytes | regime | lower bound, table | lower bound, "
              "derived | measured (median) | ratio, table | ratio, derived | achieved |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  bool above_one = false;
  for (const row& r : rows) {
    const napkin::roofline_estimate t = napkin::estimate(r.w, table, r.pipe);
    const napkin::roofline_estimate d = napkin::estimate(r.w, dev.spec, r.pipe);
    const double ratio_t = t.lower_bound_seconds() / r.measured, ratio_d = d.lower_bound_seconds() / r.measured;
    above_one = above_one || ratio_t > 1 || ratio_d > 1;
    const std::string achieved = t.bound == napkin::regime::memory_bound
                                     ? fmt("%.0f GB/s", t.bytes / r.measured / 1e9)
                                     : fmt("%.1f TFLOP/s", t.flops / r.measured / 1e12);
    std::printf("| %s | %s | %s | %.4g | %.4g | %s | %.4g ms | %.4g ms | %.4g ms | %.3f | %.3f | %s |\n",
                r.kernel.c_str(), r.workload.c_str(), std::string(napkin::to_string(r.pipe)).c_str(), t.flops, t.bytes,
                std::string(napkin::to_string(t.bound)).c_str(), t.lower_bound_seconds() * 1e3,
                d.lower_bound_seconds() * 1e3, r.measured * 1e3, ratio_t, ratio_d, achieved.c_str());
  }
  std::printf("\nratio = napkin lower bound / measured median; <= 1 expected. %s\n",
              above_one ? "SOME RATIO IS ABOVE 1: a peak, bandwidth or counting convention is wrong."
                        : "All ratios <= 1.");
  return above_one ? 3 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "napkin_roofline_validation: %s\n", e.what());
  return 1;
}
