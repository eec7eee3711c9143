// SPDX-License-Identifier: Apache-2.0
// napkin/document/document.hpp's document header and flattened form: the function bodies. Included by
// document.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"
#include "napkin/document/report_context.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC const report_number* report_entity::number(std::string_view field) const {
  for (const auto& n : numbers)
    if (n.field == field) return &n;
  return nullptr;
}
NAPKIN_DETAIL_FUNC const report_verdict* report_entity::verdict(std::string_view field) const {
  for (const auto& v : verdicts)
    if (v.field == field) return &v;
  return nullptr;
}

namespace detail {

NAPKIN_DETAIL_FUNC bool is_known_report_kind(std::string_view kind) {
  for (std::string_view k : report_kind::all)
    if (k == kind) return true;
  return false;
}

NAPKIN_DETAIL_FUNC std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

NAPKIN_DETAIL_FUNC const char* a_or_an(std::string_view word) {
  return !word.empty() && std::string_view("aeiouAEIOU").find(word.front()) != std::string_view::npos ? "an" : "a";
}

NAPKIN_DETAIL_FUNC json_value document_header(std::string_view kind, gpu_identity gpu, const document_options& options) {
  const gpu_identity& given = options.gpu;
  if (!given.key.empty()) gpu.key = given.key;
  if (!given.name.empty()) gpu.name = given.name;
  if (!given.chip.empty()) gpu.chip = given.chip;
  if (!given.compute_capability.empty()) gpu.compute_capability = given.compute_capability;
  json_value doc = json_value::object();
  doc.set("schema", json_value::string("napkin." + std::string(kind)));
  doc.set("schema_version", json_value::count(static_cast<std::uint64_t>(report_schema_version)));
  doc.set("napkin_version", json_value::string(std::to_string(NAPKIN_VERSION_MAJOR) + "." +
                                               std::to_string(NAPKIN_VERSION_MINOR) + "." +
                                               std::to_string(NAPKIN_VERSION_PATCH)));
  doc.set("kind", json_value::string(std::string(kind)));
  json_value g = json_value::object();
  const std::pair<const char*, const std::string*> facts[] = {
      {"key", &gpu.key}, {"name", &gpu.name}, {"chip", &gpu.chip}, {"compute_capability", &gpu.compute_capability}};
  for (const auto& [field, value] : facts)
    if (!value->empty()) g.set(field, json_value::string(*value));
  doc.set("gpu", std::move(g));
  const report_context& c = options.context;
  if (!c.empty()) {
    json_value ctx = json_value::object();
    const auto integer = [&ctx](const char* field, const std::optional<std::int64_t>& v) {
      if (v) ctx.set(field, json_value::number(static_cast<double>(*v)));
    };
    const auto text = [&ctx](const char* field, const std::optional<std::string>& v) {
      if (v) ctx.set(field, json_value::string(*v));
    };
    text("host", c.host);
    integer("rank", c.rank);
    integer("world_size", c.world_size);
    integer("local_rank", c.local_rank);
    integer("device_index", c.device_index);
    text("device_name", c.device_name);
    text("device_pci_bus_id", c.device_pci_bus_id);
    text("device_uuid", c.device_uuid);
    doc.set("context", std::move(ctx));
  }
  return doc;
}

NAPKIN_DETAIL_FUNC entity_location entities_of(std::string_view kind) {
  if (kind == report_kind::kernel_reports) return {"kernels", true};
  if (kind == report_kind::phase_reports) return {"phases", true};
  if (kind == report_kind::gpu_specs) return {"gpus", true};
  if (kind == report_kind::estimates) return {"estimates", true};
  if (kind == report_kind::pipes) return {"pipes", true};
  if (kind == report_kind::dtypes) return {"dtypes", true};
  if (kind == report_kind::roofline) return {"points", true};
  if (kind == report_kind::monitor_report) return {"rows", true};
  if (kind == report_kind::diff) return {"diff", false};
  if (kind == report_kind::job) return {"table", true};
  if (kind == report_kind::source_lines) return {"rows", true};
  if (kind == report_kind::comparison) return {"comparison", false};
  if (kind == report_kind::estimate) return {"estimate", false};
  if (kind == report_kind::occupancy) return {"occupancy", false};
  return {"report", false};
}

// Entities beside the kind's own: a monitor report's system view ("system", monitor/monitor_documents.hpp)
// has one for the run and one per phase, named "system: <phase>". Returns a problem, or "".
NAPKIN_DETAIL_FUNC std::string more_entities(std::string_view kind, const json_value& doc,
                                             std::vector<const json_value*>& items, std::vector<std::string>& paths) {
  if (kind != report_kind::monitor_report) return {};
  const json_value* system = doc.find("system");
  if (system == nullptr) return {};
  if (!system->is_object()) return "system: expected an object";
  if (const json_value* run = system->find("run")) {
    items.push_back(run);
    paths.push_back("system.run");
  }
  if (const json_value* phases = system->find("phases")) {
    if (!phases->is_array()) return "system.phases: expected an array";
    for (std::size_t i = 0; i < phases->items().size(); ++i) {
      items.push_back(&phases->items()[i]);
      paths.push_back("system.phases[" + std::to_string(i) + "]");
    }
  }
  return {};
}

NAPKIN_DETAIL_FUNC std::string measured_number_problem(double x, bool percentage) {
  if (!(x >= 0)) return "must not be negative, got " + general(x);
  if (!std::isfinite(x)) return "must be finite, got " + general(x);
  if (percentage && x > max_measured_pct) return "a percentage above 1000, got " + general(x);
  return {};
}

NAPKIN_DETAIL_FUNC bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
NAPKIN_DETAIL_FUNC bool is_measured_member(std::string_view field) {
  field = field.substr(field.rfind('.') == std::string_view::npos ? 0 : field.rfind('.') + 1);
  for (std::string_view unit : {"_ns", "_s", "_hz", "_bytes", "_pct"})
    if (has_suffix(field, unit)) return true;
  return false;
}
NAPKIN_DETAIL_FUNC bool is_percentage_member(std::string_view field) { return has_suffix(field, "_pct"); }

NAPKIN_DETAIL_FUNC bool is_left_out_of_comparison(std::string_view key) {
  return key == "values" || key == "derived" || key == "derivations" || key == "pass_samples" || key == "workload_types";
}

// An entity's numbers: its numeric members and those of its object members, named by their path
// ("cost.total_s"); arrays and the members above are left out. Its verdicts: each member of "verdicts"
// (an object with "text"). Returns a problem, or "".
NAPKIN_DETAIL_FUNC std::string flatten_entity(const json_value& e, const std::string& path, report_entity& out) {
  if (!e.is_object()) return path + ": expected an object, got " + std::string(to_string(e.kind()));
  const json_value* name = e.find("name");
  if (name == nullptr || !name->is_string()) return path + ".name: expected a string";
  out.name = name->as_string();
  struct walker {
    report_entity& out;
    std::string walk(const json_value& obj, const std::string& prefix, const std::string& where) {
      for (std::size_t i = 0; i < obj.keys().size(); ++i) {
        const std::string& key = obj.keys()[i];
        const json_value& v = obj.items()[i];
        if (prefix.empty() && key == "verdicts") {
          if (!v.is_object()) return where + ".verdicts: expected an object";
          for (std::size_t k = 0; k < v.keys().size(); ++k) {
            const json_value& verdict = v.items()[k];
            if (verdict.is_null()) continue;
            const json_value* text = verdict.find("text");
            if (text == nullptr || !text->is_string())
              return where + ".verdicts." + v.keys()[k] + ": expected an object with a string \"text\"";
            out.verdicts.push_back({v.keys()[k], text->as_string()});
          }
        } else if (is_left_out_of_comparison(key)) {
          continue;
        } else if (v.is_number()) {
          out.numbers.push_back({prefix + key, v.as_number()});
        } else if (v.is_object()) {
          std::string problem = walk(v, prefix + key + ".", where + "." + key);
          if (!problem.empty()) return problem;
        }
      }
      return {};
    }
  };
  return walker{out}.walk(e, "", path);
}

}  // namespace detail

