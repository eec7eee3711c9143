// SPDX-License-Identifier: Apache-2.0
// What `napkin roofline` and `napkin report` put on a roofline chart (napkin/report/roofline_chart.hpp):
//   run_workload_line(line, gpu)   --workload "gemm 4096 4096 4096 --dtype fp16": the arguments of a
//                                  workload command, as typed after `napkin`, run on the chart's GPU
//   chart_gpu(...)                 --gpu, else the GPU key the run's document names, else h100-sxm
//   add_run_points(chart, ...)     a run's kernels that have FLOP counts; a baseline's, joined by arrows
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "answer.hpp"
#include "command.hpp"
#include "errors.hpp"
#include "gpu_choice.hpp"
#include "names.hpp"
#include "napkin/report/roofline_chart.hpp"
#include "napkin/report/json_read_run.hpp"

namespace napkin::cli {

inline std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The answer of `napkin <line> --gpu <gpu>`, for one of the workload commands.
inline workload_answer run_workload_line(const std::string& line, const std::string& gpu) {
  std::vector<std::string> words = words_of(line);
  const std::string where = "--workload '" + quote_input(line) + "'";
  std::vector<std::string> names;
  const command* chosen = nullptr;
  for (const command& c : registry())
    if (c.workload) {
      names.emplace_back(c.name);
      if (!words.empty() && lower(words.front()) == c.name) chosen = &c;
    }
  if (words.empty()) throw usage_error("--workload needs a workload command line, e.g. \"gemm 4096 4096 4096\"");
  if (chosen == nullptr)
    throw usage_error(where + ": '" + quote_input(words.front()) + "' is not a workload command" +
                      did_you_mean(words.front(), names));
  for (const std::string& w : words)
    for (const char* own : {"--gpu", "--peak", "--bandwidth", "--sms", "--clock", "--l2", "--time", "--format"})
      if (w == own || w.rfind(std::string(own) + "=", 0) == 0)
        throw usage_error(where + ": " + own + " belongs to `napkin roofline`, not to a --workload");
  CLI::App app;
  CLI::App* sub = app.add_subcommand(std::string(chosen->name));
  const runner run = chosen->setup(*sub);
  words.front() = chosen->name;
  words.push_back("--gpu");
  words.push_back(gpu);
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes the arguments reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    throw usage_error(where + ": for a command's options see `napkin " + std::string(chosen->name) + " --help`");
  } catch (const CLI::ParseError& e) {
    throw usage_error(where + ": " + e.what());
  }
  try {
    return std::get<workload_answer>(run());
  } catch (const usage_error& e) {
    throw usage_error(where + ": " + e.what());
  } catch (const std::invalid_argument& e) {  // napkin's bad-input errors
    throw usage_error(where + ": " + e.what());
  }
}

// The one GPU of a chart and how --workload names it.
struct chart_gpu_choice {
  chosen_gpu gpu;
  std::string typed;
};

inline chart_gpu_choice chart_gpu(const std::string& typed, bool given, const measured_run* run) {
  if (given) {
    if (typed.find(',') != std::string::npos || lower(typed) == "all")
      throw usage_error("a roofline chart is of one GPU: --gpu takes one key, alias or file");
    return {one_gpu(typed), typed};
  }
  if (run == nullptr) return {one_gpu("h100-sxm"), "h100-sxm"};
  if (!run->gpu.key.empty()) {
    if (find_gpu_entry(run->gpu.key) == nullptr)
      throw usage_error(run->file + " is about GPU '" + quote_input(run->gpu.key) +
                        "', which napkin's table lacks: give --gpu (a key, an alias or FILE.json)");
    return {one_gpu(run->gpu.key), run->gpu.key};
  }
  throw usage_error(run->file + " names no GPU key" +
                    (run->gpu.chip.empty() ? std::string() : " (chip " + run->gpu.chip + ")") +
                    ": give --gpu for the ceilings, e.g. --gpu h100");
}

// Adds the run's kernels that have executed FLOP, DRAM bytes and a duration; returns each kernel's point
// (none when left out) and notes the ones left out.
inline std::vector<std::optional<std::size_t>> add_run_points(roofline_chart& chart, const measured_run& r,
                                                              const std::string& label_suffix,
                                                              std::vector<std::string>& notes) {
  std::vector<std::optional<std::size_t>> points;
  std::string left_out;
  for (const sol_report& k : r.run.kernels) {
    const auto flop = k.flop(), bytes = k.dram_bytes(), ns = k.duration_ns();
    if (!flop || !(*flop > 0) || !bytes || !(*bytes > 0) || !ns || !(*ns > 0)) {
      left_out += (left_out.empty() ? "" : ", ") + k.name;
      points.emplace_back();
      continue;
    }
    points.emplace_back(add_measurement(chart, k, k.name + label_suffix));
  }
  const measured_by how = r.run.kernels.empty() ? measured_by::user_range : r.run.kernels.front().how;
  if (!left_out.empty())
    notes.push_back(r.file + ": not on the chart (no executed FLOP, DRAM bytes or duration: " +
                    (how == measured_by::ncu
                         ? "record with ncu --metrics gpu__time_duration.sum,dram__bytes.sum,"
                           "smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum (docs/reports.md)"
                     : how == measured_by::nvbench
                         ? "nvbench times kernels and counts no FLOP: profile them with ncu or "
                           "napkin::metric_sets::roofline(), or plot a --workload estimate"
                         : "measure with napkin::metric_sets::roofline()") +
                    "): " + left_out);
  return points;
}

// Arrows from each baseline kernel to the run's kernel of the same name (the n-th to the n-th).
inline void join_pairs(roofline_chart& chart, const measured_run& base, const std::vector<std::optional<std::size_t>>& before,
                       const measured_run& run, const std::vector<std::optional<std::size_t>>& after) {
  std::vector<bool> used(run.run.kernels.size(), false);
  for (std::size_t i = 0; i < base.run.kernels.size(); ++i)
    for (std::size_t j = 0; j < run.run.kernels.size(); ++j) {
      if (used[j] || run.run.kernels[j].name != base.run.kernels[i].name) continue;
      used[j] = true;
      if (before[i] && after[j]) add_pair(chart, *before[i], *after[j]);
      break;
    }
}

}  // namespace napkin::cli
