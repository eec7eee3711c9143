// Report sections (napkin/profiler/sections/): what a section may hold (validate_section, check_section),
// sections_of with makers defined here (tests/report/section_samples.hpp), the diff directions they declare,
// and the text (section_text.hpp, and the profiler's to_text of a report with sections). Expected numbers
// come from the inputs set in each test.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "math/error_message.hpp"
#include "napkin/profiler/report.hpp"
#include "napkin/profiler/sections/section_text.hpp"
#include "napkin/profiler/sections/sections.hpp"
#include "support/text.hpp"
#include "report/samples.hpp"
#include "report/section_samples.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {

report_section good() {
  report_section s;
  s.name = "memory";
  s.title = "Memory chart";
  s.numbers = {{"l1_hit_rate_pct", "L1/TEX hit rate", 50.0, "%", better::higher}};
  return s;
}

// Makers that break a rule, for sections_of.
std::optional<report_section> none_maker(const sol_report&) { return std::nullopt; }
std::optional<report_section> memory_again(const sol_report& r) { return section_samples::memory(r); }
std::optional<report_section> wrong_direction(const sol_report&) {
  report_section s = good();
  s.numbers[0].direction = better::lower;  // the table says higher
  return s;
}
std::optional<report_section> unlisted_direction(const sol_report&) {
  report_section s = good();
  s.numbers.push_back({"made_up_cycles", "Made up", 1.0, "cycles", better::lower});  // not in the table
  return s;
}
std::optional<report_section> bad_value(const sol_report&) {
  report_section s = good();
  s.numbers[0].value = std::numeric_limits<double>::infinity();
  return s;
}

}  // namespace

TEST_CASE("a section is checked: names, fields, values, shares, findings") {
  CHECK(validate_section(good()).empty());
  const auto problem = [](auto change) {
    report_section s = good();
    change(s);
    return validate_section(s);
  };
  CHECK(contains(problem([](report_section& s) { s.name = ""; }), "a section's name is snake_case"));
  CHECK(contains(problem([](report_section& s) { s.name = "Memory"; }), "a section's name is snake_case"));
  CHECK(contains(problem([](report_section& s) { s.name = "mem.ory"; }), "a section's name is snake_case"));
  CHECK(contains(problem([](report_section& s) { s.title = ""; }), "no title"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].field = ""; }), "a field name is snake_case"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].field = "l1 hit"; }), "a field name is snake_case"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].field = "about"; }), "\"about\" is the member"));
  CHECK(contains(problem([](report_section& s) { s.numbers.push_back(s.numbers[0]); }),
                 "number 2 \"l1_hit_rate_pct\": the field is given twice (numbers 1 and 2)"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].label = ""; }), "no label"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].value = std::nan(""); }),
                 "the value must be finite or missing, got nan"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].value = -1.0; }), "must not be negative, got -1"));
  CHECK(contains(problem([](report_section& s) { s.numbers[0].value = 2000.0; }), "a percentage above 1000"));
  CHECK(contains(problem([](report_section& s) { s.shares = true; }),
                 "a section of shares has no share (a field ending in _share_pct)"));
  CHECK(contains(problem([](report_section& s) {
                   s.numbers.push_back({"barrier_share_pct", "Barrier", 5.0, "%", better::higher});
                 }),
                 "a share of a whole has no better direction (declared higher)"));
  CHECK(contains(problem([](report_section& s) {
                   s.shares = true;
                   s.numbers = {{"barrier_share_pct", "Barrier", -3.0, "%", better::none}};
                 }),
                 "must not be negative, got -3"));
  CHECK(contains(problem([](report_section& s) { s.findings = {"fine", ""}; }), "finding 2 is empty"));
  // A missing value is allowed; check_section raises napkin's input error with the same words.
  CHECK(validate_section([] { report_section s = good(); s.numbers[0].value.reset(); return s; }()).empty());
  report_section bad = good();
  bad.numbers[0].label = "";
  CHECK_THROWS_AS(check_section(bad), std::invalid_argument);
  CHECK(error_message([&] { check_section(bad); }) ==
        "napkin: section \"memory\", number 1 \"l1_hit_rate_pct\": no label");
}

