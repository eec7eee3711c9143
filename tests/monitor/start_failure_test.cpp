// Why the monitor could not start, in the one message status() gives (napkin/monitor/start_failure.hpp):
// each reason says what happened and what to do, and that the program runs on. No CUDA needed.
#include <doctest/doctest.h>

#include <string>

#include "napkin/monitor/start_failure.hpp"

using namespace napkin;

namespace {
bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("the checks made before CUPTI: device count, index, CUDA versions") {
  CHECK(monitor_precheck(0, 0, 13000, 13000) == monitor_start_failure::no_device);
  CHECK(monitor_precheck(2, 2, 13000, 13000) == monitor_start_failure::bad_device);
  CHECK(monitor_precheck(-1, 2, 13000, 13000) == monitor_start_failure::bad_device);
  CHECK(monitor_precheck(0, 1, 12050, 13000) == monitor_start_failure::old_cuda);
  CHECK(monitor_precheck(0, 1, 12060, 12040) == monitor_start_failure::old_cuda);
  CHECK_FALSE(monitor_precheck(1, 2, 12060, 12060).has_value());
  CHECK(cuda_version_text(12060) == "12.6");
  CHECK(cuda_version_text(13000) == "13.0");
}

TEST_CASE("every message: off, what happened, what to do, the program runs on") {
  const monitor_start_failure all[] = {
      monitor_start_failure::no_device, monitor_start_failure::bad_device,  monitor_start_failure::old_cuda,
      monitor_start_failure::busy,      monitor_start_failure::privileges,  monitor_start_failure::mig,
      monitor_start_failure::virtualized, monitor_start_failure::another_cupti_client,
      monitor_start_failure::unsupported, monitor_start_failure::other};
  for (monitor_start_failure why : all) {
    const std::string m = monitor_start_message(why, 1);
    CAPTURE(m);
    CHECK(m.rfind("off: ", 0) == 0);
    CHECK(has(m, "The program runs on without the monitor."));
    CHECK_FALSE(has(m, "Detail:"));
  }
  CHECK(monitor_start_message(monitor_start_failure::bad_device, 4, 2) ==
        "off: device 4 does not exist (this process sees 2 devices, numbered from 0). Set "
        "NAPKIN_MONITOR=device=<n> (or monitor_settings::device) to one of them; CUDA_VISIBLE_DEVICES renumbers "
        "devices. The program runs on without the monitor.");
  CHECK(has(monitor_start_message(monitor_start_failure::bad_device, 1, 1), "sees 1 device, numbered"));
  const std::string busy = monitor_start_message(monitor_start_failure::busy, 0, -1, "cuptiPmSamplingStart: x");
  CHECK(has(busy, "performance monitors on device 0 are held by another profiling client: napkin::profiler"));
  CHECK(has(busy, "ncu, nsys, DCGM"));
  CHECK(has(busy, "dcgmi profile --pause"));
  CHECK(has(busy, " Detail: cuptiPmSamplingStart: x"));
  CHECK(has(monitor_start_message(monitor_start_failure::privileges, 0), "NVreg_RestrictProfilingToAdminUsers=0"));
  CHECK(has(monitor_start_message(monitor_start_failure::mig, 3), "device 3 is a MIG instance"));
  CHECK(has(monitor_start_message(monitor_start_failure::old_cuda, 0, -1, "runtime 12.4, driver 12.4"),
            "needs CUDA 12.6 or newer"));
  CHECK(has(monitor_start_message(monitor_start_failure::unsupported, 0), "GH100 and GB100"));
  CHECK(has(monitor_start_message(monitor_start_failure::no_device, 0), "CUDA_VISIBLE_DEVICES"));
}
