// Report sections for the tests, made the way issue 28's sections will be: makers that read their numbers
// from a report's collected `values` (under made-up metric names, not napkin's or ncu's) and return nothing
// when a metric is missing. A "memory" section (hit rate, sectors per request, an optional L2 hit rate, one
// number without a direction) and a "warp_state" section of shares (three stall reasons' cycles, written as
// their share of the three, and the warp cycles per issued instruction, which is no share). Every expected
// number in the tests comes from the inputs set here.
#pragma once

#include <optional>
#include <string>

#include "napkin/profiler/sections/sections.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/text/numbers.hpp"

namespace section_samples {

inline constexpr const char* l1_hit_rate = "test__l1_hit_rate.pct";
inline constexpr const char* load_sectors = "test__global_load_sectors.sum";
inline constexpr const char* load_requests = "test__global_load_requests.sum";
inline constexpr const char* l2_hit_rate = "test__l2_hit_rate.pct";  // optional: null when missing
inline constexpr const char* stall_long_scoreboard = "test__stall_long_scoreboard.sum";
inline constexpr const char* stall_barrier = "test__stall_barrier.sum";
inline constexpr const char* stall_mio = "test__stall_mio_throttle.sum";
inline constexpr const char* warp_cycles = "test__warp_cycles_per_issued.ratio";  // optional
inline constexpr double warp_cycles_per_issued = 12.5;  // what with_metrics() sets

inline std::optional<napkin::report_section> memory(const napkin::sol_report& r) {
  const auto hit = r.get(l1_hit_rate), sectors = r.get(load_sectors), requests = r.get(load_requests);
  if (!hit || !sectors || !requests || *requests <= 0) return std::nullopt;
  napkin::report_section s;
  s.name = "memory";
  s.title = "Memory chart";
  const double per_request = *sectors / *requests;
  s.numbers = {{"l1_hit_rate_pct", "L1/TEX hit rate", *hit, "%", napkin::better::higher},
               {"l2_hit_rate_pct", "L2 hit rate", r.get(l2_hit_rate), "%", napkin::better::higher},
               {"global_load_sectors_per_request", "Global load sectors per request", per_request, "sectors/request",
                napkin::better::lower},
               {"global_load_requests", "Global load requests", *requests, "", napkin::better::none}};
  s.findings = {"global loads read " + napkin::significant(per_request) + " sectors per request"};
  return s;
}

inline std::optional<napkin::report_section> warp_state(const napkin::sol_report& r) {
  const auto lsb = r.get(stall_long_scoreboard), bar = r.get(stall_barrier), mio = r.get(stall_mio);
  if (!lsb || !bar || !mio) return std::nullopt;
  const double whole = *lsb + *bar + *mio;
  if (whole <= 0) return std::nullopt;
  napkin::report_section s;
  s.name = "warp_state";
  s.title = "Warp state";
  s.shares = true;
  // Made in a fixed order, not sorted: the renderers sort shares. The first number is no share: it is drawn
  // before them and has a direction.
  s.numbers = {{"warp_cycles_per_issued_instruction", "Warp cycles per issued instruction", r.get(warp_cycles),
                "cycles", napkin::better::lower},
               {"barrier_share_pct", "Barrier", *bar / whole * 100, "%", napkin::better::none},
               {"long_scoreboard_share_pct", "Long scoreboard", *lsb / whole * 100, "%", napkin::better::none},
               {"mio_throttle_share_pct", "MIO throttle", *mio / whole * 100, "%", napkin::better::none}};
  s.findings = {"top stall: long scoreboard"};
  return s;
}

inline const napkin::section_makers& makers() {
  static const napkin::section_makers m{&memory, &warp_state};
  return m;
}

// `r` with the metrics both makers read.
inline napkin::sol_report with_metrics(napkin::sol_report r, double hit_pct, double sectors, double requests,
                                       double lsb, double bar, double mio) {
  r.values[l1_hit_rate] = hit_pct;
  r.values[load_sectors] = sectors;
  r.values[load_requests] = requests;
  r.values[stall_long_scoreboard] = lsb;
  r.values[stall_barrier] = bar;
  r.values[stall_mio] = mio;
  r.values[warp_cycles] = warp_cycles_per_issued;
  return r;
}

}  // namespace section_samples
