// napkin elementwise N: n inputs, m outputs, k ops per element.
#include <cstdint>
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

int run_elementwise(arguments& args, std::ostream& out) {
  const std::int64_t n = positional_sizes(args, "size (N)", {"N"})[0];
  const std::int64_t inputs = parse_count(args.option_or("inputs", "1"), "input count");
  const std::int64_t outputs = parse_count(args.option_or("outputs", "1"), "output count");
  const std::int64_t ops = parse_count(args.option_or("ops", "1"), "ops per element");
  parse_counting_arg(args);  // accepted for uniformity; --ops is the count
  const napkin::workload w =
      napkin::elementwise(n, inputs, outputs, ops, parse_types(args, napkin::dtype::fp32));
  return print_report(args, out,
                      "elementwise over " + args.positional()[0] + " elements: " + std::to_string(inputs) +
                          " input(s), " + std::to_string(outputs) + " output(s), " + std::to_string(ops) +
                          " op(s) each",
                      w);
}

const registrar elementwise{{"elementwise", "n inputs, m outputs, k ops per element (ReLU, AXPY, copy, ...)",
                             "napkin elementwise N [--inputs I] [--outputs O] [--ops K] [workload options]\n"
                             "  ReLU: --ops 1 (default); copy: --ops 0; AXPY: --inputs 2 --ops 2.",
                             {},
                             run_elementwise}};

}  // namespace
