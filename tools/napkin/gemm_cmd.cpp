// SPDX-License-Identifier: Apache-2.0
// napkin gemm M N K: C[M×N] = A[M×K]·B[K×N] (+ beta·C).
#include <memory>
#include <string>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct gemm_args {
  size_arg m{"M"}, n{"N"}, k{"K"};
  std::string batch = "1";
  bool beta = false;
  workload_options common;
};

runner setup_gemm(CLI::App& sub) {
  auto a = std::make_shared<gemm_args>();
  add_size(sub, a->m, "rows of A and C");
  add_size(sub, a->n, "columns of B and C");
  add_size(sub, a->k, "columns of A, rows of B");
  sub.add_option("--batch", a->batch, "batch count (a batched GEMM)")->type_name("COUNT")->capture_default_str();
  sub.add_flag("--beta", a->beta, "beta != 0: C is read as well as written");
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string("FLOPs 2·M·N·K per batch; bytes A + B + C (C twice with --beta). fp32 runs on the\n"
                         "FP32 CUDA cores; --dtype tf32 for the TF32 tensor cores.\n") +
             sizes_footer);
  return [a]() -> answer {
    napkin::gemm_options o;
    o.batch = parse_size(a->batch, "batch");
    o.read_c = a->beta;
    const napkin::element_types t = a->common.types();
    const napkin::counting c = parse_counting(a->common.counting);
    return solve("gemm", {&a->m, &a->n, &a->k}, a->common, [&](const auto& v, const auto& typed) {
      std::string title = "GEMM M=" + typed[0] + " N=" + typed[1] + " K=" + typed[2];
      if (o.batch > 1) title += ", batch " + std::to_string(o.batch);
      title += o.read_c ? ", beta != 0 (C read)" : ", beta = 0";
      return titled_workload{title, napkin::gemm(v[0], v[1], v[2], t, o, c)};
    });
  };
}

const registrar gemm{{"gemm", "matrix multiply C = A·B (+ beta·C), optionally batched", setup_gemm, workload_command}};

}  // namespace
