// napkin layernorm|rmsnorm ROWS COLS.
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

template <bool Rms>
int run_norm(arguments& args, std::ostream& out) {
  const std::vector<std::int64_t> v = positional_sizes(args, "sizes (ROWS COLS)", {"row count", "column count"});
  const auto& p = args.positional();
  const napkin::element_types t = parse_types(args, napkin::dtype::fp32);
  const napkin::counting c = parse_counting_arg(args);
  const napkin::workload w = Rms ? napkin::rms_norm(v[0], v[1], t, c) : napkin::layer_norm(v[0], v[1], t, c);
  return print_report(args, out,
                      std::string(Rms ? "RMS norm" : "layer norm") + " over " + p[0] + " rows of " + p[1] +
                          " columns",
                      w);
}

const registrar layernorm{{"layernorm", "layer norm over each row, gamma and beta per column",
                           "napkin layernorm ROWS COLS [workload options]\n"
                           "  FLOPs 7 per element + 4 per row; bytes x + y + gamma + beta.",
                           {},
                           run_norm<false>}};
const registrar rmsnorm{{"rmsnorm", "RMS norm over each row, gamma per column",
                         "napkin rmsnorm ROWS COLS [workload options]\n"
                         "  FLOPs 4 per element + 3 per row; bytes x + y + gamma.",
                         {},
                         run_norm<true>}};

}  // namespace
