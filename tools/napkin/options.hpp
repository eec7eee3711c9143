// SPDX-License-Identifier: Apache-2.0
// The option groups the `napkin` commands share, and solve(): the one path from a workload command's
// arguments to its answer.
//
//   add_output_options(sub, o)     every command (main adds it): --format text|json|csv|markdown
//   add_size(sub, arg, what)       a size argument: one size or a sweep (sweep.hpp)
//   add_workload_options(sub, o)   the workload commands: GPU(s), pipe, types, counting, --time
//   solve(...)                     sizes × GPUs → workload_answer
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "answer.hpp"
#include "errors.hpp"
#include "gpu_choice.hpp"
#include "names.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/math.hpp"
#include "parse.hpp"
#include "pipe_note.hpp"
#include "sweep.hpp"

namespace napkin::cli {

// ---- Output: every command -------------------------------------------------------------------------

struct output_options {
  std::string format = "text";
};

inline void add_output_options(CLI::App& sub, output_options& o) {
  sub.add_option("--format", o.format,
                 "text (for people), json (a document of docs/schema/\nnapkin.schema.json), csv (a header row, one row per\nentity) or markdown (GitHub tables for a CI summary)")
      ->type_name("FORMAT")
      ->capture_default_str()
      ->group("Output");
}

inline void check_output_options(const output_options& o) {
  const std::string f = lower(o.format);
  if (f != "text" && f != "json" && f != "csv" && f != "markdown")
    throw usage_error("--format '" + quote_input(o.format) + "': give text, json, csv or markdown" +
                      did_you_mean(f, {"text", "json", "csv", "markdown"}));
}

// ---- Sizes -----------------------------------------------------------------------------------------

struct size_arg {
  explicit size_arg(const char* n) : name(n) {}
  const char* name;  // "M": the help and the messages
  std::string text;
  bool allow_zero = false;
  CLI::Option* option = nullptr;
};

inline void add_size(CLI::App& sub, size_arg& s, const std::string& what) {
  s.option = sub.add_option(s.name, s.text, what)->type_name("SIZE");
}

inline constexpr const char* sizes_footer =
    "SIZE: 4096, 8K (= 8192: K M G T are binary, 1G = 2^30), 2^28; a sweep is\n"
    "1K,2K,8K or start..stop*FACTOR (1024..16384*2) or start..stop+STEP (1K..8K+1K),\n"
    "one row per size (every combination when several sizes sweep).\n"
    "Printed bytes are decimal (1 GB = 1e9 B, as bandwidths are) with the binary\n"
    "value beside them: 1G of fp32 is 4.295 GB (4 GiB).";

// ---- Workload options ------------------------------------------------------------------------------

struct workload_options {
  std::string gpu = "h100-sxm";
  CLI::Option* gpu_option = nullptr;
  custom_gpu_flags custom;
  std::string pipe;
  bool sparse = false;
  std::string dtype, out_dtype, acc_dtype;
  std::string counting = "standard";
  std::string time;
  napkin::dtype default_input = napkin::dtype::fp32;

