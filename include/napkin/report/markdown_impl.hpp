// SPDX-License-Identifier: Apache-2.0
// A report as GitHub-flavoured Markdown (napkin/report/markdown.hpp): the function bodies. Included by markdown.hpp
// (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <string>
#include <utility>
#include <vector>

#include "napkin/report/markdown.hpp"
#include "napkin/document/document.hpp"
#include "napkin/profiler/sections/report_section.hpp"
#include "napkin/text/numbers.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

// One entity's cells by member path ("workload.flop"), in the document's order: verdicts first (bold),
// then words, yes/no and numbers. Raw metrics and other members left out of comparisons are left out here.
struct markdown_entity {
  std::string name;
  std::vector<std::pair<std::string, std::string>> cells;  // (member path, Markdown)
  std::vector<std::string> numeric;                         // the members that are numbers (right-aligned)
};

NAPKIN_DETAIL_FUNC void markdown_walk(const json_value& obj, const std::string& prefix, markdown_entity& out) {
  for (std::size_t i = 0; i < obj.keys().size(); ++i) {
    const std::string& key = obj.keys()[i];
    const json_value& v = obj.items()[i];
    if (prefix.empty() && key == "name") continue;
    if (prefix.empty() && key == "verdicts" && v.is_object()) {
      for (std::size_t k = 0; k < v.keys().size(); ++k)
        if (const json_value* text = v.items()[k].find("text"); text != nullptr && text->is_string()) {
          out.cells.emplace_back(v.keys()[k], "**" + markdown_escape(text->as_string()) + "**");
        }
    } else if (key != "workload_types" && is_left_out_of_comparison(key)) {
      continue;
    } else if (key == detail::section_about_member && v.is_object()) {  // a section's words: its title only
      if (const json_value* title = v.find("title"); title != nullptr && title->is_string())
        out.cells.emplace_back(prefix + key + ".title", markdown_escape(title->as_string()));
    } else if (v.is_number()) {
      out.cells.emplace_back(prefix + key, named_number(v.as_number(), prefix + key));
      out.numeric.push_back(prefix + key);
    } else if (v.is_string()) {
      out.cells.emplace_back(prefix + key, markdown_escape(v.as_string()));
    } else if (v.kind() == json_value::type::boolean) {
      out.cells.emplace_back(prefix + key, v.as_boolean() ? "yes" : "no");
    } else if (v.is_object()) {
      markdown_walk(v, prefix + key + ".", out);
    }
  }
}

// Verdicts lead: a verdict cell is moved before the other cells, keeping the order within each group.
NAPKIN_DETAIL_FUNC void verdicts_first(markdown_entity& e) {
  std::vector<std::pair<std::string, std::string>> first, rest;
  for (auto& c : e.cells) (c.second.rfind("**", 0) == 0 ? first : rest).push_back(std::move(c));
  e.cells = std::move(first);
  for (auto& c : rest) e.cells.push_back(std::move(c));
}

// One pipe table of entities: one row per member for one entity (or few with many members), else one row per
// entity.
NAPKIN_DETAIL_FUNC std::string markdown_entities_table(const std::vector<markdown_entity>& entities) {
  // The columns: every member any entity has, in first-seen order.
  std::vector<std::string> members;
  for (const auto& e : entities)
    for (const auto& c : e.cells) {
      bool seen = false;
      for (const std::string& m : members) seen = seen || m == c.first;
      if (!seen) members.push_back(c.first);
    }
  const auto cell = [](const markdown_entity& e, const std::string& member) {
    for (const auto& c : e.cells)
      if (c.first == member) return c.second;
    return std::string("-");
  };
  std::vector<std::string> header;
  std::vector<bool> right;
  std::vector<std::vector<std::string>> rows;
  const bool on_side = entities.size() == 1 ||
                       (members.size() + 1 > markdown_max_columns && entities.size() <= markdown_max_side_entities);
  if (on_side) {
    header.push_back("field");
    right.push_back(false);
    for (const auto& e : entities) {
      header.push_back(entities.size() == 1 ? std::string("value") : markdown_escape(e.name));
      right.push_back(true);
    }
    for (const std::string& m : members) {
      std::vector<std::string> row{markdown_code(m)};
      for (const auto& e : entities) row.push_back(cell(e, m));
      rows.push_back(std::move(row));
    }
  } else {
    header.push_back("name");
    right.push_back(false);
    for (const std::string& m : members) {
      header.push_back(markdown_code(m));
      bool number = false;
      for (const auto& e : entities)
        for (const std::string& n : e.numeric) number = number || n == m;
      right.push_back(number);
    }
    for (const auto& e : entities) {
      std::vector<std::string> row{markdown_escape(e.name)};
      for (const std::string& m : members) row.push_back(cell(e, m));
      rows.push_back(std::move(row));
    }
  }
  return markdown_table(header, right, rows);
}

}  // namespace detail

