// napkin reduction N: sum of N elements (or of --outputs segments).
#include <cstdint>
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

int run_reduction(arguments& args, std::ostream& out) {
  const std::int64_t n = positional_sizes(args, "size (N)", {"N"})[0];
  const std::int64_t outputs = parse_size(args.option_or("outputs", "1"), "output count");
  const napkin::workload w = napkin::reduction(n, parse_types(args, napkin::dtype::fp32), outputs);
  parse_counting_arg(args);  // accepted for uniformity; a sum has one add per element in every convention
  return print_report(args, out,
                      "reduction of " + args.positional()[0] + " elements into " + std::to_string(outputs) +
                          " result(s)",
                      w);
}

const registrar reduction{{"reduction", "sum of N elements (or N elements into --outputs row sums)",
                           "napkin reduction N [--outputs R] [workload options]\n"
                           "  FLOPs N (one add per element); bytes N inputs + R outputs.",
                           {},
                           run_reduction}};

}  // namespace
