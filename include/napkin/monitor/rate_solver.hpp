// SPDX-License-Identifier: Apache-2.0
// napkin/monitor/rate_solver.hpp — each kernel class's own readings, solved from the windows it shared with others, in
// bounded memory. Plain C++17; no CUDA or CUPTI. Model, thresholds and a worked example: docs/monitor.md, "The rate
// solve".
//
// A window w of width W_w reads r_w (per metric). Kernel class k (one kernel name under one NVTX range stack) ran o_wk
// ns in it. The model: r_w = sum_k (o_wk / W_w) x_k (+ (idle_w / W_w) x_idle under idle_model::time_share, where the
// idle rate is one more unknown; 0 under no_work_when_idle, whose windows without a kernel are then left out), with x_k
// >= 0 the class's own rate. Per metric the solver keeps the normal equations G = A^T A, b = A^T r and r^T r over the
// windows, so memory is fixed by the class cap, not by run time; solve() runs Lawson–Hanson non-negative least squares
// on them. A class alone in every window it ran in gets sum(r) / sum(share) over them instead: its readings' mean over
// its own time, which is ncu's figure and attribution's mean also when its rate varies within a launch (least squares
// weights its full windows by 1 and its partial edge windows by share^2). A class is resolved when its column is not (nearly) a combination of others (collinearity, the variance
// inflation G_kk (G^-1)_kk, at most max_collinearity), it was seen in min_windows windows or was alone in all of its
// windows, and the standard error of every percentage, sqrt(s^2 (G^-1)_kk) with s^2 the residual per degree of freedom, is at most
// max_standard_error_pct points. Classes past the cap share one column ("the rest"), and are reported as
// blended.
#pragma once

#include "napkin/config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/monitor/nnls.hpp"
#include "napkin/monitor/rate_solution.hpp"
#include "napkin/monitor/rate_status.hpp"
#include "napkin/monitor/sample.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

// The solver's value types (rate_metric, rate_solver_options, warp_launch_excess, class_rate, rate_solution) are
// in rate_solution.hpp.

namespace detail {
// A class's key (kernel name, phase path) looked up by reference: the map's own keys are copies.
struct class_key_ref {
  const std::string& name;
  const std::vector<std::string>& phase;
};
struct class_key_less {
  using is_transparent = void;
  using key = std::pair<std::string, std::vector<std::string>>;
  bool operator()(const key& a, const key& b) const { return a < b; }
  bool operator()(const key& a, const class_key_ref& b) const {
    return a.first < b.name || (a.first == b.name && a.second < b.phase);
  }
  bool operator()(const class_key_ref& a, const key& b) const {
    return a.name < b.first || (a.name == b.first && a.phase < b.second);
  }
};
}  // namespace detail

class rate_solver {
 public:
  // `solve_idle_rate`: idle_model::time_share (the idle time is one more unknown); false under no_work_when_idle (the
  // idle rate is 0 and windows without a kernel are left out).
  explicit rate_solver(bool solve_idle_rate = false, rate_solver_options options = {})
      : idle_(solve_idle_rate), options_(options), n_(options.max_classes + 2) {
    if (options_.max_classes == 0)
      detail::raise_input_error<std::invalid_argument>("napkin: rate_solver needs max_classes >= 1");
    for (metric_sums& m : metrics_) {
      m.g.assign(n_ * n_, 0.0);
      m.b.assign(n_, 0.0);
      m.alone_r.assign(n_, 0.0);
      m.alone_share.assign(n_, 0.0);
    }
    stats_.assign(n_, class_stats{});
  }

