// Probe behind docs/profiler.md "Where a pass's time goes": times each CUPTI call of napkin's user-replay
// pass (start, push, launch, pop, stop, synchronize) and splits it into the calling thread's user and system
// CPU time and its voluntary context switches (getrusage(RUSAGE_THREAD)), under variations that could move
// the cost: the metric set, the counter-data image size, an empty range, a pause before start, auto range,
// and many loaded modules (cuBLAS). Wall >> CPU with many voluntary switches means CUPTI waits (sleeps or
// blocks in the driver); CPU-bound time would be work napkin might avoid.
// Build and run on the GPU machine (CUDA 13, CUPTI from the toolkit):
//   nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/pass_cost_probe.cu -o /tmp/pcp -lcupti -lcublas && /tmp/pcp
// `/tmp/pcp sets [FILE...]`: only the per-pass split (start, stop: wall and system time) of the default fast
// set and of each FILE's set (one metric per line: benchmarks/device/fast_sets/), beside one measure() of each:
// how much of a measurement is the counter programming in the kernel driver (docs/accuracy.md, "Cost").
#include <fstream>
#include <cublas_v2.h>
#include <sys/resource.h>
#include <chrono>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>
#include "napkin/profiler.hpp"

__global__ void copy_kernel(const float* in, float* out, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}

namespace {
using clk = std::chrono::steady_clock;
struct sample {
  double wall_ms = 0, user_ms = 0, sys_ms = 0, vcsw = 0, proc_cpu_ms = 0;
};
double tv_ms(const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; }

template <class F>
sample timed(F&& f) {
  rusage t0{}, t1{}, p0{}, p1{};
  getrusage(RUSAGE_THREAD, &t0);
  getrusage(RUSAGE_SELF, &p0);
  auto w0 = clk::now();
  f();
  auto w1 = clk::now();
  getrusage(RUSAGE_THREAD, &t1);
  getrusage(RUSAGE_SELF, &p1);
  sample s;
  s.wall_ms = std::chrono::duration<double, std::milli>(w1 - w0).count();
  s.user_ms = tv_ms(t1.ru_utime) - tv_ms(t0.ru_utime);
  s.sys_ms = tv_ms(t1.ru_stime) - tv_ms(t0.ru_stime);
  s.vcsw = double(t1.ru_nvcsw - t0.ru_nvcsw);
  s.proc_cpu_ms = tv_ms(p1.ru_utime) + tv_ms(p1.ru_stime) - tv_ms(p0.ru_utime) - tv_ms(p0.ru_stime);
  return s;
}

struct acc {
  std::map<std::string, sample> sum;
  std::vector<std::string> order;
  int passes = 0;
  void add(const std::string& k, const sample& s) {
    if (!sum.count(k)) order.push_back(k);
    auto& a = sum[k];
    a.wall_ms += s.wall_ms; a.user_ms += s.user_ms; a.sys_ms += s.sys_ms; a.vcsw += s.vcsw; a.proc_cpu_ms += s.proc_cpu_ms;
  }
  void print(const char* what) const {
    std::printf("%-44s passes %d | per pass (ms): ", what, passes);
    double total = 0;
    for (const auto& k : order) {
      const auto& a = sum.at(k);
      total += a.wall_ms;
      std::printf("%s %.2f [u %.2f s %.2f cs %.0f p %.2f]  ", k.c_str(), a.wall_ms / passes, a.user_ms / passes,
                  a.sys_ms / passes, a.vcsw / passes, a.proc_cpu_ms / passes);
    }
    std::printf("| total %.2f\n", total / passes);
  }
};

// One complete user replay of a copy of `len` floats, L2 flushed after each start (as napkin's measure()
// does); returns each pass's start time in ms.
std::vector<double> replay_copy(napkin::detail::cupti_session& rp, napkin::detail::l2_flusher& flusher,
                                const float* a, float* b, size_t len) {
  std::vector<double> starts;
  for (bool done = false; !done && starts.size() < 20;) {
    starts.push_back(timed([&] { rp.start(); }).wall_ms);
    flusher.flush();
    rp.push("r");
    copy_kernel<<<1024, 256>>>(a, b, len);
    rp.pop();
    done = rp.stop();
    cudaDeviceSynchronize();
  }
  return starts;
}

struct variant {
  const char* name;
  const napkin::metric_config* config;
  size_t image_ranges = 1;
  bool empty = false;
  int pause_ms = 0;
  bool auto_range = false;
};
}  // namespace

// Per pass of a complete user replay: start and stop (wall and system ms), L2 flush + push + copy + pop +
// synchronize as measure() does them.
struct pass_split {
  sample start, stop;
};
std::vector<pass_split> replay_split(napkin::detail::cupti_session& rp, napkin::detail::l2_flusher& flusher,
                                     const float* a, float* b, size_t len) {
  std::vector<pass_split> out;
  for (bool done = false; !done && out.size() < 20;) {
    pass_split p;
    p.start = timed([&] { rp.start(); });
    flusher.flush();
    rp.push("r");
    copy_kernel<<<1024, 256>>>(a, b, len);
    rp.pop();
    p.stop = timed([&] { done = rp.stop(); });
    cudaDeviceSynchronize();
    out.push_back(p);
  }
  return out;
}

