// napkin attention BATCH HEADS SEQLEN HEAD_DIM: FlashAttention's counting convention.
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using namespace napkin::cli;

// The names of to_string(pass), or forward, backward, both.
napkin::pass parse_pass(const std::string& s) {
  using napkin::pass;
  if (s == to_string(pass::forward) || s == "forward") return pass::forward;
  if (s == to_string(pass::backward) || s == "backward") return pass::backward;
  if (s == to_string(pass::forward_backward) || s == "both") return pass::forward_backward;
  throw usage_error("unknown pass '" + quote_input(s) + "' (fwd, bwd or fwd+bwd)");
}

int run_attention(arguments& args, std::ostream& out) {
  const std::vector<std::int64_t> v = positional_sizes(args, "sizes (BATCH HEADS SEQLEN HEAD_DIM)",
                                                       {"batch", "head count", "sequence length", "head dimension"});
  const auto& p = args.positional();
  napkin::attention_shape s;
  s.batch = v[0];
  s.heads = v[1];
  s.seqlen_q = s.seqlen_k = v[2];
  s.head_dim = v[3];
  if (const auto k = args.option("seqlen-k")) s.seqlen_k = parse_size(*k, "key length");
  if (const auto q = args.option("seqlen-q")) s.seqlen_q = parse_size(*q, "query length");
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
