// Fuzz target: the SVG writer alone (napkin/report/roofline_svg.hpp, the roofline chart of
// roofline_chart.hpp; report_writers covers the HTML page that embeds it, but checks it for tags and
// control characters only). The input, split at '\n': the title, then up to four points and an extra
// memory level, each line "<two bytes of position><label>"; points 0 and 1 are a before/after pair.
// Invariants, whatever the names: the SVG is well-formed XML (every tag closed in order, attribute values
// quoted and free of '<', every '&' an entity), no name opens a tag ("<napkin-fuzz" is prefixed to each),
// and no raw control character or bidirectional override is left.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/math/gpu_table.hpp"
#include "napkin/report/roofline_svg.hpp"

#include "fuzz_checks.hpp"

namespace {
bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == ':' || c == '.';
}

// "&name;" or "&#123;" or "&#x1F;" at `i`.
bool entity_at(const std::string& s, std::size_t i) {
  std::size_t j = i + 1;
  if (j < s.size() && s[j] == '#') ++j;
  const std::size_t start = j;
  while (j < s.size() && name_char(s[j])) ++j;
  return j > start && j < s.size() && s[j] == ';';
}

// Whether `s` is one well-formed XML element (comments and a declaration allowed around it).
bool well_formed(const std::string& s) {
  std::vector<std::string> open;
  std::size_t roots = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '&') {
      if (!entity_at(s, i)) return false;
      ++i;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      const std::size_t end = s.find("-->", i + 4);
      if (end == std::string::npos) return false;
      i = end + 3;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    const std::size_t name_start = j;
    while (j < s.size() && name_char(s[j])) ++j;
    if (j == name_start) return false;
    const std::string name = s.substr(name_start, j - name_start);
    if (closing) {
      if (open.empty() || open.back() != name || j >= s.size() || s[j] != '>') return false;
      open.pop_back();
      i = j + 1;
      continue;
    }
    if (open.empty() && roots++ > 0) return false;
    // Attributes: name="value", value without '<' and with every '&' an entity.
    for (;;) {
      while (j < s.size() && (s[j] == ' ' || s[j] == '\n')) ++j;
      if (j >= s.size()) return false;
      if (s[j] == '>') {
        open.push_back(name);
        i = j + 1;
        break;
      }
      if (s.compare(j, 2, "/>") == 0) {
        i = j + 2;
        break;
      }
      const std::size_t attr = j;
      while (j < s.size() && name_char(s[j])) ++j;
      if (j == attr || j + 1 >= s.size() || s[j] != '=' || s[j + 1] != '"') return false;
      const std::size_t end = s.find('"', j + 2);
      if (end == std::string::npos) return false;
      for (std::size_t k = j + 2; k < end; ++k)
        if (s[k] == '<' || (s[k] == '&' && !entity_at(s, k))) return false;
      j = end + 1;
    }
  }
  return open.empty() && roots == 1;
}

// 10^(b/16 - 4) for a byte b: 1e-4 .. ~1e12, positive and finite as a log axis needs.
double position(unsigned char b) { return std::pow(10.0, b / 16.0 - 4.0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // names, not documents
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (lines.size() < 6) {
    const std::size_t end = input.find('\n', start);
    lines.push_back(input.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  napkin::roofline_chart chart = napkin::make_roofline_chart(napkin::find_gpu("h100-sxm"), "<napkin-fuzz" + std::string(lines[0]));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const unsigned char x = line.size() > 0 ? static_cast<unsigned char>(line[0]) : 64;
    const unsigned char y = line.size() > 1 ? static_cast<unsigned char>(line[1]) : 200;
    const std::string label = "<napkin-fuzz" + std::string(line.substr(line.size() > 2 ? 2 : line.size()));
    if (i == 5) {
      napkin::add_bandwidth_ceiling(chart, label, position(y) * 1e3);
      break;
    }
    napkin::add_point(chart, {label, position(x), position(y) * 1e3,
                              i % 2 == 0 ? napkin::point_source::estimate : napkin::point_source::measured});
  }
  if (chart.points.size() >= 2) napkin::add_pair(chart, 0, 1);
  const std::string svg = napkin::to_svg(chart);
  fuzz::require(svg.find("<napkin-fuzz") == std::string::npos, "a name opened a tag in the SVG");
  fuzz::require(fuzz::no_control_characters(svg, true), "a raw control or bidi character in the SVG");
  fuzz::require(well_formed(svg), "the SVG is not well-formed XML");
  return 0;
}