  // The column of (name, phase): its own while under the cap, else the shared "rest" column.
  std::size_t class_of(const std::string& name, const std::vector<std::string>& phase) {
    const auto it = index_.find(detail::class_key_ref{name, phase});  // no copy of the name: once per kernel
    if (it != index_.end()) return it->second;
    if (index_.size() < options_.max_classes) {
      const std::size_t column = index_.size();
      index_.emplace(std::make_pair(name, phase), column);
      return column;
    }
    const std::pair<std::string, std::vector<std::string>> key{name, phase};
    if (std::find(blended_.begin(), blended_.end(), key) != blended_.end()) return rest_column();
    if (blended_.size() < options_.max_classes)
      blended_.push_back(key);  // named, up to a bound
    else
      more_blended_ = true;
    return rest_column();
  }

  // A launch of class `column`: the warps its grid holds (0: unknown) and its duration. Their sum over the class's
  // launches, with the clock its windows ran at, says how much the class's instruction counts are warp launches.
  void add_launch(std::size_t column, std::uint64_t warps, std::uint64_t ns) {
    if (warps == 0 || ns == 0 || column >= stats_.size()) return;
    stats_[column].warps += warps;
    stats_[column].launch_ns += ns;
  }

  // One kept window: its sample, the time each class ran in it (a class may appear more than once) and the time at
  // least one kernel ran.
  void add_window(const pm_sample& s, const std::vector<std::pair<std::size_t, std::uint64_t>>& overlaps,
                  std::uint64_t busy_ns) {
    const double width = static_cast<double>(s.duration_ns());
    std::vector<std::pair<std::size_t, double>> a;  // (column, share of the window)
    for (const auto& [k, ns] : overlaps) {
      if (ns == 0) continue;
      auto it = std::find_if(a.begin(), a.end(), [k = k](const auto& e) { return e.first == k; });
      if (it == a.end()) a.emplace_back(k, 0.0), it = a.end() - 1;
      it->second += static_cast<double>(ns) / width;
    }
    const std::uint64_t idle_ns = s.duration_ns() - std::min(busy_ns, s.duration_ns());
    if (a.empty() && !idle_) return;  // no kernel, no idle unknown: nothing to learn
    if (idle_ && idle_ns > 0) a.emplace_back(idle_column(), static_cast<double>(idle_ns) / width);
    const bool alone = a.size() == 1;
    const bool clocked = s.elapsed_cycles && *s.elapsed_cycles > 0;  // the clock the window ran at
    for (const auto& [k, share] : a) {
      ++stats_[k].windows;
      const auto ns = static_cast<std::uint64_t>(share * width + 0.5);
      stats_[k].sampled_ns += ns;
      if (alone) stats_[k].solo_ns += ns;
      if (clocked) stats_[k].clock_cycles += share * *s.elapsed_cycles, stats_[k].clock_ns += share * width;
    }
    // SM % is a maximum over its inputs, and a maximum of window means is not the time-weighted sum of each
    // kernel's maximum: where the inputs were sampled, they are solved (each additive) and SM % is not.
    const bool inputs = std::any_of(s.sm_inputs.begin(), s.sm_inputs.end(), [](const auto& v) { return v.has_value(); });
    std::array<std::optional<double>, solved_metric_count> r{inputs ? std::nullopt : s.sm_pct, s.l1tex_pct,
                                                              s.l2_slices_pct, s.dram_pct};
    if (s.dram_read_bytes) r[4] = *s.dram_read_bytes / width;
    if (s.dram_write_bytes) r[5] = *s.dram_write_bytes / width;
    for (std::size_t i = 0; i < sm_input_count; ++i) r[rate_metric_count + i] = s.sm_inputs[i];
    for (std::size_t i = 0; i < l1_wavefront_count; ++i) r[rate_metric_count + sm_input_count + i] = s.l1_wavefronts[i];
    for (std::size_t m = 0; m < solved_metric_count; ++m) {
      if (!r[m]) continue;
      metric_sums& t = metrics_[m];
      ++t.windows;
      t.rr += *r[m] * *r[m];
      for (const auto& [i, ai] : a) {
        t.b[i] += ai * *r[m];
        for (const auto& [j, aj] : a) t.g[i * n_ + j] += ai * aj;
      }
      if (alone) {  // the alone-class mean: sum(r) / sum(share) (an H100's l1_reread, alone in 200 us windows: least
                    // squares read 73 % where ncu and its own time mean say 67 %)
        t.alone_r[a.front().first] += *r[m];
        t.alone_share[a.front().first] += a.front().second;
      }
    }
    ++windows_;
  }

