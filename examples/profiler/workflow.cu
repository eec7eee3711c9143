// SPDX-License-Identifier: Apache-2.0
// The profile -> fix -> re-measure loop in one run (docs/reports.md, "The loop"): measure the naive softmax
// of examples/kernels (8192 x 16384 floats, three passes over each row), keep it as the baseline, measure the
// optimized one (the row in registers: one read), compare the two as `napkin diff` would, and draw both.
//
//   workflow OUTDIR      writes OUTDIR/baseline.json      the naive softmax (napkin.kernel-reports)
//                               OUTDIR/optimized.json     the optimized softmax
//                               OUTDIR/roofline.svg       both points, a before -> after arrow, napkin's estimate
//                               OUTDIR/report.html        the optimized run, against the baseline
//                        and prints the diff (baseline -> optimized, read back from the two files).
//
// Exit code: 0 when the optimized softmax is faster (its time better beyond the 3 % threshold), 1 when it
// regressed or is not faster, or on an error; 2 for a wrong command line; 77 when there is no CUDA device
// (nothing is written then).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels.cuh"
#include "napkin/check.hpp"
#include "napkin/math.hpp"
#include "napkin/math/gpus_cuda.hpp"
#include "napkin/profiler.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"

namespace {

constexpr int rows = 8192;
constexpr int items = 16;            // softmax_smem_registers<16>: 1024 threads x 16 floats per row
constexpr int cols = 1024 * items;  // 16384

// napkin's GPU table key for a CUDA device name ("NVIDIA H100 80GB HBM3" -> "h100-sxm"), or "" when the
// table has no entry for it. Most specific names first: "H100 PCIe" before "H100", "A100" before "A10".
std::string_view table_key(const std::string& device) {
  const auto has = [&device](const char* part) { return device.find(part) != std::string::npos; };
  if (has("H200")) return has("NVL") ? "" : "h200-sxm";
  if (has("H100")) return has("PCIe") ? "h100-pcie" : has("NVL") ? "h100-nvl" : "h100-sxm";
  if (has("A100")) {
    const bool pcie = has("PCIE") || has("PCIe");
    return has("80GB") ? (pcie ? "a100-pcie-80gb" : "a100-sxm-80gb") : (pcie ? "a100-pcie-40gb" : "a100-sxm-40gb");
  }
  if (has("B200")) return "b200";
  if (has("V100") && has("SXM2")) return "v100-sxm2";
  if (has("L40S")) return "l40s";
  if (has("RTX 6000 Ada")) return "rtx-6000-ada";
  if (has("RTX 4090")) return "rtx-4090";
  if (has("RTX 3090")) return "rtx-3090";
  if (has("T4")) return "t4";
  if (has("L4")) return "l4";
  if (has("A10")) return "a10";
  return "";
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  std::printf("wrote %s\n", path.string().c_str());
}

// One softmax, measured per kernel with napkin's application replay (fn re-run per pass, L2 cold and clean
// before each). The report is named after the step, "softmax", in both runs: diff() matches kernels by name,
// and here two different kernels stand for the code before and after the fix.
template <class Launch>
napkin::kernel_reports measure_softmax(napkin::profiler& prof, const char* what, Launch launch, std::string& kernel) {
  launch();  // warm-up: module load and first-touch costs stay out of the measurement
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
  napkin::kernel_reports r = prof.per_kernel(launch, napkin::replay::application);
  if (r.kernels.size() != 1)
    throw std::runtime_error(std::string(what) + ": expected one kernel, the profiler saw " +
                             std::to_string(r.kernels.size()) + " (dropped " + std::to_string(r.dropped) + ")");
  kernel = r.kernels.front().name;
  r.kernels.front().name = "softmax";
  std::printf("%s: %s\n%s\n", what, kernel.c_str(), napkin::to_text(r.kernels.front()).c_str());
  return r;
}

const napkin::field_change* time_change(const napkin::report_diff& d) {
  for (const auto& c : d.changes)
    if (c.entity == "softmax" && c.field == "duration_ns") return &c;
  return nullptr;
}

int run(const std::filesystem::path& dir) {
  int devices = 0;
  const cudaError_t found = cudaGetDeviceCount(&devices);
  if (found != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "workflow: no CUDA device (%s); this example measures on a GPU. Nothing was written.\n",
                 found != cudaSuccess ? cudaGetErrorString(found) : "cudaGetDeviceCount found 0");
    return 77;
  }
  std::filesystem::create_directories(dir);

