// Code that must not compile (tests/nvtx/CMakeLists.txt builds each NAPKIN_CASE_ID alone and matches the
// diagnostic). Case 0 must compile, in every configuration the cases run in.
#include <napkin/nvtx.hpp>

#include <string>

void instrumented(int i, const std::string& runtime_text) {
  (void)i;
  (void)runtime_text;
#if NAPKIN_CASE_ID == 0  // every good form
  napkin::range a{"layer {}", i};
  napkin::range b{NAPKIN_FMT("layer {} of {}, {{escaped}}"), i, i};
  napkin::range c{napkin::runtime_format(runtime_text), i};
  napkin::range d{napkin::format("x{}", i), napkin::payload{i}};
  auto u = napkin::unique_range{"request {}", 7};
  napkin::mark(NAPKIN_FMT("{}"), i);
  napkin::mark("{}", i);
#elif NAPKIN_CASE_ID == 1  // a literal with more {} than arguments (C++20; C++17 with Clang)
  napkin::range r{"layer {} {}", i};
#elif NAPKIN_CASE_ID == 2  // fewer {} than arguments
  napkin::range r{"layer", i};
#elif NAPKIN_CASE_ID == 3  // a format specification napkin does not support
  napkin::range r{"layer {:>4}", i};
#elif NAPKIN_CASE_ID == 4  // NAPKIN_FMT: checked in every standard
  napkin::range r{NAPKIN_FMT("layer {} {}"), i};
#elif NAPKIN_CASE_ID == 5
  napkin::range r{NAPKIN_FMT("layer"), i};
#elif NAPKIN_CASE_ID == 6
  napkin::range r{NAPKIN_FMT("layer }"), i};
#elif NAPKIN_CASE_ID == 7  // every entry point that takes a format checks it
  auto u = napkin::unique_range{"request {} {}", i};
#elif NAPKIN_CASE_ID == 8
  napkin::mark("checkpoint {", i);
#elif NAPKIN_CASE_ID == 9
  napkin::range r{napkin::format("x{}{}", i)};
#elif NAPKIN_CASE_ID == 10  // a range thrown away at once (it would close before the work it names)
  napkin::range{"x"};
#elif NAPKIN_CASE_ID == 11
  napkin::range{"layer {}", i};
#elif NAPKIN_CASE_ID == 12
  napkin::unique_range{"x"};
#elif NAPKIN_CASE_ID == 13  // C++20: a format that is not a constant needs napkin::runtime_format
  napkin::range r{runtime_text, i};
#endif
}
