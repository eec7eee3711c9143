// doctest's main for GPU tests: without a usable device, say so and exit 77, which CTest reports as
// "Skipped" (SKIP_RETURN_CODE). The same binary runs every case on a machine with a GPU.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "support/gpu.hpp"

int main(int argc, char** argv) {
  const std::string why = napkin_test::why_no_gpu();
  if (!why.empty()) {
    std::printf("SKIPPED: GPU tests need a CUDA device (%s)\n", why.c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
