// The CUPTI statuses behind a failed start, mapped to start_failure.hpp's reasons (needs CUPTI's headers,
// no GPU).
#include <doctest/doctest.h>

#include "napkin/monitor/start_failure_cuda.hpp"

using namespace napkin;

TEST_CASE("CUPTI statuses to reasons") {
  CHECK(monitor_start_failure_of(CUPTI_ERROR_HARDWARE_BUSY) == monitor_start_failure::busy);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) == monitor_start_failure::privileges);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED) == monitor_start_failure::mig);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED) == monitor_start_failure::virtualized);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) ==
        monitor_start_failure::another_cupti_client);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_NOT_SUPPORTED) == monitor_start_failure::unsupported);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_NOT_INITIALIZED) == monitor_start_failure::no_device);
  CHECK(monitor_start_failure_of(CUPTI_ERROR_UNKNOWN) == monitor_start_failure::other);
  // CUPTI_SUCCESS: a profiler_error that is not CUPTI's (a CUDA call failed): the detail says which.
  CHECK(monitor_start_failure_of(CUPTI_SUCCESS) == monitor_start_failure::other);
}
