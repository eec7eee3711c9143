// SPDX-License-Identifier: Apache-2.0
// Measuring the same kernels on several GPUs of one process: the work (a copy and a reduction of 256 MiB
// per device, napkin_kernels' copy_kernel and sum_kernel), one device's measurement, and whether two
// measurements agree within the profiler's accuracy goal (docs/profiler.md: every % within 2 points,
// duration and DRAM bytes within 3 %). Shared by examples/multi_gpu/two_threads.cu and
// tests/profiler/gpu_devices_test.cu.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels.cuh"
#include "napkin/profiler.hpp"

namespace napkin_multi_gpu {

constexpr std::size_t floats = std::size_t(1) << 26;  // 256 MiB per buffer: far beyond any L2

// Buffers on one device, made with that device current on the calling thread (which it stays on).
class device_work {
 public:
  explicit device_work(int device) : device_(device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaMalloc(&in_, floats * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&out_, floats * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&sum_, sizeof(float)), "cudaMalloc");
    check(cudaMemset(in_, 0, floats * sizeof(float)), "cudaMemset");
    check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  }
  device_work(const device_work&) = delete;
  device_work& operator=(const device_work&) = delete;
  ~device_work() {
    (void)cudaFree(in_);
    (void)cudaFree(out_);
    (void)cudaFree(sum_);
  }

  // The kernels, on the current device (napkin makes the profiler's device current around fn).
  void run() const {
    check(napkin_kernels::copy(in_, out_, floats), "copy");
    check(napkin_kernels::sum(in_, floats, sum_, static_cast<unsigned>(sms_) * 8), "sum");
  }
  // On `device_`, by `how`: "application" (per_kernel(fn, replay::application), the profiler's most exact
  // way, docs/profiler.md), "kernel" (per_kernel's CUPTI kernel replay) or "measure" (both kernels as one
  // range, reported as one entry).
  napkin::kernel_reports measure(const std::string& how = "application") const {
    napkin::profiler_options o;
    o.device = device_;
    napkin::profiler prof(napkin::metric_sets::sol_fast(), o);
    if (how == "kernel") return prof.per_kernel([this] { run(); });
    if (how == "measure") {
      napkin::kernel_reports k;
      k.kernels.push_back(prof.measure("copy and sum", [this] { run(); }));
      return k;
    }
    return prof.per_kernel([this] { run(); }, napkin::replay::application);
  }

 private:
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
  int device_;
  int sms_ = 0;
  float* in_ = nullptr;
  float* out_ = nullptr;
  float* sum_ = nullptr;
};

// Where two reports of one kernel differ by more than the accuracy goal, in words; empty when they agree.
inline std::string disagreement(const napkin::sol_report& a, const napkin::sol_report& b) {
  std::string out;
  const auto points = [&](const char* what, std::optional<double> x, std::optional<double> y) {
    if (!x || !y) {
      out += std::string(what) + " missing; ";
    } else if (std::fabs(*x - *y) > 2.0) {
      out += std::string(what) + " " + std::to_string(*x) + " vs " + std::to_string(*y) + " % (> 2 points); ";
    }
  };
  const auto relative = [&](const char* what, std::optional<double> x, std::optional<double> y) {
    if (!x || !y) {
      out += std::string(what) + " missing; ";
    } else if (std::fabs(*x - *y) > 0.03 * std::fabs(*y)) {
      out += std::string(what) + " " + std::to_string(*x) + " vs " + std::to_string(*y) + " (> 3 %); ";
    }
  };
  points("SM %", a.sm_pct(), b.sm_pct());
  points("Memory %", a.memory_pct(), b.memory_pct());
  points("DRAM %", a.dram_pct(), b.dram_pct());
  relative("duration ns", a.duration_ns(), b.duration_ns());
  relative("DRAM bytes", a.dram_bytes(), b.dram_bytes());
  return out;
}

}  // namespace napkin_multi_gpu
