// napkin gemm M N K: C[M×N] = A[M×K]·B[K×N] (+ beta·C).
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

int run_gemm(arguments& args, std::ostream& out) {
  const std::vector<std::int64_t> mnk = positional_sizes(args, "sizes (M N K)", {"M", "N", "K"});
  const auto& p = args.positional();
  napkin::gemm_options o;
  o.batch = parse_size(args.option_or("batch", "1"), "batch");
  o.read_c = args.flag("beta");
  const napkin::element_types t = parse_types(args, napkin::dtype::fp32);
  const napkin::workload w = napkin::gemm(mnk[0], mnk[1], mnk[2], t, o, parse_counting_arg(args));
  std::string title = "GEMM M=" + p[0] + " N=" + p[1] + " K=" + p[2];
  if (o.batch > 1) title += ", batch " + std::to_string(o.batch);
  title += o.read_c ? ", beta != 0 (C read)" : ", beta = 0";
  return print_report(args, out, title, w);
}

const registrar gemm{{"gemm", "matrix multiply C = A·B (+ beta·C), optionally batched",
                      "napkin gemm M N K [--batch B] [--beta] [workload options]\n"
                      "  FLOPs 2·M·N·K per batch; bytes A + B + C (C twice with --beta: beta != 0).\n"
                      "  fp32 runs on the FP32 CUDA cores; --dtype tf32 for TF32 tensor cores.",
                      {"beta"},
                      run_gemm}};

}  // namespace
