// Built with -fno-exceptions (tests/occupancy/CMakeLists.txt): bad input to occupancy at run time must
// print napkin's message and abort, or reach the user's failure handler; never a wrong number. argv[1]
// picks the case; the inputs come from argc so that the compiler cannot evaluate them at compile time.
#include <napkin/occupancy.hpp>

#if NAPKIN_HAS_EXCEPTIONS
#error "this test must be built with -fno-exceptions"
#endif

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
void exit_from_handler(const napkin::error_info& info) {
  std::printf("handler: %s\n", info.message().c_str());
  std::fflush(stdout);
  std::exit(3);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string which = argv[1];
  const int threads = 2046 + argc;  // 2048: above the device limit of 1024
  napkin::occupancy_result r{};
  if (which == "launch") {
    r = napkin::occupancy(napkin::compute_capability{9, 0}, threads, 32);
  } else if (which == "compute_capability") {
    r = napkin::occupancy(napkin::limits_of({8, 8 + argc}), 256, napkin::kernel_resources{32});
  } else if (which == "limits") {
    napkin::sm_limits l = napkin::limits_of({9, 0});
    l.warp_size = argc - 2;  // 0
    r = napkin::occupancy(l, 256, napkin::kernel_resources{32});
  } else if (which == "handler") {
    napkin::set_failure_handler(exit_from_handler);
    r = napkin::occupancy(napkin::compute_capability{9, 0}, threads, 32);
  } else {
    return 2;
  }
  // Reached only if bad input was accepted: the test expects a failure with napkin's message instead.
  std::printf("accepted: %d blocks per SM\n", r.blocks_per_sm);
  return 0;
}
