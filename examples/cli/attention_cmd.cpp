// napkin attention BATCH HEADS SEQLEN HEAD_DIM: FlashAttention's counting convention.
#include <string>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

napkin::pass parse_pass(const std::string& s) {
  if (s == "fwd" || s == "forward") return napkin::pass::forward;
  if (s == "bwd" || s == "backward") return napkin::pass::backward;
  if (s == "fwd+bwd" || s == "both") return napkin::pass::forward_backward;
  throw usage_error("unknown pass '" + s + "' (fwd, bwd or fwd+bwd)");
}

int run_attention(arguments& args, std::ostream& out) {
  args.expect_positional(4, "sizes (BATCH HEADS SEQLEN HEAD_DIM)");
  const auto& p = args.positional();
  napkin::attention_shape s;
  s.batch = parse_size(p[0], "batch");
  s.heads = parse_size(p[1], "head count");
  s.seqlen_q = parse_size(p[2], "sequence length");
  s.seqlen_k = s.seqlen_q;
  if (const auto k = args.option("seqlen-k")) s.seqlen_k = parse_size(*k, "key length");
  if (const auto q = args.option("seqlen-q")) s.seqlen_q = parse_size(*q, "query length");
  s.head_dim = parse_size(p[3], "head dimension");
  if (const auto kv = args.option("kv-heads")) s.kv_heads = parse_size(*kv, "kv head count");
  s.causal = args.flag("causal");
  const std::string pass = args.option_or("pass", "fwd");
  napkin::counting c = parse_counting_arg(args);
  c.attention_softmax = args.flag("count-softmax");
  const napkin::workload w =
      napkin::attention(s, parse_types(args, napkin::dtype::fp16), parse_pass(pass), c);
  return print_report(args, out,
                      "attention " + pass + ": batch " + p[0] + ", " + std::to_string(s.heads) + " heads (" +
                          std::to_string(s.kv_heads == 0 ? s.heads : s.kv_heads) + " kv), Nq " +
                          std::to_string(s.seqlen_q) + ", Nk " + std::to_string(s.seqlen_k) + ", d " + p[3] +
                          (s.causal ? ", causal" : ""),
                      w);
}

const registrar attention{
    {"attention", "scaled dot-product attention (FlashAttention's FLOP convention; fused minimum bytes)",
     "napkin attention BATCH HEADS SEQLEN HEAD_DIM [--seqlen-q N] [--seqlen-k N] [--kv-heads H] [--causal]\n"
     "                 [--pass fwd|bwd|fwd+bwd] [--count-softmax] [workload options]\n"
     "  FLOPs 4·B·H·Nq·Nk·d forward (halved when causal), backward 2.5x, fwd+bwd 3.5x; softmax ops only\n"
     "  with --count-softmax. Default --dtype fp16. Decode: --seqlen-q 1.",
     {"causal", "count-softmax"},
     run_attention}};

}  // namespace
