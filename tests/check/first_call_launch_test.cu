// NAPKIN_CUDA_LAUNCH as the very first CUDA call of a program, on a machine without a usable driver.
// The runtime's initialization fails there, and the check before the launch reads that failure with
// cudaGetLastError. No earlier call exists, so the report must not say the error was "left by an
// earlier, unchecked call" (as it once did) nor mark it pending: it must say what happened — CUDA could
// not be initialized, and for cudaErrorInsufficientDriver, that there is no CUDA driver (or an old one).
// With a usable device the launch succeeds and there is nothing to check: exit 77 (CTest: Skipped).
#include <napkin/check.hpp>

#include <cstdio>
#include <string>

namespace {
__global__ void noop() {}

int failures = 0;
void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}
bool contains(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }
}  // namespace

int main() {
  try {
    NAPKIN_CUDA_LAUNCH(noop<<<1, 1>>>());
  } catch (const napkin::cuda_error& e) {
    const std::string m = e.what();
    std::printf("message: %s\n", m.c_str());
    expect(!e.is_pending(), "not marked pending (no earlier call exists)");
    expect(!contains(m, "earlier, unchecked") && !contains(m, "left by") && !contains(m, "found pending"),
           "does not blame an earlier call");
    expect(contains(m, "CUDA could not be initialized in this process"), "says CUDA could not be initialized");
    if (e.code() == cudaErrorInsufficientDriver) expect(contains(m, "no CUDA driver"), "says there is no CUDA driver");
    expect(contains(m, "noop<<<1, 1>>>()"), "names the launch");
    std::printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
  }
  NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("SKIPPED: the launch succeeded (this test needs a machine where CUDA cannot be initialized)\n");
  return 77;
}
