// Fuzz target: the `napkin` CLI's sizes and counts (tools/napkin/parse.hpp), "4096", "8K", "2^28", "00".
// Calls napkin::cli::parse_count(text, what) and napkin::cli::parse_size(text, what) on the input; bad
// input must end in napkin::cli::usage_error, never a crash (the sanitizers catch memory errors, overflow
// and stack exhaustion). Where the input is in the documented grammar (digits with an optional K, M, G or T,
// or one power a^b of two such numbers) the value must be the one computed below, independently, in
// 128-bit arithmetic: a wrong number is a finding too, and so is refusing a valid quantity of at most
// 24 characters (longer ones, e.g. with many leading zeros, may be refused for their length).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "parse.hpp"
#include "sweep.hpp"

namespace {

__extension__ typedef __int128 i128;  // wide enough that nothing below overflows
constexpr i128 int64_max = std::numeric_limits<std::int64_t>::max();

// The documented grammar's value of digits with an optional binary suffix: nullopt when `s` is outside
// it; a value above INT64_MAX means "too large".
std::optional<i128> plain_value(const std::string& s) {
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0 || digits + 1 < s.size()) return std::nullopt;
  i128 v = 0;
  for (std::size_t i = 0; i < digits; ++i) v = v > int64_max ? v : v * 10 + (s[i] - '0');
  if (digits == s.size()) return v;
  int shift = 0;
  switch (s[digits]) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return std::nullopt;
  }
  return v > int64_max ? v : v << shift;
}

// a^b for 1 <= a, 1 <= b (0^b and a^0 are left to the parser's own rules).
std::optional<i128> power_value(const std::string& s) {
  const std::size_t caret = s.find('^');
  if (caret == std::string::npos || s.find('^', caret + 1) != std::string::npos) return std::nullopt;
  const auto a = plain_value(s.substr(0, caret)), b = plain_value(s.substr(caret + 1));
  if (!a || !b || *a < 1 || *b < 1) return std::nullopt;
  if (*a > int64_max || *b > int64_max) return int64_max + 1;  // a number that does not fit is refused
  if (*a == 1) return 1;
  if (*b > 64) return int64_max + 1;  // 2^64 and up do not fit
  i128 v = 1;
  for (i128 i = 0; i < *b && v <= int64_max; ++i) v *= *a;
  return v;
}

[[noreturn]] void finding(const std::string& text, const char* what) {
  std::fprintf(stderr, "fuzz_cli_numbers: '%s': %s\n", text.c_str(), what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<std::int64_t> count, size_value;
  try {
    count = napkin::cli::parse_count(text, "N");
  } catch (const napkin::cli::usage_error&) {
  }
  try {
    size_value = napkin::cli::parse_size(text, "N");
  } catch (const napkin::cli::usage_error&) {
  }
  if (count && *count < 0) finding(text, "negative count");
  if (size_value && *size_value <= 0) finding(text, "size not positive");
  if (size_value && (!count || *count != *size_value)) finding(text, "size and count disagree");
  if (count && *count > 0 && !size_value) finding(text, "positive count refused as a size");

  // Durations, rates, compute capabilities and size sweeps take the same text: whatever they accept is a
  // number that can be (a duration within 1 ps..1e6 s, a positive finite rate, a sweep of positive sizes).
  try {
    const double s = napkin::cli::parse_duration(text, "--time");
    if (!(s >= 1e-12 && s <= 1e6)) finding(text, "a duration out of 1 ps..1e6 s");
  } catch (const napkin::cli::usage_error&) {
  }
  try {
    const double r = napkin::cli::parse_rate(text, "--bandwidth", "B/s");
    if (!(r > 0) || !std::isfinite(r)) finding(text, "a rate that is not positive and finite");
  } catch (const napkin::cli::usage_error&) {
  }
  try {
    (void)napkin::cli::parse_cc(text);
  } catch (const napkin::cli::usage_error&) {
  }
  try {
    const napkin::cli::size_axis axis = napkin::cli::parse_axis(text, "M");
    if (axis.values.empty() || axis.values.size() > napkin::cli::max_sweep_cases) finding(text, "a sweep's size");
    for (std::int64_t v : axis.values)
      if (v <= 0) finding(text, "a sweep with a size that is not positive");
  } catch (const napkin::cli::usage_error&) {
  }

  std::optional<i128> expected = text.find('^') == std::string::npos ? plain_value(text) : power_value(text);
  if (expected) {
    if (*expected > int64_max) {
      if (count) finding(text, "accepted a value above INT64_MAX");
    } else if (count && *count != *expected) {
      finding(text, "wrong value");
    } else if (!count && text.size() <= 24) {
      finding(text, "refused a valid quantity");
    }
  }
  return 0;
}
