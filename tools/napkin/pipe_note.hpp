// SPDX-License-Identifier: Apache-2.0
// --pipe against the pipe the workload's types run on by default (napkin::default_pipe): napkin takes the
// pipe asked for (fp32 data on tf32-tc is TF32 math mode, fp16 data on the FP32 cores an upcast), but says so
// on stderr, so that `--dtype fp16 --pipe fp64` is not a silent FP64 roof under fp16 bytes.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "napkin/math.hpp"

namespace napkin::cli {

// The note for `asked` on `g`, or nothing when it is the default (or the types have no default pipe:
// int32, int8 outside matrix products, where --pipe is how the roof is chosen).
inline std::optional<std::string> pipe_override_note(pipe asked, const gpu_spec& g, const workload& w) {
  pipe own{};
  try {
    own = default_pipe(g, w);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  if (own == asked) return std::nullopt;
  const std::string in(to_string(w.types.input)), acc(to_string(w.types.accumulate));
  return "--pipe " + std::string(to_string(asked)) + " is not the pipe " + in + " input with " + acc +
         " accumulate runs on (" + std::string(to_string(own)) + "): the compute roof is the " +
         std::string(to_string(asked)) + " peak, as asked; the bytes stay " + in + "'s";
}

}  // namespace napkin::cli
