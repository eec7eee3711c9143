// The roofline chart, its SVG and the HTML run page, without a browser: what goes in, what is refused, and
// the numbers the SVG carries. Expected values are the H100 SXM datasheet (napkin's gpu_table cites it) and hand
// arithmetic written out below; browser_test.py checks what Chromium draws from the same files.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "math/error_message.hpp"
#include "napkin/math/gpu_table.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workloads.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "samples.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The number in attribute `name` of the first element that contains `marker`.
double attribute(const std::string& svg, const std::string& marker, const std::string& name) {
  const std::size_t at = svg.find(marker);
  REQUIRE(at != std::string::npos);
  const std::size_t start = svg.rfind('<', at);
  const std::string element = svg.substr(start, svg.find('>', at) - start);
  const std::string key = " " + name + "=\"";
  const std::size_t value = element.find(key);
  REQUIRE(value != std::string::npos);
  const std::size_t begin = value + key.size();
  const std::size_t end = element.find('"', begin);
  REQUIRE(end != std::string::npos);
  return std::stod(element.substr(begin, end - begin));
}

}  // namespace

TEST_CASE("a chart of every pipe the H100 SXM has: one ceiling per distinct dense peak") {
  const roofline_chart c = make_roofline_chart(gpus::h100_sxm);
  CHECK(c.pipes.size() == 12);
  REQUIRE(c.memory.size() == 1);
  CHECK(c.memory[0].name == "DRAM");
  CHECK(c.memory[0].bytes_per_s == 3350e9);
  const roofline_layout l = layout_roofline(c);
  // Datasheet peaks, highest first; equal peaks share a line (FP32 and FP64 tensor are both 66.9 TFLOP/s).
  const std::vector<double> peaks{1978.9e12, 989.4e12, 494.7e12, 133.8e12, 66.9e12, 33.5e12};
  REQUIRE(l.ceilings.size() == peaks.size());
  for (std::size_t i = 0; i < peaks.size(); ++i) CHECK(l.ceilings[i].peak_flops == peaks[i]);
  CHECK(l.ceilings[4].pipes == std::vector<pipe>{pipe::fp32, pipe::fp64_tensor});
  REQUIRE(l.ridges.size() == 6);
  CHECK(l.ridges[4].intensity == doctest::Approx(66.9 / 3.35));  // 19.97 FLOP/B
  CHECK(l.ridges[4].flops == 66.9e12);
  // Ridges 10 (FP64) .. 590.7 (FP8) FLOP/B, x4 margin: 2.5 .. 2363 -> decades 1 .. 1e4.
  // Peaks 33.5 .. 1978.9 TFLOP/s, /4 and x2: 8.4e12 .. 3.96e15 -> decades 1e12 .. 1e16.
  CHECK(l.x_min == 1);
  CHECK(l.x_max == 1e4);
  CHECK(l.y_min == 1e12);
  CHECK(l.y_max == 1e16);
}

TEST_CASE("the axes grow to hold every point: none is dropped") {
  roofline_chart c = make_roofline_chart(gpus::h100_sxm, {pipe::fp32});
  add_point(c, {"far right", 1e5, 1e9, point_source::measured});   // x4 = 4e5 -> 1e6; /4 = 2.5e8 -> 1e8
  add_point(c, {"far left", 1e-3, 5e13, point_source::measured});  // /4 = 2.5e-4 -> 1e-4
  const roofline_layout l = layout_roofline(c);
  CHECK(l.x_min == doctest::Approx(1e-4));
  CHECK(l.x_max == doctest::Approx(1e6));
  CHECK(l.y_min == doctest::Approx(1e8));
  CHECK(l.y_max == doctest::Approx(1e15));  // FP32 66.9e12 x 2 = 1.338e14 -> 1e15
}

