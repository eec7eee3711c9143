// SPDX-License-Identifier: Apache-2.0
// Renders an answer (answer.hpp): render() picks the --format (text here; json, csv and markdown hand the
// answer to the report library's serializers and renderers, answer_documents.hpp) and, for text, the
// answer's type.
// Numbers become text through napkin/text/numbers.hpp; what is here is layout. Every line fits in
// 100 columns (tests/cli checks it).
#pragma once

#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "answer.hpp"
#include "answer_documents.hpp"
#include "gpu_facts.hpp"
#include "layout.hpp"
#include "names.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"
#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "options.hpp"

namespace napkin::cli {

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


// "CC 9.0, 132 SMs at 1980 MHz, L2 50 MiB"; what is unknown is left out.
inline std::string spec_text(const gpu_spec& g) {
  std::string s = g.cc_major ? "CC " + std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor) : "";
  const auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  const std::string clock = napkin::general(g.boost_clock_mhz) + " MHz";
  if (g.sm_count) add(std::to_string(g.sm_count) + " SMs" + (g.boost_clock_mhz > 0 ? " at " + clock : ""));
  else if (g.boost_clock_mhz > 0) add(clock);
  if (g.l2_bytes) add("L2 " + napkin::general(static_cast<double>(g.l2_bytes) / MB) + " MiB");
  return s.empty() ? "no SM count, clock or L2 given" : s;
}

inline std::string pipe_line(const workload_case& c) {
  return "pipe " + std::string(to_string(*c.p)) + " (" + std::string(describe(*c.p)) + "), " +
         std::string(describe(c.s));
}

// ---- Workload: one case ----------------------------------------------------------------------------

inline void render_report(std::ostream& out, const workload_case& c) {
  const roofline_estimate& e = *c.e;
  const workload& w = c.w;
  out << c.title << "\n";
  print_row(out, "types", describe_types(w.types));
  if (w.convention == counting::standard())
    print_row(out, "FLOPs", si(e.flops, "FLOP"));
  else  // the convention changes this line only: time, intensity and regime use the standard count
    print_row(out, "FLOPs", si(static_cast<double>(w.counted_flops()), "FLOP"),
              "counted " + describe_counting(w.convention) + "; standard " + si(e.flops, "FLOP") + " for the roofline");
  print_row(out, "bytes", bytes_text(e.bytes),
            "read " + si(static_cast<double>(w.bytes_read), "B") + ", written " +
                si(static_cast<double>(w.bytes_written), "B"));
  print_row(out, "intensity", flop_per_byte(e.intensity));
  const std::string on = "on " + c.gpu.label + ", " + pipe_line(c);
  out << (text_width(on) <= max_columns ? on : "on " + c.gpu.label + "\n" + pipe_line(c)) << "\n";
  if (c.gpu.show_spec) print_row(out, "gpu", spec_text(c.gpu.spec));
  print_row(out, "peak", si(peak_flops(c.gpu.spec, *c.p, c.s), "FLOP/s"));
  print_row(out, "bandwidth", si(c.gpu.spec.memory_bandwidth, "B/s"));
  print_row(out, "ridge", flop_per_byte(e.ridge), "intensity needed to be compute-bound");
  print_row(out, "regime", std::string(to_string(e.bound)), "intensity is " + significant(e.intensity / e.ridge) + "x the ridge");
  print_row(out, "attainable", si(e.attainable_flops, "FLOP/s"), "min(peak, bandwidth x intensity)");
  print_row(out, "compute time", estimate_duration(e.compute_seconds), "FLOPs / peak");
  print_row(out, "memory time", estimate_duration(e.memory_seconds), "bytes / bandwidth");
  print_row(out, "lower bound", estimate_duration(e.lower_bound_seconds()),
            "max(compute, memory); data already in L2 can beat it");
  print_row(out, "no overlap", estimate_duration(e.no_overlap_seconds()), "compute + memory");
  if (!c.measured) return;
  const measured_reading& m = *c.measured;
  out << "measured " << estimate_duration(m.seconds) << " (--time)\n";
  print_row(out, "of the bound", percent_of(m.fraction_of_bound), "lower bound / measured time");
  print_row(out, "FLOP/s", si(m.achieved_flops, "FLOP/s"),
            percent_of(m.fraction_of_peak) + " of the " + si(peak_flops(c.gpu.spec, *c.p, c.s), "FLOP/s") + " peak");
  print_row(out, "bandwidth", si(m.achieved_bandwidth, "B/s"),
            percent_of(m.fraction_of_bandwidth) + " of " + si(c.gpu.spec.memory_bandwidth, "B/s") +
                " (minimum bytes / time)");
  print_row(out, "reading", wrap(m.reading, max_columns, 16, 16));
}

