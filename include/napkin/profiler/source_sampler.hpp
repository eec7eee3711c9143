// SPDX-License-Identifier: Apache-2.0
// napkin::sample_source_lines(fn): runs fn once under CUPTI's PC sampling and returns, per kernel, its hot
// source lines with their stall reasons (Nsight Compute's Source page, in-process), and what sampling cost.
//
// Continuous collection with start/stop control (napkin/cupti/pc_sampling.hpp): kernels run as they would,
// concurrently and without replay; every kernel fn launches on the device's context is sampled. Each sample
// is a warp's PC and its stall reason at that cycle, taken every 2^period cycles per SM sub-partition. PCs go
// to file:line through the module's line information (napkin/cupti/sass_source.hpp; nvcc -lineinfo), captured
// when the module loads; a kernel whose module has no line information keeps its top SASS PCs (function +
// offset) and the report says to build with -lineinfo. docs/source-lines.md.
#pragma once

#include "napkin/config.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "napkin/cupti/device.hpp"
#include "napkin/cupti/errors.hpp"
#include "napkin/cupti/kernel_names.hpp"
#include "napkin/cupti/pc_sampling.hpp"
#include "napkin/cupti/sass_source.hpp"
#include "napkin/detail/device_index.hpp"
#include "napkin/detail/seconds_since.hpp"
#include "napkin/error.hpp"
#include "napkin/profiler/source_lines.hpp"

NAPKIN_BEGIN_NAMESPACE

struct source_sampling_options {
  // Sampling period: a sample every 2^period_log2 cycles per SM sub-partition, 5..31; 0 lets CUPTI choose
  // from the SM count. Smaller periods see short kernels but drop samples when the hardware buffer fills.
  std::uint32_t period_log2 = 0;
  std::size_t top_lines = 10;  // lines kept per function
  std::size_t top_pcs = 5;     // PCs kept per function
  // Keep only functions whose readable name contains one of these ("zoo_strided_load"); empty: all.
  std::vector<std::string> kernels;
  // Cubins of modules loaded before sampling began (the capture sees only modules that load during it).
  std::vector<std::vector<char>> cubins;
  int device = detail::current_device_index;  // as profiler_options::device
  std::chrono::milliseconds busy_wait{0};     // as profiler_options::busy_wait
  std::size_t buffer_pcs = 10000;             // PC records per drain
  std::size_t hardware_buffer_bytes = 0;      // 0: CUPTI's default (512 MB)
  // How often CUPTI's worker threads wake to decode (ms); 0: CUPTI's default (100 ms). Stopping waits for
  // them, so a shorter sleep shortens stop() at the cost of more host wake-ups.
  std::uint32_t worker_sleep_ms = 0;
};

namespace detail {

inline void check_source_sampling_options(const source_sampling_options& o) {
  if (o.period_log2 != 0 && (o.period_log2 < 5 || o.period_log2 > 31))
    raise_input_error<std::invalid_argument>(
        "napkin: source_sampling_options::period_log2 must be 0 (CUPTI's choice) or 5..31 (2^n cycles), got " +
        std::to_string(o.period_log2));
  if (o.buffer_pcs == 0)
    raise_input_error<std::invalid_argument>("napkin: source_sampling_options::buffer_pcs must be at least 1");
}

// Drained PCs -> pc_records with their source locations: each PC's cubin found by CRC, else by the first
// cubin that knows the function; one correlation per (symbol, offset).
class pc_correlator {
 public:
  explicit pc_correlator(std::vector<cubin_image> cubins) : cubins_(std::move(cubins)) {}

  pc_record resolve(const drained_pc& d) {
    pc_record r;
    r.symbol = d.symbol;
    r.function = readable_kernel_name(d.symbol.c_str());
    r.pc_offset = d.pc_offset;
    r.cubin_crc = d.cubin_crc;
    for (const auto& [name, n] : d.stalls)
      if (n > 0) r.stalls.push_back({short_stall_reason(name), n});
    const auto key = std::make_pair(d.symbol, d.pc_offset);
    if (auto hit = lines_.find(key); hit != lines_.end()) {
      r.where = hit->second;
      return r;
    }
    source_location where;
    if (const cubin_image* c = cubin_for(d)) {
      const sass_line l = correlate_pc(c->bytes, d.symbol, d.pc_offset);
      where.file = l.file;
      where.dir = l.dir;
      where.line = l.line;
    } else {
      missing_.insert(r.function);
    }
    lines_.emplace(key, where);
    r.where = std::move(where);
    return r;
  }
  // Functions whose cubin was never seen.
  const std::set<std::string>& missing_cubins() const noexcept { return missing_; }

