// SPDX-License-Identifier: Apache-2.0
// napkin/report/cross_rank.hpp — one table for a parallel job: each rank's GPU time per kernel or phase
// (rank_summary), put side by side (cross_rank_table) so that load imbalance and communication show.
//
// Per row (a kernel or phase name), over the ranks that have it:
//   - min, median and max of the rank's total GPU time; the median of an even count of ranks is the mean
//     of the two middle values (4 ranks at 1, 2, 3, 10 ms: median 2.5 ms);
//   - the slowest rank: the one with the max; on a tie every tied rank is listed, lowest first;
//   - imbalance = max / median: 1.00 is balanced, 1.25 says the slowest rank takes 25 % longer than the
//     typical one. The median, not the min, so that one rank with little work does not inflate it; absent
//     (null) when the median is 0;
//   - the ranks that lack the row. They are left out of min/median/max (a missing row is no work, not
//     zero time), and listed, because a kernel that runs on some ranks only is itself a finding.
// Per rank: GPU time split into communication (NCCL/NVSHMEM kernels, napkin/system/communication.hpp) and
// compute. From the rank's kernel rows when it has any; otherwise from its phase rows whose communication
// time is known; otherwise unknown. A row or rank with more than half its time in communication is flagged
// "mostly communication".
//
// Plain C++17, no dependency; bad input (duplicate ranks, a summary without a rank, a negative time)
// goes through napkin's failure path (validate_summaries returns it as text), and so do a world size above
// max_world_size and ranks that disagree on the world size (no "the larger wins"). Text within 100 columns.
// Time: n log n in the rows given (rows are matched across ranks through an ordered index, not pairwise),
// plus the missing-rank lists written.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"
#include "napkin/text/table.hpp"
#include "napkin/error.hpp"
#include "napkin/system/communication.hpp"

NAPKIN_BEGIN_NAMESPACE

// What a row is about.
enum class row_kind { kernel, phase };

constexpr std::string_view to_string(row_kind k) noexcept {
  switch (k) {
    case row_kind::kernel: return "kernel";
    case row_kind::phase: return "phase";
  }
  return "unknown";
}

// One kernel or phase on one rank: every launch (or occurrence) of that name summed.
struct rank_row {
  std::string name;
  row_kind by = row_kind::kernel;
  std::uint64_t launches = 0;
  double gpu_ns = 0;
  // Phase rows: the part of gpu_ns in communication kernels, when the source knows it. Kernel rows
  // ignore it: their name says whether they communicate.
  std::optional<double> communication_ns;
};

// The communication / compute split of a row: by name for a kernel, as given for a phase.
inline std::optional<time_split> split_of(const rank_row& r) {
  if (r.by == row_kind::kernel) {
    time_split s;
    s.add(r.name, r.gpu_ns);
    return s;
  }
  if (!r.communication_ns) return std::nullopt;
  return time_split{r.gpu_ns - *r.communication_ns, *r.communication_ns};
}

// The largest world size (and rank + 1) napkin accepts: each absent rank of the world size is an entry of
// the table, so a report that claims 10^12 ranks is refused rather than listed.
constexpr std::int64_t max_world_size = std::int64_t{1} << 20;

// Why a context's rank / world size cannot be a job's, or "" (`where` names the source).
inline std::string validate_rank_fields(const report_context& c, const std::string& where) {
  if (c.world_size && (*c.world_size < 1 || *c.world_size > max_world_size))
    return where + ": context.world_size " + std::to_string(*c.world_size) + " is outside 1.." +
           std::to_string(max_world_size) + ", napkin's limit for a job's ranks";
  if (c.rank && (*c.rank < 0 || *c.rank >= max_world_size))
    return where + ": context.rank " + std::to_string(*c.rank) + " is outside 0.." + std::to_string(max_world_size - 1) +
           ", napkin's limit for a job's ranks";
  return {};
}

// One rank's rows. The rank is context.rank (required: the table has no other way to tell ranks apart).
struct rank_summary {
  report_context context;
  std::vector<rank_row> rows;
};

struct rank_time {
  std::int64_t rank = 0;
  double gpu_ns = 0;
  std::uint64_t launches = 0;
};

