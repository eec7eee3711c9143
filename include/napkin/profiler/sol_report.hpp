// SPDX-License-Identifier: Apache-2.0
// What a measurement gives: sol_report (every metric by name, with accessors for the Speed-Of-Light numbers
// and the two verdicts), how it was measured, what it cost, and whether its replay passes agree.
//
// Plain C++17; no CUPTI or CUDA needed, so every rule here is tested in CI. Units follow ncu: duration in
// ns, throughputs in % of peak, frequencies in Hz, traffic in bytes.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/cupti/kernel_launch.hpp"
#include "napkin/cupti/metrics.hpp"
#include "napkin/document/document.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

// How the numbers were collected; it matters for reading them (docs/profiler.md).
enum class measured_by {
  user_range,     // measure(): one range around fn, replayed by napkin (host gaps inside count as elapsed time)
  kernel_replay,  // per_kernel(): one range per kernel, replayed by CUPTI with memory save/restore
  application_replay,  // per_kernel(fn, replay::application): one range per kernel, fn re-run by napkin per pass
  scope,          // an RAII scope: one range, one pass, no replay
  phase,          // watch_phase(): an NVTX-annotated phase, one pass per occurrence of its napkin::range
  ncu,            // read from Nsight Compute's raw CSV (report/ncu_csv_read.hpp): ncu measured it, napkin did not
  nvbench,        // read from nvbench's JSON (report/nvbench_json_read.hpp): one benchmark state, timed by nvbench
};
inline constexpr std::array<measured_by, 7> all_measured_by{measured_by::user_range, measured_by::kernel_replay,
                                                            measured_by::application_replay, measured_by::scope,
                                                            measured_by::phase, measured_by::ncu, measured_by::nvbench};

// "unknown" for a value outside the enumerators.
constexpr std::string_view to_string(measured_by m) noexcept {
  switch (m) {
    case measured_by::user_range: return "user-range";
    case measured_by::kernel_replay: return "kernel-replay";
    case measured_by::application_replay: return "application-replay";
    case measured_by::scope: return "scope";
    case measured_by::phase: return "phase";
    case measured_by::ncu: return "ncu";
    case measured_by::nvbench: return "nvbench";
  }
  return "unknown";
}

// Ranges and replay as the report's header says them: "user range, user replay".
constexpr std::string_view describe(measured_by m) noexcept {
  switch (m) {
    case measured_by::user_range: return "user range, user replay";
    case measured_by::kernel_replay: return "kernel, kernel replay";
    case measured_by::application_replay: return "kernel, application replay";
    case measured_by::scope: return "scope, single pass";
    case measured_by::phase: return "NVTX phase, one pass per occurrence";
    case measured_by::ncu: return "kernel, imported from ncu's raw CSV";
    case measured_by::nvbench: return "benchmark state, imported from nvbench's JSON";
  }
  return "unknown measurement";
}

// ---------------------------------------------------------------------------------------------------
// Do the replay passes agree? A multi-pass measurement combines counters collected in different runs of the
// same work (9 passes for the SOL set on H100). When the runs differ (a first call that initializes a library,
// data-dependent work, another process on the GPU), the combined numbers describe no run at all: the first
// cublasSgemm of a process read 140 ms instead of 2.8 ms, SM 2 %, "latency-bound". So napkin records each
// pass and refuses a verdict when they disagree.

// One replay pass of measure(): how long fn took on the host (its launches and host work, such as a
// library's first-call start-up; GPU time only where fn waits for its work) and how many kernels fn
// launched (a graph launch counts once).
struct pass_sample {
  double duration_ns = 0;
  std::optional<std::size_t> launches;  // unknown when another CUPTI client kept napkin from counting
};

// Pass durations disagree when the longest is more than 25 % longer than the shortest AND longer by more
// than 1 ms. A pass's duration is fn's host time (pass_sample): what it catches is start-up work done in one
// pass only (the first cublasSgemm of a process: 140 ms). The 1 ms: the host time of the same cuBLAS call
// varied from 36 us to 127 us between passes on an H200 (the first pass after CUPTI's configuration is the
// slow one), so a smaller floor flags noise. The 25 %: more than twice measure()'s run-to-run spread (up
// to 11 %, docs/profiler.md). Kernel launch counts must be equal.
inline constexpr double pass_duration_tolerance = 0.25;
inline constexpr double pass_duration_floor_ns = 1e6;

// Why the passes disagree, in words; empty when they agree (or fewer than two were sampled).
std::string find_pass_disagreement(const std::vector<pass_sample>& passes);

// ---------------------------------------------------------------------------------------------------
// The report.

// Where a measurement's host wall time went, in seconds: what napkin costs on top of the GPU work.
struct measurement_cost {
  double enable_s = 0;  // cuptiRangeProfilerEnable: the first measurement of a mode (or after a failure) pays it
  double setup_s = 0;   // counter-data image and cuptiRangeProfilerSetConfig, and the unprofiled run of fn
                        // before the passes (measure()'s warm-up, application replay's counting run)
  double passes_s = 0;  // the passes, all of them: flush_s + cupti_s + work_s
  double flush_s = 0;   //   cleaning L2 before each pass (not for CUPTI's kernel replay)
  double cupti_s = 0;   //   CUPTI's start/push and pop/stop calls
  double work_s = 0;    //   the measured work (fn, or the code inside a scope or phase) and the synchronization
                        //   after it; with CUPTI's kernel replay, CUPTI's replays of each kernel too
  double decode_s = 0;  // decoding the counter data and evaluating the metrics
  double total_s() const { return enable_s + setup_s + passes_s + decode_s; }
};

