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
// size above napkin::max_world_size (2^20) and files that disagree on the world size.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "command.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/rank_summaries.hpp"
#include "napkin/report/json_read_run.hpp"

namespace {

using namespace napkin::cli;
namespace fs = std::filesystem;

struct merge_args {
  std::string dir, output;
};

// N from a file name ending in "rank<N>.json" (any case of .json); nullopt otherwise.
// Whether a file name ends in .json, in any case (rank2.JSON is a rank file too).
bool json_file_name(const std::string& file_name) {
  const std::string suffix = ".json";
  if (file_name.size() <= suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(file_name[file_name.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

std::optional<std::int64_t> rank_from_file_name(const std::string& file_name) {
  const std::string suffix = ".json";
  if (!json_file_name(file_name)) return std::nullopt;
  const std::string stem = file_name.substr(0, file_name.size() - suffix.size());
  std::size_t digits = stem.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(stem[digits - 1]))) --digits;
  if (digits == stem.size() || stem.size() - digits > 9 || digits < 4 || stem.compare(digits - 4, 4, "rank") != 0)
    return std::nullopt;
  return std::stoll(stem.substr(digits));
}

std::optional<std::int64_t> integer_member(const napkin::json_value& o, const char* field, const std::string& where) {
  const napkin::json_value* v = o.find(field);
  if (v == nullptr || v->is_null()) return std::nullopt;
  const double d = v->is_number() ? v->as_number() : -1;
  if (!(d >= 0 && d < 1e15) || d != std::floor(d))
    throw usage_error(where + ": context." + field + " must be an integer >= 0");
  return static_cast<std::int64_t>(d);
}

std::optional<std::string> text_member(const napkin::json_value& o, const char* field) {
  const napkin::json_value* v = o.find(field);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->as_string();
}

napkin::report_context context_of(const napkin::json_value& doc, const std::string& file) {
  napkin::report_context c;
  const napkin::json_value* ctx = doc.find("context");
  if (ctx == nullptr) return c;
  if (!ctx->is_object()) throw usage_error(file + ": \"context\" must be an object");
  c.host = text_member(*ctx, "host");
  c.rank = integer_member(*ctx, "rank", file);
  c.world_size = integer_member(*ctx, "world_size", file);
  c.local_rank = integer_member(*ctx, "local_rank", file);
  c.device_index = integer_member(*ctx, "device_index", file);
  c.device_name = text_member(*ctx, "device_name");
  c.device_pci_bus_id = text_member(*ctx, "device_pci_bus_id");
  c.device_uuid = text_member(*ctx, "device_uuid");
  return c;
}

merge_answer merge(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw usage_error(dir + ": not a folder" + (ec ? ": " + ec.message() : std::string()));
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (json_file_name(it->path().filename().string()) && !it->is_directory()) files.push_back(it->path().string());
  if (ec) throw usage_error(dir + ": cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  merge_answer a;
  std::string kind;  // of the first rank's document
  std::vector<std::pair<std::int64_t, std::string>> seen;  // rank, file
  std::optional<std::pair<std::int64_t, std::string>> sized;  // the first world size given, its file
  std::vector<napkin::rank_summary> summaries;
  for (const std::string& file : files) {
    const napkin::json_read_result r = napkin::read_json_file(file);
    if (!r.ok()) throw usage_error(r.problem);
    // The checks of every document reader (napkin report, diff): schema, version, kind, GPU, entities.
    const napkin::report_document header = napkin::flatten(r.value, file);
    if (!header.ok()) throw usage_error(header.problem);
    const std::string this_kind = header.kind;
    if (this_kind == napkin::report_kind::job) {
      a.notes.push_back(file + ": a job document (an earlier merge), skipped");
      continue;
    }
    if (this_kind != napkin::report_kind::kernel_reports && this_kind != napkin::report_kind::phase_reports &&
        this_kind != "monitor-report")
      throw usage_error(file + ": " + (this_kind.empty() ? std::string("not a napkin report document") : "a document of kind '" + this_kind + "'") +
                        "; merge reads one rank per file: kernel-reports, phase-reports or monitor-report");
    if (!kind.empty() && this_kind != kind)
      throw usage_error(file + ": " + napkin::detail::a_or_an(this_kind) + " " + this_kind + " document among " + kind +
                        " documents: merge one kind at a time");
    kind = this_kind;
    napkin::rank_summary s;
    s.context = context_of(r.value, file);
    const std::optional<std::int64_t> named = rank_from_file_name(fs::path(file).filename().string());
    if (s.context.rank && named && *s.context.rank != *named)
      throw usage_error(file + ": context.rank is " + std::to_string(*s.context.rank) + " but the file is named for rank " +
                        std::to_string(*named));
    if (!s.context.rank) s.context.rank = named;
    if (std::string bad = napkin::validate_rank_fields(s.context, file); !bad.empty()) throw usage_error(bad);
    if (s.context.world_size && sized && sized->first != *s.context.world_size)
      throw usage_error(file + ": context.world_size is " + std::to_string(*s.context.world_size) + " but " + sized->second +
                        " says " + std::to_string(sized->first) + ": reports of one job agree on its world size");
    if (s.context.world_size && !sized) sized.emplace(*s.context.world_size, file);
    if (!s.context.rank)
      throw usage_error(file + ": no context.rank and no rank in the file name (name it rank<N>.json, or write the "
                        "report with napkin::process_context())");
    for (const auto& [rank, other] : seen)
      if (rank == *s.context.rank)
        throw usage_error(file + ": rank " + std::to_string(rank) + " again (also in " + other + ")");
    seen.emplace_back(*s.context.rank, file);
    if (kind == "monitor-report") {  // read as `napkin report` reads it: every member checked
      s.rows = napkin::summary_of(napkin::read_monitor_report(r.value, file), s.context).rows;
    } else {
      const napkin::measured_run run = napkin::read_run(file);
      s.rows = napkin::summary_of(run.run, s.context).rows;
    }
    summaries.push_back(std::move(s));
  }
  if (summaries.empty()) throw usage_error(dir + ": no per-rank report (*.json of kind kernel-reports, phase-reports or monitor-report)");
  const std::string problem = napkin::validate_summaries(summaries);
  if (!problem.empty()) throw usage_error(problem);
  a.table = napkin::make_cross_rank_table(std::move(summaries));
  return a;
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
