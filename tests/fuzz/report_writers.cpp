// Fuzz target: the writers people open, HTML (a run's page), CSV and text, fed kernel names from the input
// (split at '\n': up to three kernels, the third also a baseline's). Invariants, whatever the names: the page
// never holds a tag a name opened ("<napkin-fuzz" is prefixed to each name), nor a raw bidirectional override
// or control character other than line breaks; every CSV record has the header's field count (RFC 4180
// quoting) and no cell a spreadsheet would read as a formula unquoted; text holds no control character but
// line breaks. Each report has two sections (report_section) whose words are the kernel's name.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/profiler/report.hpp"
#include "napkin/report.hpp"

#include "fuzz_checks.hpp"

namespace {
// Fields per record of an RFC 4180 document with CRLF line ends; -1 when malformed.
std::vector<int> csv_field_counts(const std::string& csv) {
  std::vector<int> counts;
  int fields = 1;
  bool quoted = false;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') ++i;
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      ++fields;
    } else if (c == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') {
      counts.push_back(fields);
      fields = 1;
      ++i;
    }
  }
  if (quoted) counts.push_back(-1);
  return counts;
}

napkin::sol_report kernel(std::string name, double scale) {
  napkin::sol_report r;
  r.name = std::move(name);
  r.chip = "GH100";
  r.metric_set = "sol";
  r.values[napkin::metric::duration_ns] = 1000 * scale;
  r.values[napkin::metric::sm_throughput_pct] = 40;
  r.values[napkin::metric::memory_throughput_pct] = 70 * scale > 100 ? 100 : 70 * scale;
  r.values[napkin::metric::dram_throughput_pct] = 65;
  r.values[napkin::metric::dram_bytes] = 1e6;
  r.derivations["sm_pct"] = "max of " + r.name;  // a derivation names what it used: a name may be in it
  return r;
}

// Report sections whose words come from the input (the kernel's name): a title, labels, a unit, findings;
// one a section of shares (drawn as a stacked bar).
std::optional<napkin::report_section> named_section(const napkin::sol_report& r) {
  napkin::report_section s;
  s.name = "memory";
  s.title = r.name;
  s.numbers = {{"l1_hit_rate_pct", r.name, 50.0, r.name, napkin::better::higher}};
  s.findings = {r.name};
  return s;
}
std::optional<napkin::report_section> share_section(const napkin::sol_report& r) {
  napkin::report_section s;
  s.name = "warp_state";
  s.title = "stalls of " + r.name;
  s.shares = true;
  s.numbers = {{"a_share_pct", r.name, 60.0, "%", napkin::better::none},
               {"b_share_pct", "b " + r.name, 40.0, r.name, napkin::better::none}};
  s.findings = {"top: " + r.name};
  return s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // names, not documents
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> names;
  std::size_t start = 0;
  while (names.size() < 3) {
    const std::size_t end = input.find('\n', start);
    const std::size_t length = end == std::string_view::npos ? end : end - start;
    names.push_back("<napkin-fuzz" + std::string(input.substr(start, length)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  napkin::kernel_reports run;
  for (std::size_t i = 0; i < names.size(); ++i) run.kernels.push_back(kernel(names[i], 1.0 + double(i)));
  napkin::report_page page;
  page.title = names.front();
  page.kernels = run.kernels;
  page.baseline = std::vector<napkin::sol_report>{kernel(names.back(), 2.0)};
  page.sections = {&named_section, &share_section};
  const std::string html = napkin::to_html(page);
  fuzz::require(html.find("<napkin-fuzz") == std::string::npos, "a name opened a tag in the HTML page");
  fuzz::require(fuzz::no_control_characters(html, true), "a raw control or bidi character in the HTML page");

  const std::string csv = napkin::to_csv(run);
  const std::vector<int> counts = csv_field_counts(csv);
  fuzz::require(!counts.empty(), "an empty CSV");
  for (int n : counts) fuzz::require(n == counts.front(), "a CSV record with another field count than the header's");
  fuzz::require(csv.find("\r\n=") == std::string::npos, "a formula cell left unquoted");
  const std::string sections_csv = napkin::to_sections_csv(run.kernels, page.sections);
  const std::vector<int> section_counts = csv_field_counts(sections_csv);
  for (int n : section_counts) fuzz::require(n == 7, "a sections CSV record without its 7 fields");
  fuzz::require(sections_csv.find("\r\n=") == std::string::npos, "a formula cell left unquoted in the sections");

  for (const napkin::sol_report& r : run.kernels)
    fuzz::require(fuzz::no_control_characters(napkin::to_text(r, page.sections)),
                  "a control character in a report's text");
  const napkin::report_document doc = napkin::to_document(run);
  fuzz::require(fuzz::no_control_characters(napkin::to_text(napkin::diff(doc, doc))),
          "a control character in a diff's text");
  return 0;
}
