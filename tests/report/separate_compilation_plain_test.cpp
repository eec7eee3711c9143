// NAPKIN_SEPARATE_COMPILATION=1 in a program without CUDA: napkin math, occupancy and the reports declared here,
// their bodies compiled by the one unit that includes napkin/compiled_plain.hpp
// (separate_compilation_plain_bodies.cpp). The target links no CUDA library and has no toolkit on its include
// path, so that the plain-C++ layers need no toolkit with the switch either.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report.hpp"
#include "samples.hpp"

#if !NAPKIN_SEPARATE_COMPILATION
#error "this unit is built with NAPKIN_SEPARATE_COMPILATION=1 (tests/report/CMakeLists.txt)"
#endif
#if defined(__CUDA_RUNTIME_API_H__) || defined(__cuda_cuda_h__) || defined(_CUPTI_H_)
#error "a plain-C++ napkin header brought a CUDA or CUPTI header"
#endif

TEST_CASE("separately compiled without CUDA: numbers as text, from the plain bodies") {
  // The values of number_text's cases.
  CHECK(napkin::significant(682.666) == "682.7");
  CHECK(napkin::percent(81.06) == "81.1%");
  CHECK(napkin::duration(2.779e-3) == "2.78 ms");
}

TEST_CASE("separately compiled without CUDA: occupancy's refusals carry their numbers") {
  napkin::sm_limits l = napkin::limits_of({9, 0});
  l.max_threads_per_block = 0;
  CHECK_THROWS_AS(napkin::occupancy(l, 256, napkin::kernel_resources{32}), std::invalid_argument);
  const std::string text = napkin::to_text(napkin::limits_of({9, 0}), 256, napkin::kernel_resources{32});
  CHECK(text.find("CC 9.0: ") == 0);
}

TEST_CASE("separately compiled without CUDA: a report's document, text and Markdown") {
  const napkin::sol_report r = samples::sol("softmax", 2000.0);
  const std::string json = napkin::to_json(r);
  CHECK(json.find("\"kind\": \"sol-report\"") != std::string::npos);
  CHECK(json.find("\"name\": \"softmax\"") != std::string::npos);
  CHECK(napkin::document_markdown(napkin::document_value(r)).find("softmax") != std::string::npos);
}
