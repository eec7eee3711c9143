// SPDX-License-Identifier: Apache-2.0
// The `napkin` CLI's command registry (see README.md in this folder for how to add a command).
//
// A command is a CLI11 subcommand. Its setup function declares the subcommand's arguments (bound to a
// state object it owns) and returns the runner, which main calls after parsing; the runner computes the
// answer as a value (answer.hpp) and never prints: main renders it in the chosen --format (render.hpp)
// and exits with answer_status().
//
// The registry is the one piece of global mutable state: it is filled by the registrars during static
// initialization (before main) and only read afterwards, on one thread.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "answer.hpp"
#include "errors.hpp"

namespace napkin::cli {

using runner = std::function<answer()>;

// A workload command answers a workload_answer (napkin roofline --workload runs these).
inline constexpr bool workload_command = true;

struct command {
  std::string_view name;
  std::string_view summary;       // one line: `napkin --help` and the subcommand's help
  runner (*setup)(CLI::App& sub);  // declares the arguments, returns what computes the answer
  bool workload = false;           // workload_command: sizes in, a workload_answer out
};

inline std::vector<command>& registry() {
  static std::vector<command> commands;
  return commands;
}

struct registrar {
  explicit registrar(command c) { registry().push_back(std::move(c)); }
};

}  // namespace napkin::cli
