// napkin softmax ROWS COLS: softmax over each row.
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

napkin::softmax_algorithm parse_algorithm(const std::string& s) {
  if (s == "fused" || s == "1") return napkin::softmax_algorithm::fused;
  if (s == "online" || s == "2") return napkin::softmax_algorithm::online;
  if (s == "three-pass" || s == "3pass" || s == "3") return napkin::softmax_algorithm::three_pass;
  throw usage_error("unknown softmax algorithm '" + s + "' (fused, online or three-pass)");
}

int run_softmax(arguments& args, std::ostream& out) {
  args.expect_positional(2, "sizes (ROWS COLS)");
  const auto& p = args.positional();
  const std::int64_t rows = parse_size(p[0], "row count"), cols = parse_size(p[1], "column count");
  const std::string algo = args.option_or("algorithm", "fused");
  const napkin::softmax_algorithm a = parse_algorithm(algo);
  const napkin::workload w =
      napkin::softmax(rows, cols, parse_types(args, napkin::dtype::fp32), a, parse_counting_arg(args));
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
