// SPDX-License-Identifier: Apache-2.0
// napkin/report/math_documents.hpp — napkin math and occupancy answers as JSON documents and CSV tables:
//   estimate_report                        "napkin.estimate"   napkin::estimate of a workload on a GPU's pipe
//   occupancy_advice / occupancy_result    "napkin.occupancy"  occupancy, its limiter(s) and the next step
//   gpu_spec / std::vector<gpu_spec>       "napkin.gpu-specs"  what napkin knows of one GPU, or a table
// Each has to_json, to_document, document_value and to_csv, like profiler_documents.hpp; docs/reports.md
// lists every field.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions. An unknown quantity (a peak the GPU table has no
// figure for, an SM count of 0 meaning unknown, a resource that does not limit occupancy) is null in
// JSON and an empty cell in CSV.
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "napkin/document/csv.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workload.hpp"
#include "napkin/occupancy/calculator.hpp"
#include "napkin/occupancy/next_step.hpp"

NAPKIN_BEGIN_NAMESPACE

// An estimate with what it was made from: the workload, the GPU, the pipe and the sparsity.
struct estimate_report {
  std::string name;  // what the workload is: "gemm 4096x4096x4096 fp16"
  workload work;
  gpu_spec gpu;  // its strings are views: a spec of napkin's table (static), or one that outlives the report
  pipe on = pipe::fp32;
  sparsity sparse = sparsity::dense;
  roofline_estimate result;
  // A measured duration of the work, in seconds (`napkin gemm ... --time 1.2ms`): the document reads it
  // against the estimate ("measured"). Must be finite and > 0.
  std::optional<double> measured_s;
  // The sizes the workload was made of, by their snake_case names ({"m", 4096}, {"n", 4096}, {"k", 4096}), as
  // the JSON member "sizes" and CSV columns of those names (a sweep's rows carry their sizes, not only the
  // name). Empty: left out.
  std::vector<std::pair<std::string, std::int64_t>> sizes;
};

// napkin::estimate(w, g, p, s), kept with its inputs (the same errors as estimate for bad input).
estimate_report make_estimate_report(std::string name, const workload& w, const gpu_spec& g, pipe p,
                                     sparsity s = sparsity::dense);

namespace detail {

gpu_identity identity_of(const gpu_spec& g);
json_value estimate_value(const estimate_report& e);

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// The documents.

json_value document_value(const estimate_report& e, const document_options& options = {});

// "gpus": one entry per spec; the header's "gpu" names it when there is exactly one.
json_value document_value(const std::vector<gpu_spec>& specs, const document_options& options = {});
json_value document_value(const gpu_spec& g, const document_options& options = {});

// The entity is named options.name ("occupancy" when empty). The header's "gpu" has the compute capability.
json_value document_value(const occupancy_advice& a, const document_options& options = {});
// Without next_step (try_occupancy()'s result, which may be an invalid launch: "valid": false, "error").
json_value document_value(const occupancy_result& r, const document_options& options = {});

std::string to_json(const estimate_report& e, const document_options& o = {});
std::string to_json(const gpu_spec& g, const document_options& o = {});
std::string to_json(const std::vector<gpu_spec>& g, const document_options& o = {});
std::string to_json(const occupancy_advice& a, const document_options& o = {});
std::string to_json(const occupancy_result& r, const document_options& o = {});

report_document to_document(const estimate_report& e, const document_options& o = {});
report_document to_document(const gpu_spec& g, const document_options& o = {});
report_document to_document(const std::vector<gpu_spec>& g, const document_options& o = {});
report_document to_document(const occupancy_advice& a, const document_options& o = {});
report_document to_document(const occupancy_result& r, const document_options& o = {});

namespace detail {
// One row per estimate; the measured_<number> columns only when the first estimate has a measured time.
csv_table estimate_table(const std::vector<estimate_report>& estimates);
}  // namespace detail

// Columns: name, gpu, pipe, sparsity, flop, bytes, then the numbers of the JSON entity, then bound; with a
// measured time, measured_time_s, measured_of_bound, ... (the members of "measured"); then one column per
// size of the first estimate, named as it is (m, n, k).
std::string to_csv(const estimate_report& e);

// Columns: key, name, compute_capability, sm_count, boost_clock_mhz, memory_bandwidth_bytes_per_s, l2_bytes,
// peak_<pipe>_flop_per_s for every pipe (fp64, fp32, ..., int8_tc; '-' written '_'), source.
std::string to_csv(const std::vector<gpu_spec>& specs);
std::string to_csv(const gpu_spec& g);

// Columns: name, compute_capability, error, the launch, blocks_by_<limiter> (empty: does not limit),
// blocks_per_sm, active_warps, occupancy_pct, limiters (';'-separated), and next_<step> with
// next_<step>_active_warps for each step (empty: no such change raises occupancy, or no advice).
std::string to_csv(const occupancy_advice& a, const std::string& name = "");
std::string to_csv(const occupancy_result& r, const std::string& name = "");

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/math_documents_impl.hpp"
#endif
