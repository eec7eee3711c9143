// SPDX-License-Identifier: Apache-2.0
// napkin gpus: the GPU table (dense peaks, bandwidth, L2, aliases), ridges, or sources;
// napkin pipes and napkin dtypes: the names --pipe and --dtype take.
#include <memory>

#include "command.hpp"
#include "options.hpp"

namespace {

using namespace napkin::cli;

struct gpus_args {
  bool ridge = false, sources = false;
};

runner setup_gpus(CLI::App& sub) {
  auto a = std::make_shared<gpus_args>();
  sub.add_flag("--ridge", a->ridge, "ridge points (FLOP/B) instead of peaks");
  sub.add_flag("--sources", a->sources, "where each entry's numbers come from");
  return [a]() -> answer {
    if (a->ridge && a->sources) throw usage_error("give --ridge or --sources, not both");
    return gpus_answer{a->sources ? gpus_answer::view::sources
                                  : a->ridge ? gpus_answer::view::ridges : gpus_answer::view::peaks};
  };
}

runner setup_pipes(CLI::App&) {
  return []() -> answer { return pipes_answer{}; };
}

runner setup_dtypes(CLI::App&) {
  return []() -> answer { return dtypes_answer{}; };
}

const registrar gpus{{"gpus", "the GPU table: peaks per pipe, bandwidth, L2, aliases (--ridge, --sources)", setup_gpus}};
const registrar pipes{{"pipes", "the math pipes --pipe takes, and how many GPUs have each", setup_pipes}};
const registrar dtypes{{"dtypes", "the element types --dtype takes: bytes, accumulator, pipe", setup_dtypes}};

}  // namespace