TEST_CASE("sections_of: each maker's section in order, none for missing metrics, and each rule enforced") {
  CHECK(default_section_makers().size() == 5);  // verdict, warp state, pipes, memory, occupancy
  const sol_report plain = samples::sol("k", 1000);
  CHECK(sections_of(plain).empty());  // a SOL report holds none of their metrics
  CHECK(sections_of(plain, section_samples::makers()).empty());  // the makers' metrics are missing

  const sol_report r = section_samples::with_metrics(plain, 87.5, 800, 200, 60, 30, 10);
  const std::vector<report_section> s = sections_of(r, section_samples::makers());
  REQUIRE(s.size() == 2);
  CHECK(s[0].name == "memory");
  CHECK(s[1].name == "warp_state");
  CHECK(*s[0].number("l1_hit_rate_pct")->value == 87.5);
  CHECK(*s[0].number("global_load_sectors_per_request")->value == 4.0);  // 800 / 200
  CHECK(!s[0].number("l2_hit_rate_pct")->value);
  CHECK(*s[1].number("long_scoreboard_share_pct")->value == doctest::Approx(60.0));  // 60 of 100
  CHECK(s[0].number("nothing") == nullptr);

  // Only the maker whose metrics are there.
  sol_report only_memory = r;
  only_memory.values.erase(section_samples::stall_barrier);
  REQUIRE(sections_of(only_memory, section_samples::makers()).size() == 1);

  CHECK(sections_of(r, {&none_maker}).empty());
  CHECK(error_message([&] { sections_of(r, {&section_samples::memory, &memory_again}); }) ==
        "napkin: two section makers made a section \"memory\"");
  CHECK(error_message([&] { sections_of(r, {&wrong_direction}); }) ==
        "napkin: section \"memory\", field \"l1_hit_rate_pct\" is better lower, but section_field_directions() says "
        "higher: diff() would judge it otherwise");
  CHECK(contains(error_message([&] { sections_of(r, {&unlisted_direction}); }),
                 "field \"made_up_cycles\" is better lower, but section_field_directions() says none"));
  CHECK(contains(error_message([&] { sections_of(r, {&bad_value}); }), "the value must be finite or missing, got inf"));
  CHECK(error_message([&] { sections_of(r, {nullptr}); }) == "napkin: a section maker is a null function pointer");
}

TEST_CASE("each section field's direction for diff, by its flattened name") {
  CHECK(section_field_direction("sections.memory.l1_hit_rate_pct") == better::higher);
  CHECK(section_field_direction("sections.memory.global_load_sectors_per_request") == better::lower);
  CHECK(section_field_direction("sections.occupancy.achieved_occupancy_pct") == better::higher);
  CHECK(section_field_direction("sections.warp_state.long_scoreboard_share_pct") == better::none);
  CHECK(section_field_direction("sections.memory.global_load_requests") == better::none);  // not listed
  CHECK(section_field_direction("sections.pipes.l1_hit_rate_pct") == better::none);  // another section's field
  CHECK(section_field_direction("sections.memory") == better::none);
  CHECK(section_field_direction("sections.memory.l1_hit_rate_pct.more") == better::none);
  CHECK(section_field_direction("memory.l1_hit_rate_pct") == better::none);
  CHECK(section_field_direction("") == better::none);
  // A share never has one, even if a table entry said otherwise.
  for (const section_field_direction_entry& e : section_field_directions()) {
    CHECK_MESSAGE(!detail::is_share_field(e.field), e.field);
    CHECK_MESSAGE(detail::is_snake_case_name(e.section), e.section);
    CHECK_MESSAGE(detail::is_snake_case_name(e.field), e.field);
  }
  CHECK(to_string(better::lower) == "lower");
  CHECK(to_string(static_cast<better>(7)) == "unknown");
}

