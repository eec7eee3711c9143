// Source lines without a GPU: the PC -> file:line mapping of CUPTI on a recorded cubin, checked against the
// toolkit's own disassembler (nvdisasm --print-line-info, recorded beside the cubin by
// data/make_source_lines_cubin.sh), and the aggregation from sampled PCs to lines on synthetic samples.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "napkin/cupti/sass_source.hpp"
#include "napkin/profiler/source_lines.hpp"
#include "napkin/profiler/source_sampler.hpp"

using namespace napkin;

namespace {

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE_MESSAGE(f.good(), path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

struct nvdisasm_line {
  std::string path;  // as nvdisasm prints it: the directory and the file
  std::uint32_t line = 0;
};

// nvdisasm --print-line-info: a `//## File "<path>", line <n>` comment before the instructions of a line,
// each instruction `/*<hex offset>*/`. Offsets of the function `function` -> its line; instructions after the
// function's last line marker (the padding after EXIT) keep that marker, as nvdisasm prints them.
std::map<std::uint64_t, nvdisasm_line> parse_nvdisasm(const std::string& text, const std::string& function) {
  std::map<std::uint64_t, nvdisasm_line> out;
  bool inside = false;
  nvdisasm_line current;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string l = text.substr(pos, end - pos);
    pos = end + 1;
    if (l.find(".text." + function + ":") != std::string::npos) inside = true;
    else if (l.find("//---------------------") != std::string::npos) inside = false;
    if (!inside) continue;
    if (const auto f = l.find("//## File \""); f != std::string::npos) {
      const auto q = l.find('"', f + 11);
      current.path = l.substr(f + 11, q - (f + 11));
      current.line = static_cast<std::uint32_t>(std::stoul(l.substr(l.find("line ", q) + 5)));
      continue;
    }
    const auto a = l.find("/*");
    const auto b = l.find("*/", a == std::string::npos ? 0 : a);
    if (a == std::string::npos || b == std::string::npos || current.line == 0) continue;
    const std::string hex = l.substr(a + 2, b - a - 2);
    if (hex.empty() || hex.find_first_not_of("0123456789abcdef") != std::string::npos) continue;
    out[std::stoull(hex, nullptr, 16)] = current;
  }
  return out;
}

const std::string data = NAPKIN_PROFILER_TEST_DATA;

pc_record pc(std::string function, std::uint64_t offset, std::vector<stall_samples> stalls, std::string file = "",
             std::uint32_t line = 0) {
  pc_record r;
  r.function = function;
  r.symbol = "_Z" + function;
  r.pc_offset = offset;
  r.stalls = std::move(stalls);
  r.where.file = std::move(file);
  r.where.dir = "/src";
  r.where.line = line;
  return r;
}

}  // namespace

TEST_CASE("CUPTI maps every PC of a recorded cubin to the line nvdisasm prints for it") {
  const std::vector<char> cubin = read_bytes(data + "/source_lines_kernel.cubin");
  std::ifstream f(data + "/source_lines_kernel.nvdisasm.txt");
  const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  const auto expected = parse_nvdisasm(text, "strided_sum");
  REQUIRE(expected.size() >= 16);  // the kernel's instructions, each with a line
  std::size_t lines_seen = 0;
  std::map<std::uint32_t, int> lines;
  for (const auto& [offset, want] : expected) {
    const detail::sass_line got = detail::correlate_pc(cubin, "strided_sum", offset);
    INFO("offset 0x" << std::hex << offset);
    REQUIRE(got.status == CUPTI_SUCCESS);
    CHECK(got.line == want.line);
    CHECK(got.dir + "/" + got.file == want.path);
    CHECK(got.file == "source_lines_kernel.cu");
    ++lines[got.line];
    ++lines_seen;
  }
  CHECK(lines_seen == expected.size());
  CHECK(lines.size() >= 5);  // the kernel's lines 7, 8, 10, 11, 12, 13: a real table, not one line for all
}

