// The profiler on a named device and on two devices at once, on a GPU. Cases that need two GPUs say so and
// pass without checking anything where there is one (the message is printed: run with -s to see it, or
// read ctest --output-on-failure -V). Expected values: each device's identity from the runtime directly
// (cudaGetDeviceProperties, cudaDeviceGetPCIBusId), and the alone-vs-together comparison within the
// profiler's accuracy goal (docs/profiler.md: 2 points of every %, 3 % of duration and DRAM bytes).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "napkin/math.hpp"
#include "napkin/math/gpus_cuda.hpp"
#include "napkin/occupancy/cuda.hpp"
#include "napkin/profiler.hpp"
#include "napkin/report/profiler_documents.hpp"
#include "two_devices.cuh"

namespace {

int device_count() {
  int n = 0;
  REQUIRE(cudaGetDeviceCount(&n) == cudaSuccess);
  return n;
}
int current_device() {
  int d = -1;
  REQUIRE(cudaGetDevice(&d) == cudaSuccess);
  return d;
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What the runtime says of `device`, independently of napkin's report_context code.
void check_identity(const napkin::report_context& c, int device) {
  cudaDeviceProp prop{};
  REQUIRE(cudaGetDeviceProperties(&prop, device) == cudaSuccess);
  char bus[32] = {};
  REQUIRE(cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess);
  REQUIRE(c.device_index);
  CHECK(*c.device_index == device);
  CHECK(c.device_name.value_or("") == std::string(prop.name));
  CHECK(c.device_pci_bus_id.value_or("") == std::string(bus));
  REQUIRE(c.device_uuid);
  CHECK(c.device_uuid->size() == 40);  // "GPU-" + 32 hex digits + 4 dashes
  CHECK(c.device_uuid->rfind("GPU-", 0) == 0);
  char first_byte[3] = {};
  std::snprintf(first_byte, sizeof first_byte, "%02x", static_cast<unsigned char>(prop.uuid.bytes[0]));
  CHECK(c.device_uuid->substr(4, 2) == first_byte);
  CHECK(c.host.has_value());  // the process's side of the context (document/rank.hpp)
}

}  // namespace

TEST_CASE("a bad device index is refused with the count of devices, not undefined behaviour") {
  const int n = device_count();
  napkin::profiler_options o;
  o.device = n;
  try {
    napkin::profiler prof(napkin::metric_sets::sol_fast(), o);
    FAIL("a profiler on device ", n, " of ", n, " was made");
  } catch (const napkin::profiler_error& e) {
    CHECK(contains(e.what(), "profiler_options::device is " + std::to_string(n)));
  }
  CHECK_THROWS_AS(napkin::device_gpu_spec(n), std::invalid_argument);
  CHECK_THROWS_AS(napkin::device_gpu_spec(-2), std::invalid_argument);
  CHECK_THROWS_AS(napkin::device_limits(n), std::invalid_argument);
  CHECK_THROWS_AS(napkin::device_limits(-1), std::invalid_argument);
  CHECK_THROWS_AS(napkin::device_context(n), std::invalid_argument);
  CHECK(napkin::device_gpu_spec(n - 1).facts.sm_count > 0);
}

TEST_CASE("every report names the device it measured") {
  const int last = device_count() - 1;
  const napkin_multi_gpu::device_work work(last);
  napkin::profiler_options o;
  o.device = last;
  napkin::profiler prof(napkin::metric_sets::sol_fast(), o);
  CHECK(prof.device() == last);
  check_identity(prof.context(), last);
  const napkin::sol_report r = prof.measure("copy and sum", [&] { work.run(); });
  check_identity(r.context, last);
  const napkin::kernel_reports k = prof.per_kernel([&] { work.run(); });
  REQUIRE(k.kernels.size() == 2);
  check_identity(k.kernels[0].context, last);
  check_identity(k.kernels[1].context, last);
  CHECK(contains(napkin::to_json(k), "\"device_uuid\": \"" + *prof.context().device_uuid + "\""));
}

TEST_CASE("a profiler on device 1 measures there from a thread whose current device is 0") {
  if (device_count() < 2) {
    MESSAGE("SKIPPED: needs two GPUs; this machine has ", device_count());
    return;
  }
  const napkin_multi_gpu::device_work work(1);  // buffers on device 1
  REQUIRE(cudaSetDevice(0) == cudaSuccess);
  napkin::profiler_options o;
  o.device = 1;
  napkin::profiler prof(napkin::metric_sets::sol_fast(), o);
  CHECK(current_device() == 0);
  const napkin::kernel_reports k = prof.per_kernel([&] { work.run(); }, napkin::replay::application);
  CHECK(current_device() == 0);  // restored after the measurement
  REQUIRE(k.kernels.size() == 2);
  CHECK(contains(k.kernels[0].name, "copy_kernel"));
  CHECK(contains(k.kernels[1].name, "sum_kernel"));
  // 2 x 256 MiB for the copy (in and out), less what of its last writes is still in L2 when it ends
  // (written back later: 515.5 of 536.9 MB measured on an H200, whose L2 holds 50 MiB).
  REQUIRE(k.kernels[0].dram_bytes());
  int l2_bytes = 0;
  REQUIRE(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 1) == cudaSuccess);
  const double moved = 2.0 * napkin_multi_gpu::floats * 4;
  CHECK(*k.kernels[0].dram_bytes() >= moved - l2_bytes);
  CHECK(*k.kernels[0].dram_bytes() <= moved * 1.01);
  check_identity(k.kernels[0].context, 1);
}

TEST_CASE("two devices from two threads at once agree with each measured alone") {
  if (device_count() < 2) {
    MESSAGE("SKIPPED: needs two GPUs; this machine has ", device_count());
    return;
  }
  std::vector<napkin::kernel_reports> alone(2), together(2);
  for (int d = 0; d < 2; ++d) {
    const napkin_multi_gpu::device_work work(d);
    alone[d] = work.measure();
  }
  std::vector<std::string> failures(2);
  std::vector<std::thread> threads;
  for (int d = 0; d < 2; ++d)
    threads.emplace_back([d, &together, &failures] {
      try {
        const napkin_multi_gpu::device_work work(d);
        together[d] = work.measure();
      } catch (const std::exception& e) {
        failures[d] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (int d = 0; d < 2; ++d) {
    CAPTURE(d);
    CHECK(failures[d] == "");
    REQUIRE(together[d].kernels.size() == alone[d].kernels.size());
    REQUIRE(together[d].kernels.size() == 2);
    check_identity(together[d].kernels[0].context, d);
    for (std::size_t k = 0; k < 2; ++k) {
      CAPTURE(k);
      CHECK(together[d].kernels[k].name == alone[d].kernels[k].name);  // both threads got kernel names
      CHECK(napkin_multi_gpu::disagreement(together[d].kernels[k], alone[d].kernels[k]) == "");
    }
  }
  CHECK(together[0].kernels[0].context.device_uuid != together[1].kernels[0].context.device_uuid);
}
