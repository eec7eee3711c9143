// napkin occupancy: theoretical occupancy of a launch, what limits it, and what would raise it.
//   napkin occupancy --cc 9.0 --threads 256 --regs 32 --smem 8K
//   napkin occupancy --gpu h100-sxm --threads 224 --regs 92 --graphs
#include <string>

#include "cli.hpp"
#include "napkin/occupancy.hpp"

namespace {

using namespace napkin::cli;

std::string blocks_text(int blocks) { return blocks == napkin::unlimited ? "-" : std::to_string(blocks); }

// "1 block", "2 blocks".
std::string count(int n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

// A graph as the ranges of x over which the active warps stay the same.
template <std::size_t N>
void print_graph(std::ostream& out, const char* title, const napkin::occupancy_graph<N>& g) {
  out << title << " (" << g.x_label << " -> active warps of " << g.max_warps_per_sm << "; this launch: "
      << g.current.x << " -> " << g.current.active_warps << ")\n ";
  std::size_t i = 0;
  int column = 1;
  while (i < g.size) {
    std::size_t j = i;
    while (j + 1 < g.size && g.points[j + 1].active_warps == g.points[i].active_warps) ++j;
    const std::string x = g.points[i].x == g.points[j].x
                              ? std::to_string(g.points[i].x)
                              : std::to_string(g.points[i].x) + "-" + std::to_string(g.points[j].x);
    const std::string item = " " + x + ":" + std::to_string(g.points[i].active_warps);
    if (column + item.size() > 100) {
      out << "\n ";
      column = 1;
    }
    out << item;
    column += static_cast<int>(item.size());
    i = j + 1;
  }
  out << "\n";
}

int run_occupancy(arguments& args, std::ostream& out) {
  const auto cc_arg = args.option("cc");
  const auto gpu_arg = args.option("gpu");
  const auto threads_arg = args.option("threads");
  const auto regs_arg = args.option("regs");
  const std::string smem_arg = args.option_or("smem", "0");
  const std::string static_arg = args.option_or("static-smem", "0");
  const std::string carveout_arg = args.option_or("carveout", "default");
  const bool graphs = args.flag("graphs");
  args.finish();
  if (!args.positional().empty()) throw usage_error("occupancy takes no positional arguments");
  if (cc_arg && gpu_arg) throw usage_error("give --cc or --gpu, not both");
  if (!threads_arg) throw usage_error("--threads is required");
  if (!regs_arg) throw usage_error("--regs is required (registers per thread: ptxas -v, cuobjdump -res-usage or ncu)");

  napkin::compute_capability cc{};
  int sm_count = 0;
  std::string where;
  if (cc_arg) {
    cc = parse_cc(*cc_arg);
  } else {
    const napkin::gpu_spec g = lookup_gpu(gpu_arg.value_or("h100-sxm"));
    cc = {g.cc_major, g.cc_minor};
    sm_count = g.sm_count;
    where = ", " + std::string(g.key) + " (" + std::string(g.name) + ")";
  }
  napkin::sm_limits limits = napkin::limits_of(cc);
  limits.sm_count = sm_count;

  const int threads = parse_int(*threads_arg, "threads per block");
  napkin::kernel_resources k{};
  k.registers_per_thread = parse_int(*regs_arg, "registers per thread");
  k.static_smem = parse_int(static_arg, "static shared memory");
  k.carveout_percent = parse_carveout(carveout_arg);
  const int dynamic_smem = parse_int(smem_arg, "shared memory");

  const napkin::occupancy_result r = napkin::occupancy(limits, threads, k, dynamic_smem);
  const napkin::block_size_choice best = napkin::best_block_size(limits, k, dynamic_smem);

  const auto line = [&out](const char* label, const std::string& value) { print_row(out, 16, label, value); };
  out << "occupancy on CC " << cc.major << "." << cc.minor << " (" << limits.architecture << ")" << where << "\n";
  line("launch", count(threads, "thread", "threads") + ", " +
                     count(k.registers_per_thread, "register/thread", "registers/thread") + ", " +
                     std::to_string(dynamic_smem) + " B dynamic + " + std::to_string(k.static_smem) +
                     " B static shared memory");
  line("per block", count(r.warps_per_block, "warp", "warps") + ", " +
                        count(r.registers_per_block, "register", "registers") + ", " +
                        std::to_string(r.smem_per_block) + " B shared memory (" +
                        std::to_string(limits.smem_reserved_per_block) + " B reserve, " +
                        std::to_string(limits.smem_allocation_unit) + " B units)");
  std::string by = "registers " + blocks_text(r.blocks_by_registers) + ", shared memory " +
                   blocks_text(r.blocks_by_shared_memory) + " (of a " + std::to_string(r.smem_per_sm) +
                   " B carveout), warps " + blocks_text(r.blocks_by_warps) + ", block limit " +
                   blocks_text(r.blocks_by_sm_limit);
  if (r.blocks_by_barriers != napkin::unlimited) by += ", barriers " + blocks_text(r.blocks_by_barriers);
  line("blocks/SM by", by);
  line("result", count(r.blocks_per_sm, "block/SM", "blocks/SM") + ", " + std::to_string(r.active_warps()) +
                     " of " + count(r.max_warps_per_sm, "warp", "warps") + ", occupancy " +
                     napkin::detail::percent_of(r.occupancy()));
  std::string best_text = count(best.block_size, "thread", "threads") + " (" +
                          count(best.blocks_per_sm, "block/SM", "blocks/SM") + ", " +
                          count(best.active_warps, "warp", "warps") + ")";
  if (sm_count > 0)
    best_text += "; min grid " + std::to_string(best.min_grid_size(sm_count)) + " on " + count(sm_count, "SM", "SMs");
  line("best block size", best_text);
  out << napkin::to_text(limits, threads, k, dynamic_smem) << "\n";
  if (graphs) {
    print_graph(out, "Impact of varying block size", napkin::graph_block_size(limits, threads, k, dynamic_smem));
    print_graph(out, "Impact of varying registers per thread", napkin::graph_registers(limits, threads, k, dynamic_smem));
    print_graph(out, "Impact of varying shared memory per block",
                napkin::graph_shared_memory(limits, threads, k, dynamic_smem));
  }
  return 0;
}

const registrar occupancy{
    {"occupancy", "theoretical occupancy of a launch: limiter, next step, best block size (--graphs)",
     "napkin occupancy (--cc X.Y | --gpu KEY) --threads N --regs N [--smem SIZE] [--static-smem SIZE]\n"
     "                 [--carveout PCT] [--graphs]\n"
     "  --cc X.Y           compute capability (5.0 .. 12.1; also 90, sm_90, sm_90a), or --gpu KEY from\n"
     "                     `napkin gpus` (default h100-sxm)\n"
     "  --threads N        threads per block\n"
     "  --regs N           registers per thread\n"
     "  --smem SIZE        dynamic shared memory per block (8K = 8192 B; default 0)\n"
     "  --static-smem SIZE static shared memory per block (default 0)\n"
     "  --carveout PCT     cudaFuncAttributePreferredSharedMemoryCarveout: 0..100, or -1 for the driver's\n"
     "                     default (the default)\n"
     "  --graphs           Nsight Compute's three occupancy graphs, as ranges x:warps",
     {"graphs"},
     run_occupancy}};

}  // namespace
