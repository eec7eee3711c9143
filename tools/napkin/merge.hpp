// The merge of `napkin merge DIR` (merge_cmd.cpp), apart from the walk of the folder: the rank files, each
// read by a caller's function (read_json_file for the tool; the fuzz target tests/fuzz/rank_folder.cpp reads
// from memory), checked one by one and together, and made one cross-rank table. Every check of the tool's
// merge is here (merge_cmd.cpp's first comment lists them); a problem is a usage_error naming the file.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "answer.hpp"
#include "errors.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/rank_summaries.hpp"
#include "napkin/report/json_read_run.hpp"

namespace napkin::cli {

// Whether a file name ends in .json, in any case (rank2.JSON is a rank file too).
inline bool json_file_name(const std::string& file_name) {
  const std::string suffix = ".json";
  if (file_name.size() <= suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(file_name[file_name.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

// N from a file name ending in "rank<N>.json" (any case of .json); nullopt otherwise.
inline std::optional<std::int64_t> rank_from_file_name(const std::string& file_name) {
  const std::string suffix = ".json";
  if (!json_file_name(file_name)) return std::nullopt;
  const std::string stem = file_name.substr(0, file_name.size() - suffix.size());
  std::size_t digits = stem.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(stem[digits - 1]))) --digits;
  if (digits == stem.size() || stem.size() - digits > 9 || digits < 4 || stem.compare(digits - 4, 4, "rank") != 0)
    return std::nullopt;
  return std::stoll(stem.substr(digits));
}

inline std::optional<std::int64_t> integer_member(const json_value& o, const char* field, const std::string& where) {
  const json_value* v = o.find(field);
  if (v == nullptr || v->is_null()) return std::nullopt;
  const double d = v->is_number() ? v->as_number() : -1;
  if (!(d >= 0 && d < 1e15) || d != std::floor(d))
    throw usage_error(where + ": context." + field + " must be an integer >= 0");
  return static_cast<std::int64_t>(d);
}

inline std::optional<std::string> text_member(const json_value& o, const char* field) {
  const json_value* v = o.find(field);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->as_string();
}

inline report_context context_of(const json_value& doc, const std::string& file) {
  report_context c;
  const json_value* ctx = doc.find("context");
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

// The table of `files` (paths; ranks from their documents, else from their names), each read with `read`
// (a json_read_result from a path); `where` names the whole (the folder) in a message that no file is a rank.
template <typename Read>
merge_answer merge_files(const std::vector<std::string>& files, const std::string& where, Read read) {
  merge_answer a;
  std::string kind;  // of the first rank's document
  std::map<std::int64_t, std::string> seen;  // rank -> its file
  std::optional<std::pair<std::int64_t, std::string>> sized;  // the first world size given, its file
  std::vector<rank_summary> summaries;
  for (const std::string& file : files) {
    const json_read_result r = read(file);
    if (!r.ok()) throw usage_error(r.problem);
    // The checks of every document reader (napkin report, diff): schema, version, kind, GPU, entities.
    const report_document header = flatten(r.value, file);
    if (!header.ok()) throw usage_error(header.problem);
    const std::string this_kind = header.kind;
    if (this_kind == report_kind::job) {
      a.notes.push_back(file + ": a job document (an earlier merge), skipped");
      continue;
    }
    if (this_kind != report_kind::kernel_reports && this_kind != report_kind::phase_reports &&
        this_kind != "monitor-report")
      throw usage_error(file + ": " + (this_kind.empty() ? std::string("not a napkin report document") : "a document of kind '" + this_kind + "'") +
                        "; merge reads one rank per file: kernel-reports, phase-reports or monitor-report");
    if (!kind.empty() && this_kind != kind)
      throw usage_error(file + ": " + napkin::detail::a_or_an(this_kind) + " " + this_kind + " document among " + kind +
                        " documents: merge one kind at a time");
    kind = this_kind;
    rank_summary s;
    s.context = context_of(r.value, file);
    const std::optional<std::int64_t> named = rank_from_file_name(file.substr(file.find_last_of('/') + 1));
    if (s.context.rank && named && *s.context.rank != *named)
      throw usage_error(file + ": context.rank is " + std::to_string(*s.context.rank) + " but the file is named for rank " +
                        std::to_string(*named));
    if (!s.context.rank) s.context.rank = named;
    if (std::string bad = validate_rank_fields(s.context, file); !bad.empty()) throw usage_error(bad);
    if (s.context.world_size && sized && sized->first != *s.context.world_size)
      throw usage_error(file + ": context.world_size is " + std::to_string(*s.context.world_size) + " but " + sized->second +
                        " says " + std::to_string(sized->first) + ": reports of one job agree on its world size");
    if (s.context.world_size && !sized) sized.emplace(*s.context.world_size, file);
    if (!s.context.rank)
      throw usage_error(file + ": no context.rank and no rank in the file name (name it rank<N>.json, or write the "
                        "report with napkin::process_context())");
    if (const auto [at, added] = seen.emplace(*s.context.rank, file); !added)
      throw usage_error(file + ": rank " + std::to_string(at->first) + " again (also in " + at->second + ")");
    if (kind == "monitor-report") {  // read as `napkin report` reads it: every member checked
      s.rows = summary_of(read_monitor_report(r.value, file), s.context).rows;
    } else {
      const measured_run run = read_run(r.value, file);
      s.rows = summary_of(run.run, s.context).rows;
    }
    summaries.push_back(std::move(s));
  }
  if (summaries.empty()) throw usage_error(where + ": no per-rank report (*.json of kind kernel-reports, phase-reports or monitor-report)");
  const std::string problem = validate_summaries(summaries);
  if (!problem.empty()) throw usage_error(problem);
  a.table = make_cross_rank_table(std::move(summaries));
  return a;
}

}  // namespace napkin::cli
