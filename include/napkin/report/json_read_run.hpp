// SPDX-License-Identifier: Apache-2.0
// napkin/report/json_read_run.hpp — a measured run read back from its JSON document, as the sol_report
// values that wrote it: what `napkin report` (the HTML page) and `napkin roofline RUN.json` (measured points)
// draw. The documents of kinds sol-report, kernel-reports, phase-reports and comparison hold sol_reports;
// each is rebuilt from its collected metrics ("values"), so every number is derived the way the library
// derives it.
//
// OPTIONAL like json_read.hpp, which it reads with (nlohmann/json). Bad input (a file that cannot be read,
// another kind, a wrong member) is napkin's input error (napkin/error.hpp) naming the file and the member:
// std::invalid_argument by default.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/profiler/sol_report.hpp"
#include "napkin/document/document.hpp"
#include "napkin/document/json_fields.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/text/enum_names.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

struct measured_run {
  std::string file;
  std::string kind;  // the document's kind
  gpu_identity gpu;  // as the document names it
  kernel_reports run;
};

namespace detail {

inline double run_number(const json_value& v, const std::string& where) {
  if (!v.is_number()) bad_json_field(where, "expected a number");
  return v.as_number();
}

// A measured quantity: every metric napkin reads (durations, cycles, bytes, rates, percentages) is >= 0,
// and a percentage of peak is at most 1000: the library's one check (document/document.hpp).
inline double run_measured(const json_value& v, const std::string& where, bool percentage) {
  const double x = run_number(v, where);
  if (std::string bad = detail::measured_number_problem(x, percentage); !bad.empty()) bad_json_field(where, bad);
  return x;
}

inline measured_by measured_by_of(const std::string& text, const std::string& where) {
  if (const std::optional<measured_by> m = from_string(text, all_measured_by)) return *m;
  bad_json_field(where, "unknown measured_by '" + quote_input(text) + "'");
}

inline sol_report rebuild_report(const json_value& e, const std::string& where) {
  if (!e.is_object()) bad_json_field(where, "expected an object");
  sol_report r;
  r.name = json_text(e, "name", where);
  r.chip = json_text(e, "chip", where);
  r.metric_set = json_text(e, "metric_set", where);
  const double passes = run_number(json_member(e, "passes", where), where + ".passes");
  if (!(passes >= 0) || passes != std::floor(passes) || passes > 1e6) bad_json_field(where + ".passes", "expected a count");
  r.passes = static_cast<std::size_t>(passes);
  r.how = measured_by_of(json_text(e, "measured_by", where), where + ".measured_by");
  const json_value& cost = json_member(e, "cost", where);
  const std::pair<const char*, double*> parts[] = {
      {"enable_s", &r.cost.enable_s}, {"setup_s", &r.cost.setup_s}, {"passes_s", &r.cost.passes_s},
      {"flush_s", &r.cost.flush_s},   {"cupti_s", &r.cost.cupti_s}, {"work_s", &r.cost.work_s},
      {"decode_s", &r.cost.decode_s}};
  for (const auto& [field, target] : parts)
    *target = run_measured(json_member(cost, field, where + ".cost"), where + ".cost." + field, false);
  const json_value& values = json_member(e, "values", where);
  if (!values.is_object()) bad_json_field(where + ".values", "expected an object of metric values");
  for (std::size_t i = 0; i < values.keys().size(); ++i) {
    const json_value& v = values.items()[i];
    if (v.is_null()) continue;  // a metric the set asked for and the GPU did not give
    const std::string& key = values.keys()[i];
    r.values[key] = run_measured(v, where + ".values." + key, key.find("pct") != std::string::npos);
  }
  if (const json_value* derived = e.find("derived"); derived != nullptr) {  // absent before napkin 0.2
    if (!derived->is_object()) bad_json_field(where + ".derived", "expected an object of numbers");
    for (std::size_t i = 0; i < derived->keys().size(); ++i) {
      const json_value& v = derived->items()[i];
      if (v.is_null()) continue;
      r.derived[derived->keys()[i]] = run_number(v, where + ".derived." + derived->keys()[i]);
    }
  }
  const json_value& derivations = json_member(e, "derivations", where);
  if (!derivations.is_object()) bad_json_field(where + ".derivations", "expected an object");
  for (std::size_t i = 0; i < derivations.keys().size(); ++i) {
    if (!derivations.items()[i].is_string()) bad_json_field(where + ".derivations." + derivations.keys()[i], "expected a string");
    r.derivations[derivations.keys()[i]] = derivations.items()[i].as_string();
  }
  const json_value& samples = json_member(e, "pass_samples", where);
  if (!samples.is_array()) bad_json_field(where + ".pass_samples", "expected an array");
  for (const json_value& s : samples.items()) {
    if (!s.is_object()) bad_json_field(where + ".pass_samples", "expected objects");
    pass_sample p;
    p.duration_ns = run_measured(json_member(s, "duration_ns", where + ".pass_samples"), where + ".pass_samples.duration_ns", false);
    const json_value* launches = s.find("launches");
    if (launches != nullptr && launches->is_number() && launches->as_number() >= 0 && launches->as_number() < 1e15) p.launches = static_cast<std::size_t>(launches->as_number());
    r.pass_samples.push_back(p);
  }
  const json_value& disagree = json_member(e, "passes_disagree", where);
  if (disagree.is_string()) r.passes_disagree = disagree.as_string();
  return r;
}

}  // namespace detail

// The run in the document `doc` read from `file`; bad input (another kind, a wrong member) is an input error.
inline measured_run read_run(const json_value& doc, const std::string& file) {
  const report_document header = flatten(doc, file);  // the header and the entities' shape
  if (!header.ok()) detail::raise_input_error("napkin: " + header.problem);
  measured_run out{file, header.kind, header.gpu, {}};
  std::vector<const json_value*> entities;
  std::string member;
  if (header.kind == report_kind::kernel_reports || header.kind == report_kind::phase_reports) {
    member = header.kind == report_kind::kernel_reports ? "kernels" : "phases";
    for (const json_value& e : doc.find(member)->items()) entities.push_back(&e);
  } else if (header.kind == report_kind::sol_report || header.kind == report_kind::comparison) {
    member = header.kind == report_kind::sol_report ? "report" : "comparison";
    entities.push_back(doc.find(member));
  } else {
    detail::bad_json_field(file, "a document of kind '" + header.kind + "'; this reads measured kernels: kinds "
                          "kernel-reports, phase-reports, sol-report and comparison");
  }
  for (std::size_t i = 0; i < entities.size(); ++i)
    out.run.kernels.push_back(detail::rebuild_report(*entities[i], file + ": " + member +
                                                                          (entities.size() > 1 || member == "kernels" ||
                                                                                   member == "phases"
                                                                               ? "[" + std::to_string(i) + "]"
                                                                               : "")));
  if (header.kind == report_kind::kernel_reports) {
    const json_value* dropped = doc.find("dropped");
    if (dropped != nullptr && dropped->is_number() && dropped->as_number() >= 0 && dropped->as_number() < 1e15) out.run.dropped = static_cast<std::size_t>(dropped->as_number());
  }
  return out;
}

// The run in `file`; bad input (a file that cannot be read, another kind, a wrong member) is an input error.
inline measured_run read_run(const std::string& file) {
  const json_read_result r = read_json_file(file);
  if (!r.ok()) detail::raise_input_error("napkin: " + r.problem);
  return read_run(r.value, file);
}

NAPKIN_END_NAMESPACE
