// napkin gemm M N K: C[M×N] = A[M×K]·B[K×N] (+ beta·C).
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

int run_gemm(arguments& args, std::ostream& out) {
  args.expect_positional(3, "sizes (M N K)");
  const auto& p = args.positional();
  const std::int64_t m = parse_size(p[0], "M"), n = parse_size(p[1], "N"), k = parse_size(p[2], "K");
  napkin::gemm_options o;
  o.batch = parse_size(args.option_or("batch", "1"), "batch");
  o.read_c = args.flag("beta");
  const napkin::element_types t = parse_types(args, napkin::dtype::fp32);
  const napkin::workload w = napkin::gemm(m, n, k, t, o, parse_counting_arg(args));
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
