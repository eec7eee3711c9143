// The device side of several GPUs and processes, without a GPU: a device's identity (UUID text, bad
// indices), the context a profiler document carries, and what napkin says and does when the counters are
// busy (the retry arithmetic with a fake clock and a fake CUPTI call). Expected texts and times are written
// out by hand below.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "napkin/detail/device_index.hpp"
#include "napkin/profiler.hpp"
#include "napkin/document/gpu_uuid.hpp"
#include "napkin/report/profiler_documents.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

sol_report measured_on_device_1() {
  sol_report r;
  r.name = "copy";
  r.chip = "GH100";
  r.metric_set = "one-pass";
  r.passes = 1;
  r.context.device_index = 1;
  r.context.device_name = "NVIDIA H200";
  r.context.device_pci_bus_id = "0000:2A:00.0";
  r.context.device_uuid = "GPU-01234567-89ab-cdef-0011-223344556677";
  return r;
}

}  // namespace

TEST_CASE("gpu_uuid_text: nvidia-smi -L's form, 8-4-4-4-12 lowercase hex after GPU-") {
  const std::array<std::uint8_t, 16> bytes{0x8c, 0x0b, 0x1e, 0x2a, 0x4f, 0x3d, 0x00, 0xff,
                                           0x10, 0xA0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab};
  CHECK(gpu_uuid_text(bytes) == "GPU-8c0b1e2a-4f3d-00ff-10a0-0123456789ab");
  CHECK(gpu_uuid_text({}) == "GPU-00000000-0000-0000-0000-000000000000");
}

TEST_CASE("device indices: -1 is the current device; anything else must name a device this process sees") {
  CHECK(detail::device_index_problem(-1, 2, "d").empty());
  CHECK(detail::device_index_problem(0, 2, "d").empty());
  CHECK(detail::device_index_problem(1, 2, "d").empty());
  CHECK(detail::device_index_problem(2, 2, "profiler_options::device") ==
        "napkin: profiler_options::device is 2, but this process sees 2 CUDA devices (0..1); CUDA_VISIBLE_DEVICES "
        "renumbers the devices a process sees");
  CHECK(detail::device_index_problem(1, 1, "d") ==
        "napkin: d is 1, but this process sees 1 CUDA device (0); CUDA_VISIBLE_DEVICES renumbers the devices a "
        "process sees");
  CHECK(detail::device_index_problem(0, 0, "d") == "napkin: d is 0, but this process sees no CUDA device");
  CHECK(detail::device_index_problem(-2, 4, "d") ==
        "napkin: d is -2, but a device index is 0 or more (-1 means the current device)");
}

TEST_CASE("a profiler document names the measured device in its context") {
  const json doc = json::parse(to_json(measured_on_device_1()));
  REQUIRE(doc.contains("context"));
  CHECK(doc["context"] == json{{"device_index", 1},
                               {"device_name", "NVIDIA H200"},
                               {"device_pci_bus_id", "0000:2A:00.0"},
                               {"device_uuid", "GPU-01234567-89ab-cdef-0011-223344556677"}});
}

TEST_CASE("the caller's context: its fields win, the measured device fills the rest") {
  document_options o;
  o.context.host = "node-7";
  o.context.rank = 3;
  o.context.device_name = "renamed by the caller";
  const json doc = json::parse(to_json(measured_on_device_1(), o));
  CHECK(doc["context"]["host"] == "node-7");
  CHECK(doc["context"]["rank"] == 3);
  CHECK(doc["context"]["device_name"] == "renamed by the caller");
  CHECK(doc["context"]["device_index"] == 1);
  CHECK(doc["context"]["device_uuid"] == "GPU-01234567-89ab-cdef-0011-223344556677");
}

TEST_CASE("kernel and phase documents: the context their reports share") {
  kernel_reports k;
  k.kernels = {measured_on_device_1(), measured_on_device_1()};
  k.kernels[1].name = "scale";
  CHECK(json::parse(to_json(k))["context"]["device_index"] == 1);
  CHECK(json::parse(to_json(k))["context"]["device_uuid"] == "GPU-01234567-89ab-cdef-0011-223344556677");
  CHECK_FALSE(json::parse(to_json(kernel_reports{})).contains("context"));  // no kernel, no device known

  phase_reports p;
  p.phases = {measured_on_device_1(), measured_on_device_1()};
  p.phases[1].context.device_index = 0;  // a phase from another device: the index is not shared
  p.phases[1].context.device_uuid = "GPU-other";
  const json doc = json::parse(to_json(p));
  CHECK_FALSE(doc["context"].contains("device_index"));
  CHECK_FALSE(doc["context"].contains("device_uuid"));
  CHECK(doc["context"]["device_name"] == "NVIDIA H200");  // both are H200s
  CHECK_FALSE(json::parse(to_json(phase_reports{})).contains("context"));  // nothing known, no context
}

TEST_CASE("busy counters: the backoff doubles from 10 ms to a 1 s cap and never passes the deadline") {
  const milliseconds plenty{60000};
  CHECK(detail::busy_backoff(0, plenty) == milliseconds(10));
  CHECK(detail::busy_backoff(1, plenty) == milliseconds(20));
  CHECK(detail::busy_backoff(6, plenty) == milliseconds(640));
  CHECK(detail::busy_backoff(7, plenty) == milliseconds(1000));  // 1280 capped
  CHECK(detail::busy_backoff(500, plenty) == milliseconds(1000));
  CHECK(detail::busy_backoff(3, milliseconds(25)) == milliseconds(25));  // 80 wanted, 25 left
}

