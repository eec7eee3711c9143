// nvbench's JSON read as napkin's reports (napkin/report/nvbench_json_read.hpp), on real files:
// tests/report/data/nvbench_axes_ref.json and nvbench_axes_cmp.json, two runs of nvbench's axes example on a
// Quadro GV100 and a Quadro GP100 that NVIDIA/nvbench checked in (data/README.md). The expected numbers are the
// file's strings and what nvbench's example declares (examples/axes.cu: copy_type_sweep reads and writes
// 256 MiB, so 536,870,912 bytes); then diff with nvbench's noise, and hostile input.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "napkin/report.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/report/json_read_run.hpp"
#include "napkin/report/nvbench_json_read.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::input_error_of;

namespace {

const std::string data = std::string(NAPKIN_REPORT_TEST_DATA) + "/nvbench";

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json_value parsed(const std::string& text) {
  const json_read_result r = parse_json(text, "test.json");
  REQUIRE_MESSAGE(r.ok(), r.problem);
  return r.value;
}

nvbench_run read_text(const std::string& text, const std::string& file = "n.json") {
  return read_nvbench_json(parsed(text), file);
}

nvbench_run read_data(const std::string& name) { return read_text(file_text(data + "/" + name), name); }

const sol_report& kernel(const nvbench_run& r, const char* name) {  // const char*: -Wdangling-reference (GCC 13)
  for (const sol_report& k : r.run.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return r.run.kernels.front();
}

// One benchmark with one state on device 0 and the summaries given (JSON text of the array's items).
std::string small_file(const std::string& summaries,
                       const std::string& device = "\"NVIDIA H100 80GB HBM3\", \"sm_version\": 900") {
  return "{\"meta\": {\"version\": {\"json\": {\"major\": 1, \"minor\": 0, \"patch\": 0}}},"
         " \"devices\": [{\"id\": 0, \"name\": " +
         device +
         ", \"global_memory_bus_bandwidth\": 3352320000000}],"
         " \"benchmarks\": [{\"name\": \"copy\", \"axes\": null, \"states\": [{\"name\": \"Device=0 N=2^20\", "
         "\"device\": 0,"
         " \"summaries\": [" +
         summaries + "], \"is_skipped\": false}]}]}";
}
std::string summary(const std::string& tag, const std::string& value, const std::string& type = "float64") {
  return "{\"tag\": \"" + tag + "\", \"name\": \"x\", \"hint\": \"x\", \"data\": [{\"name\": \"value\", \"type\": \"" +
         type + "\", \"value\": " + value + "}]}";
}

}  // namespace

TEST_CASE("a real nvbench JSON: one report per state, its time, noise and declared bandwidth") {
  const nvbench_run r = read_data("nvbench_axes_ref.json");
  REQUIRE(r.run.kernels.size() == 14);  // simple: 2 states, copy_type_sweep: 12 (6 types x 2 devices)
  CHECK(r.run.kernels.front().name == "simple Device=0");
  CHECK(r.run.kernels.back().name == "copy_type_sweep Device=1 T=F64");
  // Two kinds of device: the document names none; each report its own.
  CHECK(r.gpu.name.empty());
  CHECK(r.gpu.key.empty());
  CHECK(contains(r.notes.back(), "2 kinds of device (Quadro GP100, Quadro GV100)"));
  const sol_report& simple = kernel(r, "simple Device=0");
  CHECK(simple.how == measured_by::nvbench);
  CHECK(simple.metric_set == "nvbench JSON: nvbench_axes_ref.json");
  CHECK(simple.context.device_index == 0);
  CHECK(simple.context.device_name == "Quadro GV100");
  // "value": "0.0010034715849794225" (s) and the relative stdev "0.0005782350585973689".
  CHECK(simple.duration_ns() == doctest::Approx(1003471.5849794225));
  CHECK(simple.duration_noise_pct() == doctest::Approx(0.05782350585973689));
  CHECK(simple.get("nv/cold/sample_size") == 499.0);
  CHECK(simple.get("nv/batch/time/gpu/mean") == doctest::Approx(0.001001475909284053));
  CHECK(!simple.dram_bytes());  // `simple` declares no bytes
  CHECK(!simple.dram_pct());
  CHECK(contains(simple.derivations.at("duration_ns"), "nv/cold/time/gpu/mean"));
  const sol_report& u8 = kernel(r, "copy_type_sweep Device=0 T=U8");
  CHECK(u8.duration_ns() == doctest::Approx(2292998.504448446));
  CHECK(u8.duration_noise_pct() == doctest::Approx(2.420260340376021));
  CHECK(u8.dram_bytes() == doctest::Approx(536870912.0));  // 256 MiB read + 256 MiB written (examples/axes.cu)
  CHECK(u8.dram_bytes_per_s() == doctest::Approx(234134872289.91367));
  CHECK(u8.dram_pct() == doctest::Approx(26.89968661419045));  // of the GV100's 870.4 GB/s bus
  CHECK(contains(u8.derivations.at("dram_bytes"), "not DRAM traffic counted by ncu"));
  CHECK(contains(u8.derivations.at("dram_pct"), "870.4 GB/s"));
  const sol_report& gp100 = kernel(r, "copy_type_sweep Device=1 T=U8");
  CHECK(gp100.context.device_name == "Quadro GP100");
  CHECK(gp100.dram_bytes() == doctest::Approx(536870912.0));
  // No counters: the verdict says what is not measured; no FLOP for a roofline point.
  const sol_verdict v = u8.sol_table();
  CHECK(v.kind == bottleneck::not_measured);
  CHECK(contains(v.reason, "nvbench measures time"));
  CHECK(!u8.ncu_rule());
  CHECK(!u8.flop());
}

TEST_CASE("nvbench JSON written as napkin's document reads back as the same reports") {
  const nvbench_run r = read_data("nvbench_axes_cmp.json");
  document_options o;
  o.gpu = r.gpu;
  const std::string json = to_json(r.run, o);
  CHECK(contains(json, "\"measured_by\": \"nvbench\""));
  CHECK(contains(json, "\"duration_noise_pct\": "));
  const json_read_result p = parse_json(json, "nvbench.json");
  REQUIRE(p.ok());
  const measured_run back = read_run(p.value, "nvbench.json");
  REQUIRE(back.run.kernels.size() == r.run.kernels.size());
  for (std::size_t i = 0; i < r.run.kernels.size(); ++i) {
    CHECK(back.run.kernels[i].values == r.run.kernels[i].values);
    CHECK(back.run.kernels[i].derived == r.run.kernels[i].derived);
    CHECK(back.run.kernels[i].how == measured_by::nvbench);
  }
  // The schema test (report_schema) validates it with the documents the library writes.
  napkin_test::write_file(NAPKIN_REPORT_DOCUMENTS_DIR, "nvbench_kernel_reports.json", json);
}

TEST_CASE("diff of two nvbench files holds each time against nvbench's noise") {
  const auto doc = [](const std::string& name) {
    const nvbench_run r = read_data(name);
    document_options o;
    o.gpu = r.gpu;
    report_document d = to_document(r.run, o);
    d.source = name;
    return d;
  };
  const report_document ref = doc("nvbench_axes_ref.json"), cmp = doc("nvbench_axes_cmp.json"),
                        edited = doc("nvbench_axes_cmp_edited.json");
  // Two runs of the same build: every change is within 3 % and the noise.
  const report_diff same = diff(ref, cmp);
  CHECK(same.outcome == diff_outcome::no_regression);
  for (const field_change& c : same.changes) CHECK(c.field != "duration_noise_pct");  // the noise is not compared
  // At 1 %: `simple Device=0` 2.0 % slower, beyond its noise (0.05 %); U8 2.0 % slower, within its 2.42 %.
  diff_options o;
  o.threshold_pct = 1.0;
  const report_diff d = diff(ref, edited, o);
  CHECK(d.outcome == diff_outcome::regression);
  const field_change* simple = nullptr;
  const field_change* u8 = nullptr;
  for (const field_change& c : d.changes) {
    if (c.field != "duration_ns") continue;
    if (c.entity == "simple Device=0") simple = &c;
    if (c.entity == "copy_type_sweep Device=0 T=U8") u8 = &c;
  }
  REQUIRE(simple != nullptr);
  REQUIRE(u8 != nullptr);
  CHECK(simple->status == change_status::worse);
  CHECK(simple->regression);
  CHECK(simple->change_pct == doctest::Approx((1.0234686712415992 / 1.0034715849794225 - 1) * 100));
  CHECK(simple->noise_pct == doctest::Approx(0.05237510233783218));  // the smaller noise: the new file's
  CHECK(change_text(*simple) == "+2.0% (noise 0.05%)");
  CHECK(u8->status == change_status::same);
  CHECK(u8->noise_pct == doctest::Approx(2.420260340376021));
  CHECK(!u8->regression);
  // The rates over the U8 time are held against the same noise.
  for (const field_change& c : d.changes)
    if (c.entity == "copy_type_sweep Device=0 T=U8" && (c.field == "dram_bytes_per_s" || c.field == "dram_pct"))
      CHECK(c.status == change_status::same);
  // A state with no noise on one side (nvbench could not estimate it) is held against the other's.
  report_document quiet = edited;
  for (report_entity& e : quiet.entities)
    if (e.name == "copy_type_sweep Device=0 T=U8")
      for (std::size_t i = 0; i < e.numbers.size(); ++i)
        if (e.numbers[i].field == "duration_noise_pct")
          e.numbers.erase(e.numbers.begin() + static_cast<std::ptrdiff_t>(i));
  for (const field_change& c : diff(ref, quiet, o).changes)
    if (c.entity == "copy_type_sweep Device=0 T=U8" && c.field == "duration_ns") {
      CHECK(c.noise_pct == doctest::Approx(2.420260340376021));  // the baseline's
      CHECK(c.status == change_status::same);
    }
  // Without nvbench's noise (napkin's own documents), the threshold alone decides, as before.
  CHECK(!detail::compare_number("k", "duration_ns", 100.0, 102.0, o).noise_pct);
  CHECK(detail::compare_number("k", "duration_ns", 100.0, 102.0, o).status == change_status::worse);
  CHECK(detail::compare_number("k", "duration_ns", 100.0, 102.0, o, 2.5).status == change_status::same);
}

TEST_CASE("nvbench details: device names, skipped states, batch time, inf noise, numbers as text") {
  const std::string mean = summary("nv/cold/time/gpu/mean", "\"1.5e-05\"");
  const nvbench_run h100 = read_text(small_file(mean));
  REQUIRE(h100.run.kernels.size() == 1);
  CHECK(h100.run.kernels[0].name == "copy Device=0 N=2^20");
  CHECK(h100.run.kernels[0].duration_ns() == doctest::Approx(15000.0));
  CHECK(h100.gpu.name == "NVIDIA H100 80GB HBM3");
  CHECK(h100.gpu.key == "h100-sxm");
  CHECK(h100.gpu.compute_capability == "9.0");
  // A name napkin does not map, or a compute capability that does not match the table, gets no key.
  CHECK(read_text(small_file(mean, "\"NVIDIA H200\", \"sm_version\": 900")).gpu.key.empty());
  CHECK(gpu_key_for_device_name("NVIDIA H100 80GB HBM3", 800).empty());
  CHECK(gpu_key_for_device_name("Tesla V100-SXM2-32GB", 700) == "v100-sxm2");
  for (const device_name_key& d : nvbench_device_keys) CHECK(find_gpu(d.key).key == d.key);
  // Batch time when there is no cold one; nvbench's inf noise (null, or "inf") is a note, not a number.
  const nvbench_run batch = read_text(small_file(summary("nv/batch/time/gpu/mean", "\"2e-06\"") + "," +
                                                 summary("nv/cold/time/gpu/stdev/relative", "null")));
  CHECK(batch.run.kernels[0].duration_ns() == doctest::Approx(2000.0));
  CHECK(contains(batch.run.kernels[0].derivations.at("duration_ns"), "nv/batch/time/gpu/mean"));
  CHECK(!batch.run.kernels[0].duration_noise_pct());
  CHECK(contains(batch.notes[0], "no noise"));
  CHECK(!read_text(small_file(mean + "," + summary("nv/cold/time/gpu/stdev/relative", "\"inf\"")))
             .run.kernels[0]
             .duration_noise_pct());
  // Numbers as JSON numbers (older writers) read too; a summary of text (a file name) is not a value.
  const nvbench_run plain = read_text(small_file(summary("nv/cold/time/gpu/mean", "0.5") + "," +
                                                 summary("nv/json/bin:nv/cold/sample_times", "\"0.bin\"", "string")));
  CHECK(plain.run.kernels[0].duration_ns() == doctest::Approx(5e8));
  CHECK(plain.run.kernels[0].values.size() == 1);
  // A state with no GPU time is kept, with a note; a skipped state is a note.
  CHECK(contains(read_text(small_file(summary("nv/cold/time/cpu/mean", "\"1\""))).notes[0], "no GPU time"));
  std::string skipped = small_file(mean);
  skipped.replace(skipped.find("\"is_skipped\": false"), 19, "\"is_skipped\": true, \"skip_reason\": \"too fast\"");
  CHECK(contains(input_error_of([&] { read_text(skipped, "s.json"); }), "s.json: no benchmark state that ran"));
  // A negative value, a noise over 1000 %, a time beyond a double are left out with a note.
  const nvbench_run odd = read_text(small_file(mean + "," + summary("nv/cold/time/gpu/stdev/relative", "\"50\"") + "," +
                                               summary("nv/cold/time/cpu/mean", "\"-1\"") + "," +
                                               summary("nv/cold/walltime", "\"1e999\"")));
  CHECK(odd.run.kernels[0].duration_ns() == doctest::Approx(15000.0));
  CHECK(!odd.run.kernels[0].duration_noise_pct());
  CHECK(!odd.run.kernels[0].get("nv/cold/time/cpu/mean"));
  CHECK(!odd.run.kernels[0].get("nv/cold/walltime"));
  CHECK(odd.notes.size() == 3);  // the noise, the CPU mean, the walltime
  // A tag with "pct" in it reads back as a percentage (json_read_run.hpp): above 1000 it is left out too.
  const nvbench_run pct = read_text(small_file(mean + "," + summary("nv/colpctample_size", "\"3008\"", "int64")));
  CHECK(!pct.run.kernels[0].get("nv/colpctample_size"));
  CHECK(contains(pct.notes[0], "a percentage above 1000"));
  CHECK(detail::nvbench_number_text("1e-3") == 0.001);
  CHECK(detail::nvbench_number_text("-2") == -2.0);
  CHECK(!detail::nvbench_number_text("1,5"));
  CHECK(!detail::nvbench_number_text("0x10"));
  CHECK(!detail::nvbench_number_text("1e"));
  CHECK(!detail::nvbench_number_text(""));
  CHECK(!detail::nvbench_number_text(" 1"));
}

TEST_CASE("hostile nvbench input is napkin's input error naming the file and the member") {
  const std::string mean = summary("nv/cold/time/gpu/mean", "\"1.5e-05\"");
  const auto error = [](const std::string& text) { return input_error_of([&] { read_text(text, "h.json"); }); };
  CHECK(contains(error("[1, 2]"), "h.json: expected nvbench's JSON object, got array"));
  CHECK(contains(error("{\"benchmarks\": []}"), "h.json: no \"devices\""));
  CHECK(contains(error("{\"devices\": [], \"benchmarks\": {}}"), "h.json.benchmarks: expected an array, got object"));
  CHECK(contains(error("{\"devices\": [], \"benchmarks\": []}"), "no benchmark state that ran"));
  CHECK(contains(error("{\"meta\": {\"version\": {\"json\": {\"major\": 2}}}, \"devices\": [], \"benchmarks\": []}"),
                 "nvbench JSON format 2.x; napkin reads format 1.x"));
  // Wrong types, a number that does not read, a huge id.
  std::string text = small_file(mean);
  CHECK(contains(error(std::string(text).replace(text.find("\"device\": 0"), 11, "\"device\": \"0\"")),
                 "states[0].device: expected a whole number, got string"));
  CHECK(contains(error(std::string(text).replace(text.find("\"device\": 0"), 11, "\"device\": 1e300")),
                 "expected a whole number, got 1e+300"));
  CHECK(contains(error(std::string(text).replace(text.find("\"device\": 0"), 11, "\"device\": 7")),
                 "device 7 is not in the file's \"devices\""));
  CHECK(contains(error(small_file(summary("nv/cold/time/gpu/mean", "\"12abc\""))),
                 "summaries[0].data[0].value: '12abc' is not a number (type float64)"));
  CHECK(
      contains(error(small_file(summary("nv/cold/time/gpu/mean", "true"))), "expected a number as text, got boolean"));
  CHECK(contains(error(small_file("7")), "summaries[0]: expected an object, got number"));
  CHECK(contains(error(small_file("{\"name\": \"x\"}")), "summaries[0]: no \"tag\""));
  CHECK(contains(error(small_file(mean + "," + mean)), "the tag 'nv/cold/time/gpu/mean' twice in one state"));
  // nvbench's format before 1.0 (summaries an object keyed by name).
  std::string old_format = text;
  old_format.replace(old_format.find("\"summaries\": ["), 14 + mean.size() + 1,
                     "\"summaries\": {\"GPU Time\": " + mean + "}");
  CHECK(contains(error(old_format), "summaries: expected an array, got object"));
  // The same state twice.
  std::string twice = text;
  const std::size_t state = twice.find("{\"name\": \"Device=0");
  const std::size_t end = twice.find("\"is_skipped\": false}") + 20;
  twice.insert(end, ", " + twice.substr(state, end - state));
  CHECK(contains(error(twice), "the state 'copy Device=0 N=2^20' is in the file twice"));
  // Truncated anywhere: the JSON reader says where; a file cut to a valid prefix cannot be one.
  const std::string real = file_text(data + "/nvbench_axes_ref.json");
  CHECK(!parse_json(real.substr(0, real.size() / 2), "t.json").ok());
  CHECK(!looks_like_nvbench_json(parse_json("{\"schema\": \"napkin.kernel-reports\", \"benchmarks\": []}").value));
  CHECK(looks_like_nvbench_json(parsed(real)));
}
