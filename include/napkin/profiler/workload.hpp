// The thin bridge from napkin math (napkin/workloads.hpp, napkin/gpus.hpp) to the report's comparison.
//
//   auto r = prof.measure("softmax", [&] { ... });
//   auto c = napkin::compare(r, napkin::softmax(rows, cols), napkin::find_gpu("h100-sxm"), napkin::pipe::fp32);
#pragma once

#include "napkin/config.hpp"

#include <string>

#include "napkin/gpus.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/workloads.hpp"

NAPKIN_BEGIN_NAMESPACE

// The generic inputs of compare() taken from a napkin workload and a GPU spec's peak on pipe `p`.
inline workload_model make_workload_model(std::string name, const workload& w, const gpu_spec& g, pipe p) {
  return {std::move(name), static_cast<double>(w.flops), static_cast<double>(w.bytes()), g.peak(p),
          g.memory_bandwidth};
}

inline workload_comparison compare(const sol_report& r, const workload& w, const gpu_spec& g, pipe p) {
  return compare(r, make_workload_model(r.name, w, g, p));
}

NAPKIN_END_NAMESPACE