// One name across the ranks.
struct cross_rank_row {
  std::string name;
  row_kind by = row_kind::kernel;
  std::vector<rank_time> ranks;              // the ranks that have the row, by rank
  std::vector<std::int64_t> missing_ranks;   // the job's ranks that do not
  double min_ns = 0, median_ns = 0, max_ns = 0;
  std::vector<std::int64_t> slowest_ranks;   // every rank at max_ns, lowest first
  std::optional<double> imbalance;           // max / median
  std::optional<time_split> split;           // summed over the ranks, when every rank's is known
  bool mostly_communication() const { return split && split->mostly_communication(); }
};

// One rank's communication / compute split.
struct rank_split {
  std::int64_t rank = 0;
  report_context context;
  double gpu_ns = 0;                // every row of the rank's preferred kind (kernels, else phases)
  std::optional<time_split> split;  // unknown when neither kernel rows nor phase splits are known
};

struct cross_rank_table {
  std::vector<std::int64_t> ranks;         // the ranks summarized, ascending
  std::vector<std::int64_t> absent_ranks;  // 0..world_size-1 without a summary (a world size was given)
  std::vector<cross_rank_row> rows;        // by max_ns, largest first
  std::vector<rank_split> per_rank;        // by rank
  std::vector<rank_summary> summaries;     // what the table was made from, by rank (the job document keeps it)
};

// The median of `v` (sorted here); the mean of the two middle values for an even count; 0 when empty.
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// Why the summaries cannot make a table, or "".
inline std::string validate_summaries(const std::vector<rank_summary>& summaries) {
  if (summaries.empty()) return "napkin: no rank summaries to put in a cross-rank table";
  std::set<std::int64_t> seen;
  const rank_summary* sized = nullptr;  // the first summary that gives a world size
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    const rank_summary& s = summaries[i];
    const std::string which = "summary " + std::to_string(i);
    if (!s.context.rank) return "napkin: " + which + " has no rank (context.rank)";
    const std::int64_t r = *s.context.rank;
    if (r < 0) return "napkin: " + which + " has a negative rank " + std::to_string(r);
    if (std::string bad = validate_rank_fields(s.context, "napkin: rank " + std::to_string(r)); !bad.empty()) return bad;
    if (s.context.world_size && sized && *sized->context.world_size != *s.context.world_size)
      return "napkin: ranks " + std::to_string(*sized->context.rank) + " and " + std::to_string(r) +
             " disagree on the world size (context.world_size " + std::to_string(*sized->context.world_size) + " and " +
             std::to_string(*s.context.world_size) + "): reports of different jobs?";
    if (s.context.world_size && !sized) sized = &s;
    if (!seen.insert(r).second) return "napkin: rank " + std::to_string(r) + " appears twice";
    if (s.context.world_size && r >= *s.context.world_size)
      return "napkin: rank " + std::to_string(r) + " is not below its world size " + std::to_string(*s.context.world_size);
    std::set<std::pair<row_kind, std::string_view>> names;  // of this rank's rows so far
    for (const rank_row& row : s.rows) {
      const std::string where = "rank " + std::to_string(r) + ", " + std::string(to_string(row.by)) + " '" + row.name + "'";
      if (!std::isfinite(row.gpu_ns) || row.gpu_ns < 0)
        return "napkin: " + where + ": GPU time must be finite and >= 0, got " + general(row.gpu_ns);
      if (row.communication_ns && !(*row.communication_ns >= 0 && *row.communication_ns <= row.gpu_ns))
        return "napkin: " + where + ": communication time must be within 0.." + general(row.gpu_ns) + " ns, got " +
               general(*row.communication_ns);
      if (!names.emplace(row.by, row.name).second) return "napkin: " + where + " appears twice";
    }
  }
  return {};
}

