// napkin gpus: the GPU table (dense peaks, bandwidth, L2), ridges, or sources.
#include <cstdio>
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

std::string cell(double v, int width) {
  char buf[32];
  if (v == 0)
    std::snprintf(buf, sizeof buf, "%*s", width, "-");
  else
    std::snprintf(buf, sizeof buf, "%*.*f", width, v >= 100 ? 0 : (v >= 10 ? 1 : 2), v);
  return buf;
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
  char head[160];
  std::snprintf(head, sizeof head, "%-14s %-5s %4s %6s %5s", "gpu", "cc", "SMs", "GB/s", "L2 MB");
  out << head;
  for (napkin::pipe p : napkin::all_pipes) {
    char c[24];
    std::snprintf(c, sizeof c, " %*s", static_cast<int>(std::max<std::size_t>(7, to_string(p).size())),
                  std::string(to_string(p)).c_str());
    out << c;
  }
  out << "\n";
  for (const napkin::gpu_spec& g : napkin::gpu_table) {
    char row[160];
    const std::string cc = std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor);
    std::snprintf(row, sizeof row, "%-14s %-5s %4s %6.0f %5s", std::string(g.key).c_str(), cc.c_str(),
                  g.sm_count ? std::to_string(g.sm_count).c_str() : "?", g.memory_bandwidth / 1e9,
                  g.l2_bytes ? std::to_string(g.l2_bytes / napkin::MB).c_str() : "?");
    out << row;
    for (napkin::pipe p : napkin::all_pipes) {
      const int width = static_cast<int>(std::max<std::size_t>(7, to_string(p).size()));
      const double v = !g.has(p) ? 0 : ridges ? napkin::ridge_point(g, p) : g.peak(p) / 1e12;
      out << " " << cell(v, width);
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