TEST_CASE("points from a measurement and from napkin's estimate") {
  // SGEMM sample: FLOP = fadd + fmul + 2 ffma = 0 + 16,777,216 + 2 x 68,736,253,952; 15 x 64 MiB of DRAM traffic.
  const double flop = 16777216.0 + 2 * 68736253952.0;
  const roofline_point m = measured_point(pics_samples::sgemm());
  CHECK(m.label == "sgemm_128x128_kernel<float, 4096>");
  CHECK(m.source == point_source::measured);
  CHECK(m.intensity == doctest::Approx(flop / 1006632960.0));
  CHECK(m.flops_per_s == doctest::Approx(flop / 2.78e-3));
  CHECK(measured_point(pics_samples::sgemm(), "renamed").label == "renamed");
  // Softmax 8192 x 8192 fp32: 5 FLOP per element over 8 bytes; memory-bound at 3.35 TB/s x 0.625 FLOP/B.
  const roofline_point e = estimate_point("est", estimate(softmax(8192, 8192), gpus::h100_sxm, pipe::fp32));
  CHECK(e.source == point_source::estimate);
  CHECK(e.intensity == doctest::Approx(0.625));
  CHECK(e.flops_per_s == doctest::Approx(3.35e12 * 0.625));
}

TEST_CASE("bad input is refused with the reason") {
  roofline_chart c = make_roofline_chart(gpus::h100_sxm);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf}) {
    CHECK_THROWS_AS(add_point(c, {"p", bad, 1e12, point_source::measured}), std::invalid_argument);
    CHECK_THROWS_AS(add_point(c, {"p", 1.0, bad, point_source::measured}), std::invalid_argument);
    CHECK_THROWS_AS(add_bandwidth_ceiling(c, "L2", bad), std::invalid_argument);
  }
  CHECK(contains(error_message([&] {
                   add_point(c, {"zero", 0.0, 1e12, point_source::measured});
                 }),
                 "point \"zero\": the arithmetic intensity must be a finite number > 0 (log axes), got 0"));
  CHECK(c.points.empty());
  // A report without the roofline set's counters cannot be placed.
  CHECK(contains(error_message([] { measured_point(pics_samples::add_bias()); }),
                 "report \"add_bias<float>\" (set \"sol\") lacks executed FLOP: measure with "
                 "napkin::metric_sets::roofline()"));
  sol_report no_bytes = pics_samples::sgemm();
  no_bytes.values.erase(metric::dram_bytes);
  CHECK(contains(error_message([&] { measured_point(no_bytes); }), "lacks DRAM bytes"));
  sol_report zero_time = pics_samples::sgemm();
  zero_time.values[metric::duration_ns] = 0;
  CHECK(contains(error_message([&] { measured_point(zero_time); }), "the duration must be a finite number > 0"));
  // Pairs need two different points of the chart.
  add_point(c, {"a", 1, 1e12, point_source::measured});
  CHECK_THROWS_AS(add_pair(c, 0, 0), std::invalid_argument);
  CHECK(contains(error_message([&] { add_pair(c, 0, 1); }), "indices 0, 1 of 1 points"));
  // A pipe the GPU has no peak for, no pipe at all, a picture too small to draw.
  CHECK_THROWS(make_roofline_chart(gpus::rtx_6000_ada, {pipe::fp64}));
  CHECK_THROWS_AS(make_roofline_chart(gpus::h100_sxm, std::vector<pipe>{}), std::invalid_argument);
  // Points put in the public vector directly are checked when drawn; so are values the margins overflow.
  roofline_chart direct = make_roofline_chart(gpus::h100_sxm);
  direct.points.push_back({"zero", 0.0, 1e12, point_source::measured});
  CHECK(contains(error_message([&] { to_svg(direct); }), "point \"zero\": the arithmetic intensity must be"));
  direct.points.back() = {"huge", 1.0, 1e308, point_source::measured};
  CHECK(contains(error_message([&] { layout_roofline(direct); }), "too large for the axes' margins"));
  direct.points.back() = {"tiny", 1e-323, 1e12, point_source::measured};
  CHECK(contains(error_message([&] { layout_roofline(direct); }), "too close to 0"));
  c.width = 100;
  CHECK(contains(error_message([&] { to_svg(c); }), "at least 320 x 240"));
}

