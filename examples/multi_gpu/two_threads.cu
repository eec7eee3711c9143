// SPDX-License-Identifier: Apache-2.0
// Two GPUs measured at once from two threads of one process, against each GPU measured alone.
//
//   two_threads [application|kernel|measure]   # needs 2 GPUs; Markdown tables for docs/profiler.md
//
// Each thread makes its own napkin::profiler on its own device (profiler_options::device), each with its own
// CUPTI session, and measures the same kernels (a 256 MiB copy and reduction) with per_kernel(fn,
// replay::application). The same kernels are measured alone on each device first. The two should agree within
// the profiler's accuracy goal (every % within 2 points, duration and DRAM bytes within 3 %): the two
// sessions do not disturb each other. Exit status: 0 when every kernel agrees, 1 when one does not, 2 when
// the machine has fewer than two GPUs or a measurement failed.
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "napkin/text/numbers.hpp"
#include "napkin/profiler.hpp"
#include "two_devices.cuh"

namespace {

std::string cell(std::optional<double> v, double scale, int decimals) {
  return v ? napkin::fixed(*v * scale, decimals) : "n/a";
}

void print_identity(const napkin::report_context& c) {
  std::printf("| %lld | %s | %s | %s |\n", static_cast<long long>(c.device_index.value_or(-1)),
              c.device_name.value_or("?").c_str(), c.device_pci_bus_id.value_or("?").c_str(),
              c.device_uuid.value_or("?").c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string how = argc > 1 ? argv[1] : "application";
  if (how != "application" && how != "kernel" && how != "measure") {
    std::printf("usage: two_threads [application|kernel|measure]\n");
    return 2;
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::printf("two_threads needs two GPUs; this process sees %d\n", count);
    return 2;
  }
  try {
    std::vector<napkin::kernel_reports> alone(2), together(2);
    for (int d = 0; d < 2; ++d) {
      const napkin_multi_gpu::device_work work(d);
      alone[d] = work.measure(how);
    }
    std::vector<std::string> failures(2);
    std::vector<std::thread> threads;
    for (int d = 0; d < 2; ++d)
      threads.emplace_back([d, &how, &together, &failures] {
        try {
          const napkin_multi_gpu::device_work work(d);
          together[d] = work.measure(how);
        } catch (const std::exception& e) {
          failures[d] = e.what();
        }
      });
    for (auto& t : threads) t.join();
    for (int d = 0; d < 2; ++d)
      if (!failures[d].empty()) {
        std::printf("device %d failed while both measured: %s\n", d, failures[d].c_str());
        return 2;
      }

    std::printf("Devices (each thread's report context):\n\n| device | name | PCI bus id | UUID |\n|---|---|---|---|\n");
    for (int d = 0; d < 2; ++d)
      if (!together[d].kernels.empty()) print_identity(together[d].kernels.front().context);
    std::printf("\n%s, sol_fast set; alone = one device at a time, both = two threads at once:\n\n",
                how == "measure" ? "measure(fn)" : how == "kernel" ? "per_kernel(fn)" : "per_kernel(fn, replay::application)");
    std::printf("| kernel | device | SM %% alone / both | Memory %% alone / both | DRAM %% alone / both | "
                "duration us alone / both | DRAM MB alone / both | within the goal |\n|---|---|---|---|---|---|---|---|\n");
    bool all_agree = true;
    for (int d = 0; d < 2; ++d) {
      const auto& a = alone[d].kernels;
      const auto& b = together[d].kernels;
      if (a.size() != b.size()) {
        std::printf("device %d: %zu kernels alone, %zu with both\n", d, a.size(), b.size());
        return 1;
      }
      for (std::size_t k = 0; k < a.size(); ++k) {
        const std::string why = napkin_multi_gpu::disagreement(b[k], a[k]);
        all_agree = all_agree && why.empty() && a[k].name == b[k].name;
        std::printf("| %s | %d | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s |\n", a[k].name.c_str(), d,
                    cell(a[k].sm_pct(), 1, 2).c_str(), cell(b[k].sm_pct(), 1, 2).c_str(),
                    cell(a[k].memory_pct(), 1, 2).c_str(), cell(b[k].memory_pct(), 1, 2).c_str(),
                    cell(a[k].dram_pct(), 1, 2).c_str(), cell(b[k].dram_pct(), 1, 2).c_str(),
                    cell(a[k].duration_ns(), 1e-3, 2).c_str(), cell(b[k].duration_ns(), 1e-3, 2).c_str(),
                    cell(a[k].dram_bytes(), 1e-6, 2).c_str(), cell(b[k].dram_bytes(), 1e-6, 2).c_str(),
                    why.empty() ? "yes" : ("no: " + why).c_str());
      }
    }
    std::printf("\n%s\n", all_agree ? "All kernels agree within the goal." : "Some kernels do not agree.");
    return all_agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("failed: %s\n", e.what());
    return 2;
  }
}
