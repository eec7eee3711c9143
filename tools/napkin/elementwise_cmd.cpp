// SPDX-License-Identifier: Apache-2.0
// napkin elementwise N: n inputs, m outputs, k ops per element.
#include <memory>
#include <string>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct elementwise_args {
  size_arg n{"N"};
  std::string inputs = "1", outputs = "1", ops = "1";
  workload_options common;
};

runner setup_elementwise(CLI::App& sub) {
  auto a = std::make_shared<elementwise_args>();
  add_size(sub, a->n, "elements");
  sub.add_option("--inputs", a->inputs, "input arrays")->type_name("COUNT")->capture_default_str();
  sub.add_option("--outputs", a->outputs, "output arrays")->type_name("COUNT")->capture_default_str();
  sub.add_option("--ops", a->ops, "operations per element (the FLOP count)")->type_name("COUNT")->capture_default_str();
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string("ReLU: --ops 1 (the default); copy: --ops 0; AXPY: --inputs 2 --ops 2.\n") + sizes_footer);
  return [a]() -> answer {
    const std::int64_t inputs = parse_count(a->inputs, "input count");
    const std::int64_t outputs = parse_count(a->outputs, "output count");
    const std::int64_t ops = parse_count(a->ops, "ops per element");
    const napkin::element_types t = a->common.types();
    parse_counting(a->common.counting);  // accepted for uniformity; --ops is the count
    return solve("elementwise", {&a->n}, a->common, [&](const auto& v, const auto& typed) {
      return titled_workload{"elementwise over " + typed[0] + " elements: " + std::to_string(inputs) + " input(s), " +
                                 std::to_string(outputs) + " output(s), " + std::to_string(ops) + " op(s) each",
                             napkin::elementwise(v[0], inputs, outputs, ops, t)};
    });
  };
}

const registrar elementwise{
    {"elementwise", "n inputs, m outputs, k ops per element (ReLU, AXPY, copy, ...)", setup_elementwise, workload_command}};

}  // namespace