TEST_CASE("the SVG carries its numbers, escapes its text and needs nothing from outside") {
  roofline_chart c = make_roofline_chart(gpus::h100_sxm, {pipe::fp32, pipe::fp16_tensor}, "a <b> & \"c\"");
  add_point(c, {"<k&l>", 10, 1e14, point_source::measured});
  add_point(c, {"est", 1, 3.35e12, point_source::estimate});
  add_pair(c, 1, 0);
  const std::string svg = to_svg(c);
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(count(svg, "http") == 1);  // the namespace name only: no links, fonts or scripts
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, "href") == 0);
  CHECK(contains(svg, ">a &lt;b&gt; &amp; &quot;c&quot;</text>"));
  CHECK(contains(svg, "data-label=\"&lt;k&amp;l&gt;\""));
  CHECK(!contains(svg, "<k&l>"));
  CHECK(count(svg, "<circle class=\"point ") == 2);
  CHECK(count(svg, "<line class=\"ceiling compute\"") == 2);
  CHECK(count(svg, "<circle class=\"ridge\"") == 2);
  CHECK(count(svg, "<line class=\"pair\"") == 1);
  CHECK(contains(svg, "data-pipe=\"fp16-tc\" data-flops=\"9.894e+14\""));
  // Ranges: ridges 19.97 and 295.3, points 10 and 1 FLOP/B -> 0.25 .. 1181 -> 0.1 .. 1e4;
  // FLOP/s 3.35e12 .. 989.4e12 -> 8.4e11 .. 1.98e15 -> 1e11 .. 1e16.
  CHECK(attribute(svg, "class=\"napkin-roofline\"", "data-x-min") == doctest::Approx(0.1));
  CHECK(attribute(svg, "class=\"napkin-roofline\"", "data-y-max") == doctest::Approx(1e16));
  // The point at 10 FLOP/B, 1e14 FLOP/s: 2 of 5 decades across, 3 of 5 decades up.
  const double left = attribute(svg, "class=\"napkin-roofline\"", "data-plot-left");
  const double top = attribute(svg, "class=\"napkin-roofline\"", "data-plot-top");
  const double width = attribute(svg, "class=\"napkin-roofline\"", "data-plot-width");
  const double height = attribute(svg, "class=\"napkin-roofline\"", "data-plot-height");
  CHECK(attribute(svg, "data-label=\"&lt;k&amp;l&gt;\"", "cx") == doctest::Approx(left + width * 2 / 5).epsilon(1e-4));
  CHECK(attribute(svg, "data-label=\"&lt;k&amp;l&gt;\"", "cy") == doctest::Approx(top + height * 2 / 5).epsilon(1e-4));
  // The FP32 ceiling: 66.9e12 is log10(669) = 2.825 decades above 1e11.
  CHECK(attribute(svg, "data-pipe=\"fp32\" data-flops", "y1") ==
        doctest::Approx(top + height - std::log10(669.0) / 5 * height).epsilon(1e-4));
}

