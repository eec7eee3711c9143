// The profiler on a GPU: every way to measure, a CUDA graph, and the failures a GPU can produce.
// Expected traffic comes from hand arithmetic on the kernels below (bytes each must move).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "napkin/nvtx.hpp"  // the phases watch_phase() measures
#include "napkin/profiler.hpp"
#include "napkin/profiler/sections/occupancy.hpp"

namespace {

__global__ void copy_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
__global__ void sum_kernel(const float* in, std::size_t n, float* out) {  // reads n floats, writes one per block
  float acc = 0.0f;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    acc += in[i];
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}
__global__ void add_one_kernel(float* data, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    data[i] += 1.0f;
}

// A kernel with static and dynamic shared memory and a 2-D grid and block, for the launch a report carries.
__global__ void staged_kernel(const float* in, float* out, std::size_t n) {
  __shared__ float tile[256];
  extern __shared__ float extra[];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  const std::size_t block = std::size_t(blockIdx.y) * gridDim.x + blockIdx.x;
  const std::size_t i = block * 256 + t;
  tile[t] = i < n ? in[i] : 0.0f;
  extra[t] = tile[t] * 2.0f;
  __syncthreads();
  if (i < n) out[i] = extra[255 - t] + tile[t];
}

// One warp; thread `storer` stores one float (1 request, 1 sector); -1: no thread stores.
__global__ void store_once_kernel(float* out, int storer) {
  if (static_cast<int>(threadIdx.x) == storer) out[0] = 1.0f;
}

constexpr std::size_t n = std::size_t(1) << 26;  // 64 Mi floats = 256 MiB per buffer, >> 50 MB of L2
constexpr double buffer_bytes = double(n) * sizeof(float);

struct buffers {
  float* a = nullptr;
  float* b = nullptr;
  buffers() {
    REQUIRE(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&b, n * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(a, 0, n * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(b, 0, n * sizeof(float)) == cudaSuccess);
  }
  ~buffers() {
    cudaFree(a);
    cudaFree(b);
  }
  void copy() const { copy_kernel<<<1024, 256>>>(a, b, n); }
  void add_one() const { add_one_kernel<<<1024, 256>>>(a, n); }
  float first_of_a() const {
    float v = -1;
    REQUIRE(cudaMemcpy(&v, a, sizeof v, cudaMemcpyDeviceToHost) == cudaSuccess);
    return v;
  }
};

void check_percentages(const napkin::sol_report& r) {
  for (auto v : {r.sm_pct(), r.memory_pct(), r.dram_pct(), r.l1tex_pct(), r.l2_pct()}) {
    REQUIRE(v.has_value());
    CHECK(*v >= 0.0);
    CHECK(*v <= 100.5);
  }
}

}  // namespace

TEST_CASE("measure(): a copy with the SOL set") {
  buffers buf;
  napkin::profiler prof;
  MESSAGE("chip ", prof.chip(), ", SOL set: ", prof.passes(), " passes");
  const napkin::sol_report r = prof.measure("copy", [&] { buf.copy(); });
  MESSAGE(napkin::to_text(r));
  CHECK(r.passes == prof.passes());
  CHECK(r.how == napkin::measured_by::user_range);
  check_percentages(r);
  REQUIRE(r.duration_ns());
  CHECK(*r.duration_ns() > 0);
  // A copy moves one buffer in and one out: 2 x 256 MiB, within 10% (L2 flushed before each pass).
  REQUIRE(r.dram_bytes());
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  CHECK(*r.sm_hz() > 0.5e9);
  // Every pass recorded: one kernel each, and the passes agree.
  REQUIRE(r.pass_samples.size() == r.passes);
  for (const auto& p : r.pass_samples) {
    CHECK(p.duration_ns > 0);
    REQUIRE(p.launches);
    CHECK(*p.launches == 1);
  }
  CHECK(r.passes_disagree.empty());
}

TEST_CASE("measure(): numbers over the GPU's busy time; the span and the idle time inside it kept apart") {
  buffers buf;
  napkin::profiler prof;
  // Two copies with 2 ms of host work between them: the range spans > 2 ms of idle GPU.
  const napkin::sol_report gap = prof.measure("copy, sleep, copy", [&] {
    buf.copy();
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    buf.copy();
  });
  const napkin::kernel_reports alone = prof.per_kernel([&] { buf.copy(); }, napkin::replay::application);
  MESSAGE(napkin::to_text(gap));
  REQUIRE(alone.kernels.size() == 1);
  const napkin::sol_report& one = alone.kernels.front();
  REQUIRE(gap.range_ns());
  REQUIRE(gap.gpu_idle_ns());
  REQUIRE(gap.duration_ns());
  CHECK(*gap.gpu_idle_ns() > 2e6);                                   // the sleep is idle time, kept apart
  CHECK(*gap.range_ns() == doctest::Approx(*gap.duration_ns() + *gap.gpu_idle_ns()));
  CHECK(*gap.duration_ns() == doctest::Approx(2 * *one.duration_ns()).epsilon(0.05));  // two copies' time
  // Over the busy time the copies read what one copy reads alone (DRAM-bound: within 5 points).
  CHECK(*gap.dram_pct() == doctest::Approx(*one.dram_pct()).epsilon(0.08));
  CHECK(*gap.memory_pct() > 50.0);  // over the span it would read about a third of that
  for (const auto& p : gap.pass_samples) {
    REQUIRE(p.launches);
    CHECK(*p.launches == 2);  // from the activity records: the two copies, not napkin's L2 flush
  }
}

TEST_CASE("measure(): the reset callback runs between passes and keeps the result of one run") {
  buffers buf;
  napkin::profiler prof;
  int resets = 0;
  const auto r = prof.measure("add one", [&] { buf.add_one(); },
                              [&] {
                                ++resets;
                                REQUIRE(cudaMemset(buf.a, 0, n * sizeof(float)) == cudaSuccess);
                              });
  // fn runs once unprofiled (the warm-up), then reset() before every pass: one increment survives.
  CHECK(resets == static_cast<int>(prof.passes()));
  CHECK(buf.first_of_a() == 1.0f);
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));  // read + write a
}

