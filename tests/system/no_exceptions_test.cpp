// The system view in a translation unit built without exceptions (-fno-exceptions): the analysis runs, and
// bad options go through napkin's failure policy, never a throw. A plain main (doctest's is built with
// exceptions); CTest checks the exit status and the output (tests/system/CMakeLists.txt).
//   no_exceptions_test report    two kernels 100 us apart: prints the numbers
//   no_exceptions_test options   max_pending_records = 0: the handler sees napkin's message, exits with 3
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "napkin/system/system_rules.hpp"
#include "napkin/system/system_view.hpp"
#include "../support/print_and_exit.hpp"

#if NAPKIN_HAS_EXCEPTIONS
#error "build this test with -fno-exceptions"
#endif

using napkin_test::print_and_exit;

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  napkin::set_failure_handler(print_and_exit);
  if (mode == "report") {
    // Kernels [1 ms, 1.1 ms) and [1.2 ms, 1.3 ms): span 300 us, idle 100 us, too little for any rule.
    napkin::system_view v;
    napkin::system_records r;
    for (std::uint64_t start : {1'000'000ull, 1'200'000ull}) {
      napkin::gpu_work w;
      w.start_ns = start;
      w.end_ns = start + 100'000;
      w.name = "k";
      r.work.push_back(w);
    }
    v.add(r);
    const napkin::system_report rep = v.report({});
    std::printf("kernels=%llu span_ns=%llu idle_ns=%llu findings=%zu\n",
                static_cast<unsigned long long>(rep.run.kernels), static_cast<unsigned long long>(rep.run.span_ns),
                static_cast<unsigned long long>(rep.run.idle_ns), rep.findings.size());
    return 0;
  }
  if (mode == "options") {
    napkin::system_options o;
    o.max_pending_records = 0;
    napkin::system_view v(o);
    std::puts("not reached: the failure returned");
    return 0;
  }
  std::fprintf(stderr, "usage: no_exceptions_test report|options\n");
  return 2;
}