  // What the solver holds, in bytes: fixed by the class cap, whatever the number of windows.
  std::size_t memory_bytes() const {
    std::size_t bytes = sizeof(*this) + stats_.capacity() * sizeof(class_stats);
    for (const metric_sums& m : metrics_)
      bytes += (m.g.capacity() + m.b.capacity() + m.alone_r.capacity() + m.alone_share.capacity()) * sizeof(double);
    for (const auto& [key, i] : index_) bytes += key.first.capacity() + key.second.size() * sizeof(std::string) + 64;
    for (const auto& key : blended_) bytes += key.first.capacity() + key.second.size() * sizeof(std::string) + 64;
    return bytes;
  }
  std::size_t classes() const { return index_.size(); }
  // Classes past the cap that are named (at most max_classes); more_blended(): there were others too.
  std::uint64_t blended_classes() const { return blended_.size(); }
  bool more_blended() const { return more_blended_; }
  std::uint64_t windows() const { return windows_; }
  const rate_solver_options& options() const { return options_; }

  rate_solution solve() const;

 private:
  struct metric_sums {
    std::vector<double> g, b, alone_r, alone_share;
    double rr = 0;
    std::uint64_t windows = 0;
  };
  struct class_stats {
    std::uint64_t windows = 0, sampled_ns = 0, solo_ns = 0;
    std::uint64_t warps = 0, launch_ns = 0;  // over the launches whose warps are known (add_launch)
    double clock_cycles = 0, clock_ns = 0;   // the clock of its windows, each weighted by its share of them
  };
  struct metric_fit {
    std::vector<double> x, se, vif;
    std::vector<std::size_t> partner;
    std::uint64_t dof = 0;
  };
  static constexpr std::size_t solved_metric_count = rate_metric_count + sm_input_count + l1_wavefront_count;
  using metric_fits = std::array<metric_fit, solved_metric_count>;
  std::size_t rest_column() const { return options_.max_classes; }
  std::size_t idle_column() const { return options_.max_classes + 1; }

  metric_fit fit(const metric_sums& m) const;
  class_rate judge(std::size_t k, const metric_fits& fits, const std::vector<std::size_t>& lead) const;
  void sm_from_inputs(metric_fits& fits, std::vector<std::size_t>& lead) const;
  double warps_per_sm_cycle(std::size_t k) const;
  std::string column_name(std::size_t k) const;

  bool idle_;
  rate_solver_options options_;
  std::size_t n_;
  std::array<metric_sums, solved_metric_count> metrics_;
  std::vector<class_stats> stats_;
  std::map<std::pair<std::string, std::vector<std::string>>, std::size_t, detail::class_key_less> index_;
  std::vector<std::pair<std::string, std::vector<std::string>>> blended_;  // named past the cap
  bool more_blended_ = false;
  std::uint64_t windows_ = 0;
};

