// The report every workload command of the `napkin` CLI prints: the workload, the roofline on the chosen
// GPU and pipe, and the time bounds. Numbers become text through napkin/detail/number_text.hpp; what is
// here is layout.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "napkin/detail/number_text.hpp"
#include "napkin/math.hpp"
#include "parse.hpp"

namespace napkin::cli {

// ---- Layout ----------------------------------------------------------------------------------------

// `text` followed by spaces up to `width` bytes (the labels are ASCII), or `text` when it is longer.
inline std::string pad_right(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

// Spaces then `text`, `width` bytes in all (a right-aligned table cell).
inline std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

// One report row: "  <label padded to label_width><value>[   <note>]".
inline void print_row(std::ostream& out, std::size_t label_width, const char* label, const std::string& value,
                      const std::string& note = {}) {
  out << "  " << pad_right(label, label_width) << value;
  if (!note.empty()) out << "   " << note;
  out << "\n";
}

// "as MACs (FMA = 1)", "with Dongarra's weights, with the softmax", ...
inline std::string describe_counting(const counting& c) {
  counting ops = c;
  ops.attention_softmax = false;
  std::string s;
  if (ops == counting::macs()) s = "as MACs (FMA = 1)";
  else if (ops == counting::dongarra()) s = "with Dongarra's weights";
  else if (ops != counting::standard()) s = "in the chosen convention";
  if (c.attention_softmax) s += s.empty() ? "with the softmax" : ", with the softmax";
  return s;
}

inline std::string describe_types(const element_types& t) {
  return std::string(to_string(t.input)) + " in, " + std::string(to_string(t.output)) + " out, " +
         std::string(to_string(t.accumulate)) + " accumulate";
}

// ---- The report every workload command prints -------------------------------------------------------

// Reads --gpu, --pipe and --sparse, finishes argument parsing, and prints the workload and its roofline.
inline int print_report(arguments& args, std::ostream& out, const std::string& title, const workload& w) {
  const gpu_spec g = lookup_gpu(args.option_or("gpu", "h100-sxm"));
  const std::optional<std::string> pipe_arg = args.option("pipe");
  const sparsity s = args.flag("sparse") ? sparsity::sparse_2_4 : sparsity::dense;
  args.finish();

  pipe p{};
  if (pipe_arg) {
    p = parse_pipe_arg(*pipe_arg);
  } else {
    try {
      p = default_pipe(g, w);
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
  const roofline_estimate e = estimate(w, g, p, s);

  using napkin::detail::estimate_duration;
  using napkin::detail::si;
  using napkin::detail::significant;
  const auto line = [&out](const char* label, const std::string& value, const std::string& note = {}) {
    print_row(out, 14, label, value, note);
  };
  const auto intensity = [](double flop_per_byte) { return significant(flop_per_byte) + " FLOP/B"; };
  out << title << "\n";
  line("types", describe_types(w.types));
  if (w.convention == counting::standard())
    line("FLOPs", si(e.flops, "FLOP"));
  else  // the convention changes this line only: time, intensity and regime use the standard count
    line("FLOPs", si(static_cast<double>(w.counted_flops()), "FLOP"),
         "counted " + describe_counting(w.convention) + "; standard " + si(e.flops, "FLOP") + " for the roofline");
  line("bytes", si(e.bytes, "B"),
       "read " + si(static_cast<double>(w.bytes_read), "B") + ", written " +
           si(static_cast<double>(w.bytes_written), "B"));
  line("intensity", intensity(e.intensity));
  out << "on " << g.key << " (" << g.name << "), pipe " << to_string(p) << " (" << describe(p) << "), "
      << describe(s) << "\n";
  line("peak", si(peak_flops(g, p, s), "FLOP/s"));
  line("bandwidth", si(g.memory_bandwidth, "B/s"));
  line("ridge", intensity(e.ridge), "intensity needed to be compute-bound");
  line("regime", std::string(to_string(e.bound)), "intensity is " + significant(e.intensity / e.ridge) + "x the ridge");
  line("attainable", si(e.attainable_flops, "FLOP/s"), "min(peak, bandwidth x intensity)");
  line("compute time", estimate_duration(e.compute_seconds), "FLOPs / peak");
  line("memory time", estimate_duration(e.memory_seconds), "bytes / bandwidth");
  line("lower bound", estimate_duration(e.lower_bound_seconds()), "max(compute, memory); data already in L2 can beat it");
  line("no overlap", estimate_duration(e.no_overlap_seconds()), "compute + memory");
  return 0;
}

}  // namespace napkin::cli