TEST_CASE("per_kernel(): kernel replay names each kernel and restores memory") {
  buffers buf;
  napkin::profiler prof;
  const auto out = prof.per_kernel([&] {
    buf.copy();
    buf.add_one();
  });
  REQUIRE(out.kernels.size() == 2);
  CHECK(out.dropped == 0);
  CHECK(out.kernels[0].name.find("copy_kernel") != std::string::npos);
  CHECK(out.kernels[1].name.find("add_one_kernel") != std::string::npos);
  CHECK(out.kernels[0].how == napkin::measured_by::kernel_replay);
  CHECK(*out.kernels[0].dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  check_percentages(out.kernels[1]);
  // A grid-stride copy keeps DRAM busy, SM idle: the SOL table's DRAM-bound row (ncu: DRAM 72%, SM 16% on H100).
  CHECK(out.kernels[0].sol_table().kind == napkin::bottleneck::memory_bound_dram);
  // CUPTI replayed add_one once per pass, restoring memory in between: a single increment is visible.
  CHECK(buf.first_of_a() == 1.0f);
}

TEST_CASE("per_kernel(fn, replay::application): fn re-run per pass, kernels named, reset between passes") {
  buffers buf;
  napkin::profiler prof;
  int resets = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = prof.per_kernel(
      [&] {
        buf.copy();
        buf.add_one();
      },
      napkin::replay::application,
      [&] {
        ++resets;
        REQUIRE(cudaMemset(buf.a, 0, n * sizeof(float)) == cudaSuccess);
      });
  REQUIRE(out.kernels.size() == 2);
  CHECK(out.dropped == 0);
  CHECK(out.kernels[0].name.find("copy_kernel") != std::string::npos);
  CHECK(out.kernels[1].name.find("add_one_kernel") != std::string::npos);
  CHECK(out.kernels[0].how == napkin::measured_by::application_replay);
  CHECK(out.kernels[0].passes == prof.passes());
  CHECK(resets == static_cast<int>(prof.passes()));  // before every pass: the counting run came first
  CHECK(buf.first_of_a() == 1.0f);  // reset before every pass: one increment survives
  // Each kernel moves its own traffic: the copy reads a and writes b, add_one reads and writes a.
  for (const auto& k : out.kernels) {
    check_percentages(k);
    CHECK(*k.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  }
  // The cost breakdown accounts for the call: each part measured, together (nearly) the wall time.
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (double part : {out.cost.setup_s, out.cost.flush_s, out.cost.cupti_s, out.cost.work_s, out.cost.decode_s})
    CHECK(part > 0.0);
  CHECK(out.cost.total_s() <= wall);
  CHECK(out.cost.total_s() >= 0.9 * wall);
  // A reset callback means nothing to CUPTI's kernel replay: refused rather than silently ignored.
  CHECK_THROWS_AS(prof.per_kernel([&] { buf.copy(); }, napkin::replay::kernel, [] {}), napkin::profiler_error);
  CHECK(prof.usable());
}

TEST_CASE("per_kernel(fn, replay::application) takes the mode's own memory-instruction counts out") {
  // By construction: one store instruction of one thread is 1 request and 1 sector; a kernel that stores
  // nothing makes none. CUPTI's kernel replay reads exactly these; application replay read one request and
  // one sector more per kernel on an H200 (docs/why.md) until the reference kernel's counts were taken out.
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, sizeof(float)) == cudaSuccess);
  napkin::profiler prof(napkin::metric_sets::memory());
  const auto work = [&] {
    store_once_kernel<<<1, 32>>>(out, 0);
    store_once_kernel<<<1, 32>>>(out, -1);
  };
  for (const napkin::replay how : {napkin::replay::application, napkin::replay::kernel}) {
    const napkin::kernel_reports k = prof.per_kernel(work, how);
    REQUIRE(k.kernels.size() == 2);  // the reference kernel's range is not reported
    for (const auto& r : k.kernels)
      if (const auto it = r.derivations.find("replay_overhead"); it != r.derivations.end())
        MESSAGE(napkin::to_string(r.how), ": ", it->second);
    CHECK(*k.kernels[0].get(napkin::metric::global_store_requests) == 1);
    CHECK(*k.kernels[0].get(napkin::metric::global_store_sectors) == 1);
    CHECK(*k.kernels[1].get(napkin::metric::global_store_requests) == 0);
    CHECK(*k.kernels[1].get(napkin::metric::global_store_sectors) == 0);
    CHECK(k.kernels[1].derivations.count("replay_overhead") == k.kernels[0].derivations.count("replay_overhead"));
    if (how == napkin::replay::kernel) CHECK(k.kernels[0].derivations.count("replay_overhead") == 0);
  }
  // A user range has no reference range: its report says that its counts may hold user replay's own.
  const napkin::sol_report range = prof.measure("store once", [&] { store_once_kernel<<<1, 32>>>(out, 0); });
  MESSAGE("measure(): ", *range.get(napkin::metric::global_store_requests), " store requests, ",
          *range.get(napkin::metric::global_store_sectors), " sectors for 1 and 1");
  CHECK(*range.get(napkin::metric::global_store_requests) >= 1);
  CHECK(range.derivations.at("replay_overhead").rfind("not measured (", 0) == 0);
  REQUIRE(cudaFree(out) == cudaSuccess);
}