// ---- Workload: a sweep and/or a comparison ---------------------------------------------------------

inline void render_workload_table(std::ostream& out, const workload_answer& a) {
  const workload_case& first = a.cases.front();
  bool same_pipe = true;
  for (const workload_case& c : a.cases) same_pipe = same_pipe && c.p == first.p;
  if (a.sweep) {
    std::string fixed_sizes;
    for (const size_axis& x : a.axes)
      if (x.values.size() == 1) fixed_sizes += ", " + x.name + "=" + x.typed;
    out << a.command << fixed_sizes << "; " << describe_types(first.w.types) << "; one row per size\n";
  } else {
    out << first.title << "; " << describe_types(first.w.types) << "\n"
        << "FLOPs " << si(static_cast<double>(first.w.flops), "FLOP") << ", bytes " << bytes_text(static_cast<double>(first.w.bytes()))
        << ", intensity " << flop_per_byte(first.w.intensity()) << "\n";
  }
  if (!a.comparison) {
    out << "on " << first.gpu.label << ", " << pipe_line(first) << "\n"
        << "peak " << si(peak_flops(first.gpu.spec, *first.p, first.s), "FLOP/s") << ", bandwidth "
        << si(first.gpu.spec.memory_bandwidth, "B/s") << ", ridge " << flop_per_byte(first.e->ridge) << "\n";
  } else if (same_pipe) {
    out << pipe_line(first) << "; peak and bandwidth from the table\n";
  }
  // Columns: the swept sizes; per GPU its roof; per size its work; then the verdict. Sweeping and
  // comparing at once keeps to peak, bandwidth and intensity, so that the table stays within 100 columns.
  const bool both = a.sweep && a.comparison;
  text_table t;
  for (const size_axis& x : a.axes)
    if (x.values.size() > 1) t.column(x.name);
  if (a.comparison) {
    t.column("gpu", text_table::align::left);
    if (!same_pipe) t.column("pipe", text_table::align::left);
    t.column(both ? "TFLOP/s" : "peak TFLOP/s");
    t.column(both ? "GB/s" : "DRAM GB/s");
    if (!both) t.column("ridge FLOP/B");
  }
  if (a.sweep && !both) {
    t.column("FLOPs");
    t.column("bytes");
  }
  if (a.sweep) t.column("FLOP/B");
  t.column("bound by", text_table::align::left);
  t.column("lower bound");
  for (const workload_case& c : a.cases) {
    std::vector<std::string> row;
    for (std::size_t i = 0; i < a.axes.size(); ++i)
      if (a.axes[i].values.size() > 1) row.push_back(std::to_string(c.sizes[i]));
    if (a.comparison) {
      row.push_back(std::string(c.gpu.spec.key));
      if (!same_pipe) row.push_back(std::string(to_string(*c.p)));
      row.push_back(c.e ? significant(peak_flops(c.gpu.spec, *c.p, c.s) / 1e12) : "-");
      row.push_back(fixed(c.gpu.spec.memory_bandwidth / 1e9, 0));
      if (!both) row.push_back(c.e ? significant(c.e->ridge) : "-");
    }
    if (a.sweep && !both) {
      row.push_back(si(static_cast<double>(c.w.flops), "FLOP"));
      row.push_back(si(static_cast<double>(c.w.bytes()), "B"));
    }
    if (a.sweep) row.push_back(significant(c.w.intensity()));
    row.push_back(!c.e ? c.unavailable : c.e->bound == regime::memory_bound ? "memory" : "compute");
    row.push_back(c.e ? estimate_duration(c.e->lower_bound_seconds()) : "-");
    t.row(std::move(row));
  }
  t.print(out);
}

