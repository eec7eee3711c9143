// napkin's L2 flush kernel is PTX that the driver JIT-compiles on the user's GPU. Without a GPU, CI checks
// that ptxas (the same compiler backend) accepts it for every chip family CUPTI's range profiler supports,
// from Turing (sm_75) to Blackwell (sm_120), and that it names the entry point the loader asks for.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "napkin/profiler/l2_flush.hpp"

#ifndef NAPKIN_PTXAS
#error "NAPKIN_PTXAS (path of ptxas) must be defined by the build"
#endif

TEST_CASE("the L2 flush kernel's PTX assembles for sm_75 to sm_120") {
  const std::string dir = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp";
  const std::string ptx = dir + "/napkin_l2_clean_test.ptx", out = dir + "/napkin_l2_clean_test.cubin";
  {
    std::ofstream f(ptx);
    f << napkin::detail::l2_clean_ptx;
  }
  CHECK(std::string(napkin::detail::l2_clean_ptx).find(".entry napkin_l2_clean(") != std::string::npos);
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    const std::string cmd = std::string(NAPKIN_PTXAS) + " -arch=" + arch + " " + ptx + " -o " + out;
    INFO(cmd);
    CHECK(std::system(cmd.c_str()) == 0);
  }
  std::remove(ptx.c_str());
  std::remove(out.c_str());
}