TEST_CASE("the L2 flush before each pass leaves no dirty lines for the measured kernel to write back") {
  // A kernel that only reads (sum) writes almost nothing to DRAM, unless L2 holds dirty lines when it starts:
  // a memset flush leaves L2 full of them, and so does CUPTI's auto range with a 256-range image (each ~23-25
  // MB of extra DRAM writes on H100's 50 MB L2; benchmarks/device/dirty_l2_probe.cu). ncu itself: 2.4 MB.
  buffers buf;
  napkin::profiler prof(napkin::metric_sets::custom(
      "traffic", {napkin::metric::dram_bytes_read, napkin::metric::dram_bytes_write}));
  int l2 = 0;
  REQUIRE(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0) == cudaSuccess);
  for (const auto& r : {prof.measure("sum", [&] { sum_kernel<<<1024, 256>>>(buf.a, n, buf.b); }),
                        prof.per_kernel([&] { sum_kernel<<<1024, 256>>>(buf.a, n, buf.b); },
                                        napkin::replay::application).kernels.at(0)}) {
    const double read = *r.get(napkin::metric::dram_bytes_read), written = *r.get(napkin::metric::dram_bytes_write);
    MESSAGE(r.name, ": read ", read / 1e6, " MB, written ", written / 1e6, " MB (L2 ", l2 / 1e6, " MB)");
    CHECK(read == doctest::Approx(buffer_bytes).epsilon(0.05));
    CHECK(written < 0.10 * l2);  // the sums and CUPTI's own few MB, not half a cache of dirty data
  }
}

