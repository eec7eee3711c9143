// SPDX-License-Identifier: Apache-2.0
// napkin/system/system_text.hpp's text for people (the run, the phase, copy and kernel tables): the function
// bodies. Included by system_text.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by
// napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "napkin/system/records.hpp"
#include "napkin/system/system_report.hpp"
#include "napkin/system/system_text.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

NAPKIN_DETAIL_FUNC std::string system_ns(std::uint64_t ns) { return duration(static_cast<double>(ns) * 1e-9); }

NAPKIN_DETAIL_FUNC std::string system_share(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? std::string("n/a") : percent_of(static_cast<double>(a) / static_cast<double>(b));
}

NAPKIN_DETAIL_FUNC double system_mean_ns(const duration_histogram& h) {
  return h.total == 0 ? 0.0 : static_cast<double>(h.sum_ns / static_cast<long double>(h.total));
}

NAPKIN_DETAIL_FUNC std::string system_phase_label(const std::string& name) {
  return name.empty() ? std::string("(no phase)") : printable(name);
}

NAPKIN_DETAIL_FUNC std::string system_clip(const std::string& s, std::size_t width) {
  return s.size() > width ? s.substr(0, width - 3) + "..." : s;
}

NAPKIN_DETAIL_FUNC std::uint64_t system_syncs(const system_phase& p) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < all_host_call_kinds.size(); ++i) {
    const host_call_kind k = all_host_call_kinds[i];
    if (k == host_call_kind::device_synchronize || k == host_call_kind::stream_synchronize ||
        k == host_call_kind::event_synchronize)
      n += p.host_calls[i].count;
  }
  return n;
}

NAPKIN_DETAIL_FUNC const copy_totals& system_host_calls(const system_phase& p, host_call_kind k) {
  for (std::size_t i = 0; i < all_host_call_kinds.size(); ++i)
    if (all_host_call_kinds[i] == k) return p.host_calls[i];
  return p.host_calls.back();
}

NAPKIN_DETAIL_FUNC std::uint64_t system_pageable_copy_ns(const system_phase& p) {
  for (std::size_t i = 0; i < all_host_memories.size(); ++i)
    if (all_host_memories[i] == host_memory::pageable) return p.copies_by_memory[i].ns;
  return 0;
}

NAPKIN_DETAIL_FUNC std::uint64_t system_copy_not_overlapped_ns(const system_phase& p) {
  const std::uint64_t copies = p.copy_ns();
  return copies > p.copy_overlapped_ns ? copies - p.copy_overlapped_ns : 0;
}

// `text` in lines of at most 100 columns; the lines a break makes start with `indent` spaces.
NAPKIN_DETAIL_FUNC std::string system_wrapped(const std::string& text, std::size_t indent) {
  return wrap(text, 100, indent) + "\n";
}

NAPKIN_DETAIL_FUNC std::string system_run_text(const system_report& r) {
  const system_phase& run = r.run;
  const idle_causes& c = run.idle_by_host;
  std::string out = "napkin system view: GPU span " + system_ns(run.span_ns) + ", busy " + system_ns(run.busy_ns) +
                    ", idle " + system_ns(run.idle_ns) + " (" + system_share(run.idle_ns, run.span_ns) + ")\n";
  // waiting: in a call that blocks the host until the GPU is done (synchronize, synchronous copy or memset)
  if (run.idle_ns > 0)
    out += system_wrapped("  host while idle: waiting " + system_ns(c.host_waiting_ns) + ", launching " +
                              system_ns(c.host_launching_ns) + ", other CUDA " + system_ns(c.host_other_api_ns) +
                              ", outside CUDA " + system_ns(c.host_outside_ns),
                          4);
  out += system_wrapped("  " + std::to_string(run.kernels) + " kernels (" + system_ns(run.kernel_ns) + "), " +
                            std::to_string(system_host_calls(run, host_call_kind::launch).count) + " launches, " +
                            std::to_string(run.graph_launches) + " graph launches; copies " + system_ns(run.copy_ns()) +
                            " (" + system_share(run.copy_overlapped_ns, run.copy_ns()) +
                            " overlapped with kernels); host blocked " + system_ns(run.host_blocked_ns) +
                            " in blocking calls (" + std::to_string(system_syncs(run)) +
                            " synchronize calls, synchronous copies and memsets; summed over threads)",
                        4);
  if (r.records_dropped > 0 || r.late_records > 0 || r.records_refused > 0 || r.records_other_device > 0)
    out += "  records: " + std::to_string(r.records_dropped) + " dropped (the store was full), " +
           std::to_string(r.late_records) + " late (counted alone),\n    " + std::to_string(r.records_refused) +
           " refused (no time, or an end before the start), " + std::to_string(r.records_other_device) +
           " of other devices\n";
  return out;
}