  // The GPU: napkin's table entry when it has one (its datasheet peaks draw the roofline), else a spec
  // derived from what the runtime reports.
  cudaDeviceProp prop{};
  NAPKIN_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const std::string device_name(prop.name, strnlen(prop.name, sizeof prop.name));
  const std::string_view key = table_key(device_name);
  const napkin::gpu_spec spec = key.empty() ? napkin::device_gpu_spec(0).spec : napkin::find_gpu(key);
  napkin::document_options doc;
  doc.gpu.key = std::string(key);
  doc.gpu.name = key.empty() ? device_name : std::string(spec.name);
  doc.gpu.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  doc.context.device_index = 0;
  doc.context.device_name = device_name;
  std::printf("GPU: %s (%s)\n", device_name.c_str(),
              key.empty() ? "not in napkin's table: peaks derived from the device" : std::string(key).c_str());

  float* in = nullptr;
  float* out = nullptr;
  const std::size_t n = std::size_t(rows) * cols;
  NAPKIN_CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
  NAPKIN_CUDA_CHECK(cudaMalloc(&out, n * sizeof(float)));
  NAPKIN_CUDA_CHECK(napkin_kernels::fill_pattern(in, n));
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());

  // 1. The baseline.
  napkin::profiler prof{napkin::metric_sets::roofline()};
  std::string naive_name, optimized_name;
  const napkin::kernel_reports naive = measure_softmax(
      prof, "baseline", [&] { NAPKIN_CUDA_CHECK(napkin_kernels::softmax_smem_naive(in, out, rows, cols)); },
      naive_name);
  write_file(dir / "baseline.json", napkin::to_json(naive, doc));

  // 2. The fix, measured the same way.
  const napkin::kernel_reports optimized = measure_softmax(
      prof, "optimized", [&] { NAPKIN_CUDA_CHECK(napkin_kernels::softmax_smem_registers<items>(in, out, rows)); },
      optimized_name);
  write_file(dir / "optimized.json", napkin::to_json(optimized, doc));
  NAPKIN_CUDA_CHECK(cudaFree(in));
  NAPKIN_CUDA_CHECK(cudaFree(out));

  // 3. The diff, from the files as a later run (or `napkin diff`) reads them. Gated on time: the other
  // numbers are shown but move with it (a faster kernel can show a lower throughput %).
  napkin::diff_options gate;
  gate.gate_fields = {"duration_ns"};
  const napkin::report_diff d = napkin::diff(napkin::read_document_file((dir / "baseline.json").string()),
                                             napkin::read_document_file((dir / "optimized.json").string()), gate);
  std::printf("\n%s\n", napkin::to_text(d).c_str());
  if (d.bad_input()) return 1;

  // 4. The roofline: both measurements joined by an arrow, and napkin's estimate of the softmax.
  const std::string gpu_text = doc.gpu.name;
  napkin::roofline_chart chart = napkin::make_roofline_chart(spec, "softmax 8192 x 16384 on " + gpu_text);
  const std::size_t before = napkin::add_measurement(chart, naive.kernels.front(), "before: softmax_smem_naive");
  const std::size_t after =
      napkin::add_measurement(chart, optimized.kernels.front(), "after: softmax_smem_registers<16>");
  napkin::add_pair(chart, before, after);
  napkin::add_estimate(chart, "napkin estimate",
                       napkin::estimate(napkin::softmax(rows, cols), spec, napkin::pipe::fp32));
  write_file(dir / "roofline.svg", napkin::to_svg(chart));

  // 5. The page: the optimized run, against the baseline.
  napkin::report_page page;
  page.title = "softmax 8192 x 16384: " + naive_name + " -> " + optimized_name;
  page.gpu = gpu_text;
  page.kernels = optimized.kernels;
  page.baseline = naive.kernels;
  page.roofline = chart;
  page.compare = gate;
  write_file(dir / "report.html", napkin::to_html(page));

  const napkin::field_change* t = time_change(d);
  if (d.regressed()) {
    std::printf("\nworkflow: the optimized softmax regressed against the baseline\n");
    return 1;
  }
  if (t == nullptr || t->status != napkin::change_status::better) {
    std::printf("\nworkflow: the optimized softmax is not faster beyond %.1f%%\n", d.threshold_pct);
    return 1;
  }
  std::printf("\nworkflow: the optimized softmax is faster: %.2f us -> %.2f us (%+.1f%%)\n", *t->old_value * 1e-3,
              *t->new_value * 1e-3, *t->change_pct);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool help = argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0);
  if (argc != 2 || help) {
    std::fprintf(help ? stdout : stderr,
                 "usage: %s OUTDIR\n  measures the naive and the optimized softmax (8192 x 16384 floats) and writes "
                 "OUTDIR/{baseline.json,optimized.json,roofline.svg,report.html}\n", argv[0]);
    return help ? 0 : 2;
  }
  try {
    return run(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "workflow: %s\n", e.what());
    return 1;
  }
}