TEST_CASE("per_kernel(): more kernels than the image holds are counted as dropped") {
  buffers buf;
  napkin::profiler_options options;
  options.max_kernels = 2;
  napkin::profiler prof(napkin::metric_sets::one_pass(), options);
  const auto out = prof.per_kernel([&] {
    for (int i = 0; i < 5; ++i) buf.copy();
  });
  MESSAGE("kept ", out.kernels.size(), ", dropped ", out.dropped);
  CHECK(out.kernels.size() == 2);
  CHECK(out.dropped == 3);
}

TEST_CASE("a CUDA graph: one range with measure(); per_kernel() refuses graphs") {
  buffers buf;
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  copy_kernel<<<1024, 256, 0, s>>>(buf.a, buf.b, n);
  copy_kernel<<<1024, 256, 0, s>>>(buf.b, buf.a, n);
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  {
    napkin::profiler prof;
    const auto whole = prof.measure("graph", [&] { REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess); });
    CHECK(*whole.dram_bytes() == doctest::Approx(4 * buffer_bytes).epsilon(0.10));  // two copies
    // CUPTI's auto range records only a graph's first kernel node: per_kernel() refuses instead of
    // reporting half the work, and stays usable.
    CHECK_THROWS_AS(prof.per_kernel([&] { REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess); }), napkin::profiler_error);
    CHECK_THROWS_AS(prof.per_kernel([&] { REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess); },
                                    napkin::replay::application),
                    napkin::profiler_error);
    const auto after = prof.measure("graph again", [&] { REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess); });
    CHECK(*after.dram_bytes() == doctest::Approx(4 * buffer_bytes).epsilon(0.10));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