inline void render_text(std::ostream& out, const workload_answer& a) {
  if (a.cases.size() == 1) render_report(out, a.cases.front());
  else render_workload_table(out, a);
}

// ---- napkin gpus, pipes, dtypes --------------------------------------------------------------------

inline void render_text(std::ostream& out, const gpus_answer& a) {
  for (std::size_t i = 0; i < a.chosen.size(); ++i) {
    if (i > 0) out << "\n";
    render_gpu_facts(out, a.chosen[i]);
  }
  if (!a.chosen.empty()) return;
  if (a.shown == gpus_answer::view::keys) {
    for (const std::string& name : gpu_names()) out << name << "\n";
    return;
  }
  if (a.shown == gpus_answer::view::sources) {
    for (const gpu_spec& g : gpu_table)
      out << wrap(std::string(g.key) + ": " + std::string(g.source), max_columns, 4) << "\n";
    return;
  }
  const bool ridges = a.shown == gpus_answer::view::ridges;
  const auto cell = [&](const gpu_spec& g, pipe p) -> std::string {
    if (!g.has(p)) return "-";
    const double v = ridges ? ridge_point(g, p) : g.peak(p) / 1e12;
    return fixed(v, v >= 100 ? 0 : (v >= 10 ? 1 : 2));
  };
  out << (ridges ? "Ridge points in FLOP/B (dense peak / DRAM bandwidth)" : "Dense peaks in TFLOP/s (int8-tc: TOP/s)")
      << "; '-': absent or no published figure.\n"
         "DRAM in GB/s (1 GB = 1e9 B), L2 in MiB. Sources: napkin gpus --sources. Any key or alias\n"
         "works in any case: --gpu H100.\n\n";
  text_table cores;
  cores.column("gpu", text_table::align::left);
  cores.column("aliases", text_table::align::left);
  cores.column("cc");
  cores.column("SMs");
  cores.column("GB/s");
  cores.column("L2 MiB");
  for (pipe p : all_pipes)
    if (!is_tensor(p)) cores.column(std::string(to_string(p)));
  for (const gpu_spec& g : gpu_table) {
    std::vector<std::string> row{std::string(g.key), aliases_of(g),
                                 std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor),
                                 g.sm_count ? std::to_string(g.sm_count) : "?", fixed(g.memory_bandwidth / 1e9, 0),
                                 g.l2_bytes ? std::to_string(g.l2_bytes / MB) : "?"};
    for (pipe p : all_pipes)
      if (!is_tensor(p)) row.push_back(cell(g, p));
    cores.row(std::move(row));
  }
  cores.print(out);
  out << "\nTensor cores (" << (ridges ? "FLOP/B" : "TFLOP/s") << "; -f16acc: FP16 accumulate)\n";
  text_table tensor;
  tensor.column("gpu", text_table::align::left);
  for (pipe p : all_pipes)
    if (is_tensor(p)) tensor.column(std::string(to_string(p)));
  for (const gpu_spec& g : gpu_table) {
    std::vector<std::string> row{std::string(g.key)};
    for (pipe p : all_pipes)
      if (is_tensor(p)) row.push_back(cell(g, p));
    tensor.row(std::move(row));
  }
  tensor.print(out);
}

inline void render_text(std::ostream& out, const pipes_answer&) {
  out << "Math pipes (--pipe). Without --pipe a matrix product runs on the tensor pipe of its (input,\n"
         "accumulate) types, other work on the CUDA-core pipe of its accumulate type.\n\n";
  text_table t;
  t.column("pipe", text_table::align::left);
  t.column("what", text_table::align::left);
  t.column("GPUs");
  for (pipe p : all_pipes) {
    int with = 0;
    for (const gpu_spec& g : gpu_table) with += g.has(p) ? 1 : 0;
    t.row({std::string(to_string(p)), std::string(describe(p)),
           std::to_string(with) + " of " + std::to_string(gpu_table.size())});
  }
  t.print(out);
}