namespace detail {

inline rank_split split_of_rank(const rank_summary& s) {
  rank_split out{*s.context.rank, s.context, 0, std::nullopt};
  const bool has_kernels = std::any_of(s.rows.begin(), s.rows.end(), [](const rank_row& r) { return r.by == row_kind::kernel; });
  const row_kind kind = has_kernels ? row_kind::kernel : row_kind::phase;
  time_split total;
  bool known = has_kernels || std::any_of(s.rows.begin(), s.rows.end(), [](const rank_row& r) { return r.by == row_kind::phase; });
  for (const rank_row& r : s.rows) {
    if (r.by != kind) continue;
    out.gpu_ns += r.gpu_ns;
    const std::optional<time_split> part = split_of(r);
    if (!part) {
      known = false;
      continue;
    }
    total.compute_ns += part->compute_ns;
    total.communication_ns += part->communication_ns;
  }
  if (known) out.split = total;
  return out;
}

}  // namespace detail

// The table; bad summaries go through napkin's failure path (std::invalid_argument by default).
inline cross_rank_table make_cross_rank_table(std::vector<rank_summary> summaries) {
  if (std::string problem = validate_summaries(summaries); !problem.empty())
    detail::raise_input_error<std::invalid_argument>(std::move(problem));
  std::sort(summaries.begin(), summaries.end(),
            [](const rank_summary& a, const rank_summary& b) { return *a.context.rank < *b.context.rank; });
  cross_rank_table t;
  std::int64_t world = 0;  // one value, at most max_world_size: validate_summaries checked
  for (const rank_summary& s : summaries) {
    t.ranks.push_back(*s.context.rank);
    if (s.context.world_size) world = *s.context.world_size;
    t.per_rank.push_back(detail::split_of_rank(s));
  }
  for (std::int64_t r = 0; r < world; ++r)
    if (!std::binary_search(t.ranks.begin(), t.ranks.end(), r)) t.absent_ranks.push_back(r);
  // Every (name, kind), in the order first seen; each rank's rows go to theirs through the index, so the
  // ranks of a row come in rank order.
  std::map<std::pair<row_kind, std::string_view>, std::size_t> index;
  struct totals {
    std::vector<double> times;
    time_split split;
    bool split_known = true;
  };
  std::vector<totals> sums;
  for (const rank_summary& s : summaries)
    for (const rank_row& row : s.rows) {
      const auto [at, added] = index.emplace(std::make_pair(row.by, std::string_view(row.name)), t.rows.size());
      if (added) {
        t.rows.push_back({row.name, row.by, {}, {}, 0, 0, 0, {}, std::nullopt, std::nullopt});
        sums.emplace_back();
      }
      cross_rank_row& c = t.rows[at->second];
      totals& sum = sums[at->second];
      c.ranks.push_back({*s.context.rank, row.gpu_ns, row.launches});
      sum.times.push_back(row.gpu_ns);
      if (const std::optional<time_split> part = split_of(row)) {
        sum.split.compute_ns += part->compute_ns;
        sum.split.communication_ns += part->communication_ns;
      } else {
        sum.split_known = false;
      }
    }
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    cross_rank_row& c = t.rows[i];
    const totals& sum = sums[i];
    if (c.ranks.size() < t.ranks.size()) {  // both in rank order: the job's ranks that the row's lack
      std::size_t k = 0;
      for (std::int64_t r : t.ranks) {
        if (k < c.ranks.size() && c.ranks[k].rank == r) ++k;
        else c.missing_ranks.push_back(r);
      }
    }
    c.min_ns = *std::min_element(sum.times.begin(), sum.times.end());
    c.max_ns = *std::max_element(sum.times.begin(), sum.times.end());
    c.median_ns = median_of(sum.times);
    for (const rank_time& rt : c.ranks)
      if (rt.gpu_ns == c.max_ns) c.slowest_ranks.push_back(rt.rank);
    if (c.median_ns > 0) c.imbalance = c.max_ns / c.median_ns;
    if (sum.split_known) c.split = sum.split;
  }
  std::stable_sort(t.rows.begin(), t.rows.end(),
                   [](const cross_rank_row& a, const cross_rank_row& b) { return a.max_ns > b.max_ns; });
  t.summaries = std::move(summaries);
  return t;
}

namespace detail {

inline std::string cross_ns(double ns) { return duration(ns * 1e-9); }

inline std::string rank_list(const std::vector<std::int64_t>& ranks, std::size_t at_most = 12) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < at_most; ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > at_most) out += " and " + std::to_string(ranks.size() - at_most) + " more";
  return out;
}