TEST_CASE("a section as text: a table, shares sorted with a bar, findings") {
  const sol_report r = section_samples::with_metrics(samples::sol("k", 1000), 87.5, 800, 200, 60, 30, 10);
  const std::vector<report_section> s = sections_of(r, section_samples::makers());
  REQUIRE(s.size() == 2);

  const std::string memory = to_text(s[0]);
  CHECK(memory.rfind("    Section: Memory chart\n", 0) == 0);
  CHECK(contains(memory, "    L1/TEX hit rate"));
  CHECK(contains(memory, "87.50\n"));                 // a percentage with two decimals
  CHECK(contains(memory, "sectors/request"));
  CHECK(contains(memory, "4\n"));                     // 800 / 200, a whole number
  CHECK(contains(memory, "L2 hit rate"));
  CHECK(contains(memory, "n/a\n"));                   // not measured
  CHECK(contains(memory, "      - global loads read 4.000 sectors per request\n"));

  // Shares: the number that is no share first, without a bar; then the parts largest first (60, 30, 10 of
  // 100), each bar 20 characters with its part of the whole in '#'.
  const std::string stalls = to_text(s[1]);
  const std::size_t cycles = stalls.find("Warp cycles per issued instruction"), lsb = stalls.find("Long scoreboard"),
                    barrier = stalls.find("Barrier"), mio = stalls.find("MIO throttle");
  REQUIRE(lsb != std::string::npos);
  CHECK(cycles < lsb);
  const std::string cycles_line = stalls.substr(cycles, stalls.find('\n', cycles) - cycles);
  CHECK(cycles_line.substr(cycles_line.size() - 5) == "12.50");  // no bar, no part of the whole after it
  CHECK(contains(cycles_line, " cycles "));
  CHECK(!contains(cycles_line, "#"));
  CHECK(lsb < barrier);
  CHECK(barrier < mio);
  CHECK(contains(stalls, "############........  60%"));  // 0.6 x 20 = 12
  CHECK(contains(stalls, "######..............  30%"));  // 0.3 x 20 = 6
  CHECK(contains(stalls, "##..................  10%"));  // 0.1 x 20 = 2

  // The report's text: unchanged without sections, the sections appended with them.
  const std::string plain = to_text(r, {});
  CHECK(to_text(r) == plain);  // default_section_makers() is empty
  CHECK(!contains(plain, "Section: Memory chart"));
  CHECK(to_text(r, section_samples::makers()) == plain + memory + stalls);
  const sol_report disagreeing = section_samples::with_metrics(samples::disagreeing("c"), 10, 1, 1, 1, 1, 1);
  CHECK(contains(to_text(disagreeing, section_samples::makers()), "Verdict: none"));
  CHECK(contains(to_text(disagreeing, section_samples::makers()), "Section: Warp state"));

  // Names from outside are printable (a control character never reaches the terminal).
  report_section hostile = s[0];
  hostile.title = "Memory\x1b[2J chart";
  hostile.findings = {"bad\x07 bell"};
  const std::string safe = to_text(hostile);
  CHECK(!contains(safe, "\x1b"));
  CHECK(!contains(safe, "\x07"));
  // A bad section is refused, not printed.
  hostile.numbers[0].field = "L1";
  CHECK_THROWS_AS(to_text(hostile), std::invalid_argument);
}

TEST_CASE("section values for people") {
  const auto text = [](std::optional<double> v, const char* unit) {
    return section_value_text({"f", "F", v, unit, better::none});
  };
  CHECK(text(std::nullopt, "%") == "n/a");
  CHECK(text(61.234, "%") == "61.23");
  CHECK(text(32, "warps") == "32");
  CHECK(text(2.5, "sectors/request") == "2.500");
  CHECK(text(1.25e7, "") == "12.50 M");
}
