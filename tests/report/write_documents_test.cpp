// Writes one document of every kind napkin emits, realistic and edge cases, into a folder; the
// report_schema test (validate_schema.py) then checks each against docs/schema/napkin.schema.json.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"
#include "napkin/report.hpp"
#include "napkin/monitor/make_monitor_report.hpp"
#include "napkin/monitor/monitor_documents.hpp"

#include <sys/resource.h>
#include "monitor/helpers.hpp"
#include "samples.hpp"
#include "section_samples.hpp"
#include "source_lines_samples.hpp"
#include "system_samples.hpp"

using namespace napkin;

namespace {
void write(const std::string& name, const std::string& text) {
  const std::string path = std::string(NAPKIN_REPORT_DOCUMENTS_DIR) + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE_MESSAGE(f != nullptr, path);
  CHECK(std::fwrite(text.data(), 1, text.size(), f) == text.size());
  std::fclose(f);
}
}  // namespace

TEST_CASE("write every document kind") {
  document_options everything;
  everything.gpu.key = "h100-sxm";
  everything.gpu.name = "NVIDIA H100 80GB HBM3";
  everything.context.host = "node-7";
  everything.context.device_index = 0;
  everything.context.device_name = "NVIDIA H100 80GB HBM3";
  everything.context.rank = 3;

  write("sol_report.json", to_json(samples::sol("softmax", 1000)));
  write("sol_report_context.json", to_json(samples::sol("softmax", 1000), everything));
  write("sol_report_one_pass_unusual_name.json", to_json(samples::one_pass("say \"hi\"\n\t\xe2\x9c\x93 \xff")));
  write("sol_report_passes_disagree.json", to_json(samples::disagreeing("cublasSgemm")));
  sol_report roofline = samples::sol("gemm", 2.8e6);
  roofline.metric_set = "roofline";
  roofline.values[metric::ffma] = 6.4e10;
  roofline.values[metric::fadd] = 1e6;
  roofline.values[metric::fmul] = 0;
  roofline.values["custom__metric.not_finite"] = std::numeric_limits<double>::quiet_NaN();  // null
  roofline.derivations["sm_pct"] = "max of sm__inst_executed and sm__pipe_*_cycles_active";
  write("sol_report_roofline.json", to_json(roofline));

  kernel_reports k;
  k.kernels = {samples::sol("softmax_naive", 5000), samples::sol("softmax_naive", 5100),
               samples::one_pass("void reduce<float, 256>(float const*, float*, int)")};
  k.dropped = 1;
  k.cost = {0.1, 0.2, 0.3, 0, 0.05, 0.25, 0.01};
  write("kernel_reports.json", to_json(k));
  write("kernel_reports_empty.json", to_json(kernel_reports{}));
  // Report sections (the test's makers): a section of numbers with one not measured, a section of shares,
  // a kernel without them.
  kernel_reports with_sections;
  with_sections.kernels = {section_samples::with_metrics(samples::sol("gemm", 2000), 87.5, 400, 100, 60, 30, 10),
                           samples::one_pass("copy")};
  write("kernel_reports_sections.json", to_json(with_sections, {}, section_samples::makers()));
  const sol_report sectioned = with_sections.kernels[0];
  write("sol_report_sections.json", to_json(sectioned, {}, section_samples::makers()));
  const workload_comparison sectioned_compared = compare(sectioned, softmax(4096, 4096), gpus::h100_sxm, pipe::fp32);
  write("comparison_sections.json", to_json(sectioned, sectioned_compared, {}, section_samples::makers()));
  write("phase_reports.json", to_json(phase_reports{{samples::sol("prefill", 1e6), samples::sol("decode", 3e5)}}));
  write("phase_reports_empty.json", to_json(phase_reports{}));

  const sol_report r = samples::sol("softmax", 1000);
  write("comparison.json", to_json(r, compare(r, softmax(4096, 4096), gpus::h100_sxm, pipe::fp32)));
  write("comparison_one_pass.json", to_json(samples::one_pass("softmax"),
                                            compare(samples::one_pass("softmax"), workload_model{"m", 2e6, 1e6, 1e13, 1e12})));

  write("estimate.json", to_json(make_estimate_report("gemm 4096^3 fp16", gemm(4096, 4096, 4096, dtype::fp16),
                                                      gpus::h100_sxm, pipe::fp16_tensor)));
  write("estimate_sparse.json", to_json(make_estimate_report("gemm sparse", gemm(8192, 8192, 8192, dtype::fp8),
                                                             gpus::h100_sxm, pipe::fp8_tensor, sparsity::sparse_2_4)));
  write("estimate_round_gpu.json",
        to_json(make_estimate_report("softmax", softmax(1024, 1024), samples::round_gpu, pipe::fp32), everything));

  document_options named;
  named.name = "gemm_kernel";
  write("occupancy_advice.json", to_json(next_step(limits_of({8, 6}), 256, {128}), named));
  write("occupancy_full.json", to_json(next_step(limits_of({9, 0}), 256, {32}, 8 * 1024)));
  write("occupancy_invalid.json", to_json(try_occupancy(limits_of({9, 0}), 2048, {32})));
  write("occupancy_barriers.json", to_json(occupancy(limits_of({9, 0}), 1024, kernel_resources{64})));

  write("gpu_spec.json", to_json(gpus::h100_sxm));
  write("gpu_spec_round.json", to_json(samples::round_gpu));
  write("gpu_specs_table.json", to_json(std::vector<gpu_spec>(gpu_table.begin(), gpu_table.end())));

  // The monitor: phases, a kernel outside any range, an NCCL phase, a launch never sampled (partial), a
  // window without readings (nulls); and an empty report.
  using monitor_test::kernel;
  using monitor_test::sample;
  pm_sample bare = sample(3000, 4000, 0, 0);
  bare.sm_pct.reset();
  bare.dram_pct.reset();
  bare.l1tex_pct.reset();
  bare.l2_slices_pct.reset();
  bare.dram_read_bytes.reset();
  bare.dram_write_bytes.reset();
  const std::vector<pm_sample> windows = {sample(0, 1000, 20, 85, 30, 40, 800, 400),
                                          sample(1000, 2000, 75, 10, 20, 15, 100, 0),
                                          sample(2000, 3000, 10, 5, 45, 15, 200, 200), bare};
  const std::vector<kernel_record> launches = {
      kernel("load", 0, 1000, {"decode", "attention"}), kernel("gemm", 1000, 2000, {"decode", "mlp"}),
      kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 2000, 2500, {"allreduce"}), kernel("tail", 2500, 3000),
      kernel("ghost", 3000, 4000), kernel("load", 5000, 6000, {"decode", "attention"})};
  const monitor_report monitored = make_monitor_report(launches, attribute(windows, launches), 0);
  write("monitor_report.json", to_json(monitored));
  write("monitor_report_context.json", to_json(monitored, everything));
  write("monitor_report_empty.json", to_json(monitor_report{}));
  // With the system view: the sample's findings, kernels and no next kernel; then one with a next kernel, and
  // an empty system view (no phases, nothing recorded: shares and means null).
  monitor_report with_system = monitored;
  with_system.system = system_samples::report();
  write("monitor_report_system.json", to_json(with_system));
  with_system.system->next.kernel = "gemm<float>";
  with_system.system->next.share = 0.75;
  write("monitor_report_system_next.json", to_json(with_system));
  with_system.system = system_report{};
  write("monitor_report_system_empty.json", to_json(with_system));

  // Source lines: a function with lines and one without (PCs only), an empty sampling, the context.
  write("source_lines.json", to_json(source_lines_samples::report()));
  write("source_lines_context.json", to_json(source_lines_samples::fixed(), everything));
  write("source_lines_empty.json", to_json(source_lines_report{}));
}

