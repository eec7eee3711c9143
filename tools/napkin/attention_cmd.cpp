// SPDX-License-Identifier: Apache-2.0
// napkin attention BATCH HEADS SEQLEN HEAD_DIM: FlashAttention's counting convention.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

// The names of to_string(pass), or forward, backward, both.
napkin::pass parse_pass(const std::string& typed) {
  using napkin::pass;
  const std::string s = lower(typed);
  if (const std::optional<pass> p = from_string(s, napkin::all_passes)) return *p;
  if (s == "forward") return pass::forward;  // the words to_string abbreviates
  if (s == "backward") return pass::backward;
  if (s == "both") return pass::forward_backward;
  std::vector<std::string> names;
  for (pass p : napkin::all_passes) names.emplace_back(to_string(p));
  throw usage_error("unknown pass '" + quote_input(typed) + "'" + did_you_mean(typed, names) +
                    " (fwd, bwd or fwd+bwd)");
}

struct attention_args {
  size_arg batch{"BATCH"}, heads{"HEADS"}, seqlen{"SEQLEN"}, head_dim{"HEAD_DIM"};
  std::string seqlen_q, seqlen_k, kv_heads, pass = "fwd";
  bool causal = false, count_softmax = false;
  workload_options common;
};

runner setup_attention(CLI::App& sub) {
  auto a = std::make_shared<attention_args>();
  add_size(sub, a->batch, "batch size");
  add_size(sub, a->heads, "query heads");
  add_size(sub, a->seqlen, "sequence length (queries and keys)");
  add_size(sub, a->head_dim, "head dimension d");
  sub.add_option("--seqlen-q", a->seqlen_q, "query length (default SEQLEN; decode: 1)")->type_name("SIZE");
  sub.add_option("--seqlen-k", a->seqlen_k, "key length (default SEQLEN)")->type_name("SIZE");
  sub.add_option("--kv-heads", a->kv_heads, "key/value heads, GQA/MQA (default HEADS)")->type_name("COUNT");
  sub.add_flag("--causal", a->causal, "causal mask: half the score matrix");
  sub.add_option("--pass", a->pass, "fwd, bwd or fwd+bwd")->type_name("PASS")->capture_default_str();
  sub.add_flag("--count-softmax", a->count_softmax, "count the softmax's operations too");
  add_workload_options(sub, a->common, napkin::dtype::fp16);
  sub.footer(std::string("FLOPs 4·B·H·Nq·Nk·d forward (halved when causal), backward 2.5x, fwd+bwd 3.5x;\n"
                         "softmax ops only with --count-softmax. Bytes: Q, K, V, O once (fused).\n") +
             sizes_footer);
  return [a]() -> answer {
    const napkin::pass pass = parse_pass(a->pass);
    napkin::counting c = parse_counting(a->common.counting);
    c.attention_softmax = a->count_softmax;
    const napkin::element_types t = a->common.types();
    const std::int64_t q = a->seqlen_q.empty() ? 0 : parse_size(a->seqlen_q, "query length");
    const std::int64_t k = a->seqlen_k.empty() ? 0 : parse_size(a->seqlen_k, "key length");
    const std::int64_t kv = a->kv_heads.empty() ? 0 : parse_size(a->kv_heads, "kv head count");
    return solve("attention", {&a->batch, &a->heads, &a->seqlen, &a->head_dim}, a->common,
                 [&](const auto& v, const auto& typed) {
                   napkin::attention_shape s;
                   s.batch = v[0];
                   s.heads = v[1];
                   s.seqlen_q = q ? q : v[2];
                   s.seqlen_k = k ? k : v[2];
                   s.head_dim = v[3];
                   s.kv_heads = kv;
                   s.causal = a->causal;
                   return titled_workload{
                       "attention " + std::string(to_string(pass)) + ": batch " + typed[0] + ", " +
                           std::to_string(s.heads) + " heads (" + std::to_string(kv == 0 ? s.heads : kv) +
                           " kv), Nq " + std::to_string(s.seqlen_q) + ", Nk " + std::to_string(s.seqlen_k) + ", d " +
                           typed[3] + (s.causal ? ", causal" : ""),
                       napkin::attention(s, t, pass, c)};
                 });
  };
}

const registrar attention{
    {"attention", "scaled dot-product attention (FlashAttention's FLOPs, fused bytes)", setup_attention, workload_command}};

}  // namespace
