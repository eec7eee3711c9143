// Fuzz target: `napkin merge DIR` past the walk of the folder (tools/napkin/merge.hpp's merge_files, which
// the tool calls with the folder's *.json): the input, split at NUL bytes, is up to four rank files, named
// rank0.json, step.rank1.json, rank2.JSON and other.json (so that ranks come from documents and from names),
// read from memory. Bad input must come back as a usage_error or napkin's std::invalid_argument, never a
// crash, a hang or an allocation beyond the input's size. Whatever merges is a table whose numbers hold:
// one rank per merged file, ascending and unique; per row min <= median <= max, every rank present or
// missing, the slowest rank at the max; the text free of control characters; the job document read back.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "merge.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 256 * 1024) return 0;  // rank files, not a memory test
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  static const char* const names[] = {"fuzz/rank0.json", "fuzz/step.rank1.json", "fuzz/rank2.JSON", "fuzz/other.json"};
  std::map<std::string, std::string_view> files;  // by name, as the tool sorts them
  std::size_t start = 0;
  for (const char* name : names) {
    const std::size_t end = input.find('\0', start);
    files[name] = input.substr(start, end == std::string_view::npos ? end : end - start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  std::vector<std::string> paths;
  for (const auto& f : files) paths.push_back(f.first);
  napkin::cli::merge_answer m;
  try {
    m = napkin::cli::merge_files(paths, "fuzz", [&](const std::string& file) {
      return napkin::parse_json(files.at(file), file);
    });
  } catch (const napkin::cli::usage_error&) {
    return 0;
  } catch (const std::invalid_argument&) {  // a kernel without a GPU time: napkin's bad-input failure
    return 0;
  }
  const napkin::cross_rank_table& t = m.table;
  fuzz::require(!t.ranks.empty() && t.ranks.size() + m.notes.size() <= files.size(), "ranks not one per merged file");
  for (std::size_t i = 1; i < t.ranks.size(); ++i) fuzz::require(t.ranks[i - 1] < t.ranks[i], "ranks not ascending");
  for (const napkin::cross_rank_row& r : t.rows) {
    fuzz::require(std::isfinite(r.max_ns) && r.min_ns >= 0 && r.min_ns <= r.median_ns && r.median_ns <= r.max_ns,
                  "a row's min, median and max out of order");
    fuzz::require(r.ranks.size() + r.missing_ranks.size() == t.ranks.size(), "a rank neither present nor missing");
    fuzz::require(!r.slowest_ranks.empty(), "a row without a slowest rank");
  }
  for (std::int64_t absent : t.absent_ranks)
    fuzz::require(absent >= 0 && absent < napkin::max_world_size, "an absent rank beyond the world size limit");
  fuzz::require(fuzz::no_control_characters(napkin::to_text(t)), "a control character in the cross-rank table's text");
  const napkin::report_document job = napkin::read_document(napkin::to_json(t), "job.json");
  fuzz::require(job.ok(), "the job document napkin wrote does not read back");
  return 0;
}