struct sol_report {
  std::string name;        // the range: measure()'s name, or the kernel's name
  std::string chip;        // CUPTI chip name, e.g. GH100
  std::string metric_set;  // the set's name
  std::size_t passes = 0;  // replay passes the set needed
  measured_by how = measured_by::user_range;
  measurement_cost cost;
  // Every collected metric, under the name it was collected as; memory-instruction counts net of the replay
  // mode's own where derivations["replay_overhead"] says so (profiler/replay_overhead.hpp).
  std::map<std::string, double> values;
  // Speed-Of-Light numbers the set computed from what it collected (the fast SOL set: "sm_pct", "memory_pct",
  // "l1tex_pct", "l2_pct"), under napkin's own names: a derived number never takes an ncu metric's name.
  std::map<std::string, double> derived;
  // How each Speed-Of-Light number was obtained when it is not one collected metric (the fast SOL set derives
  // some from others): key = the accessor's name ("sm_pct", "memory_pct", "l1tex_pct", "l2_pct", ...), value =
  // the derivation in words with the metrics it used; "replay_overhead": what was taken out of `values`. Empty
  // for sets whose numbers are collected as ncu names them.
  std::map<std::string, std::string> derivations;
  // measure(): each replay pass as napkin saw it (empty for the other ways to measure), and why the passes
  // disagree (find_pass_disagreement); empty when they agree. When they disagree there is no verdict.
  std::vector<pass_sample> pass_samples;
  std::string passes_disagree;
  // The device measured (index, name, PCI bus id, UUID: document/context_cuda.hpp's device_context); the
  // profiler fills it, and documents write it as their "context" (report/profiler_documents.hpp). Last, so
  // aggregate initializers written before it existed keep their meaning.
  report_context context;
  // How the kernel was launched (grid, block, registers, shared memory; CUPTI's kernel activity record with
  // the device's compute capability and SM count): per_kernel()'s reports, and measure()'s when its range ran
  // exactly one kernel the same way in every pass; none otherwise, or when CUPTI gave no records. Last, as
  // `context` above.
  std::optional<kernel_launch> launch;

  std::optional<double> get(const std::string& metric) const;
  // Each SOL number: the set's derived number where it has one (the fast set's maxima, measure()'s numbers
  // over the busy time), else the metric collected under ncu's name.
  std::optional<double> duration_ns() const { return derived_or_collected("duration_ns", metric::duration_ns); }
  std::optional<double> sm_pct() const { return derived_or_collected("sm_pct", metric::sm_throughput_pct); }
  std::optional<double> memory_pct() const {
    return derived_or_collected("memory_pct", metric::memory_throughput_pct);
  }
  std::optional<double> dram_pct() const;
  std::optional<double> l1tex_pct() const { return derived_or_collected("l1tex_pct", metric::l1tex_throughput_pct); }
  std::optional<double> l2_pct() const { return derived_or_collected("l2_pct", metric::l2_throughput_pct); }
  std::optional<double> elapsed_cycles() const {
    return derived_or_collected("elapsed_cycles", metric::elapsed_cycles);
  }
  // measure(): the range's span and the GPU's idle time inside it (busy_time.hpp); missing elsewhere.
  std::optional<double> range_ns() const { return derived_or_collected("range_ns", nullptr); }
  std::optional<double> gpu_idle_ns() const { return derived_or_collected("gpu_idle_ns", nullptr); }
  // nvbench's import: the relative standard deviation of the duration's samples, % (nvbench's noise); diff()
  // counts a change of the time within it as noise. Missing elsewhere.
  std::optional<double> duration_noise_pct() const { return derived_or_collected("duration_noise_pct", nullptr); }
  std::optional<double> sm_active_cycles() const { return get(metric::sm_active_cycles); }
  std::optional<double> sm_hz() const { return get(metric::sm_frequency_hz); }
  std::optional<double> dram_hz() const { return get(metric::dram_frequency_hz); }
  // nvbench's import derives it from the bytes a benchmark declares (report/nvbench_json_read.hpp).
  std::optional<double> dram_bytes() const;
  // Achieved DRAM bandwidth, bytes/s.
  std::optional<double> dram_bytes_per_s() const;
  // Executed FP32 / FP64 / FP16 FLOP: add + mul + 2 x fma, per thread (ncu's roofline formula).
  std::optional<double> flop_fp32() const { return flop(metric::fadd, metric::fmul, metric::ffma); }
  std::optional<double> flop_fp64() const { return flop(metric::dadd, metric::dmul, metric::dfma); }
  std::optional<double> flop_fp16() const { return flop(metric::hadd, metric::hmul, metric::hfma); }
  std::optional<double> flop() const;

  // Verdicts: the SOL table and ncu's rule; bottleneck::not_measured / std::nullopt when the set lacks SM %
  // or Memory %, kind passes_disagree (no verdict, with the reason) when the replay passes disagree.
  sol_verdict sol_table() const;
  std::optional<ncu_verdict> ncu_rule() const;

 private:
  std::optional<double> derived_or_collected(const char* field, const char* metric_name) const;
  std::optional<double> flop(const char* add, const char* mul, const char* fma) const;
};

// Builds a report from a metric set and its values in the set's order.
sol_report make_report(std::string name, const metric_set& set, const std::vector<double>& values);

// per_kernel()'s result: one report per kernel, how many kernels did not fit, and what the call cost. The
// device measured is in each kernel's report (sol_report::context).
struct kernel_reports {
  std::vector<sol_report> kernels;
  std::size_t dropped = 0;
  measurement_cost cost;
};

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/profiler/sol_report_impl.hpp"
#endif
