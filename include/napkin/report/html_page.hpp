// SPDX-License-Identifier: Apache-2.0
// napkin/report/html_page.hpp — one self-contained HTML page per run: the kernels table (sortable by time),
// Speed-Of-Light bars per kernel like Nsight Compute's section (SM, Memory, DRAM, L1/TEX, L2), the two
// verdicts (sol_report::sol_table() and ncu_rule()) with their reasons, what the measurement cost, the
// roofline chart inline, and, given a baseline run, what `napkin diff` says of the two runs: napkin::diff()
// (napkin/report/compare.hpp) of their kernel-reports documents, with page.compare as its options: the
// outcome, each kernel's time change and status, every number beyond the threshold, the verdicts that
// changed, the kernels added and gone. Styles and the sorting script are inline: the page opens without a
// network. Each kernel's report sections (profiler/sections/: page.sections makes them) follow its bars
// (report/section_html.hpp). docs/reports-pictures.md shows one.
//
// Plain C++17, no CUDA; compiles with -fno-exceptions.
//
//   napkin::report_page page{"softmax", "H100 SXM5 80GB", prof.per_kernel(fn).kernels};
//   page.baseline = yesterdays_kernels;  // optional
//   page.compare.gate_fields = {"duration_ns"};  // optional: diff_options, as for napkin::diff
//   std::ofstream("report.html") << napkin::to_html(page);
#pragma once

#include "napkin/config.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/report/compare.hpp"
#include "napkin/report/roofline_chart.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "napkin/report/section_html.hpp"

NAPKIN_BEGIN_NAMESPACE

struct report_page {
  std::string title;
  std::string gpu;  // as the page names it; empty: the roofline chart's GPU, else the first kernel's chip
  std::vector<sol_report> kernels;
  std::optional<std::vector<sol_report>> baseline;  // an earlier run of the same kernels
  std::optional<roofline_chart> roofline;
  diff_options compare;  // how the run is compared with the baseline: napkin::diff()'s options
  // The report sections drawn under each kernel's bars and compared with the baseline's
  // (profiler/sections/sections.hpp; report/section_html.hpp draws them).
  section_makers sections = default_section_makers();
};

// One kernel against the baseline, as the page shows it: napkin::diff()'s answer for the kernel
// (napkin/report/compare.hpp), the same comparison `napkin diff OLD.json NEW.json` prints.
struct kernel_change {
  std::string name;                      // the diff's entity name: "k #2" for the second launch of k
  std::optional<double> old_ns, new_ns;  // durations; absent when not measured or not in that run
  std::optional<double> change_pct;      // (new - old) / old x 100: negative is faster
  change_status status = change_status::same;  // duration_ns's status: better is faster beyond the threshold
  bool regression = false;               // duration_ns regressed (worse, and gated by the diff options)
  std::string old_verdict, new_verdict;  // the SOL table's verdict, describe(sol_table().kind)
  bool in_baseline = false, in_run = false;
};

namespace detail {

// The page's rows from a diff of `baseline` and `run` (two documents of one kind; the diff matched their
// entities by name): the run's entities in its order, then those only the baseline has. `time_field` is the
// time each row shows: a kernel's duration_ns, a monitor row's mean_ns.
std::vector<kernel_change> kernel_changes(const report_document& baseline, const report_document& run,
                                          const report_diff& d, const char* time_field = "duration_ns");

// The page's comparison: napkin::diff of the two runs as kernel-reports documents, and its rows.
struct page_comparison {
  report_diff diff;
  std::vector<kernel_change> kernels;  // empty when the input is bad (diff.problems says why)
};

page_comparison compare_runs(const std::vector<sol_report>& baseline, const std::vector<sol_report>& run,
                             const diff_options& options,
                             const section_makers& makers = default_section_makers());

// The section "Against the baseline": diff()'s outcome, each kernel's time and SOL verdict old -> new, every
// number beyond the threshold (what `napkin diff` lists), every verdict that changed; or why the runs
// could not be compared. `entity` and `time` head the name and time columns ("Row", "Mean time").
std::string html_baseline_section(const page_comparison& c, const std::string& entity = "Kernel",
                                  const std::string& time_header = "Time");

// One SOL bar: the fill's width is the percentage of the track (clamped to 0..100; the text says the value).
std::string html_sol_bar(const char* key, const char* name, std::optional<double> pct);

const char* html_page_style();

// Sorts the kernels table by a numeric data- attribute of its rows; rows without the number go last.
const char* html_page_script();

}  // namespace detail

std::string to_html(const report_page& page);

void write_html(std::ostream& out, const report_page& page);

NAPKIN_END_NAMESPACE

#if !NAPKIN_SEPARATE_COMPILATION
#include "napkin/report/html_page_impl.hpp"
#endif
