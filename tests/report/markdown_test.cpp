// report/markdown.hpp and text/markdown.hpp: escaping, the pipe table, a document and a diff as GitHub
// Markdown. Expected numbers are hand arithmetic (the comment above each).
#include <doctest/doctest.h>

#include <string>

#include "napkin/math.hpp"
#include "napkin/report.hpp"
#include "support/text.hpp"
#include "samples.hpp"

using namespace napkin;
using napkin_test::contains;

namespace {
}  // namespace

TEST_CASE("markdown_escape: a name from a file ends no cell and starts no markup") {
  CHECK(markdown_escape("a|b *c*") == "a\\|b \\*c\\*");
  CHECK(markdown_escape("load<\"a\"&b>") == "load\\<\"a\"\\&b\\>");
  CHECK(markdown_escape("f(float *, int)") == "f(float \\*, int)");
  CHECK(markdown_escape("_Z3fooPf [x] `y` ~z~ $w$") == "\\_Z3fooPf \\[x\\] \\`y\\` \\~z\\~ \\$w\\$");
  CHECK(markdown_escape("a\\b") == "a\\\\b");
  // Terminal controls and bidi overrides are shown, never sent (printable()), then escaped.
  CHECK(markdown_escape("k\x1b[31m") == "k\\\\x1b\\[31m");
  CHECK(markdown_escape("ab\xE2\x80\xAE") == "ab\\<U+202E\\>");
}

TEST_CASE("markdown_code: a member name as code; a '|' keeps its backslash, a backtick falls back") {
  CHECK(markdown_code("sm_pct") == "`sm_pct`");
  CHECK(markdown_code("a|b") == "`a\\|b`");
  CHECK(markdown_code("a`b") == "a\\`b");
}

TEST_CASE("markdown_table: header, alignment row, rows as wide as the header, no line break in a cell") {
  CHECK(markdown_table({"field", "value"}, {false, true}, {{"flop", "137.4 GFLOP"}, {"x"}, {"a\nb", "1", "extra"}}) ==
        "| field | value |\n"
        "|:---|---:|\n"
        "| flop | 137.4 GFLOP |\n"
        "| x |  |\n"
        "| a b | 1 |\n");
}

TEST_CASE("document_markdown: one entity reads down, its verdict first, numbers in their units") {
  // 4096³ fp16 GEMM: 2·4096³ = 137,438,953,472 FLOP = 137.4 GFLOP; 3·4096²·2 B = 100,663,296 B = 100.7 MB;
  // 137.4e9 / 989.4e12 FLOP/s = 138.91 µs of math, 100.7e6 / 3.35e12 B/s = 30.05 µs of memory: compute-bound.
  const estimate_report e =
      make_estimate_report("gemm 4096", gemm(4096, 4096, 4096, dtype::fp16), gpus::h100_sxm, pipe::fp16_tensor);
  const std::string md = document_markdown(document_value(e));
  CHECK(md.rfind("### napkin estimate: gemm 4096\n\nGPU: h100-sxm (H100 SXM5 80GB, CC 9.0)\n\n"
                 "| field | value |\n|:---|---:|\n| `bound` | **compute-bound** |\n",
                 0) == 0);
  CHECK(contains(md, "\n| `workload.flop` | 137.4 GFLOP |\n"));
  CHECK(contains(md, "\n| `workload.bytes` | 100.7 MB |\n"));
  CHECK(contains(md, "\n| `peak_flop_per_s` | 989.4 TFLOP/s |\n"));
  CHECK(contains(md, "\n| `compute_s` | 138.91 us |\n"));
  CHECK(contains(md, "\n| `memory_s` | 30.05 us |\n"));
  CHECK(contains(md, "\n| `lower_bound_s` | 138.91 us |\n"));
}

TEST_CASE("document_markdown: several entities, one row each; escaped names") {
  kernel_reports k;
  k.kernels = {samples::sol("a|b", 1000), samples::sol("c", 2000)};
  const std::string md = document_markdown(document_value(k));
  CHECK(contains(md, "### napkin kernel-reports\n"));
  // Few entities and many members: one column per kernel, one row per member.
  CHECK(contains(md, "| field | a\\|b | c |\n|:---|---:|---:|\n"));
  CHECK(contains(md, "\n| `duration_ns` | 1.00 us | 2.00 us |\n"));
  CHECK(contains(md, "\n| `dram_pct` | 80.0% | 80.0% |\n"));
  CHECK(document_markdown(json_value::object()) == "*not a napkin document*\n");
}

TEST_CASE("to_markdown(report_diff): the gate first, then each number beyond the threshold") {
  kernel_reports before, after;
  before.kernels = {samples::sol("k|1", 1000)};
  after.kernels = {samples::sol("k|1", 2000)};
  report_diff d = diff(to_document(before), to_document(after));
  d.old_source = "base.json";
  d.new_source = "new.json";
  const std::string fail = to_markdown(d);
  // 1000 ns -> 2000 ns: +100.0 %, time is better lower: a regression, exit status 1.
  CHECK(fail.rfind("### napkin diff: FAIL\n\n**Gate: FAIL**: ", 0) == 0);
  CHECK(contains(fail, " (regression, exit status 1).\n\nBaseline `base.json`, new `new.json` (kernel-reports).\n\n"
                       "| entity | field | old | new | change | status |\n|:---|:---|---:|---:|---:|:---|\n"));
  CHECK(contains(fail, "\n| k\\|1 | `duration_ns` | 1.00 us | 2.00 us | +100.0% | **worse (regression)** |\n"));
  // The other way round: faster, no regression, exit status 0.
  const std::string pass = to_markdown(diff(to_document(after), to_document(before)));
  CHECK(pass.rfind("### napkin diff: PASS\n\n**Gate: PASS**: 0 of ", 0) == 0);
  CHECK(contains(pass, " (no-regression, exit status 0).\n"));
  CHECK(contains(pass, "| k\\|1 | `duration_ns` | 2.00 us | 1.00 us | -50.0% | better |\n"));
  // Nothing moved: no table, the count within the threshold.
  const std::string same = to_markdown(diff(to_document(before), to_document(before)));
  CHECK(!contains(same, "| entity |"));
  CHECK(contains(same, " numbers within 3.0%.\n"));
  // Bad input: ERROR and each problem, exit status 2.
  report_document broken;
  broken.problem = "broken.json: not valid JSON";
  const std::string error = to_markdown(diff(broken, to_document(before)));
  CHECK(error.rfind("### napkin diff: ERROR\n\n**Gate: ERROR**: the documents could not be compared (bad-input, exit "
                    "status 2).\n\n- broken.json: not valid JSON\n",
                    0) == 0);
}