TEST_CASE("scope: one range, one pass, RAII") {
  buffers buf;
  napkin::profiler prof(napkin::metric_sets::one_pass());
  REQUIRE(prof.passes() == 1);
  auto s = prof.open_scope("copy scope");
  CHECK_THROWS_AS(prof.open_scope("nested"), napkin::profiler_error);  // one range at a time
  buf.copy();
  const napkin::sol_report r = s.stop();
  CHECK(r.how == napkin::measured_by::scope);
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  CHECK(r.sol_table().kind == napkin::bottleneck::not_measured);  // no SM % in the one-pass set
  CHECK_THROWS_AS(s.stop(), napkin::profiler_error);      // already stopped
  // The first scope paid CUPTI's Enable; the next one reuses it, and both say what they cost.
  CHECK(r.cost.enable_s > 0.0);
  CHECK(r.cost.passes_s > 0.0);
  auto second = prof.open_scope("second");
  buf.copy();
  const napkin::sol_report r2 = second.stop();
  CHECK(r2.cost.enable_s == 0.0);
  CHECK(r2.cost.setup_s > 0.0);
  CHECK(*r2.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  {
    auto dropped = prof.open_scope("abandoned");  // destroyed without stop(): range closed, result dropped
  }
  const auto again = prof.open_scope("after").stop();
  CHECK(again.duration_ns());
}

// measure(), scopes and per_kernel() configure CUPTI once and only re-initialize the counter image while
// nothing changes (cupti/session.hpp, cupti_session::configure): each result must still be its own work's.
TEST_CASE("repeated measurements on one configuration each report their own work") {
  buffers buf;
  auto half_copy = [&] { copy_kernel<<<1024, 256>>>(buf.a, buf.b, n / 2); };
  for (const napkin::metric_set& set : {napkin::metric_sets::one_pass(), napkin::metric_sets::sol()}) {
    CAPTURE(set.name);
    napkin::profiler prof(set);
    const double full1 = *prof.measure("full", [&] { buf.copy(); }).dram_bytes();
    const double half = *prof.measure("half", half_copy).dram_bytes();
    const double full2 = *prof.measure("full again", [&] { buf.copy(); }).dram_bytes();
    CHECK(full1 == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
    CHECK(half == doctest::Approx(buffer_bytes).epsilon(0.10));
    CHECK(full2 == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
    if (prof.passes() == 1) {  // a scope shares measure()'s configuration
      auto s = prof.open_scope("half scope");
      half_copy();
      CHECK(*s.stop().dram_bytes() == doctest::Approx(buffer_bytes).epsilon(0.10));
    }
    // per_kernel(application) sizes its image by fn's kernels: one, then three (a new configuration: CUPTI
    // recorded only two of them when the session of the first was configured again), then one, then three.
    for (int kernels : {1, 3, 1, 3}) {
      CAPTURE(kernels);
      const auto out = prof.per_kernel(
          [&] {
            for (int k = 0; k < kernels; ++k) half_copy();
          },
          napkin::replay::application);
      REQUIRE(out.kernels.size() == static_cast<std::size_t>(kernels));
      // The first kernel of a pass starts from a cold L2; the second re-reads what the first left there.
      CHECK(*out.kernels[0].dram_bytes() == doctest::Approx(buffer_bytes).epsilon(0.10));
    }
  }
}

TEST_CASE("scope refuses multi-pass sets") {
  napkin::profiler prof;  // SOL: several passes
  try {
    (void)prof.open_scope("x");
    FAIL("expected profiler_error");
  } catch (const napkin::profiler_error& e) {
    CHECK(std::string(e.what()).find("passes") != std::string::npos);
  }
}

TEST_CASE("an invalid metric is refused when the profiler is built") {
  try {
    napkin::profiler prof(napkin::metric_sets::custom("bad", {napkin::metric::duration_ns, "breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed"}));
    FAIL("expected profiler_error");
  } catch (const napkin::profiler_error& e) {
    CHECK(e.status() == CUPTI_ERROR_INVALID_METRIC_NAME);
  }
}

TEST_CASE("an exception inside fn propagates and leaves the profiler usable") {
  buffers buf;
  napkin::profiler prof;
  CHECK_THROWS_WITH_AS(prof.measure("throws", [&] {
    buf.copy();
    throw std::runtime_error("user error");
  }),
                       "user error", std::runtime_error);  // in the warm-up run
  CHECK(prof.usable());
  int calls = 0;
  CHECK_THROWS_WITH_AS(prof.measure("throws in a pass", [&] {
    buf.copy();
    if (++calls == 3) throw std::runtime_error("user error in pass 2");  // warm-up, pass 1, pass 2
  }),
                       "user error in pass 2", std::runtime_error);
  CHECK(prof.usable());
  const auto r = prof.measure("after", [&] { buf.copy(); });
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  const auto k = prof.per_kernel([&] { buf.copy(); });
  CHECK(k.kernels.size() == 1);
}

TEST_CASE("fn that launches nothing gives a report, not a crash") {
  napkin::profiler prof(napkin::metric_sets::one_pass());
  const auto r = prof.measure("empty", [] {});
  CHECK(r.passes == 1);
  const auto k = prof.per_kernel([] {});
  CHECK(k.kernels.empty());
}

TEST_CASE("measure(): work that synchronizes inside fn, and work on a non-blocking stream, is measured whole") {
  buffers buf;
  napkin::profiler prof(napkin::metric_sets::one_pass());
  const auto blocking = prof.measure("copy, sync, copy", [&] {
    buf.copy();
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    buf.copy();
  });
  CHECK(*blocking.dram_bytes() == doctest::Approx(4 * buffer_bytes).epsilon(0.10));

  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  const auto non_blocking = prof.measure("copy on a non-blocking stream", [&] {
    copy_kernel<<<1024, 256, 0, s>>>(buf.a, buf.b, n);
  });
  CHECK(*non_blocking.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("measure(): the cost breakdown adds up to the wall time of the call") {
  buffers buf;
  napkin::profiler prof;
  (void)prof.measure("warm-up", [&] { buf.copy(); });  // pays cuptiRangeProfilerEnable
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = prof.measure("copy", [&] { buf.copy(); });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const napkin::measurement_cost& c = r.cost;
  MESSAGE("wall ", wall, " s; setup ", c.setup_s, ", flush ", c.flush_s, ", cupti ", c.cupti_s, ", work ", c.work_s,
          ", decode ", c.decode_s);
  CHECK(c.enable_s == 0.0);  // already enabled in this mode
  for (double part : {c.setup_s, c.flush_s, c.cupti_s, c.work_s, c.decode_s}) CHECK(part > 0.0);
  CHECK(c.total_s() <= wall);
  CHECK(c.total_s() >= 0.9 * wall);  // napkin's parts account for the call (the rest: checks, report)
}

TEST_CASE("watch_phase(): an NVTX-annotated phase, one pass per occurrence") {
  buffers buf;
  napkin::profiler prof;
  auto phase = prof.watch_phase("step");
  CHECK(phase.passes_needed() == prof.passes());
  CHECK_THROWS_AS(prof.measure("meanwhile", [] {}), napkin::profiler_error);  // one range at a time
  CHECK_THROWS_AS(phase.report(), napkin::profiler_error);                   // not done yet
  std::size_t iterations = 0;
  while (!phase.done()) {
    napkin::range iteration{"iteration"};  // another name: not the phase
    {
      napkin::range step{"step"};
      buf.copy();
      napkin::range nested{"step"};  // belongs to the outer "step"
    }
    buf.add_one();  // outside the phase: not counted
    ++iterations;
    REQUIRE(iterations <= prof.passes() + 2);
  }
  CHECK(iterations == prof.passes());
  const napkin::sol_report r = phase.report();
  MESSAGE(napkin::to_text(r));
  CHECK(r.name == "step");
  CHECK(r.how == napkin::measured_by::phase);
  CHECK(r.passes == prof.passes());
  check_percentages(r);
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));  // the copy, not add_one
  // Done: the profiler is free again while the phase object still lives, napkin's ranges are back on their
  // fast path (no listener installed), and another phase can be watched.
  CHECK(napkin::detail::installed_listener(napkin::detail::listener_slot::phase_watch) == nullptr);
  const auto after = prof.measure("after", [&] { buf.copy(); });
  CHECK(*after.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  auto next = prof.watch_phase("next");
  CHECK(napkin::detail::installed_listener(napkin::detail::listener_slot::phase_watch) != nullptr);
  CHECK(phase.report().name == "step");  // the finished phase keeps its report
}

NAPKIN_DOMAIN(other_domain, "other");

TEST_CASE("watch_phase(): other threads, other domains, NVTX off, NAPKIN_RANGE") {
  buffers buf;
  napkin::profiler prof(napkin::metric_sets::one_pass());
  {
    auto phase = prof.watch_phase("solve");
    std::thread([&] {
      napkin::range elsewhere{"solve"};  // another thread: ignored
    }).join();
    {
      napkin::range_in<other_domain> wrong_domain{"solve"};  // same name, other domain: ignored
    }
    CHECK(phase.passes_done() == 0);
    napkin::set_nvtx_enabled(false);  // NVTX off at run time: the phase still sees napkin's ranges
    {
      NAPKIN_RANGE("solve");
      buf.copy();
    }
    napkin::set_nvtx_enabled(true);
    REQUIRE(phase.done());
    CHECK(*phase.report().dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
  }
  {
    auto phase = prof.watch_phase<other_domain>("solve");
    {
      napkin::range_in<other_domain> right_domain{"solve"};
      buf.copy();
    }
    REQUIRE(phase.done());
    CHECK(phase.report().name == "solve");
  }
}

TEST_CASE("watch_phase(): abandoned mid-range, and one watch at a time") {
  buffers buf;
  napkin::profiler prof(napkin::metric_sets::one_pass());
  {
    std::optional<napkin::profiler::phase> phase(prof.watch_phase("a"));
    CHECK_THROWS_AS(prof.watch_phase("b"), napkin::profiler_error);  // busy
    napkin::range a{"a"};
    buf.copy();
    phase.reset();  // the watch ends inside its range: the pass is closed and dropped
  }  // range "a" closes with no watch: nothing happens
  CHECK(prof.usable());
  const auto r = prof.measure("after", [&] { buf.copy(); });
  CHECK(*r.dram_bytes() == doctest::Approx(2 * buffer_bytes).epsilon(0.10));
}

TEST_CASE("per_kernel() and measure(): each report carries its kernel's launch, as cudaFuncGetAttributes has it") {
  buffers buf;
  cudaFuncAttributes attr{};
  REQUIRE(cudaFuncGetAttributes(&attr, staged_kernel) == cudaSuccess);
  int device = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  cudaDeviceProp prop{};
  REQUIRE(cudaGetDeviceProperties(&prop, device) == cudaSuccess);
  const dim3 grid(512, 2), block(128, 2);
  constexpr std::size_t dynamic = 256 * sizeof(float);
  auto staged = [&] { staged_kernel<<<grid, block, dynamic>>>(buf.a, buf.b, n); };
  const auto check_launch = [&](const napkin::sol_report& r, bool with_config = true) {
    CAPTURE(r.name);
    REQUIRE(r.launch.has_value());
    const napkin::kernel_launch& l = *r.launch;
    CHECK(l.grid == napkin::launch_dims{512, 2, 1});
    CHECK(l.block == napkin::launch_dims{128, 2, 1});
    CHECK(l.blocks() == 1024);
    // The count the launch ran with: CUPTI's record (and ncu's Registers Per Thread) read 16 where
    // cudaFuncGetAttributes read 14 for this kernel on an H200 (the launch allocates at least 16).
    CHECK(l.registers_per_thread >= attr.numRegs);
    CHECK(l.registers_per_thread <= std::max(attr.numRegs, 16));
    CHECK(l.static_smem_bytes == static_cast<int>(attr.sharedSizeBytes));
    CHECK(l.dynamic_smem_bytes == static_cast<int>(dynamic));
    // CUPTI's kernel replay records no shared-memory configuration; the other records carry it, except (seen on
    // an H200) after earlier measurements in the same process. Where present it holds the blocks' memory.
    if (!with_config) CHECK(!l.smem_config_bytes);
    if (l.smem_config_bytes) CHECK(*l.smem_config_bytes >= 8 * (l.static_smem_bytes + l.dynamic_smem_bytes));
    CHECK(l.cc == napkin::compute_capability{prop.major, prop.minor});
    CHECK(l.sm_count == prop.multiProcessorCount);
  };
  {
    napkin::profiler prof;
    const auto replayed = prof.per_kernel([&] {
      buf.copy();
      staged();
    });
    REQUIRE(replayed.kernels.size() == 2);
    check_launch(replayed.kernels[1], false);
    REQUIRE(replayed.kernels[0].launch.has_value());
    CHECK(replayed.kernels[0].launch->grid == napkin::launch_dims{1024, 1, 1});  // buffers::copy's launch
    const auto application = prof.per_kernel([&] { staged(); }, napkin::replay::application);
    REQUIRE(application.kernels.size() == 1);
    check_launch(application.kernels[0]);
    check_launch(prof.measure("one kernel", staged));
    // A range of several kernels has no one launch.
    CHECK(!prof.measure("two kernels", [&] {
                 buf.copy();
                 staged();
               }).launch);
  }
  // The Occupancy section on a set with the achieved occupancy: napkin's theoretical blocks per SM are the
  // driver's (cudaOccupancyMaxActiveBlocksPerMultiprocessor), achieved at most about theoretical.
  napkin::profiler prof(napkin::metric_sets::custom(
      "occupancy", {napkin::occupancy_metrics::achieved_pct, napkin::occupancy_metrics::achieved_warps}));
  const auto out = prof.per_kernel([&] { staged(); });
  REQUIRE(out.kernels.size() == 1);
  const std::optional<napkin::occupancy_section> s = napkin::occupancy(out.kernels[0]);
  REQUIRE(s.has_value());
  MESSAGE(napkin::to_text(*s));
  int driver_blocks = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&driver_blocks, staged_kernel, 256, dynamic) == cudaSuccess);
  CHECK(s->theoretical.blocks_per_sm == driver_blocks);
  CHECK(s->achieved_pct > 0.0);
  CHECK(s->achieved_pct <= s->theoretical_pct + 1.0);
  CHECK(s->waves_per_sm == doctest::Approx(1024.0 / (driver_blocks * prop.multiProcessorCount)));
}

// Profilers made and destroyed in turn, as a program (or this file) does: each used to unload its L2-flush
// library, after which CUPTI named its own range-profiler kernel (WaitNs: grid 1, ~80 us, launched by the range's
// pop) after the flush kernel in some sessions, so that measure() found two kernels in a pass (no launch) and
// counted CUPTI's 80 us as the range's work (5 of 50 on an H200: benchmarks/device/launch_record_probe.cu).
TEST_CASE("measure() with profilers made and destroyed in turn: the one kernel's launch every time, CUPTI's kernel never counted") {
  buffers buf;
  const dim3 grid(512, 2), block(128, 2);
  auto staged = [&] { staged_kernel<<<grid, block, 256 * sizeof(float)>>>(buf.a, buf.b, n); };
  for (int i = 0; i < 20; ++i) {
    CAPTURE(i);
    napkin::profiler prof;
    const auto r = prof.measure("one kernel", staged);
    CHECK(r.launch.has_value());
    // The kernel reads and writes 1 MiB: a few microseconds on any GPU the profiler supports, well under the
    // 80 us of CUPTI's kernel.
    REQUIRE(r.duration_ns());
    CHECK(*r.duration_ns() < 40e3);
  }
}

// Run by CTest under compute-sanitizer (profiler_gpu_under_sanitizer): another CUPTI client owns the process.
TEST_CASE("another CUPTI client attached: a clear error, and CUDA work goes on" * doctest::skip()) {
  try {
    napkin::profiler prof;
    FAIL("the profiler started: run this case under compute-sanitizer (or another CUPTI tool)");
  } catch (const napkin::profiler_error& e) {
    MESSAGE(e.what());
    CHECK(e.status() == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    CHECK(std::string(e.what()).find("another CUPTI client is attached") != std::string::npos);
  }
  buffers buf;  // the program goes on without the profiler
  buf.add_one();
  CHECK(buf.first_of_a() == 1.0f);
}
