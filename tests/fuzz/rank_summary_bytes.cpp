// Fuzz target: the MPI rank-summary decoder (napkin/report/rank_summary_bytes.hpp, what napkin::mpi::gather's
// root reads from every rank), fed the input as one rank's bytes. Invariants: no read past the input and no
// allocation beyond its size (the sanitizers and -rss_limit_mb see those); what decodes encodes and decodes
// again to the same bytes; a decoded summary is either refused by validate_summaries with a reason, or makes
// a cross-rank table whose text holds no control character but line breaks.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/report/cross_rank.hpp"
#include "napkin/report/rank_summary_bytes.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string problem;
  const napkin::rank_summary s = napkin::summary_from_bytes(reinterpret_cast<const char*>(data), size, problem);
  if (!problem.empty()) {
    fuzz::require(s.rows.empty() && s.context.empty(), "a refused summary came back with content");
    return 0;
  }
  fuzz::require(s.rows.size() <= size / napkin::detail::summary_row_bytes, "more rows than the bytes can hold");
  const std::string again = napkin::summary_bytes(s);
  const napkin::rank_summary back = napkin::summary_from_bytes(again.data(), again.size(), problem);
  fuzz::require(problem.empty(), "napkin refused a summary it wrote itself");
  fuzz::require(napkin::summary_bytes(back) == again, "a summary changed on its way through the bytes");
  std::vector<napkin::rank_summary> job{s};
  if (!napkin::validate_summaries(job).empty()) return 0;
  const napkin::cross_rank_table t = napkin::make_cross_rank_table(std::move(job));
  fuzz::require(t.ranks.size() == 1, "one summary, not one rank");
  fuzz::require(fuzz::no_control_characters(napkin::to_text(t)), "a control character in the cross-rank table's text");
  return 0;
}
