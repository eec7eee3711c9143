// SPDX-License-Identifier: Apache-2.0
// napkin/system/graph_executions.hpp — CUDA graph executions for the system view: the kernels of one
// graph launch (graph != 0, sharing the launch's correlation id) are one execution, in the phase of its
// first kernel; per phase it counts executions (graph_launches), their spans (first kernel start to last
// kernel end) and the gaps between consecutive executions of one graph (next start - previous end, when
// >= 0). An execution stays open across the view's chunks until its graph's next execution starts, so
// one split by a settle is still one. Plain C++17; no CUDA, no exceptions.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "napkin/system/duration_histogram.hpp"
#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"

NAPKIN_BEGIN_NAMESPACE

class graph_executions {
 public:
  // One chunk's work, sorted by start; phase_sums(id) is the system_phase that an execution counts in.
  // Work: gpu_work or any record with its kind, graph, correlation, phase, start_ns and end_ns.
  template <class Work, class PhaseSums>
  void add(const std::vector<Work>& work, PhaseSums&& phase_sums) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, state> executions;  // (graph, correlation)
    for (const Work& w : work) {
      if (w.kind != gpu_work_kind::kernel || w.graph == 0) continue;
      auto [it, fresh] = executions.try_emplace({w.graph, w.correlation});
      state& e = it->second;
      if (fresh) {
        e.correlation = w.correlation;
        e.phase = w.phase;
        e.start_ns = w.start_ns;
        e.end_ns = w.end_ns;
      } else {
        e.end_ns = std::max(e.end_ns, w.end_ns);  // the chunk is sorted by start: start_ns is the first
      }
    }
    std::vector<std::pair<std::uint32_t, state>> sorted;
    sorted.reserve(executions.size());
    for (const auto& e : executions) sorted.emplace_back(e.first.first, e.second);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second.start_ns < b.second.start_ns;
    });
    for (const auto& [graph, e] : sorted) {
      state& g = graphs_[graph];
      if (g.open && g.correlation == e.correlation) {  // the execution went on past the last settle
        g.start_ns = std::min(g.start_ns, e.start_ns);
        g.end_ns = std::max(g.end_ns, e.end_ns);
        continue;
      }
      close(g, phase_sums);
      g.open = true;
      g.correlation = e.correlation;
      g.phase = e.phase;
      g.start_ns = e.start_ns;
      g.end_ns = e.end_ns;
    }
  }

  // Closes the open executions (the report: nothing more comes).
  template <class PhaseSums>
  void close_all(PhaseSums&& phase_sums) {
    for (auto& g : graphs_) close(g.second, phase_sums);
  }

 private:
  struct state {
    bool open = false;  // an execution that may go on in the next chunk
    std::uint32_t correlation = 0, phase = 0;
    std::uint64_t start_ns = 0, end_ns = 0;
    bool has_previous = false;
    std::uint64_t previous_end_ns = 0;
  };

  template <class PhaseSums>
  static void close(state& g, PhaseSums& phase_sums) {
    if (!g.open) return;
    system_phase& p = phase_sums(g.phase);
    ++p.graph_launches;
    add_duration(p.graph_spans, g.end_ns - g.start_ns);
    if (g.has_previous && g.start_ns >= g.previous_end_ns) add_duration(p.graph_gaps, g.start_ns - g.previous_end_ns);
    g.has_previous = true;
    g.previous_end_ns = g.end_ns;
    g.open = false;
  }

  std::map<std::uint32_t, state> graphs_;
};

NAPKIN_END_NAMESPACE