inline rate_solver::metric_fit rate_solver::fit(const metric_sums& m) const {
  metric_fit f;
  f.x.assign(n_, 0.0);
  f.se.assign(n_, -1.0);
  f.vif.assign(n_, 0.0);
  f.partner.assign(n_, n_);
  std::vector<std::size_t> cols;
  for (std::size_t k = 0; k < n_; ++k)
    if (m.g[k * n_ + k] > 0) cols.push_back(k);
  const std::size_t p = cols.size();
  if (p == 0) return f;
  std::vector<double> g(p * p), b(p);
  for (std::size_t i = 0; i < p; ++i) {
    b[i] = m.b[cols[i]];
    for (std::size_t j = 0; j < p; ++j) g[i * p + j] = m.g[cols[i] * n_ + cols[j]];
  }
  const std::vector<double> x = detail::rate_nnls(g, b, p);
  double rss = m.rr;  // r'r - 2 x'b + x'Gx
  for (std::size_t i = 0; i < p; ++i) {
    rss -= 2 * x[i] * b[i];
    for (std::size_t j = 0; j < p; ++j) rss += x[i] * g[i * p + j] * x[j];
  }
  rss = std::max(rss, 0.0);
  f.dof = m.windows > p ? m.windows - p : 0;
  // (G + eps diag G)^-1: a dependent column's inflation comes out near 1/eps instead of failing.
  std::vector<double> h = g;
  for (std::size_t i = 0; i < p; ++i) h[i * p + i] *= 1 + 1e-10;
  const bool ok = detail::rate_cholesky(h, p);
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t k = cols[i];
    f.x[k] = x[i];
    // Alone in every window (its column shares no window with another): the mean over its own time instead.
    const class_stats& st = stats_[k];
    if (m.alone_share[k] > 0 && st.solo_ns * 1000 >= st.sampled_ns * 999) f.x[k] = m.alone_r[k] / m.alone_share[k];
    double best = -1;
    for (std::size_t j = 0; j < p; ++j) {
      if (j == i) continue;
      const double c = g[i * p + j] / std::sqrt(g[i * p + i] * g[j * p + j]);
      if (c > best) best = c, f.partner[k] = cols[j];
    }
    if (!ok) {
      f.vif[k] = 1e300;
      continue;
    }
    std::vector<double> e(p, 0.0);
    e[i] = 1;
    const double inv_kk = detail::rate_cholesky_solve(h, p, e)[i];
    f.vif[k] = g[i * p + i] * inv_kk;
    if (f.dof > 0) f.se[k] = std::sqrt(rss / static_cast<double>(f.dof) * inv_kk);
  }
  return f;
}

inline std::string rate_solver::column_name(std::size_t k) const {
  if (k == idle_column()) return "(idle time)";
  if (k == rest_column()) return "(the classes past the cap)";
  for (const auto& [key, i] : index_)
    if (i == k) return key.second.empty() ? key.first : key.first + " in " + phase_path(key.second);
  return "?";
}

// The warps class k launched per SM cycle of its kernels' time, at the clock of its own windows: 0 when its
// launches' warps, that clock or the SM count are unknown.
inline double rate_solver::warps_per_sm_cycle(std::size_t k) const {
  const class_stats& s = stats_[k];
  if (options_.sm_count == 0 || s.launch_ns == 0 || !(s.clock_ns > 0) || !(s.clock_cycles > 0)) return 0;
  const double cycles_per_ns = s.clock_cycles / s.clock_ns;
  return static_cast<double>(s.warps) /
         (static_cast<double>(s.launch_ns) * cycles_per_ns * static_cast<double>(options_.sm_count));
}

