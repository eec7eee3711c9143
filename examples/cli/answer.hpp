// SPDX-License-Identifier: Apache-2.0
// What each `napkin` command answers, as a value: the runner computes it, a renderer prints it
// (render.hpp: text today; issue 15's JSON and CSV serializers plug in there), and answer_status() gives
// the exit status. Nothing here prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpu_choice.hpp"
#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
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
};

struct gpus_answer {
  enum class view { peaks, ridges, sources, keys } shown = view::peaks;
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
  block_size_choice best{};
  bool graphs = false;
};

struct text_answer {  // `napkin help COMMAND`: the help text itself
  std::string text;
};

using answer = std::variant<workload_answer, gpus_answer, pipes_answer, dtypes_answer, occupancy_answer, text_answer>;

// 0: an answer; 1: the answer is a failure (the launch does not fit on an SM at all).
inline int answer_status(const answer& a) {
  if (const auto* o = std::get_if<occupancy_answer>(&a)) return o->r.blocks_per_sm == 0 ? 1 : 0;
  return 0;
}

}  // namespace napkin::cli
