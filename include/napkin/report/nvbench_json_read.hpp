// SPDX-License-Identifier: Apache-2.0
// napkin/report/nvbench_json_read.hpp — nvbench's JSON output (`--json FILE`; NVIDIA/nvbench's
// nvbench/json_printer.cu, file format 1.x) read as napkin's kernel_reports: one sol_report per benchmark state
// that ran, so `napkin report`, `roofline` and `diff` take nvbench's results (docs/reports.md, "Reading
// nvbench's JSON").
//
// The format, as nvbench writes it (checked on tests/report/data/nvbench_axes_ref.json): an object with "meta"
// (argv, version.json {major, minor, patch}), "devices" (id, name, sm_version, number_of_sms,
// global_memory_bus_bandwidth, ...) and "benchmarks"; each benchmark has a "name", "axes" and "states"; each
// state a "name" (its axis values, "Device=0 T=U8"), a "device" id, "is_skipped" (and "skip_reason") and
// "summaries", each {tag, name, hint, description, data: [{name, type, value}]}, where a number's "value" is
// a string ("0.0010034715849794225", "499": nvbench writes int64 and float64 as text so no digit is lost).
// nvbench writes a noise it could not estimate (too few samples) as infinity, which its JSON writer turns
// into null or "inf".
//
// Each state becomes one report named "<benchmark> <state>", measured_by::nvbench, with every numeric
// summary in `values` under its tag, in nvbench's units (seconds, fractions, counts, bytes/s), and under
// napkin's names (`derived`, each with its derivation): duration_ns from the cold GPU mean
// (nv/cold/time/gpu/mean: CUDA events around each isolated launch), else the batch mean
// (nv/batch/time/gpu/mean: launches back to back); duration_noise_pct from nv/cold/time/gpu/stdev/relative,
// which diff() holds a change of the time against (report/compare.hpp); and, when the benchmark declared its
// global-memory bytes (state.add_global_memory_reads/writes), dram_bytes = nvbench's bytes per second x the
// cold mean and dram_pct = nvbench's utilization of the device's bus bandwidth: the bytes the benchmark says
// it moves, not DRAM traffic counted by ncu. No SM %, Memory % or FLOP: the verdict says they were not
// measured. What is left out (a skipped state, a number that is not finite or negative, a noise nvbench
// could not estimate) is a note (nvbench_run::notes), never guessed.
//
// Bad input (not nvbench's shape, a member of the wrong type, a number that does not read, a state on a
// device the file does not list, a state twice, no state that ran) is napkin's input error naming the file
// and the member. Plain C++17, no dependency: it reads a json_value (document/document.hpp); parsing the
// text is the caller's (the tool uses parse_json, report/json_read.hpp).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/profiler/sol_report.hpp"

NAPKIN_BEGIN_NAMESPACE

// An nvbench JSON file read as napkin's reports.
struct nvbench_run {
  std::string file;  // as given, for messages and the reports' metric_set
  // The device the states ran on: its name, compute capability (from sm_version) and napkin's table key where
  // the name is one nvbench_device_keys maps; empty when the states ran on devices of different names.
  gpu_identity gpu;
  kernel_reports run;              // one sol_report per state that ran, measured_by::nvbench, in the file's order
  std::vector<std::string> notes;  // what was left out and why
};

// The metric_set napkin gives an imported report: the source, so every document and page names it.
std::string nvbench_metric_set(const std::string& file);

// The summary tags napkin reads by name (nvbench/detail/measure_cold.cu, measure_hot.cu).
namespace nvbench_tags {
inline constexpr std::string_view cold_gpu_mean = "nv/cold/time/gpu/mean";
inline constexpr std::string_view cold_gpu_noise = "nv/cold/time/gpu/stdev/relative";
inline constexpr std::string_view batch_gpu_mean = "nv/batch/time/gpu/mean";
inline constexpr std::string_view global_bytes_per_second = "nv/cold/bw/global/bytes_per_second";
inline constexpr std::string_view global_utilization = "nv/cold/bw/global/utilization";
}  // namespace nvbench_tags

// Device names as the CUDA runtime reports them (cudaDeviceProp::name, what nvbench writes and nvidia-smi
// prints) for GPUs of napkin's table; a name not listed gets no key (never a guess from a similar name): "NVIDIA
// H200" is an H200 SXM or NVL, so it has none. The names are the drivers' public ones; none of these GPUs is in
// this repository's recorded files (the nvbench files here are a Quadro GV100's and GP100's, which napkin's
// table does not have), and a name that does not match only costs the key: --gpu gives it.
struct device_name_key {
  std::string_view name, key;
};
inline constexpr device_name_key nvbench_device_keys[] = {{"Tesla V100-SXM2-16GB", "v100-sxm2"},
                                                          {"Tesla V100-SXM2-32GB", "v100-sxm2"},
                                                          {"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"},
                                                          {"NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"},
                                                          {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
                                                          {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
                                                          {"NVIDIA H100 80GB HBM3", "h100-sxm"},
                                                          {"NVIDIA H100 PCIe", "h100-pcie"},
                                                          {"NVIDIA H100 NVL", "h100-nvl"},
                                                          {"NVIDIA B200", "b200"},
                                                          {"NVIDIA L4", "l4"},
                                                          {"NVIDIA L40S", "l40s"},
                                                          {"Tesla T4", "t4"},
                                                          {"NVIDIA A10", "a10"},
                                                          {"NVIDIA GeForce RTX 3090", "rtx-3090"},
                                                          {"NVIDIA GeForce RTX 4090", "rtx-4090"},
                                                          {"NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada"}};

// napkin's table key for a device `name` with nvbench's `sm_version` (major x 100 + minor x 10): "" unless
// the name is listed above and the table entry has that compute capability.
std::string gpu_key_for_device_name(std::string_view name, std::int64_t sm_version);

namespace detail {

// A number as nvbench writes it in text: JSON's number syntax, or "inf", "-inf", "nan" (fmt's words for what
// it could not estimate). nullopt for anything else ("1,5", "0x10", "", "1e").
std::optional<double> nvbench_number_text(std::string_view s);

}  // namespace detail

// Whether a JSON value is shaped as nvbench's output rather than a napkin document: an object with
// "benchmarks" and no "schema". The tool picks this reader by it.
bool looks_like_nvbench_json(const json_value& doc);

// The reports in nvbench's JSON `doc`, read from `file` (named in messages and in each report's metric_set).
nvbench_run read_nvbench_json(const json_value& doc, const std::string& file);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/nvbench_json_read_impl.hpp"
#endif
