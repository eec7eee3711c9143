// SPDX-License-Identifier: Apache-2.0
// What each `napkin` command answers, as a value: the runner computes it, a renderer prints it
// (render.hpp: text, or the report library's JSON and CSV), and answer_status() gives the exit status.
// Nothing here prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpu_choice.hpp"
#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/job_documents.hpp"
#include "napkin/report/monitor_page.hpp"
#include "napkin/report/source_lines_page.hpp"
#include "napkin/report/roofline_chart.hpp"
#include "sweep.hpp"

namespace napkin::cli {

// A measured time read against one case's roofline (--time).
struct measured_reading {
  double seconds = 0;
  double fraction_of_bound = 0;      // roofline lower bound / measured time (1 = on the roofline)
  double achieved_flops = 0;         // standard FLOPs / measured time
  double fraction_of_peak = 0;       // achieved FLOP/s / the pipe's peak
  double achieved_bandwidth = 0;     // minimum bytes / measured time
  double fraction_of_bandwidth = 0;  // achieved bandwidth / DRAM bandwidth
  std::string reading;               // what the numbers say, one sentence
};

// One workload on one GPU.
struct workload_case {
  std::vector<std::int64_t> sizes;  // one per size argument
  std::string title;                // "GEMM M=4096 N=4096 K=4096, beta = 0"
  workload w;
  chosen_gpu gpu;
  std::optional<pipe> p;                  // empty when this GPU has no such pipe (comparison rows)
  std::string unavailable;                // why there is no estimate
  sparsity s = sparsity::dense;
  std::optional<roofline_estimate> e;
  std::optional<measured_reading> measured;
};

// A workload command's answer: one case (a report), or a sweep and/or a GPU comparison (a table).
struct workload_answer {
  std::string command;            // "gemm"
  std::vector<size_axis> axes;    // the size arguments as given
  std::vector<workload_case> cases;
  bool sweep = false;             // some size argument has several values
  bool comparison = false;        // several GPUs
  std::vector<std::string> notes;  // for stderr: a --pipe that is not the types' own (pipe_note.hpp)
};

struct gpus_answer {
  enum class view { peaks, ridges, sources, keys } shown = view::peaks;
  std::vector<chosen_gpu> chosen;  // `napkin gpus h100`: these GPUs' facts (gpu_facts.hpp); empty: the table
  std::vector<gpu_spec> specs() const {
    std::vector<gpu_spec> out;
    for (const chosen_gpu& g : chosen) out.push_back(g.spec);
    return out;
  }
};

struct pipes_answer {};
struct dtypes_answer {};

struct occupancy_answer {
  compute_capability cc{};
  std::string where;  // ", h100-sxm (H100 SXM5 80GB)" or empty for --cc
  sm_limits limits{};
  int threads = 0;
  kernel_resources k{};
  int dynamic_smem = 0;
  occupancy_result r{};
  block_size_choice best{};      // the runtime's pick: the largest block of the most resident threads
  block_size_choice smallest{};  // the smallest block as good (smallest_best_block_size)
  bool graphs = false;
};

// `napkin diff`: good input only (bad input is a usage_error: exit status 2).
struct diff_answer {
  report_diff d;
  std::vector<std::string> gate;  // --gate: only these numbers can make a regression (empty: every number)
};

// `napkin roofline`: text is the SVG, json, csv and markdown the chart's numbers; to `output` (-o) or stdout.
struct roofline_answer {
  roofline_chart chart;
  chosen_gpu gpu;  // keeps what chart.gpu's names view alive (a GPU from a file)
  std::string output;
  std::vector<std::string> notes;  // for stderr: kernels left out of the chart, and why
};

// `napkin report`: text is the HTML page, json, csv and markdown the run's kernels (or the monitor report when
// `monitor` is set: a monitor-report document's page; the source lines when `source_lines` is set); to
// `output` (-o) or stdout.
struct report_answer {
  report_page page;
  std::optional<monitor_page> monitor;
  std::optional<source_lines_page> source_lines;
  kernel_reports run;
  chosen_gpu gpu;
  std::string output;
  std::vector<std::string> notes;
};

// `napkin merge`: the cross-rank table of a folder of per-rank reports; to `output` (-o) or stdout.
struct merge_answer {
  cross_rank_table table;
  std::string output;
  std::vector<std::string> notes;  // for stderr: files skipped, and why
};

using answer = std::variant<workload_answer, gpus_answer, pipes_answer, dtypes_answer, occupancy_answer, diff_answer,
                            roofline_answer, report_answer, merge_answer>;

// 0: an answer; 1: the answer is a failure (the launch does not fit on an SM at all; a regression).
inline int answer_status(const answer& a) {
  if (const auto* o = std::get_if<occupancy_answer>(&a)) return o->r.blocks_per_sm == 0 ? 1 : 0;
  if (const auto* d = std::get_if<diff_answer>(&a)) return d->d.exit_code();
  return 0;
}

// What main says on standard error besides the answer.
inline std::vector<std::string> answer_notes(const answer& a) {
  if (const auto* w = std::get_if<workload_answer>(&a)) return w->notes;
  if (const auto* r = std::get_if<roofline_answer>(&a)) return r->notes;
  if (const auto* r = std::get_if<report_answer>(&a)) return r->notes;
  if (const auto* m = std::get_if<merge_answer>(&a)) return m->notes;
  return {};
}

// Where the answer goes: a file (-o) or, when empty, standard output.
inline std::string output_file(const answer& a) {
  if (const auto* r = std::get_if<roofline_answer>(&a)) return r->output;
  if (const auto* r = std::get_if<report_answer>(&a)) return r->output;
  if (const auto* m = std::get_if<merge_answer>(&a)) return m->output;
  return {};
}

}  // namespace napkin::cli
