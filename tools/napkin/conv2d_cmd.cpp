// SPDX-License-Identifier: Apache-2.0
// napkin conv2d N C H W K R S: NCHW input, K filters of C×R×S.
#include <memory>
#include <string>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct conv2d_args {
  size_arg n{"N"}, c{"C"}, h{"H"}, w{"W"}, k{"K"}, r{"R"}, s{"S"};
  std::string stride = "1", padding = "0", dilation = "1", groups = "1";
  workload_options common;
};

runner setup_conv2d(CLI::App& sub) {
  auto a = std::make_shared<conv2d_args>();
  add_size(sub, a->n, "batch");
  add_size(sub, a->c, "input channels");
  add_size(sub, a->h, "input height");
  add_size(sub, a->w, "input width");
  add_size(sub, a->k, "filters (output channels)");
  add_size(sub, a->r, "filter height");
  add_size(sub, a->s, "filter width");
  sub.add_option("--stride", a->stride, "stride")->type_name("SIZE")->capture_default_str();
  sub.add_option("--padding", a->padding, "zero padding on each side")->type_name("COUNT")->capture_default_str();
  sub.add_option("--dilation", a->dilation, "dilation")->type_name("SIZE")->capture_default_str();
  sub.add_option("--groups", a->groups, "groups (C/G channels per filter)")->type_name("SIZE")->capture_default_str();
  add_workload_options(sub, a->common, napkin::dtype::fp32);
  sub.footer(std::string("FLOPs 2·N·K·P·Q·(C/G)·R·S (implicit GEMM); bytes input + filters + output. fp32 runs\n"
                         "on the CUDA cores unless --dtype is a tensor type.\n") +
             sizes_footer);
  return [a]() -> answer {
    const std::int64_t stride = parse_size(a->stride, "stride");
    const std::int64_t padding = parse_count(a->padding, "padding");
    const std::int64_t dilation = parse_size(a->dilation, "dilation");
    const std::int64_t groups = parse_size(a->groups, "groups");
    const napkin::element_types t = a->common.types();
    const napkin::counting c = parse_counting(a->common.counting);
    return solve("conv2d", {&a->n, &a->c, &a->h, &a->w, &a->k, &a->r, &a->s}, a->common,
                 [&](const auto& v, const auto& typed) {
                   napkin::conv2d_shape s{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
                   s.stride = stride;
                   s.padding = padding;
                   s.dilation = dilation;
                   s.groups = groups;
                   const napkin::workload w = napkin::conv2d(s, t, c);
                   const std::int64_t P = napkin::conv_output_size(s.h, s.r, s.stride, s.padding, s.dilation);
                   const std::int64_t Q = napkin::conv_output_size(s.w, s.s, s.stride, s.padding, s.dilation);
                   return titled_workload{"conv2d input " + typed[0] + "x" + typed[1] + "x" + typed[2] + "x" +
                                              typed[3] + " (NCHW), " + typed[4] + " filters " + typed[5] + "x" +
                                              typed[6] + " -> output " + std::to_string(P) + "x" + std::to_string(Q),
                                          w};
                 });
  };
}

const registrar conv2d{{"conv2d", "2-D convolution (implicit-GEMM FLOPs; input + filters + output bytes)",
                         setup_conv2d, workload_command}};

}  // namespace
