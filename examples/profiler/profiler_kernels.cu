// Ten kernels measured in-process by napkin's profiler: a copy, a reduction, a naive and an optimized
// (row in registers) softmax, an uncoalesced strided read, an FMA-bound loop, a cuBLAS SGEMM (the seven of
// the profiler's first accuracy table), and three of other character: a shared-memory tree reduction with
// bank conflicts, reads of an L2-resident working set, and a BF16 tensor-core GEMM (cuBLAS). The kernels are
// the shared reference kernels of examples/kernels (kernels.cuh, gemm_cublas.cuh).
//
//   profiler_kernels napkin [--only NAME]   measure each with measure() and per_kernel() (kernel and
//                                           application replay), print reports, NAPKIN_SOL/NAPKIN_COST lines
//       [--set sol|sol_fast|one_pass|bytes|tri5|tri2]  another metric set (default: the profiler's default,
//                                           sol_fast; tri*: the GH100 TriageCompute experiment)
//       [--memset-flush]                    flush L2 with cudaMemset instead of napkin's read (comparison)
//       [--no-flush]                        leave L2 as the previous pass left it (comparison)
//   profiler_kernels plain  [--only NAME]   launch each once inside a napkin::range of its name, nothing
//       [--repeat R]                        else (the target for ncu, kernel or range replay); R times each
//   profiler_kernels workload [--repeat R]  all seven (R times each) as one workload: a fresh profiler, then
//                                           ONE per_kernel(fn, replay::application, reset) over all of them
//                                           (what `ncu -k ...` over `plain --repeat R` measures), NAPKIN_SOL
//                                           lines (mode=workload) and a NAPKIN_WORKLOAD cost line
//
// benchmarks/device/profiler.sh runs both and builds the accuracy and cost tables of docs/profiler.md.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm_cublas.cuh"
#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/check/cublas.hpp"
#include "napkin/math.hpp"
#include "napkin/nvtx.hpp"
#include "napkin/profiler.hpp"