int sets_mode(int argc, char** argv, CUcontext ctx, float* a, float* b, size_t n) {
  std::vector<napkin::metric_set> sets{napkin::metric_sets::sol_fast()};
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i]);
    std::vector<std::string> metrics;
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') metrics.push_back(line);
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    sets.push_back(napkin::metric_sets::custom(name, metrics));
  }
  napkin::profiler dummy(napkin::metric_sets::one_pass());
  napkin::detail::l2_flusher flusher(0);
  for (const auto& set : sets) {
    napkin::metric_config cfg(dummy.chip(), set);
    {
      napkin::detail::cupti_session rp(ctx, napkin::detail::user_range_user_replay);
      rp.set_config(cfg, 1);
      for (int rep = 0; rep < 5; ++rep) {
        if (rep > 0) rp.initialize_image();
        const auto t0 = clk::now();
        const std::vector<pass_split> passes = replay_split(rp, flusher, a, b, n);
        rp.decode();
        const double total_ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
        if (rep < 2) continue;  // the first replays pay first-use costs
        double start_sys = 0, stop_sys = 0, start_wall = 0, stop_wall = 0;
        std::string per;
        for (const pass_split& p : passes) {
          start_sys += p.start.sys_ms;
          stop_sys += p.stop.sys_ms;
          start_wall += p.start.wall_ms;
          stop_wall += p.stop.wall_ms;
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.1f/%.1f ", p.start.wall_ms, p.stop.wall_ms);
          per += buf;
        }
        std::printf("PASS_SPLIT set=%s passes=%zu replay=%d total_ms=%.1f start_ms=%.1f start_sys_ms=%.1f "
                    "stop_ms=%.1f stop_sys_ms=%.1f per_pass_start/stop_ms=%s\n",
                    set.name.c_str(), passes.size(), rep, total_ms, start_wall, start_sys, stop_wall, stop_sys,
                    per.c_str());
      }
    }
    napkin::profiler prof(set);
    for (int rep = 0; rep < 4; ++rep) {
      const auto t0 = clk::now();
      const napkin::sol_report r = prof.measure("copy", [&] { copy_kernel<<<1024, 256>>>(a, b, n); });
      const double ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
      if (rep > 0) std::printf("MEASURE set=%s passes=%zu wall_ms=%.1f\n", set.name.c_str(), r.passes, ms);
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  size_t n = size_t(1) << 24;
  float *a, *b;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  cudaFree(nullptr);
  CUcontext ctx;
  napkin::detail::driver_entry_point<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&ctx);
  napkin::detail::cupti_initialization init;
  if (argc > 1 && std::string(argv[1]) == "sets") return sets_mode(argc, argv, ctx, a, b, n);
  napkin::profiler dummy(napkin::metric_sets::one_pass());
  napkin::metric_config sol(dummy.chip(), napkin::metric_sets::sol());
  napkin::metric_config one(dummy.chip(), napkin::metric_sets::one_pass());
  napkin::metric_config dur(dummy.chip(), napkin::metric_sets::custom("duration", {"gpu__time_duration.sum"}));
  napkin::metric_config dram(dummy.chip(), napkin::metric_sets::custom("dram", {"dram__bytes_read.sum"}));
  std::printf("passes: sol %zu, one_pass %zu, duration %zu, dram %zu\n", sol.passes(), one.passes(), dur.passes(),
              dram.passes());

  auto run = [&](const variant& v, napkin::detail::cupti_session& rp, int reps) {
    acc total;
    for (int rep = 0; rep < reps; ++rep) {
      // The counter-data image and SetConfig (the session's mode says user or auto range).
      total.add("setcfg", timed([&] { rp.set_config(*v.config, v.image_ranges); }));
      for (bool done = false; !done;) {
        if (v.pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(v.pause_ms));
        total.add("start", timed([&] { rp.start(); }));
        if (!v.auto_range) total.add("push", timed([&] { rp.push("r"); }));
        if (!v.empty) total.add("launch", timed([&] { copy_kernel<<<1024, 256>>>(a, b, n); }));
        if (!v.auto_range) total.add("pop", timed([&] { rp.pop(); }));
        total.add("stop", timed([&] { done = rp.stop(); }));
        total.add("sync", timed([] { cudaDeviceSynchronize(); }));
        ++total.passes;
      }
      total.add("decode", timed([&] { rp.decode(); }));
    }
    total.print(v.name);
  };

  const variant user_variants[] = {
      {"sol, 1-range image", &sol},
      {"sol, 1-range image (again)", &sol},
      {"sol, 256-range image", &sol, 256},
      {"sol, empty range", &sol, 1, true},
      {"sol, 30 ms pause before start", &sol, 1, false, 30},
      {"one_pass set", &one},
      {"gpu__time_duration.sum only", &dur},
      {"dram__bytes_read.sum only", &dram},
  };
  {
    auto e = timed([] {});
    napkin::detail::cupti_session* rp = nullptr;
    auto en = timed([&] { rp = new napkin::detail::cupti_session(ctx, napkin::detail::user_range_user_replay); });
    std::printf("enable (user range): %.1f ms (u %.1f s %.1f)\n", en.wall_ms, en.user_ms, en.sys_ms);
    (void)e;
    for (const auto& v : user_variants) run(v, *rp, 3);
    auto dis = timed([&] { delete rp; });
    std::printf("disable: %.1f ms\n", dis.wall_ms);
  }
  {
    napkin::detail::cupti_session rp(ctx, napkin::detail::auto_range_user_replay);
    run({"auto range, user replay, sol", &sol, 1, false, 0, true}, rp, 3);
  }
  // SetConfig once, then several complete replays without a new SetConfig: does Start still reprogram the
  // counters when the configuration has not changed, and is each replay's data its own? Full and half copies
  // alternate (64 MiB and 32 MiB read); the counter-data image is either left as decoded or re-initialized in
  // place before each replay.
  napkin::metric_config bytes1(dummy.chip(), napkin::metric_sets::custom(
      "bytes-1pass", {"gpu__time_duration.sum", "dram__bytes_read.sum"}));
  napkin::metric_config bytes9(dummy.chip(), napkin::metric_sets::custom(
      "bytes-sol", {"gpu__time_duration.sum", "dram__bytes_read.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed"}));
  for (const napkin::metric_config* cfg : {&bytes1, &bytes9}) {
    for (bool reinit : {false, true}) {
      napkin::detail::cupti_session rp(ctx, napkin::detail::user_range_user_replay);
      rp.set_config(*cfg, 1);
      const std::vector<std::uint8_t>& data = rp.data();
      napkin::detail::l2_flusher flusher(0);  // L2 cold and clean before each pass: the read bytes are exact
      for (int rep = 0; rep < 5; ++rep) {
        const size_t len = n >> (rep % 2);
        if (reinit && rep > 0) rp.initialize_image();
        auto t0 = clk::now();
        try {
          const std::vector<double> starts = replay_copy(rp, flusher, a, b, len);
          const int passes = static_cast<int>(starts.size());
          const double start_ms = std::accumulate(starts.begin(), starts.end(), 0.0);
          const size_t dropped = rp.decode();
          const double total_ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
          auto v = cfg->evaluate(data, 0);
          std::printf("%s, one SetConfig, %s, replay %d (%s copy, expect %zu MiB read): passes %d, start %.2f ms/pass, "
                      "total %.2f ms, ranges %zu, dropped %zu, duration %.1f us, DRAM read %.1f MiB\n",
                      cfg->set().name.c_str(), reinit ? "image re-initialized" : "image kept", rep,
                      rep % 2 ? "half" : "full", len * 4 >> 20, passes, start_ms / passes, total_ms,
                      napkin::metric_config::range_count(data), dropped, v[0] / 1e3, v[1] / 1048576.0);
        } catch (const std::exception& e) {
          std::printf("%s, one SetConfig, replay %d: %s\n", cfg->set().name.c_str(), rep, e.what());
          break;
        }
      }
    }
  }
  // Which passes stay expensive when SetConfig is not repeated? Start time of every pass of the third replay
  // (one SetConfig, image re-initialized in place before each replay), for sol() and for each of its metrics
  // alone.
  {
    std::vector<napkin::metric_set> sets{napkin::metric_sets::sol()};
    for (const auto& m : napkin::metric_sets::sol().metrics) sets.push_back(napkin::metric_sets::custom(m, {m}));
    napkin::detail::l2_flusher flusher(0);
    for (const auto& set : sets) {
      napkin::metric_config cfg(dummy.chip(), set);
      napkin::detail::cupti_session rp(ctx, napkin::detail::user_range_user_replay);
      rp.set_config(cfg, 1);
      std::string starts;
      double total_ms = 0;
      for (int rep = 0; rep < 3; ++rep) {
        if (rep > 0) rp.initialize_image();
        auto t0 = clk::now();
        for (double ms : replay_copy(rp, flusher, a, b, n))
          if (rep == 2) { char buf[16]; std::snprintf(buf, sizeof buf, "%.1f ", ms); starts += buf; }
        rp.decode();
        total_ms = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
      }
      std::printf("third replay, one SetConfig: %-70s passes %zu, total %.1f ms, start per pass (ms): %s\n",
                  set.name.c_str(), cfg.passes(), total_ms, starts.c_str());
    }
  }
  // Many loaded modules: cuBLAS (eager-load its kernels by running one GEMM).
  cublasHandle_t h;
  cublasCreate(&h);
  {
    float alpha = 1, beta = 0;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1024, 1024, 1024, &alpha, a, 1024, a, 1024, &beta, b, 1024);
    cudaDeviceSynchronize();
    napkin::detail::cupti_session rp(ctx, napkin::detail::user_range_user_replay);
    run({"sol, after cuBLAS loaded", &sol}, rp, 3);
  }
  cublasDestroy(h);
  return 0;
}