  element_types types() const {
    element_types t = dtype.empty() ? element_types(default_input) : element_types(parse_dtype_arg(dtype));
    if (!out_dtype.empty()) t.output = parse_dtype_arg(out_dtype, "--out-dtype");
    if (!acc_dtype.empty()) t.accumulate = parse_dtype_arg(acc_dtype, "--acc-dtype");
    return t;
  }
};

inline void add_workload_options(CLI::App& sub, workload_options& o, napkin::dtype default_input) {
  o.default_input = default_input;
  const std::string gpu_group = "GPU (rates are decimal: 66.9T = 66.9e12)";
  o.gpu_option = sub.add_option("--gpu", o.gpu,
                                "GPU key or alias, any case (`napkin gpus`); a,b,c or all:\n"
                                "one comparison table; local: this machine's GPU")
                     ->type_name("GPU")
                     ->capture_default_str()
                     ->group(gpu_group);
  sub.add_option("--pipe", o.pipe, "math pipe (`napkin pipes`); default: from the types")
      ->type_name("PIPE")
      ->group(gpu_group);
  sub.add_flag("--sparse", o.sparse, "2:4 structured-sparse tensor peak (default: dense)")->group(gpu_group);
  sub.add_option("--peak", o.custom.peaks, "custom GPU: a pipe's dense peak in FLOP/s, e.g.\nfp16-tc=989.4T (repeat for more pipes)")
      ->type_name("PIPE=RATE")
      ->group(gpu_group);
  sub.add_option("--bandwidth", o.custom.bandwidth, "custom GPU: DRAM bandwidth in B/s, e.g. 3.35T")
      ->type_name("RATE")
      ->group(gpu_group);
  sub.add_option("--sms", o.custom.sms, "custom GPU: SM count")->type_name("N")->group(gpu_group);
  sub.add_option("--clock", o.custom.clock, "custom GPU: boost clock in MHz")->type_name("MHZ")->group(gpu_group);
  sub.add_option("--l2", o.custom.l2, "custom GPU: L2 size (50M = 50 MiB)")->type_name("SIZE")->group(gpu_group);

  const std::string types_group = "Types and counting";
  sub.add_option("--dtype", o.dtype,
                 "element type (`napkin dtypes`): fp64 fp32 tf32 fp16 bf16 fp8\nint8 int32 (default " +
                     std::string(to_string(default_input)) + ")")
      ->type_name("TYPE")
      ->group(types_group);
  sub.add_option("--out-dtype", o.out_dtype, "output type (default: --dtype)")->type_name("TYPE")->group(types_group);
  sub.add_option("--acc-dtype", o.acc_dtype, "accumulate type (default: fp32 for 16/8-bit floats,\nint32 for int8)")
      ->type_name("TYPE")
      ->group(types_group);
  sub.add_option("--counting", o.counting,
                 "how FLOPs are printed: standard (FMA = 2), macs (FMA = 1),\n"
                 "dongarra (exp 8, div 4, sqrt 4); time and regime always\nuse standard")
      ->type_name("CONVENTION")
      ->capture_default_str()
      ->group(types_group);
  sub.add_option("--time", o.time,
                 "a measured duration (1.2ms, 850us, 3s): adds % of the\n"
                 "roofline bound, achieved FLOP/s and bandwidth, a reading")
      ->type_name("DURATION")
      ->group("Measured");
}

// ---- Solving ---------------------------------------------------------------------------------------

struct titled_workload {
  std::string title;
  workload w;
};

// values: one per size argument; typed: the argument as typed for a single size, the number for a sweep.
using make_workload =
    std::function<titled_workload(const std::vector<std::int64_t>& values, const std::vector<std::string>& typed)>;

inline measured_reading read_measurement(const roofline_estimate& e, double peak, double bandwidth, double seconds) {
  measured_reading m;
  m.seconds = seconds;
  m.fraction_of_bound = e.lower_bound_seconds() / seconds;
  m.achieved_flops = e.flops / seconds;
  m.fraction_of_peak = m.achieved_flops / peak;
  m.achieved_bandwidth = e.bytes / seconds;
  m.fraction_of_bandwidth = m.achieved_bandwidth / bandwidth;
  const bool memory = e.bound == regime::memory_bound;
  if (m.fraction_of_bound > 1.0 + 1e-9)
    m.reading = "faster than the roofline allows: the data was already in L2, or the byte count, the peak "
                "or the time is off";
  else if (m.fraction_of_bound >= 0.8)
    m.reading = std::string("near the roofline, ") + (memory ? "memory-bound: to go faster, move fewer bytes"
                                                             : "compute-bound: to go faster, do fewer FLOPs or "
                                                               "use a faster pipe");
  else if (m.fraction_of_bound >= 0.5)
    m.reading = std::string("within 2x of the roofline; ") + (memory ? "memory-bound, DRAM at " : "compute-bound, "
                                                                                              "the pipe at ") +
                percent_of(memory ? m.fraction_of_bandwidth : m.fraction_of_peak) + " of its peak";
  else
    m.reading = "far from the roofline: DRAM at " + percent_of(m.fraction_of_bandwidth) + " and the pipe at " +
                percent_of(m.fraction_of_peak) +
                " of their peaks; look for latency, occupancy or extra traffic with a profiler";
  return m;
}

// The pipe of `w` on `g` without --pipe; the error says what to pass when napkin has no peak for the types.
inline pipe default_pipe_or_explain(const gpu_spec& g, const workload& w) {
  try {
    return default_pipe(g, w);
  } catch (const std::invalid_argument&) {
    const std::string in(to_string(w.types.input)), acc(to_string(w.types.accumulate));
    throw usage_error(
        (w.matrix ? "no math pipe for " + in + " matrix products (" + acc +
                        " accumulate): tensor cores take fp64, tf32, fp16, bf16, fp8 and int8 inputs"
                  : "no math pipe for " + acc + " arithmetic") +
        ", and napkin has no integer or fp8 CUDA-core peak. Pass --pipe PIPE to choose the roof (the memory time "
        "is the same on every pipe, e.g. --pipe fp32 for memory-bound work)");
  }
}

inline workload_answer solve(const std::string& command, const std::vector<size_arg*>& args,
                             const workload_options& o, const make_workload& make) {
  std::size_t given = 0;
  std::string names;
  for (const size_arg* a : args) {
    given += a->option->count() > 0 ? 1 : 0;
    names += (names.empty() ? "" : " ") + std::string(a->name);
  }
  if (given != args.size())
    throw usage_error(command + " expects " + std::to_string(args.size()) + (args.size() == 1 ? " size (" : " sizes (") +
                      names + "), got " + std::to_string(given));
  workload_answer ans;
  ans.command = command;
  for (const size_arg* a : args) ans.axes.push_back(parse_axis(a->text, a->name, a->allow_zero));
  const std::vector<std::vector<std::int64_t>> cases = sweep_cases(ans.axes);
  const std::vector<chosen_gpu> gpus = choose_gpus(o.gpu, o.gpu_option->count() > 0, o.custom);
  ans.sweep = cases.size() > 1;
  ans.comparison = gpus.size() > 1;
  std::optional<double> seconds;
  if (!o.time.empty()) seconds = parse_duration(o.time, "--time");
  if (seconds && (ans.sweep || ans.comparison))
    throw usage_error("--time reads one measured run: give one size and one GPU");
  const sparsity s = o.sparse ? sparsity::sparse_2_4 : sparsity::dense;
  std::optional<pipe> pipe_arg;
  if (!o.pipe.empty()) pipe_arg = parse_pipe_arg(o.pipe);

  for (const std::vector<std::int64_t>& values : cases) {
    std::vector<std::string> typed;
    for (std::size_t i = 0; i < values.size(); ++i)
      typed.push_back(ans.axes[i].values.size() == 1 ? ans.axes[i].typed : std::to_string(values[i]));
    const titled_workload tw = make(values, typed);
    for (const chosen_gpu& g : gpus) {
      workload_case c{values, tw.title, tw.w, g, std::nullopt, {}, s, std::nullopt, std::nullopt};
      const pipe p = pipe_arg ? *pipe_arg : default_pipe_or_explain(g.spec, tw.w);
      if (pipe_arg && ans.notes.empty())
        if (const auto note = pipe_override_note(p, g.spec, tw.w)) ans.notes.push_back(*note);
      c.p = p;
      const bool usable = g.spec.has(p) && (s == sparsity::dense || supports_sparsity(g.spec, p));
      if (!usable && ans.comparison) {
        c.unavailable = g.spec.has(p) ? "no 2:4 sparse " + std::string(to_string(p)) : "no " + std::string(to_string(p)) + " peak";
      } else {
        c.e = estimate(tw.w, g.spec, p, s);  // a missing pipe is the library's error: exit 2
        if (seconds) c.measured = read_measurement(*c.e, peak_flops(g.spec, p, s), g.spec.memory_bandwidth, *seconds);
      }
      ans.cases.push_back(std::move(c));
    }
  }
  return ans;
}

}  // namespace napkin::cli