namespace {

constexpr int softmax_items = 16;  // 16384 columns = 1024 threads x 16 registers
constexpr int softmax_cols = 1024 * softmax_items;
constexpr int softmax_rows = 8192;
constexpr int strided_stride = 32;  // floats: every 4-byte load touches its own 32-byte sector
constexpr int fma_iterations = 8192;

// ---------------------------------------------------------------------------------------------------
// The seven workloads: how to launch each, and its napkin model.

constexpr std::size_t big_n = std::size_t(1) << 27;  // 128 Mi floats = 512 MiB
constexpr int gemm_n = 4096;
constexpr std::size_t smem_n = std::size_t(1) << 24;  // 16 Mi floats in blocks of 512
constexpr int smem_rounds = 16;
constexpr std::size_t l2_n = std::size_t(1) << 22;  // 4 Mi floats = 16 MiB: fits the 50 MB L2 of an H100/H200
constexpr int l2_repeats = 32;

struct case_t {
  std::string name;
  std::function<void()> launch;
  std::function<void()> reset;  // for work that is not idempotent
  napkin::workload model;
  napkin::pipe pipe = napkin::pipe::fp32;  // the math pipe of the napkin comparison
};

struct state {
  float* a = nullptr;  // big input
  float* b = nullptr;  // big output
  float* small = nullptr;
  __nv_bfloat16* h = nullptr;  // BF16 operands of the tensor-core GEMM: A, B, C of gemm_n^2 each
  cublasHandle_t blas = nullptr;
  int sms = 0;
  state() {
    NAPKIN_CUDA_CHECK(cudaMalloc(&a, big_n * 4 * sizeof(float)));  // room for softmax and strided
    NAPKIN_CUDA_CHECK(cudaMalloc(&b, big_n * 4 * sizeof(float)));
    NAPKIN_CUDA_CHECK(cudaMalloc(&small, 1 << 20));
    NAPKIN_CUDA_CHECK(napkin_kernels::fill_pattern(a, big_n * 4));
    NAPKIN_CUDA_CHECK(napkin_kernels::fill_pattern(b, big_n * 4));
    NAPKIN_CUDA_CHECK(cudaMalloc(&h, std::size_t(3) * gemm_n * gemm_n * sizeof(__nv_bfloat16)));
    NAPKIN_CUDA_CHECK(napkin_kernels::fill_bf16(h, std::size_t(3) * gemm_n * gemm_n, 0.5f));
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    NAPKIN_CUDA_CHECK(cublasCreate(&blas));
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  }
  ~state() {
    cublasDestroy(blas);
    cudaFree(a);
    cudaFree(b);
    cudaFree(small);
    cudaFree(h);
  }
};

std::vector<case_t> make_cases(state& s) {
  namespace k = napkin_kernels;
  std::vector<case_t> cases;
  const unsigned grid = static_cast<unsigned>(s.sms) * 8;
  cases.push_back({"copy", [&s] { NAPKIN_CUDA_CHECK(k::copy(s.a, s.b, big_n)); }, {},
                   napkin::elementwise(static_cast<std::int64_t>(big_n), 1, 1, 0)});
  // The kernel alone (k::sum also clears the accumulator); reset() clears it between passes.
  cases.push_back({"reduce",
                   [&s, grid] {
                     k::sum_kernel<<<grid, 256>>>(s.a, big_n, s.small);
                     NAPKIN_CUDA_CHECK(cudaGetLastError());
                   },
                   [&s] { NAPKIN_CUDA_CHECK(cudaMemset(s.small, 0, sizeof(float))); },
                   napkin::reduction(static_cast<std::int64_t>(big_n))});
  cases.push_back({"softmax_naive",
                   [&s] { NAPKIN_CUDA_CHECK(k::softmax_smem_naive(s.a, s.b, softmax_rows, softmax_cols)); },
                   {}, napkin::softmax(softmax_rows, softmax_cols)});
  cases.push_back({"softmax_opt",
                   [&s] { NAPKIN_CUDA_CHECK(k::softmax_smem_registers<softmax_items>(s.a, s.b, softmax_rows)); },
                   {}, napkin::softmax(softmax_rows, softmax_cols)});
  cases.push_back({"strided_read",
                   [&s, grid] { NAPKIN_CUDA_CHECK(k::strided_read(s.a, big_n, strided_stride, s.b, grid)); }, {},
                   // napkin's minimum: the floats used (one in `strided_stride`), one output per thread.
                   [grid] {
                     napkin::workload w;
                     w.bytes_read = big_n / strided_stride * sizeof(float);
                     w.bytes_written = std::uint64_t(grid) * 256 * sizeof(float);
                     w.flops = big_n / strided_stride;
                     return w;
                   }()});
  cases.push_back({"fma_loop",
                   [&s] { NAPKIN_CUDA_CHECK(k::fma_loop(s.small, static_cast<unsigned>(s.sms) * 16, 256, fma_iterations)); },
                   {},
                   [&s] {
                     napkin::workload w;  // 8 chains x iterations FMAs per thread, 2 FLOP each
                     w.flops = std::uint64_t(s.sms) * 16 * 256 * k::fma_chains * fma_iterations * 2;
                     w.bytes_written = std::uint64_t(s.sms) * 16 * 256 * 4;  // one (untaken) store per thread
                     return w;
                   }()});
  cases.push_back({"sgemm",
                   [&s] {
                     const float* A = s.a;
                     const float* B = s.a + std::size_t(gemm_n) * gemm_n;
                     NAPKIN_CUDA_CHECK(k::sgemm(s.blas, gemm_n, gemm_n, gemm_n, A, B, s.b));
                   },
                   {}, napkin::gemm(gemm_n, gemm_n, gemm_n)});
  cases.push_back({"smem_reduce",
                   [&s] { NAPKIN_CUDA_CHECK(k::smem_tree_reduce(s.a, smem_n, smem_rounds, s.b)); }, {},
                   [] {
                     napkin::workload w;  // each float read once; per round one add per element
                     w.bytes_read = smem_n * sizeof(float);
                     w.bytes_written = smem_n / 512 * sizeof(float);
                     w.flops = std::uint64_t(smem_n) * smem_rounds;
                     return w;
                   }()});
  cases.push_back({"l2_read",
                   [&s] { NAPKIN_CUDA_CHECK(k::l2_resident_read(s.a, l2_n, l2_repeats, s.b, static_cast<unsigned>(s.sms) * 8)); },
                   {},
                   [] {
                     napkin::workload w;  // DRAM's minimum: the buffer once (every later sweep hits L2)
                     w.bytes_read = l2_n * sizeof(float);
                     w.flops = std::uint64_t(l2_n) * l2_repeats;
                     return w;
                   }()});
  cases.push_back({"tc_gemm",
                   [&s] {
                     const std::size_t nn = std::size_t(gemm_n) * gemm_n;
                     NAPKIN_CUDA_CHECK(k::gemm_bf16(s.blas, gemm_n, gemm_n, gemm_n, s.h, s.h + nn, s.h + 2 * nn));
                   },
                   {}, napkin::gemm(gemm_n, gemm_n, gemm_n, napkin::dtype::bf16), napkin::pipe::bf16_tensor});
  return cases;
}

double kernel_ms(const case_t& c) {
  cudaEvent_t start, stop;
  NAPKIN_CUDA_CHECK(cudaEventCreate(&start));
  NAPKIN_CUDA_CHECK(cudaEventCreate(&stop));
  constexpr int reps = 5;
  float best = FLT_MAX;
  for (int i = 0; i < reps; ++i) {
    if (c.reset) c.reset();
    NAPKIN_CUDA_CHECK(cudaEventRecord(start));
    c.launch();
    NAPKIN_CUDA_CHECK(cudaEventRecord(stop));
    NAPKIN_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    NAPKIN_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = std::min(best, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "napkin";
  std::string only, set_name = "sol_fast";
  bool memset_flush = false, no_flush = false;
  int repeat = 1;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--no-flush") == 0) no_flush = true;
    else if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) set_name = argv[++i];
    else if (std::strcmp(argv[i], "--memset-flush") == 0) memset_flush = true;
  }
  if (mode != "napkin" && mode != "plain" && mode != "workload") {
    std::fprintf(stderr, "usage: %s napkin|plain|workload [--only NAME] [--repeat R] [--set sol|sol_fast|tri2|tri5|one_pass|bytes] [--memset-flush|--no-flush]\n", argv[0]);
    return 2;
  }
  state s;
  std::vector<case_t> cases = make_cases(s);
  if (mode == "plain") {
    for (int rep = 0; rep < repeat; ++rep)
      for (const auto& c : cases)
        if (only.empty() || c.name == only) {
          napkin::range r{c.name};  // for ncu's range replay: --nvtx --nvtx-include "napkin@copy/"
          c.launch();
          NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
        }
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
  }
  if (mode == "workload") {
    // Every case's kernels in one fn, measured per kernel in one application replay: the passes are paid
    // once for all of them. L2 is flushed before each pass, i.e. before the first kernel only.
    auto all = [&cases, repeat] {
      for (int rep = 0; rep < repeat; ++rep)
        for (const auto& c : cases) c.launch();
    };
    auto reset_all = [&cases] {
      for (const auto& c : cases)
        if (c.reset) c.reset();
    };
    all();  // warm-up, as `plain` and the napkin mode's kernel_ms() do
    reset_all();
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    napkin::profiler prof;
    const double setup_s = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const napkin::kernel_reports per = prof.per_kernel(all, napkin::replay::application, reset_all);
    const double workload_s = seconds_since(t1);
    for (const auto& k : per.kernels) std::cout << napkin::to_key_values(k) << " mode=workload\n";
    std::printf("NAPKIN_WORKLOAD repeat=%d kernels=%zu dropped=%zu passes=%zu setup_s=%.4f workload_s=%.4f\n", repeat,
                per.kernels.size(), per.dropped, prof.passes(), setup_s, workload_s);
    return 0;
  }

  const std::vector<std::string> base = {
      napkin::metric::duration_ns, napkin::metric::elapsed_cycles, napkin::metric::sm_active_cycles,
      napkin::metric::sm_frequency_hz, napkin::metric::dram_frequency_hz, napkin::metric::dram_bytes,
      napkin::metric::dram_throughput_pct};
  napkin::metric_set set = napkin::metric_sets::sol_fast();
  if (set_name == "sol") set = napkin::metric_sets::sol();
  if (set_name == "one_pass") set = napkin::metric_sets::one_pass();
  if (set_name == "tri2" || set_name == "tri5") {
    set = napkin::metric_sets::custom(set_name, base);
    set.metrics.emplace_back("TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed");
    if (set_name == "tri2") {
      set.metrics.emplace_back("SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active");
      set.metrics.emplace_back("LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed");
    } else {
      set.metrics.emplace_back(napkin::metric::l1tex_throughput_pct);
      set.metrics.emplace_back(napkin::metric::l2_throughput_pct);
      set.metrics.emplace_back(napkin::metric::memory_throughput_pct);
    }
  }
  if (set_name == "bytes")
    set = napkin::metric_sets::custom("bytes", {napkin::metric::duration_ns, napkin::metric::dram_bytes_read,
                                                napkin::metric::dram_bytes_write, napkin::metric::elapsed_cycles});
  napkin::profiler_options options;
  if (no_flush) options.flush_l2 = false;
  // --memset-flush: the flush napkin used to do (and nvbench does), for comparison: cudaMemset of 2 x L2
  // before each pass, which leaves L2 full of dirty lines (napkin's own flush reads instead; l2_flush.hpp).
  void* flush_buffer = nullptr;
  std::size_t flush_bytes = 0;
  if (memset_flush) {
    options.flush_l2 = false;
    int l2 = 0;
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    flush_bytes = std::size_t(l2) * 2;
    NAPKIN_CUDA_CHECK(cudaMalloc(&flush_buffer, flush_bytes));  // freed at exit, with the context
    for (auto& c : cases) {
      auto reset = c.reset;
      c.reset = [reset, flush_buffer, flush_bytes] {
        if (reset) reset();
        NAPKIN_CUDA_CHECK(cudaMemset(flush_buffer, 1, flush_bytes));
        NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
      };
    }
  }
  const auto t_setup = std::chrono::steady_clock::now();
  napkin::profiler prof(set, options);
  const double setup_s = seconds_since(t_setup);
  // The napkin comparison uses the datasheet peaks of the GPU this runs on, when napkin's table has it
  // (H100 SXM or H200 SXM on the lent machines); otherwise the H100 SXM's, and it says so.
  cudaDeviceProp prop{};
  NAPKIN_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const bool is_h200 = std::strstr(prop.name, "H200") != nullptr;
  const napkin::gpu_spec& spec = napkin::find_gpu(is_h200 ? "h200-sxm" : "h100-sxm");
  if (!is_h200 && std::strstr(prop.name, "H100") == nullptr)
    std::printf("note: this is a %s; the napkin comparison below uses H100 SXM peaks\n", prop.name);
  std::printf("NAPKIN_SETUP chip=%s passes=%zu setup_s=%.4f\n", prof.chip().c_str(), prof.passes(), setup_s);
  std::vector<const case_t*> chosen;
  for (const auto& c : cases)
    if (only.empty() || c.name == only) chosen.push_back(&c);

  // measure() for every kernel, then per_kernel() for every kernel: CUPTI's range profiler stays enabled
  // within one mode (switching modes re-enables it, a cost of its own, reported as enable_s).
  std::vector<double> kernel_time_ms, measure_s;
  for (const case_t* c : chosen) {
    kernel_time_ms.push_back(kernel_ms(*c));  // also the warm-up
    if (memset_flush) c->reset();
    const auto t0 = std::chrono::steady_clock::now();
    const napkin::sol_report r = c->reset ? prof.measure(c->name, c->launch, c->reset) : prof.measure(c->name, c->launch);
    measure_s.push_back(seconds_since(t0));
    std::cout << napkin::to_text(r);
    std::cout << napkin::to_text(napkin::compare(r, c->model, spec, c->pipe));
    std::cout << napkin::to_key_values(r) << " mode=measure" << (memset_flush ? " flush=memset" : "") << "\n\n";
  }
  // per_kernel() both ways: CUPTI's kernel replay, and napkin's application replay (fn re-run per pass,
  // clean cold L2 before each, reset() between passes).
  std::vector<double> per_kernel_s, application_s;
  std::vector<std::size_t> kernels_seen;
  for (const case_t* c : chosen) {
    auto t0 = std::chrono::steady_clock::now();
    const napkin::kernel_reports per = prof.per_kernel(c->launch);
    per_kernel_s.push_back(seconds_since(t0));
    kernels_seen.push_back(per.kernels.size());
    if (c->reset) c->reset();
    for (const auto& k : per.kernels) {
      std::cout << "  per-kernel: " << k.name << "\n";
      std::cout << napkin::to_key_values(k) << " mode=per_kernel case=" << c->name << "\n";
    }
  }
  for (const case_t* c : chosen) {
    const auto t0 = std::chrono::steady_clock::now();
    const napkin::kernel_reports per = c->reset ? prof.per_kernel(c->launch, napkin::replay::application, c->reset)
                                                : prof.per_kernel(c->launch, napkin::replay::application);
    application_s.push_back(seconds_since(t0));
    if (c->reset) c->reset();
    for (const auto& k : per.kernels) {
      if (c == chosen.front()) std::cout << napkin::to_text(k);
      std::cout << napkin::to_key_values(k) << " mode=application case=" << c->name << "\n";
    }
  }
  // An empty range: what a user range costs on the GPU with no work in it (docs/profiler.md).
  const napkin::sol_report empty = prof.measure("empty", [] {});
  std::cout << napkin::to_key_values(empty) << " mode=measure\n";
  const std::size_t passes = prof.passes();
  for (std::size_t i = 0; i < chosen.size(); ++i)
    std::printf("NAPKIN_COST name=%s passes=%zu kernel_ms=%.4f measure_s=%.4f per_kernel_s=%.4f application_s=%.4f "
                "kernels=%zu\n",
                chosen[i]->name.c_str(), passes, kernel_time_ms[i], measure_s[i], per_kernel_s[i], application_s[i],
                kernels_seen[i]);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "profiler_kernels: %s\n", e.what());
  return 1;
}