 private:
  const cubin_image* cubin_for(const drained_pc& d) {
    if (auto hit = by_symbol_.find(d.symbol); hit != by_symbol_.end()) return hit->second;
    const cubin_image* found = nullptr;
    if (d.cubin_crc != 0)
      for (const auto& c : cubins_)
        if (c.crc == d.cubin_crc) found = &c;
    // No CRC match (CUPTI reported none, or the cubin came from the options): the first cubin whose
    // correlation knows the function.
    for (std::size_t i = 0; found == nullptr && i < cubins_.size(); ++i)
      if (correlate_pc(cubins_[i].bytes, d.symbol, d.pc_offset).status == CUPTI_SUCCESS) found = &cubins_[i];
    by_symbol_.emplace(d.symbol, found);
    return found;
  }

  std::vector<cubin_image> cubins_;
  std::map<std::string, const cubin_image*> by_symbol_;
  std::map<std::pair<std::string, std::uint64_t>, source_location> lines_;
  std::set<std::string> missing_;
};

}  // namespace detail

// Runs fn() once with PC sampling on the device's context and returns the hot lines of every kernel it
// launched (options.kernels narrows them). fn's launches are waited for (cudaDeviceSynchronize) before
// sampling stops. The cost is measured on the host: setup (enable, configure), the sampled run, the drain
// and the source correlation.
template <class Fn>
source_lines_report sample_source_lines(Fn&& fn, const source_sampling_options& options = {}) {
  detail::check_source_sampling_options(options);
  // Before the context exists and anything of fn's loads: lazily loaded modules are captured at their first
  // launch (and eagerly loaded ones at context creation, when this call creates the context).
  const detail::module_capture capture;
  const detail::profiled_device device = detail::find_device(options.device);
  const detail::context_guard current(device.context);
  source_lines_report report;
  if (!capture.unavailable_reason().empty())
    report.notes.push_back("module cubins not captured, so no source lines: " + capture.unavailable_reason());

  std::vector<detail::drained_pc> drained;
  detail::drained_totals totals;
  auto t = std::chrono::steady_clock::now();
  {
    detail::pc_sampling_settings settings;
    settings.period_log2 = options.period_log2;
    settings.hardware_buffer_bytes = options.hardware_buffer_bytes;
    settings.buffer_pcs = options.buffer_pcs;
    settings.busy_wait = options.busy_wait;
    settings.worker_sleep_ms = options.worker_sleep_ms;
    detail::pc_sampling sampling(device.context, settings);
    report.cost.period_log2 = sampling.period_log2();
    NAPKIN_DETAIL_PROFILER_CHECK(cudaDeviceSynchronize());  // earlier work stays out of the range
    report.cost.setup_s = detail::seconds_since(t);

    t = std::chrono::steady_clock::now();
    sampling.start();
    fn();
    NAPKIN_DETAIL_PROFILER_CHECK_NOTE(cudaDeviceSynchronize(), "the sampled work failed");
    sampling.stop();
    report.cost.run_s = detail::seconds_since(t);

    t = std::chrono::steady_clock::now();
    sampling.drain(drained, totals);
    sampling.disable(drained, totals);
    report.cost.drain_s = detail::seconds_since(t);
  }

  t = std::chrono::steady_clock::now();
  std::vector<detail::cubin_image> cubins = detail::module_capture::cubins();
  for (const auto& bytes : options.cubins) cubins.push_back(detail::make_cubin_image(bytes));
  detail::pc_correlator correlator(std::move(cubins));
  std::vector<pc_record> records;
  records.reserve(drained.size());
  for (const auto& d : drained) records.push_back(correlator.resolve(d));
  source_lines_options lo;
  lo.top_lines = options.top_lines;
  lo.top_pcs = options.top_pcs;
  lo.functions = options.kernels;
  report.functions = aggregate_source_lines(records, lo);
  report.cost.correlate_s = detail::seconds_since(t);

  report.cost.total_samples = totals.total_samples;
  report.cost.dropped_samples = totals.dropped_samples;
  report.cost.non_user_samples = totals.non_user_samples;
  report.cost.pc_records = totals.pc_records;
  report.cost.drains = totals.drains;
  report.cost.hardware_buffer_full = totals.hardware_buffer_full;
  for (const auto& f : correlator.missing_cubins())
    report.notes.push_back("no cubin for " + f +
                           ": its module loaded before sampling began; pass it in source_sampling_options::cubins");
  if (totals.dropped_samples > 0 || totals.hardware_buffer_full)
    report.notes.push_back(std::to_string(totals.dropped_samples) +
                           " samples dropped by the hardware: raise period_log2 or hardware_buffer_bytes");
  if (report.functions.empty())
    report.notes.push_back("no samples: the work ran shorter than a sampling period, or launched no kernel");
  return report;
}

NAPKIN_END_NAMESPACE
