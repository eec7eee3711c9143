// Fuzz target: napkin's report documents read back from hostile JSON (napkin/report/json_read.hpp), the
// input of `napkin diff`, `napkin report` and `napkin merge`. The bytes are parsed, flattened, diffed against
// themselves and against a real document, and rendered as text; bad input must come back as a problem,
// never a crash, a hang or quadratic work (the sanitizers and libFuzzer's timeout catch those). Invariants:
// a document diffed against itself never regresses; entity names within a document are unique (duplicates
// get " #2", " #3", ..., never a name another entity has); the text of a diff holds no control character
// but line breaks (names are shown through printable).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const napkin::report_document d = napkin::read_document(text, "fuzz.json");
  const napkin::report_diff self = napkin::diff(d, d);
  fuzz::require(!self.regressed(), "a document diffed against itself regressed");
  std::set<std::string> names;
  for (const napkin::report_entity& e : d.entities)
    fuzz::require(names.insert(e.name).second, "two entities of one name");
  napkin::kernel_reports k;
  napkin::sol_report r;
  r.name = "k";
  r.chip = "GH100";
  r.metric_set = "sol";
  k.kernels = {r};
  const napkin::report_diff other = napkin::diff(napkin::to_document(k), d);
  fuzz::require(fuzz::no_control_characters(napkin::to_text(self)) &&
                    fuzz::no_control_characters(napkin::to_text(other)),
          "a control character in the text of a diff");
  fuzz::require(fuzz::no_control_characters(napkin::printable(text)),
                "printable() let a control character through");
  return 0;
}
