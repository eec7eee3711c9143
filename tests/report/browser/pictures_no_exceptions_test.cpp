// Built with -fno-exceptions: the chart, the SVG and the page work, and a report that cannot be plotted goes
// through napkin's failure path (the user's handler, then print + abort) with the reason. CMake runs it in
// two modes (argv[1]) and checks the exit status and the output (CMakeLists.txt). The abort becomes exit
// status 3 (a SIGABRT handler), which the test harness reads as a clean failure.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "napkin/math/gpu_table.hpp"
#include "napkin/report/html_page.hpp"
#include "napkin/report/roofline_svg.hpp"
#include "samples.hpp"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "this test must be compiled with -fno-exceptions"
#endif

namespace {
extern "C" void on_abort(int) {
  const char text[] = "[test: SIGABRT]\n";
  (void)!write(2, text, sizeof text - 1);
  _exit(3);
}
void handler(const napkin::error_info& info) { std::fprintf(stderr, "handler: %s\n", info.message().c_str()); }
}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGABRT, on_abort);
  if (argc != 2) return 2;
  auto chart = napkin::make_roofline_chart(napkin::gpus::h100_sxm);
  if (std::strcmp(argv[1], "ok") == 0) {
    napkin::add_measurement(chart, pics_samples::sgemm());
    napkin::report_page page;
    page.kernels = {pics_samples::sgemm()};
    page.roofline = chart;
    const std::string svg = napkin::to_svg(chart), html = napkin::to_html(page);
    std::printf("svg %s html %s\n",
                svg.find("class=\"point measured\"") != std::string::npos ? "has-point" : "no-point",
                html.find("<svg") != std::string::npos ? "has-chart" : "no-chart");
    return 0;
  }
  if (std::strcmp(argv[1], "refuse") == 0) {
    napkin::set_failure_handler(handler);
    napkin::add_measurement(chart, pics_samples::add_bias());  // the sol set: no FLOP counters
    std::printf("not refused\n");
    return 0;
  }
  return 2;
}