TEST_CASE("the page: table, bars, verdicts, chart, and the change against a baseline") {
  report_page page;
  page.title = "run <1>";
  page.kernels = {pics_samples::sgemm(), pics_samples::softmax_fused(), pics_samples::add_bias()};
  const std::string plain = to_html(page);
  CHECK(plain.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(contains(plain, "<title>run &lt;1&gt;</title>"));
  CHECK(contains(plain, "GH100 &middot; 3 kernels"));  // no GPU name given: the chip
  CHECK(contains(plain, "sgemm_128x128_kernel&lt;float, 4096&gt;"));
  CHECK(count(plain, "http") == 0);
  CHECK(count(plain, "<svg") == 0);
  CHECK(count(plain, "<tr data-index=") == 3);
  CHECK(count(plain, "class=\"bar-fill\"") == 15);
  CHECK(contains(plain, "data-time-ns=\"2.78e+06\""));
  CHECK(contains(plain, "<b>SOL table: memory-bound (DRAM).</b>"));
  CHECK(!contains(plain, "id=\"changes\""));

  page.roofline = make_roofline_chart(gpus::h100_sxm);
  page.baseline =
      std::vector<sol_report>{pics_samples::softmax_naive(), pics_samples::report("gone", {1e5, 1, 1, 1, 1, 1}, 1e6)};
  const std::string full = to_html(page);
  CHECK(count(full, "<svg") == 1);
  CHECK(contains(full, "H100 SXM5 80GB &middot;"));  // the chart's GPU
  CHECK(contains(full, "620.00 us &rarr; 182.00 us"));
  CHECK(contains(full, "-70.6%"));  // (182 - 620) / 620 = -70.65%
  CHECK(contains(full, "unclassified &rarr; memory-bound (DRAM)"));
  CHECK(contains(full, "new: 2.78 ms"));
  CHECK(contains(full, "100.00 us &rarr; gone"));
  // napkin::diff's outcome: every softmax number that moved moved the better way, "gone" is only removed.
  CHECK(contains(full, "data-outcome=\"no-regression\""));
  CHECK(contains(full, "data-entity=\"softmax_kernel\" data-field=\"duration_ns\" data-status=\"better\""));
  CHECK(contains(full, "data-entity=\"softmax_kernel\" data-field=\"flop\" data-status=\"changed\""));  // no direction
  CHECK(contains(full, "softmax_kernel sol_table: unclassified &rarr; memory-bound (DRAM)"));

  // The other way round: the naive softmax after the fused one is 240.7% slower, a regression.
  page.kernels = {pics_samples::softmax_naive()};
  page.baseline = std::vector<sol_report>{pics_samples::softmax_fused()};
  const std::string worse = to_html(page);
  CHECK(contains(worse, "data-outcome=\"regression\""));
  CHECK(contains(worse, ">+240.7%</td>"));  // (620 - 182) / 182 = +240.66%
  CHECK(contains(worse, "worse (regression)"));

  // Another chip: bad input, with diff()'s reason, and no baseline columns in the kernels table.
  sol_report other = pics_samples::softmax_naive();
  other.chip = "GA100";
  page.baseline = std::vector<sol_report>{other};
  const std::string refused = to_html(page);
  CHECK(contains(refused, "data-outcome=\"bad-input\""));
  CHECK(contains(refused, "different GPUs: baseline is about chip GA100, this run about chip GH100"));
  CHECK(!contains(refused, "<th class=\"num\">Baseline</th>"));
}

TEST_CASE("the page's comparison is napkin::diff: by name, a second launch as \"k #2\", new and gone kernels") {
  const auto a = pics_samples::softmax_naive("k"), b = pics_samples::softmax_fused("k");
  const detail::page_comparison c =
      detail::compare_runs({a, pics_samples::sgemm("t")}, {b, b, pics_samples::sgemm("s")}, diff_options{});
  const std::vector<kernel_change>& ch = c.kernels;
  REQUIRE(ch.size() == 4);
  CHECK((ch[0].name == "k" && ch[0].in_baseline && ch[0].in_run));
  REQUIRE(ch[0].change_pct);
  CHECK(*ch[0].change_pct == doctest::Approx((182000.0 - 620000.0) / 620000.0 * 100));
  CHECK(ch[0].status == change_status::better);
  CHECK(!ch[0].regression);
  CHECK((ch[1].name == "k #2" && !ch[1].in_baseline && !ch[1].change_pct && ch[1].status == change_status::added));
  CHECK((ch[2].name == "s" && !ch[2].in_baseline && ch[2].status == change_status::added));
  CHECK((ch[3].name == "t" && ch[3].in_baseline && !ch[3].in_run && *ch[3].old_ns == 2780000));
  CHECK(ch[3].status == change_status::removed);
  CHECK(ch[0].old_verdict == "unclassified");
  CHECK(ch[0].new_verdict == "memory-bound (DRAM)");
  CHECK(c.diff.added == std::vector<std::string>{"k #2", "s"});
  CHECK(c.diff.removed == std::vector<std::string>{"t"});
  CHECK(c.diff.outcome == diff_outcome::no_regression);

  // The threshold is diff()'s: 2.81 ms -> 2.78 ms is -1.07%, "same" at 3%, "better" at 0.5%.
  sol_report slower = pics_samples::sgemm();
  slower.values[metric::duration_ns] = 2810000;
  CHECK(detail::compare_runs({slower}, {pics_samples::sgemm()}, diff_options{}).kernels[0].status ==
        change_status::same);
  diff_options tight;
  tight.threshold_pct = 0.5;
  const auto tighter = detail::compare_runs({slower}, {pics_samples::sgemm()}, tight);
  CHECK(tighter.kernels[0].status == change_status::better);
  CHECK(*tighter.kernels[0].change_pct == doctest::Approx((2780000.0 - 2810000.0) / 2810000.0 * 100));
  // gate_fields is diff()'s too: gated on L2 % alone, the naive softmax after the fused one is slower
  // (worse, not a regression) and regresses on L2 (71% -> 47%).
  diff_options on_l2;
  on_l2.gate_fields = {"l2_pct"};
  const auto gated = detail::compare_runs({pics_samples::softmax_fused()}, {pics_samples::softmax_naive()}, on_l2);
  CHECK(gated.kernels[0].status == change_status::worse);
  CHECK(!gated.kernels[0].regression);
  CHECK(gated.diff.outcome == diff_outcome::regression);
}