// 2 + 14 phase + 9 x 2 + 5 + 9 + 6 + 7 + 9 + 9 + 7 + 9 + 5 = 100 columns; a longer phase gets its own line.
NAPKIN_DETAIL_FUNC std::string system_phase_table(const system_report& r) {
  using align = text_table::align;
  text_table t;
  t.column("phase", align::left, 14);
  t.column("inst", align::right, 5);
  t.column("span", align::right, 9);
  t.column("idle%", align::right, 6);
  t.column("kernels", align::right, 7);
  t.column("GPU time", align::right, 9);
  t.column("copies", align::right, 9);
  t.column("overlap", align::right, 7);
  t.column("blocked", align::right, 9);
  t.column("syncs", align::right, 5);
  std::vector<const system_phase*> rows;
  for (const system_phase& p : r.phases) rows.push_back(&p);
  rows.push_back(&r.run);
  for (const system_phase* p : rows) {
    std::string name = p == &r.run ? std::string("(run)") : system_phase_label(p->name);
    if (name.size() > 14) {
      t.note(system_clip(name, 98));
      name.clear();
    }
    t.row({name, std::to_string(p->instances), system_ns(p->span_ns), system_share(p->idle_ns, p->span_ns),
           std::to_string(p->kernels), system_ns(p->kernel_ns), system_ns(p->copy_ns()),
           system_share(p->copy_overlapped_ns, p->copy_ns()), system_ns(p->host_blocked_ns),
           std::to_string(system_syncs(*p))});
    std::string notes = "    kernel mean " + system_ns(static_cast<std::uint64_t>(system_mean_ns(p->kernel_durations)));
    if (p->stream_gaps.total > 0)
      notes += "; stream gaps " + std::to_string(p->stream_gaps.total) + ", mean " +
               system_ns(static_cast<std::uint64_t>(system_mean_ns(p->stream_gaps)));
    if (p->graph_launches > 0)
      notes += "; graph launches " + std::to_string(p->graph_launches) + ", gap mean " +
               system_ns(static_cast<std::uint64_t>(system_mean_ns(p->graph_gaps)));
    if (p->communication_ns > 0) notes += "; communication " + system_share(p->communication_ns, p->kernel_ns);
    const std::string wrapped = wrap(notes, 98, 4);
    for (std::size_t at = 0; at < wrapped.size();) {
      std::size_t end = wrapped.find('\n', at);
      if (end == std::string::npos) end = wrapped.size();
      t.note(wrapped.substr(at, end - at));
      at = end + 1;
    }
  }
  return t.text("  ");
}

// The run's copies by direction and by host memory, with their bandwidth; "" when there were none.
NAPKIN_DETAIL_FUNC std::string system_copy_table(const system_phase& run) {
  using align = text_table::align;
  text_table t;
  t.column("copies", align::left, 10);
  t.column("count", align::right, 6);
  t.column("time", align::right, 9);
  t.column("bytes", align::right, 10);
  t.column("bandwidth", align::right, 11);
  const auto add = [&t](std::string name, const copy_totals& c) {
    if (c.count == 0) return;
    t.row({std::move(name), std::to_string(c.count), system_ns(c.ns), si(static_cast<double>(c.bytes), "B"),
           c.ns == 0 ? std::string("n/a")
                     : si(static_cast<double>(c.bytes) / (static_cast<double>(c.ns) * 1e-9), "B/s")});
  };
  for (std::size_t i = 0; i < all_copy_directions.size(); ++i)
    add(std::string(to_string(all_copy_directions[i])), run.copies_by_direction[i]);
  for (std::size_t i = 0; i < all_host_memories.size(); ++i)
    if (all_host_memories[i] != host_memory::none)
      add(std::string(to_string(all_host_memories[i])), run.copies_by_memory[i]);
  add("memset", run.memsets);
  return t.empty() ? std::string() : t.text("  ");
}

NAPKIN_DETAIL_FUNC std::string system_kernel_table(const system_report& r) {
  using align = text_table::align;
  text_table t;
  t.column("kernel", align::left, 40);
  t.column("count", align::right, 6);
  t.column("GPU time", align::right, 9);
  t.column("share", align::right, 6);
  t.column("phase", align::left, 0);
  for (std::size_t i = 0; i < r.kernels.size() && i < 10; ++i) {
    const kernel_time_share& k = r.kernels[i];
    t.row({system_clip(printable(k.name), 40), std::to_string(k.count), system_ns(k.gpu_ns), percent_of(k.share),
           system_clip(system_phase_label(k.top_phase), 27)});
  }
  return t.empty() ? std::string() : t.text("  ");
}
}  // namespace detail

NAPKIN_DETAIL_FUNC std::string to_text(const system_report& r) {
  std::string out = detail::system_run_text(r);
  out += "\n" + detail::system_phase_table(r);
  if (const std::string copies = detail::system_copy_table(r.run); !copies.empty()) out += "\n" + copies;
  out += "\n";
  if (r.findings.empty()) out += "  findings: none (no rule fired)\n";
  for (const system_finding& f : r.findings) {
    out += detail::system_wrapped("  [" + std::string(to_string(f.rule)) + "] " +
                                      detail::system_phase_label(f.phase) + ": " + f.evidence,
                                  4);
    out += detail::system_wrapped("    fix: " + f.advice, 8);
  }
  if (const std::string kernels = detail::system_kernel_table(r); !kernels.empty()) {
    out += "\n" + kernels;
    if (r.kernels.size() > 10) out += "  (" + std::to_string(r.kernels.size() - 10) + " more kernels)\n";
  }
  const next_target& n = r.next;
  out += "\n";
  if (n.kernel)
    out += detail::system_wrapped("  next: profile " + detail::system_clip(printable(*n.kernel), 80) + " (" + percent_of(n.share) +
                                      " of GPU time): " + n.reason,
                                  4);
  else
    out += detail::system_wrapped("  next: no kernel to profile yet: " + n.reason, 4);
  if (!n.how.empty()) out += detail::system_wrapped("    how: " + n.how, 8);
  return out;
}

NAPKIN_END_NAMESPACE