// "3", or "2 +1" when one more rank ties.
inline std::string slowest_text(const std::vector<std::int64_t>& ranks) {
  if (ranks.empty()) return "-";
  return std::to_string(ranks.front()) + (ranks.size() > 1 ? " +" + std::to_string(ranks.size() - 1) : "");
}

inline std::string split_note(const time_split& s) {
  return percent_of(s.communication_fraction()) + " of GPU time in NCCL/NVSHMEM kernels" +
         (s.mostly_communication() ? ": mostly communication" : "");
}

}  // namespace detail

// Two text_tables, each column at least as wide as its widest usual cell, so that the table keeps its layout:
// 2 + 26 name + 2 + 6 kind + 2 + 6 ranks + 3 x (2 + 9) times + 2 + 7 slowest + 2 + 7 max/median = 95 columns.
inline std::string to_text(const cross_rank_table& t) {
  using align = text_table::align;
  std::string out = "napkin cross-rank table: " + std::to_string(t.ranks.size()) +
                    (t.ranks.size() == 1 ? " rank" : " ranks") + " (" + detail::rank_list(t.ranks) + ")\n";
  if (!t.absent_ranks.empty())
    out += "  no report from ranks " + detail::rank_list(t.absent_ranks) + " of the job's world size\n";
  out += "  GPU time per rank: min / median (even count: mean of the middle two) / max; max/median = imbalance\n";
  text_table rows;
  rows.column("kernel or phase", align::left, 26);
  rows.column("kind", align::left, 6);
  rows.column("ranks", align::right, 6);
  for (const char* h : {"min", "median", "max"}) rows.column(h, align::right, 9);
  rows.column("slowest", align::right, 7);
  rows.column("max/med", align::right, 7);
  for (const cross_rank_row& r : t.rows) {
    std::string name = r.name.empty() ? "(no phase)" : printable(r.name);
    if (name.size() > 96) name = name.substr(0, 93) + "...";
    if (name.size() > 26) {  // a long name gets its own line; the numbers follow on the next
      rows.note(name);
      name.clear();
    }
    rows.row({name, std::string(to_string(r.by)),
              std::to_string(r.ranks.size()) + "/" + std::to_string(t.ranks.size()), detail::cross_ns(r.min_ns),
              detail::cross_ns(r.median_ns), detail::cross_ns(r.max_ns), detail::slowest_text(r.slowest_ranks),
              r.imbalance ? fixed(*r.imbalance, 2) : "n/a"});
    if (!r.missing_ranks.empty()) rows.note("    missing on ranks " + detail::rank_list(r.missing_ranks));
    if (r.slowest_ranks.size() > 1) rows.note("    slowest ranks tie: " + detail::rank_list(r.slowest_ranks));
    if (r.split && r.split->communication_ns > 0) rows.note("    " + detail::split_note(*r.split));
  }
  out += "\n" + rows.text("  ");
  text_table ranks;
  ranks.column("rank", align::left, 4);
  ranks.column("host", align::left, 22);
  for (const char* h : {"GPU time", "compute", "comm"}) ranks.column(h, align::right, 9);
  ranks.column("comm %", align::right, 6);
  ranks.column("", align::left);  // "mostly communication" where it is
  for (const rank_split& s : t.per_rank) {
    std::string host = printable(s.context.host.value_or("?"));
    if (host.size() > 22) host = host.substr(0, 19) + "...";
    if (s.split)
      ranks.row({std::to_string(s.rank), host, detail::cross_ns(s.gpu_ns), detail::cross_ns(s.split->compute_ns),
                 detail::cross_ns(s.split->communication_ns), percent_of(s.split->communication_fraction()),
                 s.split->mostly_communication() ? "mostly communication" : ""});
    else
      ranks.row({std::to_string(s.rank), host, detail::cross_ns(s.gpu_ns), "n/a", "n/a", "n/a", ""});
  }
  out += "\n" + ranks.text("  ");
  return out;
}

NAPKIN_END_NAMESPACE