namespace {
std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

// write_text_file replaces a file atomically: a write that fails half-way (here: past a 4-byte file size
// limit, EFBIG) leaves the old file whole and no temporary file; the permission bits are kept.
TEST_CASE("write_text_file: atomic replace, the old file intact when the write fails") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAPKIN_REPORT_DOCUMENTS_DIR) / "atomic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "report.json").string();
  CHECK(write_text_file(path, "old report").empty());
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  CHECK(write_text_file(path, "new report").empty());
  CHECK(contents(path) == "new report");
  CHECK((fs::status(path).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));

  rlimit old_limit{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  rlimit small = old_limit;
  small.rlim_cur = 4;
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string why = write_text_file(path, "a much longer report");
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK(why == "File too large");
  CHECK(contents(path) == "new report");
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 1);  // no temporary left behind
  CHECK_FALSE(write_text_file((dir / "no" / "such.json").string(), "x").empty());
}

// `-o link.json` where link.json is a symbolic link: the file it leads to gets the text (replaced
// atomically in its own folder, as any file), and the link stays a link to it.
TEST_CASE("write_text_file: through a symbolic link, the link kept") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAPKIN_REPORT_DOCUMENTS_DIR) / "links";
  fs::remove_all(dir);
  fs::create_directories(dir / "real");
  fs::create_directories(dir / "out");
  const fs::path target = dir / "real" / "report.html";
  CHECK(write_text_file(target.string(), "old page").empty());
  fs::create_symlink("../real/report.html", dir / "out" / "latest.html");  // relative: from the link's folder
  fs::create_symlink(dir / "out" / "latest.html", dir / "chain.html");     // a link to the link
  CHECK(write_text_file((dir / "out" / "latest.html").string(), "new page").empty());
  CHECK(fs::is_symlink(dir / "out" / "latest.html"));
  CHECK(fs::read_symlink(dir / "out" / "latest.html") == fs::path("../real/report.html"));
  CHECK(contents(target.string()) == "new page");
  CHECK(write_text_file((dir / "chain.html").string(), "newer page").empty());
  CHECK(fs::is_symlink(dir / "chain.html"));
  CHECK(contents(target.string()) == "newer page");
  std::size_t entries = 0;  // no temporary left in either folder
  for (const auto& e : fs::directory_iterator(dir / "out")) entries += e.exists() || e.is_symlink() ? 1 : 0;
  for (const auto& e : fs::directory_iterator(dir / "real")) entries += e.exists() ? 1 : 0;
  CHECK(entries == 2);
  // A link to a file not there yet creates it; a loop of links is refused with the system's words.
  fs::create_symlink("real/new.csv", dir / "pending.csv");
  CHECK(write_text_file((dir / "pending.csv").string(), "a,b").empty());
  CHECK(fs::is_symlink(dir / "pending.csv"));
  CHECK(contents((dir / "real" / "new.csv").string()) == "a,b");
  fs::create_symlink("loop-b", dir / "loop-a");
  fs::create_symlink("loop-a", dir / "loop-b");
  CHECK(write_text_file((dir / "loop-a").string(), "x") == "Too many levels of symbolic links");
}