namespace {
// A steady clock that moves only when the loop sleeps, and a CUPTI call that is busy `busy_calls` times.
struct fake_world {
  std::chrono::steady_clock::time_point t{};
  int calls = 0;
  int busy_calls = 0;
  CUptiResult after = CUPTI_SUCCESS;
  std::vector<milliseconds> sleeps;

  detail::busy_outcome run(milliseconds busy_wait) {
    return detail::retry_while_busy(
        [this] { return ++calls <= busy_calls ? CUPTI_ERROR_HARDWARE_BUSY : after; }, busy_wait, [this] { return t; },
        [this](milliseconds ms) {
          sleeps.push_back(ms);
          t += ms;
        });
  }
};
}  // namespace

TEST_CASE("busy counters: busy_wait = 0 calls once and reports busy") {
  fake_world w;
  w.busy_calls = 1000;
  const detail::busy_outcome o = w.run(milliseconds(0));
  CHECK(o.status == CUPTI_ERROR_HARDWARE_BUSY);
  CHECK(w.calls == 1);
  CHECK(o.retries == 0);
  CHECK(o.waited == milliseconds(0));
}

TEST_CASE("busy counters: the holder lets go after three busy answers") {
  fake_world w;
  w.busy_calls = 3;
  const detail::busy_outcome o = w.run(milliseconds(5000));
  CHECK(o.status == CUPTI_SUCCESS);
  CHECK(w.calls == 4);
  CHECK(o.retries == 3);
  CHECK(w.sleeps == std::vector<milliseconds>{milliseconds(10), milliseconds(20), milliseconds(40)});
  CHECK(o.waited == milliseconds(70));
}

TEST_CASE("busy counters: busy until the deadline, the last wait cut to what is left") {
  fake_world w;
  w.busy_calls = 1000;
  const detail::busy_outcome o = w.run(milliseconds(100));
  // 10 + 20 + 40 = 70 ms, then 30 ms left (80 wanted): 100 ms in all, five calls.
  CHECK(w.sleeps == std::vector<milliseconds>{milliseconds(10), milliseconds(20), milliseconds(40), milliseconds(30)});
  CHECK(o.status == CUPTI_ERROR_HARDWARE_BUSY);
  CHECK(w.calls == 5);
  CHECK(o.waited == milliseconds(100));
}

TEST_CASE("busy counters: another failure is returned at once, not retried") {
  fake_world w;
  w.busy_calls = 1;
  w.after = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  const detail::busy_outcome o = w.run(milliseconds(5000));
  CHECK(o.status == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  CHECK(w.calls == 2);
}

TEST_CASE("busy counters: what the message adds after CUPTI's text and advice") {
  detail::busy_outcome o;
  o.status = CUPTI_ERROR_HARDWARE_BUSY;
  CHECK(detail::busy_note(o, "device 1 (NVIDIA H200, 0000:2A:00.0)", milliseconds(0)) ==
        "the counters of device 1 (NVIDIA H200, 0000:2A:00.0) are held by another client; napkin did not "
        "wait (profiler_options::busy_wait = 0)");
  o.retries = 4;
  o.waited = milliseconds(100);
  CHECK(detail::busy_note(o, "device 0", milliseconds(100)) ==
        "the counters of device 0 are held by another client; napkin waited 100 ms (5 attempts, "
        "profiler_options::busy_wait = 100 ms) and they stayed busy");
  o.status = CUPTI_SUCCESS;
  CHECK(detail::busy_note(o, "device 0", milliseconds(100)).empty());
}

TEST_CASE("advice: busy counters name the likely holders and what to do") {
  const std::string busy = profiler_advice(CUPTI_ERROR_HARDWARE_BUSY);
  for (const char* part : {"ncu", "nsys", "napkin::monitor", "one profiling napkin process per GPU",
                           "`dcgmi profile --pause`", "profiler_options::busy_wait"})
    CHECK_MESSAGE(contains(busy, part), part);
  const std::string admin = profiler_advice(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  for (const char* part : {"Run as root", "NVreg_RestrictProfilingToAdminUsers=0", "https://developer.nvidia.com/ERR_NVGPUCTRPERM"})
    CHECK_MESSAGE(contains(admin, part), part);
  CHECK(contains(profiler_advice(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED), "isolated"));
  // The whole message of a failed call: CUPTI's name, then the advice.
  CHECK(contains(describe_cupti_failure("cuptiRangeProfilerEnable", CUPTI_ERROR_HARDWARE_BUSY),
                 "cuptiRangeProfilerEnable: CUPTI_ERROR_HARDWARE_BUSY"));
}

TEST_CASE("launch recording: a launch goes to the listeners of its context") {
  int a = 0, b = 0;  // two distinct addresses stand for two contexts
  const auto ctx_a = reinterpret_cast<CUcontext>(&a);
  const auto ctx_b = reinterpret_cast<CUcontext>(&b);
  const detail::launch_listener on_a(ctx_a, true);
  CHECK(detail::launch_belongs_to(on_a, ctx_a, 2));
  CHECK_FALSE(detail::launch_belongs_to(on_a, ctx_b, 2));
  // A launch whose context CUPTI does not know: a lone listener takes it, two cannot tell whose it is.
  CHECK(detail::launch_belongs_to(on_a, nullptr, 1));
  CHECK_FALSE(detail::launch_belongs_to(on_a, nullptr, 2));
}

TEST_CASE("profiler_options: the current device and failing at once are the defaults") {
  const profiler_options o;
  CHECK(o.device == -1);
  CHECK(o.busy_wait == milliseconds(0));
}
