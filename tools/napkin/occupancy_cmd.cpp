// SPDX-License-Identifier: Apache-2.0
// napkin occupancy: theoretical occupancy of a launch, what limits it, and what would raise it.
//   napkin occupancy --cc 9.0 --threads 256 --regs 32 --smem 8K
//   napkin occupancy --gpu h100 --threads 224 --regs 92 --graphs
// Exit status 1 when the launch does not fit on an SM at all (0 blocks/SM).
#include <memory>
#include <string>

#include "command.hpp"
#include "gpu_choice.hpp"
#include "napkin/occupancy.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct occupancy_args {
  std::string cc, gpu, threads, regs, smem = "0", static_smem = "0", carveout = "default";
  bool graphs = false;
};

runner setup_occupancy(CLI::App& sub) {
  auto a = std::make_shared<occupancy_args>();
  sub.add_option("--cc", a->cc, "compute capability: 5.0 .. 12.1, 90, sm_90, sm_90a")->type_name("X.Y");
  sub.add_option("--gpu", a->gpu, "or a GPU key or alias (`napkin gpus`), or local (default\nh100-sxm)")
      ->type_name("GPU");
  sub.add_option("--threads", a->threads, "threads per block (required)")->type_name("N");
  sub.add_option("--regs", a->regs, "registers per thread (required: ptxas -v, cuobjdump\n-res-usage or ncu)")
      ->type_name("N");
  sub.add_option("--smem", a->smem, "dynamic shared memory per block in bytes (8K = 8192)")
      ->type_name("SIZE")
      ->capture_default_str();
  sub.add_option("--static-smem", a->static_smem, "static shared memory per block in bytes")
      ->type_name("SIZE")
      ->capture_default_str();
  sub.add_option("--carveout", a->carveout, "shared memory carveout: 0..100 %, or -1/default for the\ndriver's choice")
      ->type_name("PCT")
      ->capture_default_str();
  sub.add_flag("--graphs", a->graphs, "Nsight Compute's three occupancy graphs, as ranges x:warps");
  sub.footer("Exit status 1 when the launch does not fit on an SM (0 blocks/SM).");
  return [a]() -> answer {
    if (!a->cc.empty() && !a->gpu.empty()) throw usage_error("give --cc or --gpu, not both");
    if (a->threads.empty()) throw usage_error("--threads is required");
    if (a->regs.empty())
      throw usage_error("--regs is required (registers per thread: ptxas -v, cuobjdump -res-usage or ncu)");
    if (a->gpu.find(',') != std::string::npos || lower(a->gpu) == "all")
      throw usage_error("occupancy answers for one GPU; --gpu takes one key here");
    occupancy_answer o;
    int sm_count = 0;
    if (!a->cc.empty()) {
      o.cc = parse_cc(a->cc);
    } else {
      const chosen_gpu g = one_gpu(a->gpu.empty() ? "h100-sxm" : a->gpu);
      o.cc = {g.spec.cc_major, g.spec.cc_minor};
      sm_count = g.spec.sm_count;
      o.where = ", " + g.label;
    }
    o.limits = napkin::limits_of(o.cc);
    o.limits.sm_count = sm_count;
    o.threads = parse_int(a->threads, "threads per block");
    o.k.registers_per_thread = parse_int(a->regs, "registers per thread");
    o.k.static_smem = parse_int(a->static_smem, "static shared memory");
    o.k.carveout_percent = parse_carveout(a->carveout);
    o.dynamic_smem = parse_int(a->smem, "shared memory");
    o.graphs = a->graphs;
    o.r = napkin::occupancy(o.limits, o.threads, o.k, o.dynamic_smem);
    o.best = napkin::best_block_size(o.limits, o.k, o.dynamic_smem);
    o.smallest = napkin::smallest_best_block_size(o.limits, o.k, o.dynamic_smem);
    return o;
  };
}

const registrar occupancy{
    {"occupancy", "theoretical occupancy of a launch: limiter, next step, best block size", setup_occupancy}};

}  // namespace
