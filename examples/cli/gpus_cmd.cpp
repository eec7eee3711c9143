// napkin gpus: the GPU table (dense peaks, bandwidth, L2), ridges, or sources.
#include <algorithm>
#include <cstddef>
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

// A table cell of `width` characters: "-" for no figure, else three significant digits or more (989,
// 66.9, 7.80).
std::string cell(double v, std::size_t width) {
  if (v == 0) return pad_left("-", width);
  return pad_left(napkin::detail::fixed(v, v >= 100 ? 0 : (v >= 10 ? 1 : 2)), width);
}

int run_gpus(arguments& args, std::ostream& out) {
  const bool ridges = args.flag("ridge");
  const bool sources = args.flag("sources");
  args.finish();
  if (!args.positional().empty()) throw usage_error("gpus takes no positional arguments");

  if (sources) {
    for (const napkin::gpu_spec& g : napkin::gpu_table) out << g.key << ": " << g.source << "\n";
    return 0;
  }
  out << (ridges ? "Ridge points in FLOP/B (dense peak / DRAM bandwidth)"
                 : "Dense peaks in TFLOP/s (int8-tc: TOP/s)")
      << "; '-' = absent or no published figure. Sources: napkin gpus --sources\n";
  const auto column_width = [](napkin::pipe p) { return std::max<std::size_t>(7, to_string(p).size()); };
  out << pad_right("gpu", 14) << " " << pad_right("cc", 5) << " " << pad_left("SMs", 4) << " " << pad_left("GB/s", 6)
      << " " << pad_left("L2 MB", 5);
  for (napkin::pipe p : napkin::all_pipes) out << " " << pad_left(std::string(to_string(p)), column_width(p));
  out << "\n";
  for (const napkin::gpu_spec& g : napkin::gpu_table) {
    const std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
    out << pad_right(std::string(g.key), 14) << " " << pad_right(cc, 5) << " "
        << pad_left(g.sm_count ? std::to_string(g.sm_count) : "?", 4) << " "
        << pad_left(napkin::detail::fixed(g.memory_bandwidth / 1e9, 0), 6) << " "
        << pad_left(g.l2_bytes ? std::to_string(g.l2_bytes / napkin::MB) : "?", 5);
    for (napkin::pipe p : napkin::all_pipes) {
      const double v = !g.has(p) ? 0 : ridges ? napkin::ridge_point(g, p) : g.peak(p) / 1e12;
      out << " " << cell(v, column_width(p));
    }
    out << "\n";
  }
  return 0;
}

const registrar gpus{{"gpus", "the GPU table: dense peaks per pipe, bandwidth, L2 (--ridge, --sources)",
                      "napkin gpus [--ridge] [--sources]\n"
                      "  --ridge    ridge points (FLOP/B) instead of peaks\n"
                      "  --sources  where each entry's numbers come from",
                      {"ridge", "sources"},
                      run_gpus}};

}  // namespace
