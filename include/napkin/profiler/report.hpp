// What a measurement says: the Speed-Of-Light numbers, two verdicts, and the comparison with napkin math.
//
// Plain C++17 arithmetic on metric values; no CUPTI or CUDA needed, so every rule here is tested in CI.
// Units follow ncu: duration in ns, throughputs in % of peak, frequencies in Hz, traffic in bytes.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/profiler/metrics.hpp"

NAPKIN_BEGIN_NAMESPACE

// How the numbers were collected; it matters for reading them (docs/profiler.md).
enum class measured_by {
  user_range,     // measure(): one range around fn, replayed by napkin (host gaps inside count as elapsed time)
  kernel_replay,  // per_kernel(): one range per kernel, replayed by CUPTI with memory save/restore
  application_replay,  // per_kernel(fn, replay::application): one range per kernel, fn re-run by napkin per pass
  scope,          // an RAII scope: one range, one pass, no replay
  phase,          // watch_phase(): an NVTX-annotated phase, one pass per occurrence of its napkin::range
};

inline const char* to_string(measured_by m) {
  switch (m) {
    case measured_by::user_range: return "user range, user replay";
    case measured_by::kernel_replay: return "kernel, kernel replay";
    case measured_by::application_replay: return "kernel, application replay";
    case measured_by::scope: return "scope, single pass";
    case measured_by::phase: return "NVTX phase, one pass per occurrence";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------
// Verdicts.

// The SOL table: the kernel classified from ncu's Speed Of Light percentages (SM %, Memory %, DRAM %), one
// row per bottleneck. "High" is >= 60 % of peak, Nsight Compute's own line (its SpeedOfLight rule: below 60 %
// "typically indicate[s] latency issues"); DRAM high >= 60, low < 30; latency-bound needs both below 40.
// Combinations without a row stay unclassified, with the reason. Where the numbers come from:
// docs/profiler.md, "The report and its verdicts".
enum class bottleneck {
  compute_bound,        // SM high, Memory low
  memory_bound_dram,    // SM low, Memory high, DRAM high
  internal_congestion,  // SM low, Memory high, DRAM low: L1/shared/L2 saturated, not VRAM
  balanced,             // both high
  latency_bound,        // both below 40
  unclassified,         // between the table's rows (said why in the verdict's reason)
  not_measured,         // the metric set lacks SM % or Memory %
  passes_disagree,      // no verdict: the replay passes measured different work (sol_report::passes_disagree)
};

inline const char* to_string(bottleneck r) {
  switch (r) {
    case bottleneck::compute_bound: return "compute-bound";
    case bottleneck::memory_bound_dram: return "memory-bound (DRAM)";
    case bottleneck::internal_congestion: return "internal memory congestion";
    case bottleneck::balanced: return "balanced";
    case bottleneck::latency_bound: return "latency-bound";
    case bottleneck::unclassified: return "unclassified";
    case bottleneck::not_measured: return "not measured";
    case bottleneck::passes_disagree: return "no verdict (passes disagree)";
  }
  return "?";
}

namespace detail {
inline void check_pct(double v, const char* what) {
  if (!(v >= 0.0) || !std::isfinite(v))  // also catches NaN
    raise_input_error<std::invalid_argument>(std::string("napkin: ") + what +
                                             " must be a finite percentage >= 0, got " + std::to_string(v));
}
inline std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}
}  // namespace detail

struct sol_verdict {
  bottleneck kind = bottleneck::not_measured;
  std::string reason;
};

inline sol_verdict classify_by_sol_table(double sm_pct, double memory_pct, std::optional<double> dram_pct) {
  detail::check_pct(sm_pct, "SM throughput");
  detail::check_pct(memory_pct, "memory throughput");
  if (dram_pct) detail::check_pct(*dram_pct, "DRAM throughput");
  const std::string nums = "SM " + detail::pct(sm_pct) + ", Memory " + detail::pct(memory_pct) +
                           (dram_pct ? ", DRAM " + detail::pct(*dram_pct) : std::string());
  const bool sm_high = sm_pct >= 60.0;
  const bool mem_high = memory_pct >= 60.0;
  if (sm_high && mem_high) return {bottleneck::balanced, nums + ": both at or above 60% of peak."};
  if (sm_high) return {bottleneck::compute_bound, nums + ": SM at or above 60%, memory below 60%."};
  if (mem_high) {
    if (!dram_pct)
      return {bottleneck::unclassified, nums + ": memory-bound, but DRAM % was not measured to tell DRAM from "
                                           "internal (L1/L2/shared) congestion."};
    if (*dram_pct >= 60.0)
      return {bottleneck::memory_bound_dram, nums + ": memory above 60% and DRAM above 60%: VRAM bandwidth is the "
                                                "limit."};
    if (*dram_pct < 30.0)
      return {bottleneck::internal_congestion,
              nums + ": memory above 60% but DRAM below 30%: the internal pipeline (L1/TEX, shared memory, L2) "
                     "is saturated, not VRAM. Look for bank conflicts, excess wavefronts, too many memory "
                     "instructions per FMA."};
    return {bottleneck::unclassified, nums + ": memory above 60% with DRAM between 30% and 60% falls between the "
                                         "table's DRAM-bound and internal-congestion rows: both contribute."};
  }
  if (sm_pct < 40.0 && memory_pct < 40.0)
    return {bottleneck::latency_bound, nums + ": both below 40%: neither unit is busy, warps wait (latency). Check "
                                          "occupancy, eligible warps and stall reasons."};
  return {bottleneck::unclassified, nums + ": the larger of SM and Memory is between 40% and 60%, a gap in the "
                                       "SOL table (ncu's rule calls anything below 60% a latency issue)."};
}

// ncu's SpeedOfLight rule (SOLBottleneck in sections/SpeedOfLight.py): thresholds 80 (saturated),
// 60 (latency) and 10 points (which unit dominates).
enum class ncu_bottleneck {
  high_throughput,   // SM or Memory >= 80%
  latency_issue,     // both < 60% (ncu also says "small grid" when waves < 1: napkin cannot see waves)
  compute_dominant,  // SM - Memory >= 10 points
  memory_dominant,   // Memory - SM >= 10 points
  balanced,          // within 10 points
  passes_disagree,   // no verdict: the replay passes measured different work (sol_report::passes_disagree)
};

inline const char* to_string(ncu_bottleneck b) {
  switch (b) {
    case ncu_bottleneck::high_throughput: return "high throughput";
    case ncu_bottleneck::latency_issue: return "latency issue";
    case ncu_bottleneck::compute_dominant: return "compute throughput dominates";
    case ncu_bottleneck::memory_dominant: return "memory throughput dominates";
    case ncu_bottleneck::balanced: return "balanced throughput";
    case ncu_bottleneck::passes_disagree: return "no verdict (passes disagree)";
  }
  return "?";
}

struct ncu_verdict {
  ncu_bottleneck kind = ncu_bottleneck::latency_issue;
  std::string reason;
};

// The units ncu's memory breakdown would name; napkin has only these three percentages, so "top memory
// unit" is the largest of them rather than ncu's per-sub-unit breakdown.
struct memory_units {
  std::optional<double> dram_pct, l1tex_pct, l2_pct;
};

inline ncu_verdict classify_by_ncu_rule(double sm_pct, double memory_pct, const memory_units& units = {}) {
  detail::check_pct(sm_pct, "SM throughput");
  detail::check_pct(memory_pct, "memory throughput");
  const std::string nums = "SM " + detail::pct(sm_pct) + ", Memory " + detail::pct(memory_pct);
  if (sm_pct >= 80.0 || memory_pct >= 80.0) {
    std::string top;
    double best = -1;
    const std::pair<const char*, std::optional<double>> candidates[] = {
        {"DRAM", units.dram_pct}, {"L1/TEX", units.l1tex_pct}, {"L2", units.l2_pct}};
    for (const auto& [name, v] : candidates)
      if (v && *v > best) best = *v, top = name;
    std::string why = nums + ": at least one unit at 80% of peak or more; ";
    if (sm_pct >= memory_pct)
      why += "the SM is the busiest unit, so the work is near the compute ceiling; reduce instructions or "
             "move work to memory.";
    else
      why += "memory is the busiest" + (top.empty() ? std::string() : " (top unit measured: " + top + ")") +
             ", near its ceiling; reduce or reshape traffic.";
    return {ncu_bottleneck::high_throughput, why};
  }
  if (sm_pct < 60.0 && memory_pct < 60.0)
    return {ncu_bottleneck::latency_issue,
            nums + ": compute and memory both below 60% of peak, which typically indicates latency issues "
                   "(look at scheduler and warp-state statistics)."};
  if (std::fabs(sm_pct - memory_pct) >= 10.0) {
    if (sm_pct > memory_pct)
      return {ncu_bottleneck::compute_dominant, nums + ": compute leads memory by 10 points or more."};
    return {ncu_bottleneck::memory_dominant, nums + ": memory leads compute by 10 points or more."};
  }
  return {ncu_bottleneck::balanced, nums + ": compute and memory within 10 points of each other."};
}

// ---------------------------------------------------------------------------------------------------
// Do the replay passes agree? A multi-pass measurement combines counters collected in different runs of the
// same work (9 passes for the SOL set on H100). When the runs differ (a first call that initializes a library,
// data-dependent work, another process on the GPU), the combined numbers describe no run at all: the first
// cublasSgemm of a process read 140 ms instead of 2.8 ms, SM 2 %, "latency-bound". So napkin records each
// pass and refuses a verdict when they disagree.

// One replay pass of measure(): how long the work took on the GPU (CUDA events recorded inside the range,
// around fn) and how many kernels fn launched (a graph launch counts once).
struct pass_sample {
  double duration_ns = 0;
  std::optional<std::size_t> launches;  // unknown when another CUPTI client kept napkin from counting
};

// Pass durations disagree when the longest is more than 25 % longer than the shortest AND longer by more
// than 50 us. The 25 %: measure()'s duration varied by up to 11 % between runs on H100 (docs/profiler.md,
// accuracy table: 107.3-119.2 us, 184.4-202.8 us, 375.3-414.0 us), and each pass is such a run; 25 % is more
// than twice that. The 50 us: below it, launch jitter and host gaps (a range's own 11-19 us) dominate short
// work. Kernel launch counts must be equal.
inline constexpr double pass_duration_tolerance = 0.25;
inline constexpr double pass_duration_floor_ns = 50e3;

namespace detail {
inline std::string duration_text(double ns) {
  char buf[48];
  if (ns >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f ms", ns * 1e-6);
  else if (ns >= 1e3)
    std::snprintf(buf, sizeof buf, "%.2f us", ns * 1e-3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}
}  // namespace detail

// Why the passes disagree, in words; empty when they agree (or fewer than two were sampled).
inline std::string find_pass_disagreement(const std::vector<pass_sample>& passes) {
  for (const auto& p : passes)
    if (!std::isfinite(p.duration_ns) || p.duration_ns < 0)
      detail::raise_input_error<std::invalid_argument>("napkin: a pass duration must be finite and >= 0 ns, got " +
                                                       std::to_string(p.duration_ns));
  if (passes.size() < 2) return {};
  const char* consequence =
      ": the work differed between passes (a first call that initializes something, data-dependent work, other "
      "work on the GPU), and each pass collected different counters, so their mix describes no single run.";
  // Launch counts first: different kernels make the durations incomparable anyway.
  std::optional<std::size_t> first_known;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (!passes[i].launches) continue;
    if (!first_known) {
      first_known = i;
    } else if (*passes[i].launches != *passes[*first_known].launches) {
      return "kernel launches per pass disagree: pass " + std::to_string(*first_known + 1) + " launched " +
             std::to_string(*passes[*first_known].launches) + ", pass " + std::to_string(i + 1) + " launched " +
             std::to_string(*passes[i].launches) + consequence;
    }
  }
  const auto [lo, hi] =
      std::minmax_element(passes.begin(), passes.end(),
                          [](const pass_sample& a, const pass_sample& b) { return a.duration_ns < b.duration_ns; });
  const double shortest = lo->duration_ns, longest = hi->duration_ns;
  if (longest > shortest * (1 + pass_duration_tolerance) && longest - shortest > pass_duration_floor_ns) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f%%", shortest > 0 ? (longest / shortest - 1) * 100 : 100.0);
    return "pass durations disagree: pass " + std::to_string(hi - passes.begin() + 1) + " took " +
           detail::duration_text(longest) + ", pass " + std::to_string(lo - passes.begin() + 1) + " " +
           detail::duration_text(shortest) + " (" + pct + " longer; passes may differ by 25% or 50 us)" + consequence;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------------
// The report.

// Where a measurement's host wall time went, in seconds: what napkin costs on top of the GPU work.
struct measurement_cost {
  double enable_s = 0;  // cuptiRangeProfilerEnable: the first measurement of a mode (or after a failure) pays it
  double setup_s = 0;   // counter-data image and cuptiRangeProfilerSetConfig, and the unprofiled run of fn
                        // before the passes (measure()'s warm-up, application replay's counting run)
  double passes_s = 0;  // the replay passes, all of them (measure(), application replay: flush_s + cupti_s +
                        // work_s; kernel replay, scopes and phases: the passes as a whole)
  double flush_s = 0;   //   cleaning L2 before each pass (measure(), application replay)
  double cupti_s = 0;   //   CUPTI's start/push and pop/stop calls (measure(), application replay)
  double work_s = 0;    //   fn itself and the synchronization after it (measure(), application replay)
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
  std::map<std::string, double> values;  // every collected metric by name
  // measure(): each replay pass as napkin saw it (empty for the other ways to measure), and why the passes
  // disagree (find_pass_disagreement); empty when they agree. When they disagree there is no verdict.
  std::vector<pass_sample> pass_samples;
  std::string passes_disagree;

  std::optional<double> get(const std::string& metric) const {
    const auto it = values.find(metric);
    if (it == values.end() || !std::isfinite(it->second)) return std::nullopt;
    return it->second;
  }
  std::optional<double> duration_ns() const { return get(metric::duration_ns); }
  std::optional<double> sm_pct() const { return get(metric::sm_throughput_pct); }
  std::optional<double> memory_pct() const { return get(metric::memory_throughput_pct); }
  std::optional<double> dram_pct() const {
    if (auto v = get(metric::dram_throughput_pct)) return v;
    return get(metric::dram_only_throughput_pct);
  }
  std::optional<double> l1tex_pct() const { return get(metric::l1tex_throughput_pct); }
  std::optional<double> l2_pct() const { return get(metric::l2_throughput_pct); }
  std::optional<double> elapsed_cycles() const { return get(metric::elapsed_cycles); }
  std::optional<double> sm_active_cycles() const { return get(metric::sm_active_cycles); }
  std::optional<double> sm_hz() const { return get(metric::sm_frequency_hz); }
  std::optional<double> dram_hz() const { return get(metric::dram_frequency_hz); }
  std::optional<double> dram_bytes() const {
    if (auto v = get(metric::dram_bytes)) return v;
    const auto r = get(metric::dram_bytes_read), w = get(metric::dram_bytes_write);
    if (r && w) return *r + *w;
    return std::nullopt;
  }
  // Achieved DRAM bandwidth, bytes/s.
  std::optional<double> dram_bytes_per_s() const {
    const auto b = dram_bytes(), t = duration_ns();
    if (!b || !t || *t <= 0) return std::nullopt;
    return *b / (*t * 1e-9);
  }
  // Executed FP32 / FP64 / FP16 FLOP: add + mul + 2 x fma, per thread (ncu's roofline formula).
  std::optional<double> flop_fp32() const { return flop(metric::fadd, metric::fmul, metric::ffma); }
  std::optional<double> flop_fp64() const { return flop(metric::dadd, metric::dmul, metric::dfma); }
  std::optional<double> flop_fp16() const { return flop(metric::hadd, metric::hmul, metric::hfma); }
  std::optional<double> flop() const {
    std::optional<double> total;
    for (auto f : {flop_fp32(), flop_fp64(), flop_fp16()})
      if (f) total = total.value_or(0.0) + *f;
    return total;
  }

  // Verdicts: the SOL table and ncu's rule; bottleneck::not_measured / std::nullopt when the set lacks SM %
  // or Memory %, kind passes_disagree (no verdict, with the reason) when the replay passes disagree.
  sol_verdict sol_table() const {
    if (!passes_disagree.empty()) return {bottleneck::passes_disagree, passes_disagree};
    if (!sm_pct() || !memory_pct())
      return {bottleneck::not_measured, "the \"" + metric_set + "\" set has no SM % / Memory %: use the sol set."};
    return classify_by_sol_table(*sm_pct(), *memory_pct(), dram_pct());
  }
  std::optional<ncu_verdict> ncu_rule() const {
    if (!sm_pct() || !memory_pct()) return std::nullopt;
    if (!passes_disagree.empty()) return ncu_verdict{ncu_bottleneck::passes_disagree, passes_disagree};
    return classify_by_ncu_rule(*sm_pct(), *memory_pct(), {dram_pct(), l1tex_pct(), l2_pct()});
  }

 private:
  std::optional<double> flop(const char* add, const char* mul, const char* fma) const {
    const auto a = get(add), m = get(mul), f = get(fma);
    if (!a || !m || !f) return std::nullopt;
    return *a + *m + 2.0 * *f;
  }
};

// Builds a report from a metric set and its values in the set's order.
inline sol_report make_report(std::string name, const metric_set& set, const std::vector<double>& values) {
  if (values.size() != set.metrics.size())
    detail::raise_input_error<std::invalid_argument>("napkin: " + std::to_string(values.size()) + " values for " +
                                                     std::to_string(set.metrics.size()) + " metrics of set \"" +
                                                     set.name + "\"");
  sol_report r;
  r.name = std::move(name);
  r.metric_set = set.name;
  for (std::size_t i = 0; i < values.size(); ++i) r.values[set.metrics[i]] = values[i];
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Comparison with napkin math: generic inputs, so any workload model can feed it.

struct workload_model {
  std::string name;
  double flops = 0;             // FLOP the algorithm must do
  double min_bytes = 0;         // bytes it must move at minimum (compulsory traffic)
  double peak_flops = 0;        // FLOP/s of the unit it should run on (FP32 CUDA cores, tensor cores, ...)
  double peak_bytes_per_s = 0;  // DRAM bandwidth
};

struct workload_comparison {
  double intensity = 0;        // FLOP / min byte
  double ridge = 0;            // peak FLOP/s / peak B/s
  bool expect_compute_bound = false;
  double bound_ns = 0;         // roofline lower bound on time: max(FLOP / peak, bytes / bandwidth)
  std::optional<double> time_over_bound;       // measured duration / bound_ns (>= 1 when the peaks are right)
  std::optional<double> traffic_overhead;      // DRAM bytes / min bytes
  std::optional<double> bandwidth_of_peak;     // achieved DRAM B/s / peak B/s
  std::optional<double> flops_of_peak;         // workload FLOP / duration / peak FLOP/s
  std::string expectation;     // expected vs measured regime, in words
  std::string traffic_reading; // what the overhead means, in words
};

inline workload_comparison compare(const sol_report& r, const workload_model& w) {
  if (!(w.min_bytes > 0) || !(w.peak_flops > 0) || !(w.peak_bytes_per_s > 0) || !(w.flops >= 0) ||
      !std::isfinite(w.flops) || !std::isfinite(w.min_bytes) || !std::isfinite(w.peak_flops) ||
      !std::isfinite(w.peak_bytes_per_s))
    detail::raise_input_error<std::invalid_argument>("napkin: workload \"" + w.name +
                                                     "\" needs finite flops >= 0 and min_bytes, peak FLOP/s and peak "
                                                     "bandwidth > 0");
  workload_comparison c;
  c.intensity = w.flops / w.min_bytes;
  c.ridge = w.peak_flops / w.peak_bytes_per_s;
  c.expect_compute_bound = c.intensity > c.ridge;
  c.bound_ns = std::max(w.flops / w.peak_flops, w.min_bytes / w.peak_bytes_per_s) * 1e9;
  if (auto t = r.duration_ns(); t && *t > 0) {
    c.time_over_bound = *t / c.bound_ns;
    c.flops_of_peak = w.flops / (*t * 1e-9) / w.peak_flops;
  }
  if (auto b = r.dram_bytes()) {
    c.traffic_overhead = *b / w.min_bytes;
    if (*c.traffic_overhead > 2.0)
      c.traffic_reading = "more than 2x the minimum traffic: the kernel re-reads data it should reuse (lack of "
                          "tiling) or writes intermediate data that fusing kernels would avoid.";
    else if (*c.traffic_overhead < 0.9)
      c.traffic_reading = "below the minimum: part of the data was served from L2 (a warm cache), or the "
                          "workload model counts bytes the kernel does not need.";
    else
      c.traffic_reading = "within 2x of the minimum traffic: DRAM traffic is not the waste.";
  }
  if (auto bw = r.dram_bytes_per_s()) c.bandwidth_of_peak = *bw / w.peak_bytes_per_s;

  const sol_verdict v = r.sol_table();
  const char* expected = c.expect_compute_bound ? "compute-bound" : "memory-bound";
  std::ostringstream s;
  s << "intensity " << c.intensity << " FLOP/B vs ridge " << c.ridge << " FLOP/B: expected " << expected
    << "; measured " << to_string(v.kind) << ". ";
  const bool measured_memory = v.kind == bottleneck::memory_bound_dram || v.kind == bottleneck::internal_congestion;
  if (v.kind == bottleneck::not_measured)
    s << "Measure with the sol set to compare regimes.";
  else if (v.kind == bottleneck::passes_disagree)
    s << "No regime to compare: the replay passes disagree.";
  else if (c.expect_compute_bound && measured_memory)
    s << "The algorithm should be compute-bound but the kernel is memory-bound: it moves far more data than "
         "it needs (missing reuse/tiling).";
  else if (!c.expect_compute_bound && v.kind == bottleneck::compute_bound)
    s << "The algorithm should be memory-bound but the kernel is compute-bound: it does work the algorithm "
         "does not need (redundant computation, index math, FP64).";
  else if (v.kind == bottleneck::latency_bound)
    s << "Neither ceiling is reached: the kernel is latency-bound, far below its roofline.";
  else
    s << "Consistent with the napkin math.";
  c.expectation = s.str();
  return c;
}

// ---------------------------------------------------------------------------------------------------
// Rendering.

namespace detail {
inline void row(std::ostream& os, const char* label, const char* unit, std::optional<double> v, double scale,
                int decimals) {
  char buf[160];
  if (v)
    std::snprintf(buf, sizeof buf, "    %-28s %-8s %14.*f\n", label, unit, decimals, *v * scale);
  else
    std::snprintf(buf, sizeof buf, "    %-28s %-8s %14s\n", label, unit, "n/a");
  os << buf;
}
}  // namespace detail

// Like ncu's "GPU Speed Of Light Throughput" section, then the verdicts.
inline std::string to_text(const sol_report& r) {
  std::ostringstream os;
  os << "  " << r.name << "  [" << r.chip << ", " << r.metric_set << " set, " << r.passes << " pass"
     << (r.passes == 1 ? "" : "es") << ", " << to_string(r.how) << "]\n";
  os << "    Section: GPU Speed Of Light Throughput\n";
  detail::row(os, "DRAM Frequency", "GHz", r.dram_hz(), 1e-9, 2);
  detail::row(os, "SM Frequency", "GHz", r.sm_hz(), 1e-9, 2);
  detail::row(os, "Elapsed Cycles", "cycle", r.elapsed_cycles(), 1, 0);
  detail::row(os, "Memory Throughput", "%", r.memory_pct(), 1, 2);
  detail::row(os, "DRAM Throughput", "%", r.dram_pct(), 1, 2);
  detail::row(os, "Duration", "us", r.duration_ns(), 1e-3, 2);
  detail::row(os, "L1/TEX Cache Throughput", "%", r.l1tex_pct(), 1, 2);
  detail::row(os, "L2 Cache Throughput", "%", r.l2_pct(), 1, 2);
  detail::row(os, "SM Active Cycles", "cycle", r.sm_active_cycles(), 1, 2);
  detail::row(os, "Compute (SM) Throughput", "%", r.sm_pct(), 1, 2);
  detail::row(os, "DRAM Bytes", "MB", r.dram_bytes(), 1e-6, 2);
  detail::row(os, "DRAM Bandwidth", "GB/s", r.dram_bytes_per_s(), 1e-9, 1);
  if (auto f = r.flop(); f && r.duration_ns())
    detail::row(os, "FLOP/s (executed)", "GFLOP/s", *f / (*r.duration_ns() * 1e-9), 1e-9, 1);
  if (!r.passes_disagree.empty()) {
    os << "    Passes disagree: " << r.passes_disagree << "\n";
    os << "    Verdict: none - the replay passes disagree, so neither the SOL table nor ncu's rule applies.\n";
    return os.str();
  }
  const sol_verdict v = r.sol_table();
  os << "    Verdict (SOL table):  " << to_string(v.kind) << " - " << v.reason << "\n";
  if (auto n = r.ncu_rule()) os << "    Verdict (ncu's rule): " << to_string(n->kind) << " - " << n->reason << "\n";
  return os.str();
}

inline std::string to_text(const workload_comparison& c) {
  std::ostringstream os;
  char buf[200];
  os << "    Napkin: " << c.expectation << "\n";
  std::snprintf(buf, sizeof buf, "    Roofline lower bound %.2f us", c.bound_ns * 1e-3);
  os << buf;
  if (c.time_over_bound) {
    std::snprintf(buf, sizeof buf, "; measured %.2fx the bound", *c.time_over_bound);
    os << buf;
  }
  os << "\n";
  if (c.traffic_overhead) {
    std::snprintf(buf, sizeof buf, "    Traffic overhead %.2fx the minimum bytes: ", *c.traffic_overhead);
    os << buf << c.traffic_reading << "\n";
  }
  if (c.bandwidth_of_peak) {
    std::snprintf(buf, sizeof buf, "    Achieved DRAM bandwidth %.1f%% of peak", *c.bandwidth_of_peak * 100);
    os << buf;
  }
  if (c.flops_of_peak) {
    std::snprintf(buf, sizeof buf, "; workload FLOP/s %.1f%% of peak", *c.flops_of_peak * 100);
    os << buf;
  }
  os << "\n";
  return os.str();
}

inline std::ostream& operator<<(std::ostream& os, const sol_report& r) { return os << to_text(r); }

// One line, key=value, for scripts: "NAPKIN_SOL name=... passes=9 gpu__time_duration.sum=1234 ...".
// Spaces in the name become '_'.
inline std::string to_key_values(const sol_report& r) {
  std::string name = r.name;
  std::replace(name.begin(), name.end(), ' ', '_');
  std::ostringstream os;
  os.precision(10);
  os << "NAPKIN_SOL name=" << name << " chip=" << r.chip << " set=" << r.metric_set << " passes=" << r.passes
     << " enable_s=" << r.cost.enable_s << " setup_s=" << r.cost.setup_s << " passes_s=" << r.cost.passes_s
     << " flush_s=" << r.cost.flush_s << " cupti_s=" << r.cost.cupti_s << " work_s=" << r.cost.work_s
     << " decode_s=" << r.cost.decode_s << " passes_agree=" << (r.passes_disagree.empty() ? 1 : 0);
  for (const auto& [k, v] : r.values) os << ' ' << k << '=' << v;
  return os.str();
}

NAPKIN_END_NAMESPACE