TEST_CASE("a cubin built without -lineinfo gives no line, and the report says how to get lines") {
  const std::vector<char> cubin = read_bytes(data + "/source_lines_kernel_nolines.cubin");
  const detail::sass_line got = detail::correlate_pc(cubin, "strided_sum", 0x40);
  CHECK(got.line == 0);
  // Through the sampler's correlator, as a drained PC would go.
  detail::pc_correlator c({detail::make_cubin_image(cubin)});
  detail::drained_pc d;
  d.symbol = "strided_sum";
  d.pc_offset = 0x40;
  d.stalls = {{"smsp__pcsamp_warps_issue_stalled_long_scoreboard", 7}};
  const pc_record r = c.resolve(d);
  CHECK_FALSE(r.where.known());
  CHECK(r.stalls.front().reason == "long_scoreboard");
  const auto fns = aggregate_source_lines({r});
  REQUIRE(fns.size() == 1);
  CHECK_FALSE(fns[0].line_info);
  CHECK(fns[0].lines.empty());
  REQUIRE(fns[0].pcs.size() == 1);
  CHECK(fns[0].pcs[0].pc_offset == 0x40);
  source_lines_report report;
  report.functions = fns;
  const std::string t = to_text(report);
  CHECK(t.find("build with -lineinfo") != std::string::npos);
  CHECK(t.find("+0x0040") != std::string::npos);
}

TEST_CASE("the correlator finds a function's cubin among several, and names a function with none") {
  detail::pc_correlator c({detail::make_cubin_image(read_bytes(data + "/source_lines_kernel_nolines.cubin")),
                           detail::make_cubin_image(read_bytes(data + "/source_lines_kernel.cubin"))});
  detail::drained_pc d;
  d.symbol = "strided_sum";
  d.pc_offset = 0x0;
  d.stalls = {{"smsp__pcsamp_warps_issue_stalled_wait", 1}};
  // The first cubin knows the function but has no lines; correlation succeeds there with line 0. napkin
  // takes the first cubin that knows the function, so order matters only between copies of one module.
  (void)c.resolve(d);
  detail::drained_pc other = d;
  other.symbol = "not_a_kernel";
  const pc_record r = c.resolve(other);
  CHECK_FALSE(r.where.known());
  CHECK(c.missing_cubins().count("not_a_kernel") == 1);
}

TEST_CASE("samples add up per line; not-issued samples are a subset, never added") {
  const std::vector<pc_record> records = {
      pc("k", 0x10, {{"long_scoreboard", 50}, {"long_scoreboard_not_issued", 40}, {"wait", 5}}, "k.cu", 12),
      pc("k", 0x20, {{"long_scoreboard", 30}, {"math", 10}}, "k.cu", 12),
      pc("k", 0x30, {{"wait", 7}, {"selected", 3}}, "k.cu", 9),
      pc("k", 0x10, {{"long_scoreboard", 5}}, "k.cu", 12),  // the same PC from a later drain
      pc("k", 0x40, {{"branch_resolving", 1}}),              // a PC without a line
  };
  const auto fns = aggregate_source_lines(records);
  REQUIRE(fns.size() == 1);
  const function_lines& f = fns[0];
  CHECK(f.samples == 50 + 5 + 30 + 10 + 7 + 3 + 5 + 1);
  CHECK(f.not_issued == 40);
  CHECK(f.line_info);
  REQUIRE(f.lines.size() == 2);
  CHECK(f.lines[0].where.line == 12);
  CHECK(f.lines[0].samples == 100);
  CHECK(f.lines[0].not_issued == 40);
  CHECK(f.lines[0].pcs == std::vector<std::uint64_t>{0x10, 0x20});
  REQUIRE(f.lines[0].stalls.size() == 3);
  CHECK(f.lines[0].stalls[0].reason == "long_scoreboard");
  CHECK(f.lines[0].stalls[0].samples == 85);
  CHECK(f.lines[0].stalls[1].reason == "math");
  CHECK(f.lines[1].where.line == 9);
  CHECK(f.lines[1].samples == 10);
  CHECK(f.stalls[0].reason == "long_scoreboard");
  CHECK(f.pcs.front().pc_offset == 0x10);
  CHECK(f.pcs.front().samples == 60);
  CHECK(f.pcs_sampled == 4);
}

