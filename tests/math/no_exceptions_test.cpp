// Built with -fno-exceptions: every napkin math header compiles, works, and bad input at run time ends
// the process with napkin's message (or goes to the user's failure handler first). CMake runs it in
// several modes (argv[1]) and checks the exit status and the output (tests/math/CMakeLists.txt).
//
// std::abort() raises SIGABRT; the handler below reports it and exits with 3, so that the test sees a
// plain exit status and can tell an abort from any other failure.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "napkin/math.hpp"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "this test must be compiled with -fno-exceptions"
#endif

static_assert(NAPKIN_HAS_EXCEPTIONS == 0, "napkin must see that exceptions are off");

namespace {

extern "C" void on_abort(int) {
  const char text[] = "[test: SIGABRT]\n";
  (void)!write(2, text, sizeof text - 1);
  _exit(3);
}

void handler(const napkin::error_info& info) {
  std::fprintf(stderr, "[test handler: %s]\n", info.message().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGABRT, on_abort);
  if (argc < 2) return 2;
  const char* mode = argv[1];
  // A size the compiler cannot see: argc - 3 is -1 when the mode is the only argument.
  const std::int64_t m = argc - 3;

  if (std::strcmp(mode, "ok") == 0) {
    // Good input works: 2·64³ / (3·64²·4) = 128 / 12 = 10.67 FLOP/B; 16 sectors per request waste 75%.
    const double i = napkin::gemm(64, 64, 64).intensity();
    const double w = napkin::bandwidth_waste(16, 4);
    const double t = napkin::lower_bound_seconds(napkin::gemm(64, 64, 64), napkin::gpus::h100_sxm, napkin::pipe::fp32);
    std::printf("intensity %.2f waste %.2f time-positive %d\n", i, w, t > 0 ? 1 : 0);
    return 0;
  }
  if (std::strcmp(mode, "gemm") == 0) {
    napkin::gemm(m, 64, 64);
  } else if (std::strcmp(mode, "quantify") == 0) {
    napkin::bandwidth_waste(static_cast<double>(m), 4);
  } else if (std::strcmp(mode, "gpu") == 0) {
    napkin::find_gpu(argv[0]);  // no GPU is named like this program
  } else if (std::strcmp(mode, "handler") == 0) {
    napkin::set_failure_handler(handler);
    napkin::gemm(m, 64, 64);
  } else {
    return 2;
  }
  std::puts("[test: napkin returned after bad input]");
  return 0;
}
