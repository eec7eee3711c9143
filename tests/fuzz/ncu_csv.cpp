// Fuzz target: Nsight Compute's raw CSV reader (napkin/report/ncu_csv_read.hpp) on any bytes. Invariants: bad
// input is napkin's input error (std::invalid_argument), never a crash; what it reads is finite, passes the
// documents' own check of measured numbers, and written as napkin's JSON reads back as the same values.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/ncu_csv_read.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  napkin::ncu_csv_run r;
  try {
    r = napkin::read_ncu_csv(text, "fuzz.csv");
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(!r.run.kernels.empty(), "a file read without error has kernels");
  for (const napkin::sol_report& k : r.run.kernels)
    for (const auto& [metric, value] : k.values)
      fuzz::require(napkin::detail::measured_number_problem(value, metric.find("pct") != std::string::npos).empty(),
                    "every value kept passes the documents' check");
  const napkin::json_read_result parsed = napkin::parse_json(napkin::to_json(r.run), "fuzz.json");
  fuzz::require(parsed.ok(), "the document written parses");
  try {
    const napkin::measured_run back = napkin::read_run(parsed.value, "fuzz.json");
    fuzz::require(back.run.kernels.size() == r.run.kernels.size(), "as many kernels read back");
    for (std::size_t i = 0; i < back.run.kernels.size(); ++i)
      fuzz::require(back.run.kernels[i].values == r.run.kernels[i].values, "the values read back");
  } catch (const std::invalid_argument&) {
    fuzz::require(false, "the document written reads back");
  }
  return 0;
}
