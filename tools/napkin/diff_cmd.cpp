// SPDX-License-Identifier: Apache-2.0
// napkin diff OLD.json NEW.json: two report documents of the same kind compared number by number
// (napkin/report/compare.hpp). Exit status 0: no regression beyond --threshold; 1: a regression; 2: bad
// input (a file that cannot be read or is not a napkin document, an unknown schema version, different
// kinds, different GPUs without --allow-different-gpu). --gate picks the numbers that can regress;
// --format markdown puts the gate's result first (docs/ci.md).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "napkin/report/json_read.hpp"
#include "options.hpp"
#include "run_files.hpp"

namespace {

using namespace napkin::cli;

struct diff_args {
  std::string old_file, new_file;
  std::string threshold = "3";
  bool allow_different_gpu = false;
  std::vector<std::string> gate;
  CLI::Option* old_option = nullptr;
  CLI::Option* new_option = nullptr;
};

// "5", "5%", "0.5": a percentage >= 0.
double parse_threshold(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t.back() == '%') t.pop_back();
  double v = 0;
  const std::size_t used = napkin::cli::detail::leading_decimal(t, v);
  if (t.empty() || used != t.size() || !std::isfinite(v) || v < 0)
    throw usage_error("--threshold is a percentage >= 0 (e.g. 5 or 5%), got '" + quote_input(text) + "'");
  return v;
}

// --gate FIELD[,FIELD]: each a compared number with a better direction (a number without one never regresses).
std::vector<std::string> parse_gate(const std::vector<std::string>& given) {
  std::vector<std::string> fields;
  for (const std::string& list : given) {
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(',', start), list.size());
      const std::string f = list.substr(start, end - start);
      if (napkin::better_direction(f) == napkin::better::none)
        throw usage_error("--gate '" + quote_input(f) +
                          "': not a number with a better direction (e.g. duration_ns, sm_pct, dram_pct, "
                          "lower_bound_s, mean_ns; docs/reports.md lists them)");
      fields.push_back(f);
      start = end + 1;
    }
  }
  return fields;
}

runner setup_diff(CLI::App& sub) {
  auto a = std::make_shared<diff_args>();
  a->old_option = sub.add_option("OLD", a->old_file, "the baseline document (JSON, ncu's raw CSV or\nnvbench's JSON)")->type_name("FILE");
  a->new_option = sub.add_option("NEW", a->new_file, "the new document, of the same kind")->type_name("FILE");
  sub.add_option("--threshold", a->threshold, "a change beyond this many % in the worse direction is a\nregression")
      ->type_name("PCT")
      ->capture_default_str();
  sub.add_flag("--allow-different-gpu", a->allow_different_gpu, "compare documents about different GPUs");
  sub.add_option("--gate", a->gate,
                 "only these numbers can regress (all are shown), e.g.\nduration_ns or sm_pct; repeat or a,b")
      ->type_name("FIELD");
  sub.footer("Documents: what --format json writes (any command) and napkin/report/ writes,\n"
             "or ncu's raw CSV (ncu --csv --page raw --print-units base: kernel-reports),\n"
             "or nvbench's JSON (--json: kernel-reports; each time held against the larger\n"
             "of --threshold and nvbench's noise, its relative standard deviation).\n"
             "Entities (kernels, estimates, ...) match by name; each number knows its better\n"
             "direction (time lower, throughput higher). Exit status 0 no regression, 1 a\n"
             "regression, 2 bad input: a missing or broken file, an unknown schema version,\n"
             "different kinds, different GPUs without --allow-different-gpu.\n"
             "--format markdown: the gate's result first, for a CI job summary (docs/ci.md).");
  return [a]() -> answer {
    if (a->old_option->count() == 0 || a->new_option->count() == 0)
      throw usage_error("diff expects two files (OLD NEW), got " +
                        std::to_string(a->old_option->count() + a->new_option->count()));
    napkin::diff_options o;
    o.threshold_pct = parse_threshold(a->threshold);
    o.allow_different_gpu = a->allow_different_gpu;
    o.gate_fields = parse_gate(a->gate);
    diff_answer d{napkin::diff(read_any_document(a->old_file), read_any_document(a->new_file), o), o.gate_fields};
    if (d.d.bad_input()) {
      std::string problems;
      for (const std::string& p : d.d.problems) problems += (problems.empty() ? "" : "\n  ") + p;
      throw usage_error(problems);
    }
    return d;
  };
}

const registrar diff{{"diff", "compare two JSON reports: a table of changes; exit 1 on a regression", setup_diff}};

}  // namespace
