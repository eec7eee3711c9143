// SPDX-License-Identifier: Apache-2.0
// napkin gpus: the GPU table (dense peaks, bandwidth, L2, aliases), ridges, or sources; `napkin gpus GPU`
// one GPU's facts;
// napkin pipes and napkin dtypes: the names --pipe and --dtype take.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct gpus_args {
  bool ridge = false, sources = false, keys = false;
  std::vector<std::string> gpus;  // `napkin gpus h100 a100,l4`: those GPUs' facts
};

runner setup_gpus(CLI::App& sub) {
  auto a = std::make_shared<gpus_args>();
  sub.add_option("GPU", a->gpus, "a GPU key, alias, list (h100,a100), local or FILE.json: its\nfacts, peaks and ridges per pipe, source")
      ->type_name("GPU");
  sub.add_flag("--ridge", a->ridge, "ridge points (FLOP/B) instead of peaks");
  sub.add_flag("--sources", a->sources, "where each entry's numbers come from");
  sub.add_flag("--keys", a->keys, "every key and alias --gpu takes, one per line (scripts,\ncompletion)");
  return [a]() -> answer {
    if (int{a->ridge} + int{a->sources} + int{a->keys} > 1) throw usage_error("give one of --ridge, --sources, --keys");
    gpus_answer ans{a->sources ? gpus_answer::view::sources
                    : a->ridge ? gpus_answer::view::ridges
                    : a->keys  ? gpus_answer::view::keys
                               : gpus_answer::view::peaks,
                    {}};
    if (!a->gpus.empty() && ans.shown != gpus_answer::view::peaks)
      throw usage_error("a GPU's view shows its peaks, ridges and source: give GPU without --ridge, --sources or --keys");
    for (const std::string& typed : a->gpus)
      for (chosen_gpu& g : choose_gpus(typed, true, custom_gpu_flags{})) ans.chosen.push_back(std::move(g));
    return ans;
  };
}

runner setup_pipes(CLI::App&) {
  return []() -> answer { return pipes_answer{}; };
}

runner setup_dtypes(CLI::App&) {
  return []() -> answer { return dtypes_answer{}; };
}

const registrar gpus{{"gpus", "the GPU table: peaks per pipe, bandwidth, L2, aliases", setup_gpus}};
const registrar pipes{{"pipes", "the math pipes --pipe takes, and how many GPUs have each", setup_pipes}};
const registrar dtypes{{"dtypes", "the element types --dtype takes: bytes, accumulator, pipe", setup_dtypes}};

}  // namespace