NAPKIN_DETAIL_FUNC std::string document_markdown(const json_value& doc) {
  const json_value* kind_value = doc.find("kind");
  if (kind_value == nullptr || !kind_value->is_string()) return "*not a napkin document*\n";
  const std::string kind = kind_value->as_string();
  std::vector<detail::markdown_entity> entities;
  const detail::entity_location where = detail::entities_of(kind);
  if (const json_value* content = doc.find(std::string(where.member)); content != nullptr) {
    std::vector<const json_value*> items;
    if (content->is_array())
      for (const json_value& e : content->items()) items.push_back(&e);
    else if (content->is_object())
      items.push_back(content);
    for (const json_value* e : items) {
      if (!e->is_object()) continue;
      detail::markdown_entity m;
      if (const json_value* n = e->find("name"); n != nullptr && n->is_string()) m.name = n->as_string();
      detail::markdown_walk(*e, "", m);
      detail::verdicts_first(m);
      entities.push_back(std::move(m));
    }
  }
  std::string out = "### napkin " + markdown_escape(kind);
  if (entities.size() == 1 && !entities.front().name.empty() && entities.front().name != kind)
    out += ": " + markdown_escape(entities.front().name);
  out += "\n\n";
  if (const json_value* gpu = doc.find("gpu"); gpu != nullptr && gpu->is_object() && !gpu->keys().empty()) {
    const auto fact = [gpu](const char* member) {
      const json_value* v = gpu->find(member);
      return v != nullptr && v->is_string() ? v->as_string() : std::string();
    };
    const std::string key = fact("key"), name = fact("name"), chip = fact("chip"), cc = fact("compute_capability");
    std::string more;
    for (const std::string& part : {key.empty() ? std::string() : name, chip, cc.empty() ? cc : "CC " + cc})
      if (!part.empty()) more += (more.empty() ? "" : ", ") + part;
    const std::string first = !key.empty() ? key : name;
    out += "GPU: " + markdown_escape(first.empty() ? more : first + (more.empty() ? "" : " (" + more + ")")) + "\n\n";
  }
  // A monitor report's system view (its "system" member): its run and phases in a table of their own.
  std::vector<detail::markdown_entity> system;
  if (const json_value* sys = kind == report_kind::monitor_report ? doc.find("system") : nullptr;
      sys != nullptr && sys->is_object()) {
    std::vector<const json_value*> items;
    if (const json_value* run = sys->find("run")) items.push_back(run);
    if (const json_value* phases = sys->find("phases"); phases != nullptr && phases->is_array())
      for (const json_value& e : phases->items()) items.push_back(&e);
    for (const json_value* e : items) {
      if (!e->is_object()) continue;
      detail::markdown_entity m;
      if (const json_value* n = e->find("name"); n != nullptr && n->is_string()) m.name = n->as_string();
      detail::markdown_walk(*e, "", m);
      system.push_back(std::move(m));
    }
  }
  out += entities.empty() ? std::string("*no entries*\n") : detail::markdown_entities_table(entities);
  if (!system.empty()) out += "\n#### System view\n\n" + detail::markdown_entities_table(system);
  return out;
}

NAPKIN_DETAIL_FUNC std::string to_markdown(const report_diff& d) {
  const char* gate = d.bad_input() ? "ERROR" : d.regressed() ? "FAIL" : "PASS";
  std::string out = std::string("### napkin diff: ") + gate + "\n\n";
  const std::string status = " (" + std::string(to_string(d.outcome)) + ", exit status " +
                             std::to_string(d.exit_code()) + ")";
  if (d.bad_input()) {
    out += std::string("**Gate: ") + gate + "**: the documents could not be compared" + status + ".\n\n";
    for (const std::string& p : d.problems) out += "- " + markdown_escape(p) + "\n";
    return out;
  }
  std::size_t regressions = 0, same = 0;
  for (const field_change& c : d.changes) {
    regressions += c.regression ? 1 : 0;
    same += c.status == change_status::same ? 1 : 0;
  }
  out += std::string("**Gate: ") + gate + "**: " + std::to_string(regressions) + " of " +
         std::to_string(d.changes.size()) + " numbers worse by more than " + fixed(d.threshold_pct, 1) + "%" +
         status + ".\n\n";
  if (!d.old_source.empty() || !d.new_source.empty())  // sources left empty: the caller says what was compared
    out += "Baseline " + markdown_code(d.old_source) + ", new " + markdown_code(d.new_source) + " (" +
           markdown_escape(d.kind) + ").\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const field_change& c : d.changes) {
    if (c.status == change_status::same) continue;
    const std::string s = status_text(c.status, c.regression);
    rows.push_back({markdown_escape(c.entity), markdown_code(c.field), old_value_text(c), new_value_text(c),
                    change_text(c), c.regression ? "**" + s + "**" : s});
  }
  if (!rows.empty())
    out += markdown_table({"entity", "field", "old", "new", "change", "status"},
                          {false, false, true, true, true, false}, rows) +
           "\n";
  out += std::to_string(same) + " of " + std::to_string(d.changes.size()) + " numbers within " +
         fixed(d.threshold_pct, 1) + "%.\n";
  const auto list = [&out](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += std::string("\n") + title + ":\n\n";
    for (const std::string& i : items) out += "- " + i + "\n";
  };
  std::vector<std::string> verdicts, added, removed;
  for (const verdict_change& v : d.verdict_changes)
    verdicts.push_back(markdown_escape(v.entity) + " " + markdown_code(v.field) + ": " + markdown_escape(v.old_text) +
                       " → " + markdown_escape(v.new_text));
  for (const std::string& a : d.added) added.push_back(markdown_escape(a));
  for (const std::string& r : d.removed) removed.push_back(markdown_escape(r));
  list("Verdicts that changed", verdicts);
  list("Only in the new document", added);
  list("Only in the baseline", removed);
  return out;
}

NAPKIN_END_NAMESPACE
