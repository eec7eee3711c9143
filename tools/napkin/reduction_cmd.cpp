// SPDX-License-Identifier: Apache-2.0
// napkin reduction N: sum of N elements (or of --outputs segments).
#include <memory>
#include <string>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct reduction_args {
  size_arg n{"N"};
  std::string outputs = "1";
  workload_options common;
};

runner setup_reduction(CLI::App& sub) {
  auto a = std::make_shared<reduction_args>();
  add_size(sub, a->n, "elements summed");
  sub.add_option("--outputs", a->outputs, "results (row sums)")->type_name("COUNT")->capture_default_str();
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string("FLOPs N (one add per element, in every counting); bytes N inputs + R outputs.\n") +
             sizes_footer);
  return [a]() -> answer {
    const std::int64_t outputs = parse_size(a->outputs, "output count");
    const napkin::element_types t = a->common.types();
    parse_counting(a->common.counting);  // accepted for uniformity: a sum counts the same everywhere
    return solve("reduction", {&a->n}, a->common, [&](const auto& v, const auto& typed) {
      return titled_workload{"reduction of " + typed[0] + " elements into " + std::to_string(outputs) + " result(s)",
                             napkin::reduction(v[0], t, outputs)};
    });
  };
}

const registrar reduction{{"reduction", "sum of N elements (or N elements into --outputs row sums)", setup_reduction, workload_command}};

}  // namespace
