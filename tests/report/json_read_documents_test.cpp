// The library reads back what it writes: a measured run (json_read_run.hpp), a monitor report
// (json_read_monitor.hpp) and a GPU file (json_read_gpus.hpp). Each written document read back and written
// again is the same text; bad input is napkin's input error (std::invalid_argument) naming the file and the
// member.
#include <doctest/doctest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "monitor_samples.hpp"
#include "napkin/report.hpp"
#include "napkin/report/json_read_gpus.hpp"
#include "napkin/report/json_read_monitor.hpp"
#include "napkin/report/json_read_run.hpp"
#include "samples.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::input_error_of;

namespace {
const std::string out = NAPKIN_REPORT_TEST_OUT;

std::string write_file(const std::string& name, const std::string& text) {
  return napkin_test::write_file(out, name, text);
}

}  // namespace

TEST_CASE("a measured run read back writes the same document") {
  kernel_reports k;
  k.kernels = {samples::sol("gemm", 2000), samples::one_pass("softmax"), samples::disagreeing("first_cublas")};
  k.dropped = 2;
  const std::string path = write_file("read_run.json", to_json(k));
  const measured_run read = read_run(path);
  CHECK(read.file == path);
  CHECK(read.kind == report_kind::kernel_reports);
  REQUIRE(read.run.kernels.size() == 3);
  CHECK(read.run.kernels[0].name == "gemm");
  CHECK(read.run.dropped == 2);
  CHECK(to_json(read.run) == to_json(k));

  const std::string one = write_file("read_run_one.json", to_json(samples::sol("copy", 500)));
  const measured_run single = read_run(one);
  CHECK(single.kind == report_kind::sol_report);
  REQUIRE(single.run.kernels.size() == 1);
  CHECK(to_json(single.run.kernels[0]) == to_json(samples::sol("copy", 500)));
}

TEST_CASE("a measured run's bad input names the file and the member") {
  const std::string gpus = write_file("read_run_gpus.json", to_json(std::vector<gpu_spec>{samples::round_gpu}));
  const std::string kind = input_error_of([&] { read_run(gpus); });
  CHECK(contains(kind, gpus + ": a document of kind 'gpu-specs'; this reads measured kernels"));

  std::string text = to_json(samples::sol("copy", 500));
  const std::size_t at = text.rfind("\"chip\"");  // the report's, after the header's gpu.chip
  REQUIRE(at != std::string::npos);
  text.replace(at, 6, "\"chop\"");
  const std::string broken = write_file("read_run_no_chip.json", text);
  CHECK(input_error_of([&] { read_run(broken); }) == "napkin: " + broken + ": report: no \"chip\"");
  CHECK(contains(input_error_of([] { read_run(out + "/no-such-file.json"); }), "no-such-file.json"));
}

TEST_CASE("a monitor report read back writes the same document") {
  monitor_report written = monitor_samples::report();
  REQUIRE(!written.kernels.empty());
  REQUIRE(written.kernels[0].sm_pct);
  written.kernels[0].sm_pct_upper = *written.kernels[0].sm_pct + 12.5;  // an SM % range
  const json_read_result doc = parse_json(to_json(written), "monitor.json");
  REQUIRE(doc.ok());
  const monitor_report read = read_monitor_report(doc.value, "monitor.json");
  CHECK(read.kernels.size() == written.kernels.size());
  CHECK(read.phases.size() == written.phases.size());
  CHECK(to_json(read) == to_json(written));
  REQUIRE(read.kernels[0].sm_pct_upper);
  CHECK(*read.kernels[0].sm_pct_upper == *written.kernels[0].sm_pct + 12.5);

  // A document from before the SM % range has no sm_pct_upper: read without one. One whose upper end is
  // below SM % is refused.
  std::string text = to_json(written);
  const std::string key = "\"sm_pct_upper\": ";
  std::string older = text;
  for (std::size_t at; (at = older.find(key)) != std::string::npos;) older.erase(at, older.find(',', at) + 1 - at);
  const json_read_result old_doc = parse_json(older, "old.json");
  REQUIRE(old_doc.ok());
  CHECK_FALSE(read_monitor_report(old_doc.value, "old.json").kernels[0].sm_pct_upper);
  written.kernels[0].sm_pct_upper = *written.kernels[0].sm_pct - 1;
  const json_read_result low = parse_json(to_json(written), "low.json");
  REQUIRE(low.ok());
  CHECK(contains(input_error_of([&] { read_monitor_report(low.value, "low.json"); }),
                 "sm_pct_upper: below sm_pct, or given without it"));

  const json_read_result no_rows = parse_json(R"({"monitor": {}})", "bad.json");
  REQUIRE(no_rows.ok());
  CHECK(input_error_of([&] { read_monitor_report(no_rows.value, "bad.json"); }) ==
        "napkin: bad.json: monitor: no \"device\"");
}

TEST_CASE("a GPU file read back gives the GPUs that wrote it") {
  const std::string path = write_file("read_gpus.json", to_json(std::vector<gpu_spec>{samples::round_gpu}));
  const std::vector<file_gpu> gpus = read_gpu_specs_file(path);
  REQUIRE(gpus.size() == 1);
  const gpu_spec& g = gpus[0].spec;
  CHECK(g.key == "round-gpu");
  CHECK(g.name == "Round GPU");
  CHECK(g.cc_major == 9);
  CHECK(g.sm_count == 100);
  CHECK(g.memory_bandwidth == 1e12);
  CHECK(g.peak(pipe::fp32) == 1e13);
  CHECK(g.peaks[index(pipe::fp16_tensor)] == 0);  // null in the file: no peak
  CHECK(contains(std::string(g.source), "read from " + path));

  std::string text = to_json(std::vector<gpu_spec>{samples::round_gpu});
  const std::size_t at = text.find("\"memory_bandwidth_bytes_per_s\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 8, "\"memoir_");
  const std::string broken = write_file("read_gpus_no_bandwidth.json", text);
  CHECK(input_error_of([&] { read_gpu_specs_file(broken); }) ==
        "napkin: " + broken + ": gpus[0]: memory_bandwidth_bytes_per_s is required (a number > 0)");
}
