// Fuzz target: the library's readers of documents the `napkin` tool did not write: a measured run's kernels
// (napkin/report/json_read_run.hpp), a monitor report (json_read_monitor.hpp), a GPU file's entries
// (json_read_gpus.hpp) and sampled source lines (json_read_source_lines.hpp), fed the input as JSON. Bad input must come back as napkin's input error
// (std::invalid_argument) naming where, never a crash, a hang or a number that
// cannot be: whatever a reader accepts has durations and rates of at least 0 and percentages of at most 1000.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <stdexcept>

#include "napkin/report/json_read_gpus.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/json_read_source_lines.hpp"

#include "fuzz_checks.hpp"

namespace {
void require_sane(std::optional<double> v, double most, const char* what) {
  if (v) fuzz::require(std::isfinite(*v) && *v >= 0 && *v <= most, what);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const napkin::json_read_result doc = napkin::parse_json(text, "fuzz.json");
  if (!doc.ok()) return 0;
  const napkin::json_value& root = doc.value;
  if (!root.is_object()) return 0;
  for (const char* member : {"kernels", "phases"}) {
    const napkin::json_value* list = root.find(member);
    if (list == nullptr || !list->is_array()) continue;
    for (const napkin::json_value& e : list->items()) {
      try {
        const napkin::sol_report r = napkin::detail::rebuild_report(e, "fuzz.json");
        require_sane(r.duration_ns(), 1e30, "a run's duration out of range");
        require_sane(r.sm_pct(), 1000, "a run's SM % out of range");
        require_sane(r.memory_pct(), 1000, "a run's Memory % out of range");
      } catch (const std::invalid_argument&) {
      }
    }
  }
  try {
    const napkin::monitor_report m = napkin::read_monitor_report(root, "fuzz.json");
    for (const auto* rows : {&m.kernels, &m.phases, &m.paths})
      for (const napkin::monitor_row& row : *rows) {
        fuzz::require(std::isfinite(row.mean_ns) && row.mean_ns >= 0, "a monitor row's mean time out of range");
        require_sane(row.sm_pct, 1000, "a monitor row's SM % out of range");
        require_sane(row.dram_bytes_per_s, 1e30, "a monitor row's DRAM rate out of range");
      }
  } catch (const std::invalid_argument&) {
  }
  try {  // accepted source lines write a document that reads back as the same report
    const napkin::source_lines_report lines = napkin::read_source_lines(root, "fuzz.json");
    const std::string written = napkin::to_json(lines);
    const napkin::json_read_result again = napkin::parse_json(written, "again.json");
    fuzz::require(again.ok(), "source lines written as JSON that does not parse");
    fuzz::require(napkin::to_json(napkin::read_source_lines(again.value, "again.json")) == written,
                  "source lines read back as another report");
  } catch (const std::invalid_argument&) {
  }
  if (const napkin::json_value* gpus = root.find("gpus"); gpus != nullptr && gpus->is_array()) {
    for (const napkin::json_value& entry : gpus->items()) {
      try {
        const napkin::file_gpu g = napkin::detail::read_gpu_entry(entry, "fuzz.json: gpus", "fuzz.json");
        fuzz::require(!g.spec.key.empty(), "a GPU accepted without a key");
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return 0;
}
