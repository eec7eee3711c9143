// SPDX-License-Identifier: Apache-2.0
// napkin softmax ROWS COLS: softmax over each row.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

// The names of to_string(softmax_algorithm), or the number of reads.
napkin::softmax_algorithm parse_algorithm(const std::string& typed) {
  using napkin::softmax_algorithm;
  const std::string s = lower(typed);
  if (const std::optional<softmax_algorithm> a = from_string(s, napkin::all_softmax_algorithms)) return *a;
  for (softmax_algorithm a : napkin::all_softmax_algorithms)
    if (s == std::to_string(napkin::input_reads(a))) return a;
  if (s == "3pass") return softmax_algorithm::three_pass;
  std::vector<std::string> names;
  for (softmax_algorithm a : napkin::all_softmax_algorithms) names.emplace_back(to_string(a));
  throw usage_error("unknown softmax algorithm '" + quote_input(typed) + "'" + did_you_mean(typed, names) +
                    " (fused, online or three-pass)");
}

struct softmax_args {
  size_arg rows{"ROWS"}, cols{"COLS"};
  std::string algorithm = "fused";
  workload_options common;
};

runner setup_softmax(CLI::App& sub) {
  auto a = std::make_shared<softmax_args>();
  add_size(sub, a->rows, "rows (one softmax each)");
  add_size(sub, a->cols, "columns (the softmax's length)");
  sub.add_option("--algorithm", a->algorithm, "fused (reads the input once), online (twice),\nthree-pass (three times)")
      ->type_name("ALGO")
      ->capture_default_str();
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string("FLOPs 5 per element (max, subtract, exp, sum, divide; exp = 1).\n") + sizes_footer);
  return [a]() -> answer {
    const napkin::softmax_algorithm algo = parse_algorithm(a->algorithm);
    const napkin::element_types t = a->common.types();
    const napkin::counting c = parse_counting(a->common.counting);
    return solve("softmax", {&a->rows, &a->cols}, a->common, [&](const auto& v, const auto& typed) {
      return titled_workload{"softmax over " + typed[0] + " rows of " + typed[1] + " columns, " +
                                 std::string(to_string(algo)) + " (" + std::to_string(napkin::input_reads(algo)) +
                                 " read(s) of the input + 1 write)",
                             napkin::softmax(v[0], v[1], t, algo, c)};
    });
  };
}

const registrar softmax{{"softmax", "row-wise softmax: bytes of the fused, online and three-pass algorithms", setup_softmax, workload_command}};

}  // namespace
