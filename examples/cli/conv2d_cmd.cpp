// napkin conv2d N C H W K R S: NCHW input, K filters of C×R×S.
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

int run_conv2d(arguments& args, std::ostream& out) {
  const std::vector<std::int64_t> v =
      positional_sizes(args, "sizes (N C H W K R S)", {"N", "C", "H", "W", "K", "R", "S"});
  const auto& p = args.positional();
  napkin::conv2d_shape s{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
  s.stride = parse_size(args.option_or("stride", "1"), "stride");
  s.padding = parse_count(args.option_or("padding", "0"), "padding");
  s.dilation = parse_size(args.option_or("dilation", "1"), "dilation");
  s.groups = parse_size(args.option_or("groups", "1"), "groups");
  const napkin::element_types t = parse_types(args, napkin::dtype::fp32);
  const napkin::workload w = napkin::conv2d(s, t, parse_counting_arg(args));
  const std::int64_t P = napkin::conv_output_size(s.h, s.r, s.stride, s.padding, s.dilation);
  const std::int64_t Q = napkin::conv_output_size(s.w, s.s, s.stride, s.padding, s.dilation);
  return print_report(args, out,
                      "conv2d input " + p[0] + "x" + p[1] + "x" + p[2] + "x" + p[3] + " (NCHW), " + p[4] +
                          " filters " + p[5] + "x" + p[6] + " -> output " + std::to_string(P) + "x" +
                          std::to_string(Q),
                      w);
}

const registrar conv2d{{"conv2d", "2-D convolution (implicit-GEMM FLOPs, input + filters + output bytes)",
                        "napkin conv2d N C H W K R S [--stride S] [--padding P] [--dilation D] [--groups G]\n"
                        "                [workload options]\n"
                        "  FLOPs 2·N·K·P·Q·(C/G)·R·S; fp32 on CUDA cores unless --dtype is a tensor type.",
                        {},
                        run_conv2d}};

}  // namespace
