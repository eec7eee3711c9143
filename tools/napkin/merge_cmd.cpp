// SPDX-License-Identifier: Apache-2.0
// napkin merge DIR: the per-rank JSON reports of a parallel job, one file per rank in DIR, as one
// cross-rank table (napkin/report/cross_rank.hpp): per kernel or phase, min / median / max GPU time across
// ranks, the slowest rank, the imbalance (max / median), the ranks that lack it, and each rank's
// communication / compute split. --format json writes the job document (kind "job"), csv the table.
//
// Every *.json in DIR (not its subfolders) is read, with the checks of `napkin report` (one reader: the
// header by flatten(), measured runs by napkin::read_run(), monitor reports by napkin::read_monitor_report()). Documents of kind kernel-reports, phase-reports or
// monitor-report are ranks; a job document (an earlier merge's output) is skipped with a note; any other
// kind, mixed kinds, an unreadable file, two files of one rank, or an empty DIR is bad input (exit status 2).
// The rank is the document's context.rank; a document without one takes it from a file name that ends in
// rank<N>.json (rank3.json, step.rank12.json), and is refused otherwise: a guessed rank would be a wrong
// row of the table. A context.rank that disagrees with the file name is refused too, and so are a world
// size above napkin::max_world_size (2^20) and files that disagree on the world size. This file walks DIR;
// the checks and the merge are merge.hpp's (merge_files), which the fuzz target rank_folder calls too.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "command.hpp"
#include "merge.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/rank_summaries.hpp"

namespace {

using namespace napkin::cli;
namespace fs = std::filesystem;

struct merge_args {
  std::string dir, output;
};

merge_answer merge(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw usage_error(dir + ": not a folder" + (ec ? ": " + ec.message() : std::string()));
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (json_file_name(it->path().filename().string()) && !it->is_directory()) files.push_back(it->path().string());
  if (ec) throw usage_error(dir + ": cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  return merge_files(files, dir, [](const std::string& file) { return napkin::read_json_file(file); });
}

runner setup_merge(CLI::App& sub) {
  auto a = std::make_shared<merge_args>();
  sub.add_option("DIR", a->dir, "a folder of per-rank JSON reports, one file per rank")->type_name("DIR");
  sub.add_option("-o,--output", a->output, "write to FILE instead of standard output")->type_name("FILE");
  sub.footer("Reads DIR/*.json: kernel-reports, phase-reports or monitor-report documents, one\n"
             "kind, one file per rank. The rank is context.rank, else the file name's\n"
             "rank<N>.json. Per kernel or phase: min/median/max GPU time across ranks (median of\n"
             "an even count: the mean of the middle two), the slowest rank, max/median, the\n"
             "ranks without it; per rank: communication (NCCL/NVSHMEM) vs compute. --format json\n"
             "writes a job document. Exit status 2: an empty or unreadable folder or file,\n"
             "mixed kinds, a rank twice or none. docs/multi-gpu.md.");
  return [a]() -> answer {
    if (a->dir.empty()) throw usage_error("merge expects a folder (DIR)");
    merge_answer m = merge(a->dir);
    m.output = a->output;
    return m;
  };
}

const registrar merge_command{{"merge", "per-rank JSON reports of a parallel job as one cross-rank table", setup_merge}};

}  // namespace
