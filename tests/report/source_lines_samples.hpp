// A PC-sampling result for the source-lines documents, page and reader tests: two functions made by
// aggregate_source_lines from sampled PCs whose offsets and lines are those of the recorded cubin
// (tests/profiler/data/source_lines_kernel.nvdisasm.txt: strided_sum's /*0010*/ is line 8, /*0060*/ and
// /*00a0*/ line 10), with sample counts chosen so that every share is a round number by hand; and a function
// of a module without line information (PCs only). "fixed" is the same after a fix of line 10's load: its
// long-scoreboard samples 900 -> 100.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "napkin/profiler/source_lines.hpp"

namespace source_lines_samples {

inline napkin::pc_record pc(const std::string& function, const std::string& symbol, std::uint64_t offset,
                            std::uint32_t line, std::vector<napkin::stall_samples> stalls) {
  napkin::pc_record r;
  r.function = function;
  r.symbol = symbol;
  r.pc_offset = offset;
  r.stalls = std::move(stalls);
  if (line != 0) r.where = {"source_lines_kernel.cu", "/work/tests/profiler/data", line};
  return r;
}

// strided_sum: line 10 = 980 samples (long_scoreboard 950, wait 20, selected 10; 850 not issued), line 8 = 20
// (wait 15, selected 5): 1000 in all. nolines: PC 0x100 = 250 (mio_throttle 200, barrier 50), PC 0x80 = 50
// (barrier 40, wait 10): 300.
inline napkin::source_lines_report report(std::uint64_t hot_load_stalls = 900, std::uint64_t not_issued = 850) {
  const std::vector<napkin::pc_record> records{
      pc("strided_sum", "strided_sum", 0xa0, 10,
         {{"long_scoreboard", hot_load_stalls}, {"wait", 20}, {"long_scoreboard_not_issued", not_issued}}),
      pc("strided_sum", "strided_sum", 0x60, 10, {{"long_scoreboard", 50}, {"selected", 10}}),
      pc("strided_sum", "strided_sum", 0x10, 8, {{"wait", 15}, {"selected", 5}}),
      pc("nolines", "_Z7nolinesPf", 0x100, 0, {{"mio_throttle", 200}, {"barrier", 50}}),
      pc("nolines", "_Z7nolinesPf", 0x80, 0, {{"barrier", 40}, {"wait", 10}}),
  };
  napkin::source_lines_report r;
  r.functions = napkin::aggregate_source_lines(records);
  r.cost.period_log2 = 11;
  r.cost.total_samples = 1400;
  r.cost.non_user_samples = 100;
  r.cost.pc_records = 5;
  r.cost.drains = 1;
  r.cost.setup_s = 0.002;
  r.cost.run_s = 0.3;
  r.cost.drain_s = 0.07;
  r.cost.correlate_s = 0.001;
  r.notes = {"no cubin for <nolines> & \"friends\""};
  return r;
}

// After the fix: PC 0xa0 = 120 samples (long_scoreboard 100, wait 20; 50 not issued), strided_sum 200 in all.
inline napkin::source_lines_report fixed() { return report(100, 50); }

}  // namespace source_lines_samples
