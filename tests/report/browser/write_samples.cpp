// Writes the sample pictures the browser test opens (browser_test.py): two roofline SVGs, two run pages, the
// monitor page (against a baseline) and the source lines page, into the folder given as the only argument (made
// when missing). The numbers are samples (samples.hpp, ../monitor_samples.hpp, ../source_lines_samples.hpp), not
// a measurement.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "napkin/math/gpu_table.hpp"
#include "napkin/math/roofline.hpp"
#include "napkin/math/workloads.hpp"
#include "napkin/report/html_page.hpp"
#include "report/section_samples.hpp"
#include "napkin/report/monitor_page.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "napkin/report/source_lines_page.hpp"
#include "report/monitor_samples.hpp"
#include "report/system_samples.hpp"
#include "report/source_lines_samples.hpp"
#include "samples.hpp"

namespace {

// Every pipe of the H100 SXM; SGEMM; softmax before -> after; napkin's estimate of the fused softmax.
napkin::roofline_chart h100_chart() {
  const napkin::gpu_spec& h100 = napkin::find_gpu("h100-sxm");
  auto chart = napkin::make_roofline_chart(h100, "H100 SXM: SGEMM and softmax (sample numbers)");
  napkin::add_measurement(chart, pics_samples::sgemm(), "sgemm 4096^3");
  const auto before = napkin::add_measurement(chart, pics_samples::softmax_naive(), "softmax, 3 passes");
  const auto after = napkin::add_measurement(chart, pics_samples::softmax_fused(), "softmax, online (1 pass)");
  napkin::add_pair(chart, before, after);
  napkin::add_estimate(chart, "softmax, napkin estimate",
                       napkin::estimate(napkin::softmax(8192, 8192), h100, napkin::pipe::fp32));
  return chart;
}

// Two pipes, DRAM and a hand-given L2 ceiling, text that needs escaping, a label at the right edge.
napkin::roofline_chart two_pipes_chart() {
  auto chart =
      napkin::make_roofline_chart(napkin::find_gpu("h100-sxm"), {napkin::pipe::fp32, napkin::pipe::fp16_tensor},
                                  "Escaped <title> & \"quotes\" (sample numbers), and a title long enough that it has "
                                  "to be squeezed to fit the picture");
  napkin::add_bandwidth_ceiling(chart, "L2 <sample>", 10e12);
  napkin::add_point(chart, {"<b>&amp;\"x\"</b>", 2.0, 5e12, napkin::point_source::measured});
  napkin::add_point(chart,
                    {"a long label at the right edge of the frame", 2000.0, 400e12, napkin::point_source::estimate});
  napkin::add_point(chart, {"low", 0.05, 1e11, napkin::point_source::measured});
  return chart;
}

// What `napkin roofline --gpu h100 --workload "gemm 4096 4096 4096 --dtype fp16" --workload "softmax 32000 16384"`
// draws: the GEMM sits on the fp16-tc ceiling, among the ceiling labels (its label once covered one).
napkin::roofline_chart two_estimates_chart() {
  const napkin::gpu_spec& h100 = napkin::find_gpu("h100-sxm");
  auto chart = napkin::make_roofline_chart(h100, "Roofline: h100-sxm (H100 SXM5 80GB)");
  napkin::add_estimate(chart, "gemm 4096 4096 4096 --dtype fp16",
                       napkin::estimate(napkin::gemm(4096, 4096, 4096, napkin::dtype::fp16), h100,
                                        napkin::pipe::fp16_tensor));
  napkin::add_estimate(chart, "softmax 32000 16384",
                       napkin::estimate(napkin::softmax(32000, 16384), h100, napkin::pipe::fp32));
  return chart;
}

bool write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) std::fprintf(stderr, "write_samples: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  napkin::report_page page;
  page.title = "softmax fix, sample run";
  page.gpu = "H100 SXM5 80GB (sample numbers)";
  page.kernels = {pics_samples::sgemm(), pics_samples::softmax_fused(), pics_samples::add_bias()};
  napkin::sol_report old_sgemm = pics_samples::sgemm();
  old_sgemm.values[napkin::metric::duration_ns] = 2810000;
  page.baseline =
      std::vector<napkin::sol_report>{old_sgemm, pics_samples::softmax_naive(),
                                      pics_samples::report("transpose_kernel", {120000, 20, 70, 66, 40, 50}, 2.7e8)};
  page.roofline = h100_chart();

  // Report sections (tests/report/section_samples.hpp): a memory table and a stacked bar of stalls 60 / 30 / 10.
  napkin::report_page sectioned;
  sectioned.title = "report sections";
  sectioned.kernels = {section_samples::with_metrics(pics_samples::softmax_fused(), 87.5, 400, 100, 60, 30, 10)};
  sectioned.sections = section_samples::makers();

  napkin::report_page single;
  single.title = "one kernel, no baseline";
  single.kernels = {pics_samples::add_bias()};

  napkin::monitor_report with_system = monitor_samples::report(20);
  with_system.system = system_samples::report();

  const bool ok = write(dir + "/roofline_h100.svg", napkin::to_svg(h100_chart())) &&
                  write(dir + "/roofline_two_pipes.svg", napkin::to_svg(two_pipes_chart())) &&
                  write(dir + "/roofline_two_estimates.svg", napkin::to_svg(two_estimates_chart())) &&
                  write(dir + "/report.html", napkin::to_html(page)) &&
                  write(dir + "/report_single.html", napkin::to_html(single)) &&
                  write(dir + "/report_sections.html", napkin::to_html(sectioned)) &&
                  write(dir + "/monitor.html", napkin::to_html(napkin::monitor_page{
                                                   "decode step, sample monitor report", monitor_samples::report(20),
                                                   monitor_samples::report(40, true), {}})) &&
                  write(dir + "/monitor_system.html", napkin::to_html(napkin::monitor_page{
                                                          "sample monitor report with the system view",
                                                          with_system, std::nullopt, {}})) &&
                  write(dir + "/source_lines.html",
                        napkin::to_html(napkin::source_lines_page{"strided_sum, sample source lines",
                                                                  source_lines_samples::report(), {}, {}}));
  if (ok) std::printf("write_samples: 9 files in %s\n", dir.c_str());
  return ok ? 0 : 1;
}
