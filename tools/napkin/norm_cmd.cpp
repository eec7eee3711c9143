// SPDX-License-Identifier: Apache-2.0
// napkin layernorm|rmsnorm ROWS COLS.
#include <memory>
#include <string>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct norm_args {
  size_arg rows{"ROWS"}, cols{"COLS"};
  workload_options common;
};

template <bool Rms>
runner setup_norm(CLI::App& sub) {
  auto a = std::make_shared<norm_args>();
  add_size(sub, a->rows, "rows (one normalization each)");
  add_size(sub, a->cols, "columns (normalized over)");
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string(Rms ? "FLOPs 4 per element + 3 per row; bytes x + y + gamma.\n"
                             : "FLOPs 7 per element + 4 per row; bytes x + y + gamma + beta.\n") +
             sizes_footer);
  return [a]() -> answer {
    const napkin::element_types t = a->common.types();
    const napkin::counting c = parse_counting(a->common.counting);
    return solve(Rms ? "rmsnorm" : "layernorm", {&a->rows, &a->cols}, a->common, [&](const auto& v, const auto& typed) {
      return titled_workload{std::string(Rms ? "RMS norm" : "layer norm") + " over " + typed[0] + " rows of " +
                                 typed[1] + " columns",
                             Rms ? napkin::rms_norm(v[0], v[1], t, c) : napkin::layer_norm(v[0], v[1], t, c)};
    });
  };
}

const registrar layernorm{{"layernorm", "layer norm over each row, gamma and beta per column", setup_norm<false>, workload_command}};
const registrar rmsnorm{{"rmsnorm", "RMS norm over each row, gamma per column", setup_norm<true>, workload_command}};

}  // namespace