TEST_CASE("functions, lines and PCs sorted by samples, ties in a fixed order, cut to the top N") {
  std::vector<pc_record> records;
  for (std::uint32_t line = 1; line <= 20; ++line)
    records.push_back(pc("a", line * 16u, {{"wait", line == 7 ? 100u : 5u}}, "a.cu", line));
  records.push_back(pc("b", 0, {{"wait", 1000}}, "b.cu", 3));
  records.push_back(pc("c", 0, {{"wait", 0}}));  // no samples: left out
  source_lines_options o;
  o.top_lines = 3;
  o.top_pcs = 2;
  const auto fns = aggregate_source_lines(records, o);
  REQUIRE(fns.size() == 2);
  CHECK(fns[0].function == "b");
  const function_lines& a = fns[1];
  REQUIRE(a.lines.size() == 3);
  CHECK(a.lines_sampled == 20);
  CHECK(a.lines[0].where.line == 7);
  CHECK(a.lines[1].where.line == 1);  // ties: by line
  CHECK(a.lines[2].where.line == 2);
  CHECK(a.pcs.size() == 2);
  // The same records in another order give the same result.
  std::vector<pc_record> reversed(records.rbegin(), records.rend());
  const auto again = aggregate_source_lines(reversed, o);
  REQUIRE(again.size() == 2);
  for (std::size_t i = 0; i < 3; ++i) CHECK(again[1].lines[i].where.line == a.lines[i].where.line);
  // Only the functions asked for.
  o.functions = {"a"};
  const auto only = aggregate_source_lines(records, o);
  REQUIRE(only.size() == 1);
  CHECK(only[0].function == "a");
}

TEST_CASE("CUPTI's stall-reason names, shortened; the text report") {
  CHECK(short_stall_reason("smsp__pcsamp_warps_issue_stalled_long_scoreboard") == "long_scoreboard");
  CHECK(short_stall_reason("smsp__pcsamp_warps_issue_stalled_mio_throttle_not_issued") ==
        "mio_throttle_not_issued");
  CHECK(short_stall_reason("other") == "other");
  CHECK(is_not_issued("wait_not_issued"));
  CHECK_FALSE(is_not_issued("wait"));

  source_lines_report r;
  r.functions = aggregate_source_lines({pc("zoo_strided_load", 0x90, {{"long_scoreboard", 90}, {"wait", 10}},
                                          "zoo.cu", 333)});
  r.cost.total_samples = 100;
  r.cost.period_log2 = 10;
  r.cost.run_s = 0.002;
  const std::string t = to_text(r);
  CHECK(t.find("every 2^10 cycles") != std::string::npos);
  CHECK(t.find("zoo.cu:333") != std::string::npos);
  CHECK(t.find("long_scoreboard 90.0%") != std::string::npos);
  CHECK(t.find("100.0%") != std::string::npos);
  CHECK(r.find("zoo_strided_load") != nullptr);
  const std::string kv = to_key_values(r);
  CHECK(kv.find("NAPKIN_SOURCE function=zoo_strided_load samples=100 top=zoo.cu:333 top_samples=100 "
                "top_stall=long_scoreboard line_info=1 total_samples=100 dropped_samples=0 period_log2=10") == 0);
  CHECK(to_key_values(source_lines_report{}).find("NAPKIN_SOURCE function=- total_samples=0") == 0);
}

TEST_CASE("bad sampling options are refused with the option named") {
  source_sampling_options o;
  o.period_log2 = 4;
  CHECK_THROWS_WITH_AS(detail::check_source_sampling_options(o), doctest::Contains("period_log2"),
                       std::invalid_argument);
  o.period_log2 = 0;
  o.buffer_pcs = 0;
  CHECK_THROWS_WITH_AS(detail::check_source_sampling_options(o), doctest::Contains("buffer_pcs"),
                       std::invalid_argument);
}

TEST_CASE("a second module capture while one lives says who holds CUPTI's one subscription") {
  const detail::module_capture first;
  if (!first.unavailable_reason().empty()) {
    MESSAGE("CUPTI's subscription is unavailable here: " << first.unavailable_reason());
    return;
  }
  const detail::module_capture second;
  CHECK(second.unavailable_reason().find("cuptiSubscribe") != std::string::npos);
  MESSAGE(second.unavailable_reason());
}