inline void render_text(std::ostream& out, const dtypes_answer&) {
  out << "Element types (--dtype, --out-dtype, --acc-dtype), any case. Bytes per element move; the\n"
         "accumulate type picks the pipe.\n\n";
  text_table t;
  t.column("dtype", text_table::align::left);
  t.column("bytes");
  t.column("accumulate", text_table::align::left);
  t.column("matrix pipe", text_table::align::left);
  t.column("other pipe", text_table::align::left);
  t.column("also", text_table::align::left);
  const auto pipe_text = [](const std::optional<pipe>& p) {
    return p ? std::string(to_string(*p)) : std::string("needs --pipe");
  };
  for (dtype d : dtype_catalog{}.types) {
    const dtype_facts f = facts_of(d);  // the same facts --format json writes
    t.row({std::string(to_string(d)), std::to_string(f.bytes), std::string(to_string(f.accumulate)),
           pipe_text(f.matrix_pipe), pipe_text(f.vector_pipe), std::string(dtype_spellings(d))});
  }
  t.print(out);
}

// ---- napkin occupancy ------------------------------------------------------------------------------

inline std::string blocks_text(int blocks) { return blocks == napkin::unlimited ? "-" : std::to_string(blocks); }

// A graph as the ranges of x over which the active warps stay the same.
template <std::size_t N>
void print_graph(std::ostream& out, const char* title, const occupancy_graph<N>& g) {
  out << wrap(std::string(title) + " (" + g.x_label + " -> active warps of " + std::to_string(g.max_warps_per_sm) +
                  "; this launch: " + std::to_string(g.current.x) + " -> " + std::to_string(g.current.active_warps) + ")",
              max_columns, 2)
      << "\n ";
  std::size_t i = 0, column = 1;
  while (i < g.size) {
    std::size_t j = i;
    while (j + 1 < g.size && g.points[j + 1].active_warps == g.points[i].active_warps) ++j;
    const std::string x = g.points[i].x == g.points[j].x
                              ? std::to_string(g.points[i].x)
                              : std::to_string(g.points[i].x) + "-" + std::to_string(g.points[j].x);
    const std::string item = " " + x + ":" + std::to_string(g.points[i].active_warps);
    if (column + item.size() > max_columns) {
      out << "\n ";
      column = 1;
    }
    out << item;
    column += item.size();
    i = j + 1;
  }
  out << "\n";
}

inline void render_text(std::ostream& out, const occupancy_answer& a) {
  const occupancy_result& r = a.r;
  const kernel_resources& k = a.k;
  const sm_limits& limits = a.limits;
  const auto line = [&out](const char* label, const std::string& value) {
    out << "  " << pad_right(label, 16) << wrap(value, max_columns, 18, 18) << "\n";
  };
  out << "occupancy on CC " << a.cc.major << "." << a.cc.minor << " (" << limits.architecture << ")" << a.where << "\n";
  line("launch", count_text(a.threads, "thread", "threads") + ", " +
                     count_text(k.registers_per_thread, "register/thread", "registers/thread") + ", " +
                     std::to_string(a.dynamic_smem) + " B dynamic + " + std::to_string(k.static_smem) +
                     " B static shared memory");
  line("per block", count_text(r.warps_per_block, "warp", "warps") + ", " +
                        count_text(r.registers_per_block, "register", "registers") + ", " +
                        std::to_string(r.smem_per_block) + " B shared memory (" +
                        std::to_string(limits.smem_reserved_per_block) + " B reserve, " +
                        std::to_string(limits.smem_allocation_unit) + " B units)");
  std::string by = "registers " + blocks_text(r.blocks_by_registers) + ", shared memory " +
                   blocks_text(r.blocks_by_shared_memory) + " (of a " + std::to_string(r.smem_per_sm) +
                   " B carveout), warps " + blocks_text(r.blocks_by_warps) + ", block limit " +
                   blocks_text(r.blocks_by_sm_limit);
  if (r.blocks_by_barriers != napkin::unlimited) by += ", barriers " + blocks_text(r.blocks_by_barriers);
  line("blocks/SM by", by);
  line("result", count_text(r.blocks_per_sm, "block/SM", "blocks/SM") + ", " + std::to_string(r.active_warps()) +
                     " of " + count_text(r.max_warps_per_sm, "warp", "warps") + ", occupancy " +
                     percent_of(r.occupancy()));
  line("best block size", best_block_size_text(a));
  out << wrap(napkin::to_text(limits, a.threads, k, a.dynamic_smem), max_columns, 2) << "\n";
  if (a.graphs) {
    print_graph(out, "Impact of varying block size", graph_block_size(limits, a.threads, k, a.dynamic_smem));
    print_graph(out, "Impact of varying registers per thread", graph_registers(limits, a.threads, k, a.dynamic_smem));
    print_graph(out, "Impact of varying shared memory per block",
                graph_shared_memory(limits, a.threads, k, a.dynamic_smem));
  }
}

