// SPDX-License-Identifier: Apache-2.0
// A measured run from a file, whichever form it is in: napkin's JSON document (napkin/report/json_read_run.hpp),
// Nsight Compute's raw CSV (napkin/report/ncu_csv_read.hpp), told apart by the file's first bytes, or nvbench's
// JSON (napkin/report/nvbench_json_read.hpp), told apart from napkin's by its shape. What `napkin report`,
// `napkin roofline` and `napkin diff` read.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/ncu_csv_read.hpp"
#include "napkin/report/nvbench_json_read.hpp"
#include "napkin/report/profiler_documents.hpp"

namespace napkin::cli {

// The file's text; a file that cannot be read is bad usage.
inline std::string run_file_text(const std::string& file) {
  std::string problem;
  std::string text = napkin::read_file_text(file, problem);
  if (!problem.empty()) throw usage_error(problem);
  return text;
}

// Text that starts as a quoted CSV row and is not ncu's raw page (ncu's Source page, another tool's CSV), and
// what napkin says of it: more use than JSON's syntax error.
inline bool looks_like_other_csv(const std::string& text) {
  return !napkin::looks_like_ncu_csv(text) && text.rfind("\"", 0) == 0 && text.find("\",\"") < text.find('\n');
}
inline std::string other_csv_problem(const std::string& file) {
  return file + ": a CSV file, not ncu's raw page: napkin reads napkin's JSON documents and ncu --csv --page raw "
                "--print-units base";
}

// Refuses (bad usage) a file that is a CSV other than ncu's raw page; anything else passes.
inline void refuse_other_csv(const std::string& file) {
  std::string problem;
  const std::string text = napkin::read_file_text(file, problem);
  if (problem.empty() && looks_like_other_csv(text)) throw usage_error(other_csv_problem(file));
}

// Whether `file` is ncu's raw CSV (false when it cannot be read: the JSON reader then says why).
inline bool is_ncu_csv_file(const std::string& file) {
  std::string problem;
  const std::string text = napkin::read_file_text(file, problem);
  return problem.empty() && napkin::looks_like_ncu_csv(text);
}

// Whether `file` is nvbench's JSON (false when it cannot be read or parsed: the JSON reader then says why).
inline bool is_nvbench_json_file(const std::string& file) {
  std::string problem;
  const std::string text = napkin::read_file_text(file, problem);
  if (!problem.empty() || napkin::looks_like_ncu_csv(text)) return false;
  const napkin::json_read_result r = napkin::parse_json(text, file);
  return r.ok() && napkin::looks_like_nvbench_json(r.value);
}

// Whether `file` holds a run napkin imports (ncu's raw CSV, nvbench's JSON) rather than one of its documents.
inline bool is_imported_run_file(const std::string& file) {
  return is_ncu_csv_file(file) || is_nvbench_json_file(file);
}

// The run in `file`: an ncu raw CSV or nvbench's JSON becomes a kernel-reports run (its notes, what was left
// out, go to `notes`); anything else is read as napkin's JSON.
inline napkin::measured_run read_measured_run(const std::string& file, std::vector<std::string>* notes = nullptr) {
  const std::string text = run_file_text(file);
  if (napkin::looks_like_ncu_csv(text)) {
    napkin::ncu_csv_run ncu = napkin::read_ncu_csv(text, file);
    if (notes != nullptr)
      for (std::string& n : ncu.notes) notes->push_back(file + ": " + std::move(n));
    return {file, std::string(napkin::report_kind::kernel_reports), ncu.gpu, std::move(ncu.run)};
  }
  const napkin::json_read_result r = napkin::parse_json(text, file);
  if (!r.ok() && looks_like_other_csv(text)) throw usage_error(other_csv_problem(file));
  if (!r.ok()) throw usage_error(r.problem);
  if (napkin::looks_like_nvbench_json(r.value)) {
    napkin::nvbench_run nv = napkin::read_nvbench_json(r.value, file);
    if (notes != nullptr)
      for (std::string& n : nv.notes) notes->push_back(file + ": " + std::move(n));
    return {file, std::string(napkin::report_kind::kernel_reports), nv.gpu, std::move(nv.run)};
  }
  return napkin::read_run(r.value, file);
}

// The document in `file` for napkin diff: an ncu raw CSV or nvbench's JSON as the kernel-reports document
// napkin writes of it (one that does not read is a document with its problem, as a broken JSON file is).
inline napkin::report_document read_any_document(const std::string& file) {
  if (!is_imported_run_file(file)) {
    napkin::report_document d = napkin::read_document_file(file);
    std::string problem;
    if (!d.ok() && looks_like_other_csv(napkin::read_file_text(file, problem))) d.problem = other_csv_problem(file);
    return d;
  }
  napkin::report_document bad;
  bad.source = file;
  try {
    const napkin::measured_run run = read_measured_run(file);
    napkin::document_options o;
    o.gpu = run.gpu;
    napkin::report_document d = napkin::to_document(run.run, o);
    d.source = file;
    return d;
  } catch (const std::invalid_argument& e) {
    bad.problem = e.what();
  } catch (const usage_error& e) {  // the file could not be read
    bad.problem = e.what();
  }
  return bad;
}

}  // namespace napkin::cli
