// The report headers in a -fno-exceptions unit: writing every kind, reading broken JSON and diffing bad
// input all answer with a value (bad_input and a message), never an abort. Prints one line per check and
// exits 1 when one fails.
#include <cstdio>
#include <string>

#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "samples.hpp"

namespace {
int failed = 0;
void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  failed += ok ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace napkin;
  const std::string folder = argc > 1 ? argv[1] : ".";
  const report_document good = to_document(samples::sol("a", 1000));
  check(good.ok(), "a document in memory");
  check(read_document(to_json(samples::sol("a", 1000))).ok(), "its JSON read back");
  const char* broken[] = {"", "{", "{\"schema\": 5}", "[]", "{\"schema\": \"napkin.sol-report\", \"schema_version\": 99}",
                          "{\"a\": 1e999}", "nul", "\"\\ud800\""};
  for (const char* text : broken) {
    const report_document d = read_document(text, "broken.json");
    const report_diff r = diff(d, good);
    check(!d.ok() && r.exit_code() == 2 && r.problems.size() == 1, "bad input: " + (d.ok() ? "ok" : d.problem));
  }
  const report_document missing = read_document_file(folder + "/no-such-file.json");
  check(diff(good, missing).bad_input(), "a missing file: " + missing.problem);
  const report_document dir = read_document_file(folder);
  check(diff(good, dir).bad_input(), "a folder: " + dir.problem);
  check(diff(good, to_document(samples::sol("a", 2000))).regressed(), "a regression");
  const std::string all = to_json(next_step(limits_of({9, 0}), 256, {32})) + to_json(gpus::h100_sxm) +
                          to_json(make_estimate_report("s", softmax(64, 64), gpus::h100_sxm, pipe::fp32)) +
                          to_csv(kernel_reports{{samples::sol("k", 1), samples::one_pass("p")}, 0, {}});
  check(!all.empty(), "every kind written");
  return failed == 0 ? 0 : 1;
}