// ---- diff, roofline, report ------------------------------------------------------------------------

// The changes beyond the threshold, grouped by entity (names can be long: they get a line each).
inline void render_text(std::ostream& out, const diff_answer& a) {
  const report_diff& d = a.d;
  out << wrap("napkin diff: " + std::string(to_string(d.outcome)) + " (" + d.kind + ", " + d.old_source + " -> " +
                  d.new_source + ", threshold " + fixed(d.threshold_pct, 1) + "%)",
              max_columns, 2)
      << "\n";
  std::size_t same = 0;
  std::string entity;
  text_table t;
  const auto flush = [&]() {
    if (entity.empty()) return;
    out << wrap(entity, max_columns, 2) << "\n";
    t.print(out);
  };
  for (const field_change& c : d.changes) {
    if (c.status == change_status::same) {
      ++same;
      continue;
    }
    if (c.entity != entity) {
      flush();
      entity = c.entity;
      t = text_table{};
      for (const char* h : {"  field", "old", "new", "change"}) t.column(h, *h == ' ' ? text_table::align::left
                                                                                      : text_table::align::right);
      t.column("status", text_table::align::left);
    }
    t.row({"  " + c.field, old_value_text(c), new_value_text(c), change_text(c),
           status_text(c.status, c.regression)});
  }
  flush();
  out << same << " of " << d.changes.size() << " numbers within " << fixed(d.threshold_pct, 1) << "%"
      << (d.noise_held() ? " or their noise" : "") << "\n";
  for (const verdict_change& v : d.verdict_changes)
    out << wrap("verdict " + v.field + " of " + v.entity + ": " + v.old_text + " -> " + v.new_text, max_columns, 2)
        << "\n";
  for (const std::string& n : d.added) out << wrap("added: " + n, max_columns, 2) << "\n";
  for (const std::string& n : d.removed) out << wrap("removed: " + n, max_columns, 2) << "\n";
}
inline void render_text(std::ostream& out, const roofline_answer& a) { out << to_svg(a.chart); }
inline void render_text(std::ostream& out, const report_answer& a) {
  if (a.monitor) out << to_html(*a.monitor);
  else if (a.source_lines) out << to_html(*a.source_lines);
  else out << to_html(a.page);
}
inline void render_text(std::ostream& out, const merge_answer& a) { out << to_text(a.table); }

// ---- The one entry point ---------------------------------------------------------------------------

// The answer in the --format asked for: text, or the report library's JSON, CSV or Markdown of the same values.
inline void render(std::ostream& out, const answer& a, const output_options& o) {
  check_output_options(o);
  const std::string format = lower(o.format);
  if (format == "json") out << json_text(a);
  else if (format == "csv") out << csv_text(a);
  else if (format == "markdown") out << markdown_text(a);
  else if (std::holds_alternative<roofline_answer>(a) || std::holds_alternative<report_answer>(a))
    std::visit([&](const auto& value) { render_text(out, value); }, a);  // SVG and HTML: escaped as markup
  else {
    // Text for a terminal: names from files (kernels, hosts, GPU files) may hold terminal escapes or bidi
    // overrides; every line goes through printable() (napkin/text/printable.hpp), the one place.
    std::ostringstream text;
    std::visit([&](const auto& value) { render_text(text, value); }, a);
    out << napkin::printable_lines(text.str());
  }
}

}  // namespace napkin::cli
