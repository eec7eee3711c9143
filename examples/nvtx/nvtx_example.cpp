// napkin's NVTX ranges in a small program. Run it under Nsight Systems to see the ranges:
//   nsys profile -t nvtx -o nvtx_example ./nvtx_example
// or switch them off without rebuilding: NAPKIN_NVTX=0 ./nvtx_example
#include <napkin/nvtx.hpp>

#include <cstdio>
#include <thread>
#include <vector>

NAPKIN_DOMAIN(pipeline, "pipeline");  // a library's own domain; napkin's default is "napkin"

namespace pipeline_stage {
double load(int batch) {
  NAPKIN_FUNC_RANGE_WITH(pipeline, napkin::payload{batch});  // named "pipeline_stage::load"
  double sum = 0;
  for (int i = 0; i < 1000 * (batch + 1); ++i) sum += i * 0.5;
  return sum;
}
}  // namespace pipeline_stage

int main() {
  napkin::name_current_thread("main");
  static const napkin::category io = napkin::name_category<pipeline>(1, "I/O");
  std::printf("NVTX tool attached: %s, napkin ranges %s\n", napkin::nvtx_tool_attached() ? "yes" : "no",
              napkin::nvtx_enabled() ? "on" : "off");

  napkin::range whole{"example"};  // color derived from the name
  double total = 0;
  for (int batch = 0; batch < 3; ++batch) {
    napkin::range_in<pipeline> step{"batch {}", batch};  // formatted only when a tool listens
    total += pipeline_stage::load(batch);
    napkin::mark_in<pipeline>("loaded", io);
  }

  // A start/end range handed to a worker thread, which ends it.
  napkin::unique_range job{"background job", napkin::rgb{0x20, 0x80, 0xE0}};
  std::thread worker{[job = std::move(job)]() mutable {
    napkin::name_current_thread("worker");
    job.end();
  }};
  worker.join();
  std::printf("total = %.1f\n", total);
  return 0;
}