// SM % from its inputs (docs/monitor.md): in each column whose windows carried inputs, fits[0] becomes the largest
// solved input, with the worst error and collinearity of the inputs within 3 points of it (any of them could be the
// true maximum); other columns keep the fitted sampled SM %. `lead`: each column's leading input (sm_input_count:
// none). SM % is then the least it can be: the instruction rate and the ALU pipe less warp_launch_excess at the
// class's warps per cycle, where those are known. fits[sm_upper_pct] becomes the most it can be, where that is
// more: the largest solved input, or the larger solved wavefront rate where the windows carried those (with its
// error).
inline void rate_solver::sm_from_inputs(metric_fits& fits, std::vector<std::size_t>& lead) const {
  lead.assign(n_, sm_input_count);
  metric_fit& sm = fits[0];
  if (sm.x.empty()) {
    sm.x.assign(n_, 0.0);
    sm.se.assign(n_, -1.0);
    sm.vif.assign(n_, 0.0);
    sm.partner.assign(n_, n_);
  }
  const auto input = [&](std::size_t i) -> const metric_fit& { return fits[rate_metric_count + i]; };
  const auto present = [&](std::size_t i, std::size_t k) { return !input(i).x.empty() && input(i).vif[k] > 0; };
  for (std::size_t k = 0; k < n_; ++k) {
    // Each input less what PM sampling counts per warp launched (percent of the input's peak): the least it can
    // be. The lead and the error are the lowered inputs'; the upper end is the largest input as sampled.
    const double warps = warps_per_sm_cycle(k);
    std::array<double, sm_input_count> lowered{};
    std::size_t raw_lead = sm_input_count;
    for (std::size_t i = 0; i < sm_input_count; ++i) {
      if (!present(i, k)) continue;
      lowered[i] = input(i).x[k];
      if (i == 0) lowered[i] -= warp_launch_excess::instructions * warps / 4.0 * 100.0;
      if (i == 1) lowered[i] -= warp_launch_excess::alu_pipe * warps / 2.0 * 100.0;
      if (lead[k] == sm_input_count || lowered[i] > lowered[lead[k]]) lead[k] = i;
      if (raw_lead == sm_input_count || input(i).x[k] > input(raw_lead).x[k]) raw_lead = i;
    }
    if (lead[k] == sm_input_count) continue;
    const double least = std::max(lowered[lead[k]], 0.0), best = input(raw_lead).x[k];
    sm.x[k] = least, sm.se[k] = 0, sm.vif[k] = 0, sm.partner[k] = n_;
    for (std::size_t i = 0; i < sm_input_count; ++i) {
      const metric_fit& f = input(i);
      if (!present(i, k) || lowered[i] < least - 3.0) continue;
      if (f.vif[k] > sm.vif[k]) sm.vif[k] = f.vif[k], sm.partner[k] = f.partner[k];
      sm.se[k] = f.se[k] < 0 || sm.se[k] < 0 ? -1.0 : std::max(sm.se[k], f.se[k]);
    }
    metric_fit& upper = fits[static_cast<std::size_t>(rate_metric::sm_upper_pct)];
    const metric_fit* wave = nullptr;
    for (std::size_t i = 0; i < l1_wavefront_count; ++i) {
      const metric_fit& f = fits[rate_metric_count + sm_input_count + i];
      if (!f.x.empty() && f.vif[k] > 0 && (wave == nullptr || f.x[k] > wave->x[k])) wave = &f;
    }
    if ((wave == nullptr && least >= best) || upper.x.size() != n_) continue;
    const bool wave_leads = wave != nullptr && wave->x[k] > best;
    upper.x[k] = wave_leads ? wave->x[k] : best;
    upper.se[k] = wave_leads ? wave->se[k] : input(raw_lead).se[k];
    upper.vif[k] = std::max(sm.vif[k], 1.0);  // present (judge reads a value where vif > 0)
    upper.partner[k] = n_;
  }
}

