// SPDX-License-Identifier: Apache-2.0
// --gpu and the custom-GPU flags: which GPU(s) a workload command answers for.
//
//   --gpu KEY         a table entry or an alias, any case (names.hpp)
//   --gpu a,b,c       several: one comparison table; `all` is the whole table
//   --gpu local       the GPU of this machine, derived from cudaDeviceProp (napkin/math/gpus_cuda.hpp;
//                     only when the CLI is built with the CUDA toolkit; it links cudart, never libcuda)
//   --peak PIPE=RATE, --bandwidth RATE, --sms N, --clock MHZ, --l2 SIZE
//                     a custom GPU: on top of --gpu KEY when given (what if H100 had 2 TB/s?), else
//                     from nothing (then --bandwidth and one --peak are needed).
//   --gpu FILE.json, KEY@FILE.json
//                     GPUs from a gpu-specs document (gpu_file.hpp), in a list like keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "gpu_file.hpp"
#include "names.hpp"
#include "napkin/math.hpp"
#include "parse.hpp"

#if NAPKIN_CLI_HAS_CUDA
#include "napkin/math/gpus_cuda.hpp"
#endif

namespace napkin::cli {

struct custom_gpu_flags {
  std::vector<std::string> peaks;  // PIPE=RATE, repeatable
  std::string bandwidth, sms, clock, l2;
  bool any() const { return !peaks.empty() || !bandwidth.empty() || !sms.empty() || !clock.empty() || !l2.empty(); }
};

// A GPU as the answer names it. spec.key and spec.name view static text (table entries, "custom",
// "local"); `label` owns what varies (the device's name).
struct chosen_gpu {
  gpu_spec spec;
  std::string label;  // "h100-sxm (H100 SXM5 80GB)", "local (NVIDIA H200, derived from cudaDeviceProp)"
  bool show_spec = false;  // not a table entry as is: the report prints its SMs, clock and L2
  std::shared_ptr<const owned_gpu_strings> strings;  // what spec's views point to, for a GPU from a file
};

inline chosen_gpu file_gpu_choice(const file_gpu& f) {
  return {f.spec, std::string(f.spec.key) + " (" + std::string(f.spec.name) + ", from " + f.file + ")", true, f.strings};
}

inline chosen_gpu table_gpu(const gpu_spec& g) {
  return {g, std::string(g.key) + " (" + std::string(g.name) + ")", false, nullptr};
}

inline chosen_gpu local_gpu() {
#if NAPKIN_CLI_HAS_CUDA
  try {
    const device_gpu d = device_gpu_spec();
    chosen_gpu c{d.spec, "local (" + d.name + ", derived from cudaDeviceProp)", true, nullptr};
    c.spec.key = "local";
    c.spec.name = "this machine's GPU";
    return c;
  } catch (const std::exception& e) {
    throw usage_error(std::string("--gpu local: no CUDA device could be queried: ") + e.what());
  }
#else
  throw usage_error("--gpu local: this napkin was built without the CUDA toolkit, so it cannot ask the device");
#endif
}

inline chosen_gpu one_gpu(const std::string& typed) {
  if (lower(typed) == "local") return local_gpu();
  if (names_gpu_file(typed)) {
    const std::vector<file_gpu> from_file = read_gpu_file(typed);
    if (from_file.size() > 1)
      throw usage_error("--gpu " + quote_input(typed) + " holds " + std::to_string(from_file.size()) +
                        " GPUs; this answer takes one: KEY@" + quote_input(typed) + " picks one");
    return file_gpu_choice(from_file.front());
  }
  return table_gpu(lookup_gpu(typed));
}

// `base` changed by the custom flags.
inline chosen_gpu apply_custom(chosen_gpu base, const custom_gpu_flags& f) {
  gpu_spec& g = base.spec;
  std::string changed;
  const auto note = [&](const std::string& what) { changed += (changed.empty() ? "" : ", ") + what; };
  if (!f.bandwidth.empty()) {
    g.memory_bandwidth = parse_rate(f.bandwidth, "--bandwidth", "B/s");
    note("bandwidth");
  }
  if (!f.sms.empty()) {
    g.sm_count = parse_int(f.sms, "--sms", false);
    note("SMs");
  }
  if (!f.clock.empty()) {
    g.boost_clock_mhz = parse_rate(f.clock, "--clock", "MHz");
    if (g.boost_clock_mhz > 1e5) throw usage_error("--clock is in MHz: '" + quote_input(f.clock) + "' is above 100 GHz");
    note("clock");
  }
  if (!f.l2.empty()) {
    g.l2_bytes = static_cast<std::uint64_t>(parse_size(f.l2, "--l2"));
    note("L2");
  }
  pipe_peaks seen{};
  for (const std::string& p : f.peaks) {
    const std::size_t eq = p.find('=');
    if (eq == std::string::npos)
      throw usage_error("--peak takes PIPE=RATE, e.g. --peak fp16-tc=989.4T; got '" + quote_input(p) + "'");
    const pipe which = parse_pipe_arg(p.substr(0, eq));
    if (seen[index(which)] != 0) throw usage_error("--peak gives pipe '" + std::string(to_string(which)) + "' twice");
    seen[index(which)] = g.peaks[index(which)] = parse_rate(p.substr(eq + 1), "--peak", "FLOP/s");
    note(std::string(to_string(which)) + " peak");
  }
  if (g.memory_bandwidth <= 0)
    throw usage_error("a custom GPU needs --bandwidth (DRAM, e.g. --bandwidth 3.35T for 3.35 TB/s)");
  bool any_peak = false;
  for (double v : g.peaks) any_peak = any_peak || v > 0;
  if (!any_peak) throw usage_error("a custom GPU needs at least one --peak PIPE=RATE (e.g. --peak fp32=66.9T)");
  base.show_spec = true;
  base.label = g.key == "custom" ? "custom GPU (" + changed + " from the flags)" : base.label + ", changed: " + changed;
  return base;
}

// The GPUs of one run. `gpu_given`: whether --gpu was on the command line (else `typed` is the default).
inline std::vector<chosen_gpu> choose_gpus(const std::string& typed, bool gpu_given, const custom_gpu_flags& f) {
  std::vector<chosen_gpu> out;
  if (f.any()) {
    if (typed.find(',') != std::string::npos || lower(typed) == "all")
      throw usage_error("--peak, --bandwidth, --sms, --clock and --l2 change one GPU; --gpu lists several");
    chosen_gpu base{gpu_spec{}, "", true, nullptr};
    base.spec.key = "custom";
    base.spec.name = "custom GPU";
    base.spec.source = "the command line";
    return {apply_custom(gpu_given ? one_gpu(typed) : base, f)};
  }
  if (lower(typed) == "all") {
    for (const gpu_spec& g : gpu_table) out.push_back(table_gpu(g));
    return out;
  }
  std::size_t start = 0;
  while (start <= typed.size()) {
    const std::size_t comma = std::min(typed.find(',', start), typed.size());
    const std::string item = typed.substr(start, comma - start);
    if (names_gpu_file(item))
      for (const file_gpu& f : read_gpu_file(item)) out.push_back(file_gpu_choice(f));
    else
      out.push_back(one_gpu(item));
    start = comma + 1;
  }
  return out;
}

}  // namespace napkin::cli
