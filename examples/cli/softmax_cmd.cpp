// napkin softmax ROWS COLS: softmax over each row.
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

// The names of to_string(softmax_algorithm), or the number of reads.
napkin::softmax_algorithm parse_algorithm(const std::string& s) {
  using napkin::softmax_algorithm;
  for (softmax_algorithm a : {softmax_algorithm::fused, softmax_algorithm::online, softmax_algorithm::three_pass})
    if (s == to_string(a) || s == std::to_string(napkin::input_reads(a))) return a;
  if (s == "3pass") return softmax_algorithm::three_pass;
  throw usage_error("unknown softmax algorithm '" + quote_input(s) + "' (fused, online or three-pass)");
}

int run_softmax(arguments& args, std::ostream& out) {
  const std::vector<std::int64_t> v = positional_sizes(args, "sizes (ROWS COLS)", {"row count", "column count"});
  const auto& p = args.positional();
  const std::string algo = args.option_or("algorithm", "fused");
  const napkin::softmax_algorithm a = parse_algorithm(algo);
  const napkin::workload w =
      napkin::softmax(v[0], v[1], parse_types(args, napkin::dtype::fp32), a, parse_counting_arg(args));
  return print_report(args, out,
                      "softmax over " + p[0] + " rows of " + p[1] + " columns, " + algo + " (" +
                          std::to_string(napkin::input_reads(a)) + " read(s) of the input + 1 write)",
                      w);
}

const registrar softmax{{"softmax", "row-wise softmax; bytes of the fused, online and three-pass algorithms",
                         "napkin softmax ROWS COLS [--algorithm fused|online|three-pass] [workload options]\n"
                         "  FLOPs 5 per element (max, subtract, exp, sum, divide; exp = 1).\n"
                         "  bytes: fused reads the input once (the minimum), online twice, three-pass three times.",
                         {},
                         run_softmax}};

}  // namespace