inline class_rate rate_solver::judge(std::size_t k, const metric_fits& fits, const std::vector<std::size_t>& lead) const {
  class_rate c;
  const class_stats& s = stats_[k];
  c.windows = s.windows;
  c.sampled_ns = s.sampled_ns;
  if (s.windows == 0) {
    c.status = rate_status::not_sampled;
    c.reason = "in no kept window";
    return c;
  }
  c.solo_share = static_cast<double>(s.solo_ns) / static_cast<double>(std::max<std::uint64_t>(s.sampled_ns, 1));
  const bool alone = *c.solo_share >= 0.999;
  double vif = 0, se = 0;
  std::size_t partner = n_;
  bool se_known = true, any = false;
  if (lead[k] < sm_input_count) c.sm_lead_input = lead[k];
  for (std::size_t m = 0; m < rate_metric_count; ++m) {
    const metric_fit& f = fits[m];
    if (f.x.empty() || !(f.vif[k] > 0)) continue;  // the metric was never read while k ran
    c.value[m] = f.x[k];
    if (f.se[k] >= 0) c.standard_error[m] = f.se[k];
    if (m >= rate_pct_metrics) continue;
    any = true;
    if (f.vif[k] > vif) vif = f.vif[k], partner = f.partner[k];
    if (f.se[k] >= 0)
      se = std::max(se, f.se[k]);
    else
      se_known = false;
  }
  if (any) c.collinearity = std::min(vif, 1e12);
  const auto fail = [&](rate_status st, std::string why) {
    c.status = st;
    c.reason = std::move(why);
    c.value.fill(std::nullopt);
    c.sm_lead_input.reset();
    return c;
  };
  if (!any) return fail(rate_status::not_sampled, "no percentage was read while it ran");
  if (k == rest_column())
    return fail(rate_status::blended, "one of " + std::to_string(blended_classes()) + (more_blended_ ? "+" : "") +
                                          " kernel classes past the cap of " + std::to_string(options_.max_classes) +
                                          ": solved together, a blend");
  if (vif > options_.max_collinearity)
    return fail(rate_status::collinear,
                "always ran with " + (partner < n_ ? column_name(partner) : std::string("others")) +
                    " in nearly the same proportion (variance inflation " +
                    (*c.collinearity > 1e6 ? std::string("over 10^6") : significant(*c.collinearity)) + " > " +
                    significant(options_.max_collinearity) + ")");
  // Alone in every window, the readings are its own, from however many windows; but their spread still counts:
  // an H200's 0.75 ms copy alone in 2 kept windows read SM 3.1 points high with a standard error of 1.9 points
  // (docs/monitor.md), so the error limit holds for every class.
  if (!alone && s.windows < options_.min_windows)
    return fail(rate_status::too_few_windows, std::to_string(s.windows) + " windows shared with other kernels (" +
                                                  std::to_string(options_.min_windows) + " needed)");
  if (!alone && !se_known)
    return fail(rate_status::too_few_windows, "no more windows than unknowns: its error cannot be estimated");
  if (se_known && se > options_.max_standard_error_pct)
    return fail(rate_status::imprecise, "standard error " + fixed(se, 1) + " points > " +
                                            fixed(options_.max_standard_error_pct, 1));
  c.status = rate_status::resolved;
  c.reason = alone ? "alone in every window it ran in" : "solved from " + std::to_string(s.windows) + " windows";
  if (c.sm_lead_input) c.reason += std::string("; SM % led by the ") + sm_input_names[*c.sm_lead_input];
  return c;
}

inline rate_solution rate_solver::solve() const {
  metric_fits fits;
  for (std::size_t m = 0; m < solved_metric_count; ++m) fits[m] = fit(metrics_[m]);
  std::vector<std::size_t> lead;
  sm_from_inputs(fits, lead);
  rate_solution out;
  out.windows = windows_;
  out.blended_classes = blended_classes();
  std::vector<std::pair<std::size_t, const std::pair<std::string, std::vector<std::string>>*>> order;
  for (const auto& e : index_) order.emplace_back(e.second, &e.first);
  std::sort(order.begin(), order.end());
  for (const auto& [k, key] : order) {
    out.classes.push_back(judge(k, fits, lead));
    out.classes.back().name = key->first;
    out.classes.back().phase = key->second;
  }
  if (blended_classes() > 0) {
    const class_rate rest = judge(rest_column(), fits, lead);
    for (const auto& key : blended_) {
      out.classes.push_back(rest);
      out.classes.back().name = key.first;
      out.classes.back().phase = key.second;
    }
  }
  if (idle_ && fits[0].vif[idle_column()] > 0) out.idle_value_sm_pct = fits[0].x[idle_column()];
  return out;
}

NAPKIN_END_NAMESPACE