NAPKIN_DETAIL_FUNC report_document flatten(const json_value& doc, std::string source) {
  report_document out;
  out.source = std::move(source);
  const auto fail = [&out](const std::string& what) {
    out.problem = out.source + ": " + what;
    out.entities.clear();
    return out;
  };
  if (!doc.is_object()) return fail("expected a JSON object, got " + std::string(to_string(doc.kind())));
  const json_value* schema = doc.find("schema");
  if (schema == nullptr) return fail("no \"schema\": not a napkin report document");
  if (!schema->is_string() || schema->as_string().rfind("napkin.", 0) != 0)
    return fail("\"schema\" must be a string \"napkin.<kind>\"");
  out.schema = schema->as_string();
  const json_value* version = doc.find("schema_version");
  if (version == nullptr) return fail("no \"schema_version\"");
  // Range first: converting a double beyond int64 to an integer is undefined.
  const double v = version->is_number() ? version->as_number() : 0.5;
  if (!(v >= -1e15 && v <= 1e15) || v != std::floor(v)) return fail("\"schema_version\" must be an integer");
  out.schema_version = static_cast<std::int64_t>(v);
  if (out.schema_version != report_schema_version)
    return fail("unknown schema_version " + std::to_string(out.schema_version) + " (this napkin reads version " +
                std::to_string(report_schema_version) + ")");
  const json_value* kind = doc.find("kind");
  if (kind == nullptr || !kind->is_string()) return fail("no string \"kind\"");
  out.kind = kind->as_string();
  if (!detail::is_known_report_kind(out.kind)) return fail("unknown kind " + detail::quoted(out.kind));
  if (out.schema != "napkin." + out.kind)
    return fail("\"schema\" " + detail::quoted(out.schema) + " does not match \"kind\" " + detail::quoted(out.kind));
  const json_value* gpu = doc.find("gpu");
  if (gpu == nullptr || !gpu->is_object()) return fail("no \"gpu\" object");
  const std::pair<const char*, std::string*> facts[] = {{"key", &out.gpu.key},
                                                        {"name", &out.gpu.name},
                                                        {"chip", &out.gpu.chip},
                                                        {"compute_capability", &out.gpu.compute_capability}};
  for (const auto& [field, target] : facts) {
    const json_value* v = gpu->find(field);
    if (v == nullptr) continue;
    if (!v->is_string()) return fail(std::string("gpu.") + field + ": expected a string");
    *target = v->as_string();
  }
  const detail::entity_location where = detail::entities_of(out.kind);
  const std::string member(where.member);
  const json_value* content = doc.find(member);
  if (content == nullptr)
    return fail("no " + detail::quoted(member) + " (" + detail::a_or_an(out.kind) + " " + out.kind + " document has one)");
  std::vector<const json_value*> items;
  std::vector<std::string> paths;
  if (where.array) {
    if (!content->is_array()) return fail(member + ": expected an array");
    for (const json_value& item : content->items()) {
      paths.push_back(member + "[" + std::to_string(items.size()) + "]");
      items.push_back(&item);
    }
  } else {
    items.push_back(content);
    paths.push_back(member);
  }
  if (std::string problem = detail::more_entities(out.kind, doc, items, paths); !problem.empty()) return fail(problem);
  // The same kernel launched twice: the second is "name #2", so entities match by name one to one. A
  // suffixed name that is taken (a kernel really named "k #2") moves on to " #3" and up: every name the
  // document holds is reserved first, so that k, k, "k #2" and k, "k #2", k give the same three names.
  std::set<std::string> taken;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json_value* name = items[i]->is_object() ? items[i]->find("name") : nullptr;
    if (name != nullptr && name->is_string()) taken.insert(name->as_string());
  }
  std::map<std::string, std::size_t> seen;  // raw name -> launches so far
  for (std::size_t i = 0; i < items.size(); ++i) {
    report_entity e;
    const std::string& path = paths[i];
    std::string problem = detail::flatten_entity(*items[i], path, e);
    if (!problem.empty()) return fail(problem);
    // What was measured or estimated cannot be negative, infinite or a percentage of 10^308; a diff
    // document's numbers are changes, which can.
    if (out.kind != report_kind::diff)
      for (const report_number& n : e.numbers)
        if (detail::is_measured_member(n.field))
          if (std::string bad = detail::measured_number_problem(n.value, detail::is_percentage_member(n.field)); !bad.empty())
            return fail(path + "." + n.field + ": " + bad);
    const std::size_t before = seen[e.name]++;
    if (before > 0) {
      std::size_t n = before + 1;
      while (taken.count(e.name + " #" + std::to_string(n)) != 0) ++n;
      e.name += " #" + std::to_string(n);
      taken.insert(e.name);
    }
    out.entities.push_back(std::move(e));
  }
  return out;
}

NAPKIN_END_NAMESPACE
