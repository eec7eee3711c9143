// SPDX-License-Identifier: Apache-2.0
// napkin/profiler/report.hpp's renderers of a report (to_text, to_key_values): the function bodies. Included by
// report.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "napkin/profiler/report.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"
#include "napkin/profiler/sections/section_text.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/profiler/verdicts.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// The ncu-style section, a text_table without a header: the label in 27 columns, the unit in 7, the value
// right-aligned in 14, two spaces apart (printf's "%-28s %-8s %14s", ncu's layout); a row's value has
// `decimals` decimals after `scale` ("n/a" when not measured).
NAPKIN_DETAIL_FUNC text_table section_table() {
  text_table t;
  t.column("label", text_table::align::left, 27);
  t.column("unit", text_table::align::left, 7);
  t.column("value", text_table::align::right, 14);
  return t;
}
NAPKIN_DETAIL_FUNC void section_row(text_table& t, const char* label, const char* unit, std::optional<double> v,
                                    double scale, int decimals) {
  t.row({label, unit, v ? fixed(*v * scale, decimals) : "n/a"});
}
// `text` in lines of at most `width` columns, each indented by `indent` (continuations by 2 more); breaks at
// spaces, and a word longer than a line stands alone (text/table.hpp's wrap()).
NAPKIN_DETAIL_FUNC std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
  return std::string(indent, ' ') + wrap(text, width, indent + 2, indent) + "\n";
}
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_text(const sol_report& r, const section_makers& makers) {
  std::string out = "  " + printable(r.name) + "  [" + printable(r.chip) + ", " +
                    printable(r.metric_set) + " set, " + std::to_string(r.passes) +
                    (r.passes == 1 ? " pass, " : " passes, ") + std::string(describe(r.how)) + "]\n";
  out += "    Section: GPU Speed Of Light Throughput\n";
  text_table section = detail::section_table();
  detail::section_row(section, "DRAM Frequency", "GHz", r.dram_hz(), 1e-9, 2);
  detail::section_row(section, "SM Frequency", "GHz", r.sm_hz(), 1e-9, 2);
  detail::section_row(section, "Elapsed Cycles", "cycle", r.elapsed_cycles(), 1, 0);
  detail::section_row(section, "Memory Throughput", "%", r.memory_pct(), 1, 2);
  detail::section_row(section, "DRAM Throughput", "%", r.dram_pct(), 1, 2);
  detail::section_row(section, "Duration", "us", r.duration_ns(), 1e-3, 2);
  if (r.range_ns()) {  // measure(): the duration is the GPU's busy time; the range spanned more
    detail::section_row(section, "Range Span", "us", r.range_ns(), 1e-3, 2);
    detail::section_row(section, "GPU Idle In Range", "us", r.gpu_idle_ns(), 1e-3, 2);
  }
  detail::section_row(section, "L1/TEX Cache Throughput", "%", r.l1tex_pct(), 1, 2);
  detail::section_row(section, "L2 Cache Throughput", "%", r.l2_pct(), 1, 2);
  detail::section_row(section, "SM Active Cycles", "cycle", r.sm_active_cycles(), 1, 2);
  detail::section_row(section, "Compute (SM) Throughput", "%", r.sm_pct(), 1, 2);
  detail::section_row(section, "DRAM Bytes", "MB", r.dram_bytes(), 1e-6, 2);
  detail::section_row(section, "DRAM Bandwidth", "GB/s", r.dram_bytes_per_s(), 1e-9, 1);
  if (auto f = r.flop(); f && r.duration_ns())
    detail::section_row(section, "FLOP/s (executed)", "GFLOP/s", *f / (*r.duration_ns() * 1e-9), 1e-9, 1);
  out += section.text("    ", false);
  // Numbers the set derives rather than collects under ncu's names: say how (sol_fast.hpp).
  static constexpr std::pair<const char*, const char*> derived_rows[] = {
      {"duration_ns", "Duration"},          {"sm_pct", "Compute (SM) Throughput"},
      {"memory_pct", "Memory Throughput"},  {"dram_pct", "DRAM Throughput"},
      {"l1tex_pct", "L1/TEX Cache Throughput"}, {"l2_pct", "L2 Cache Throughput"},
      {"replay_overhead", "Memory-instruction counts"}};
  if (!r.derivations.empty()) out += "    Derived (" + printable(r.metric_set) + " set):\n";
  for (const auto& [field, label] : derived_rows)
    if (const auto it = r.derivations.find(field); it != r.derivations.end())
      out += detail::wrapped(std::string(label) + " = " + printable(it->second), 6, 100);
  if (!r.passes_disagree.empty()) {
    out += "    Passes disagree: " + printable(r.passes_disagree) + "\n";
    out += "    Verdict: none - the replay passes disagree, so neither the SOL table nor ncu's rule applies.\n";
  } else {
    const sol_verdict v = r.sol_table();
    out += "    Verdict (SOL table):  " + std::string(describe(v.kind)) + " - " + v.reason + "\n";
    if (auto n = r.ncu_rule())
      out += "    Verdict (ncu's rule): " + std::string(describe(n->kind)) + " - " + n->reason + "\n";
  }
  return out + to_text(sections_of(r, makers));
}

NAPKIN_DETAIL_FUNC std::ostream& operator<<(std::ostream& os, const sol_report& r) { return os << to_text(r); }

NAPKIN_DETAIL_FUNC std::string to_key_values(const sol_report& r) {
  std::string name = r.name;
  std::replace(name.begin(), name.end(), ' ', '_');
  std::ostringstream os;
  os.precision(10);
  os << "NAPKIN_SOL name=" << name << " chip=" << r.chip << " set=" << r.metric_set << " passes=" << r.passes
     << " enable_s=" << r.cost.enable_s << " setup_s=" << r.cost.setup_s << " passes_s=" << r.cost.passes_s
     << " flush_s=" << r.cost.flush_s << " cupti_s=" << r.cost.cupti_s << " work_s=" << r.cost.work_s
     << " decode_s=" << r.cost.decode_s << " passes_agree=" << (r.passes_disagree.empty() ? 1 : 0);
  // napkin's own SOL fields first (collected or derived, "nan" when not measured), then every collected metric
  // under its own name: a derived number never appears under an ncu metric name.
  auto field = [&os](const char* key, std::optional<double> v) {
    os << ' ' << key << '=';
    if (v) os << *v; else os << "nan";
  };
  field("duration_ns", r.duration_ns());
  field("sm_pct", r.sm_pct());
  field("memory_pct", r.memory_pct());
  field("dram_pct", r.dram_pct());
  field("l1tex_pct", r.l1tex_pct());
  field("l2_pct", r.l2_pct());
  os << " verdict=" << to_string(r.sol_table().kind);
  for (const auto& [k, v] : r.values) os << ' ' << k << '=' << v;
  return os.str();
}

NAPKIN_END_NAMESPACE
