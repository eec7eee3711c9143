// Fuzz target: nvbench's JSON reader (napkin/report/nvbench_json_read.hpp) on any bytes, parsed as napkin's
// reader parses them (report/json_read.hpp). Invariants: bad input is napkin's input error
// (std::invalid_argument), never a crash; what it reads is finite, passes the documents' own check of
// measured numbers, and written as napkin's JSON reads back as the same values; diff() of the document with
// itself finds no regression.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/nvbench_json_read.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const napkin::json_read_result input = napkin::parse_json(text, "fuzz.json");
  if (!input.ok()) return 0;
  napkin::nvbench_run r;
  try {
    r = napkin::read_nvbench_json(input.value, "fuzz.json");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(!r.run.kernels.empty(), "a file read without error has states");
  for (const napkin::sol_report& k : r.run.kernels) {
    fuzz::require(k.how == napkin::measured_by::nvbench, "every report is nvbench's");
    for (const auto& [tag, value] : k.values)
      fuzz::require(napkin::detail::measured_number_problem(value, tag.find("pct") != std::string::npos).empty(),
                    "every value kept passes the check");
    for (const auto& [field, value] : k.derived)
      fuzz::require(napkin::detail::measured_number_problem(value, field.find("pct") != std::string::npos).empty(),
                    "every derived number passes the check");
  }
  napkin::document_options o;
  o.gpu = r.gpu;
  const napkin::json_read_result parsed = napkin::parse_json(napkin::to_json(r.run, o), "fuzz-doc.json");
  fuzz::require(parsed.ok(), "the document written parses");
  try {
    const napkin::measured_run back = napkin::read_run(parsed.value, "fuzz-doc.json");
    fuzz::require(back.run.kernels.size() == r.run.kernels.size(), "as many reports read back");
    for (std::size_t i = 0; i < back.run.kernels.size(); ++i) {
      fuzz::require(back.run.kernels[i].values == r.run.kernels[i].values, "the values read back");
      fuzz::require(back.run.kernels[i].derived == r.run.kernels[i].derived, "the derived numbers read back");
    }
  } catch (const std::invalid_argument&) {
    fuzz::require(false, "the document written reads back");
  }
  const napkin::report_document d = napkin::to_document(r.run, o);
  fuzz::require(!napkin::diff(d, d).regressed(), "a document is no regression of itself");
  return 0;
}
