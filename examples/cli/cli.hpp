// The `napkin` command-line tool: what every command includes (command.hpp: the registry and the
// arguments; parse.hpp: the user's text; report.hpp: the workload report).
//
// HOW TO ADD A COMMAND
//   1. Create examples/cli/<name>_cmd.cpp (CMake globs examples/cli/*.cpp into the one executable).
//   2. In it, write `int run_<name>(napkin::cli::arguments& args, std::ostream& out)` and register it
//      with a static registrar at namespace scope:
//
//        namespace {
//        int run_hello(napkin::cli::arguments& args, std::ostream& out) {
//          args.expect_positional(1, "NAME");
//          const bool loud = args.flag("loud");
//          args.finish();                      // rejects options the command did not read
//          out << (loud ? "HELLO " : "hello ") << args.positional()[0] << "\n";
//          return 0;
//        }
//        const napkin::cli::registrar hello{{"hello", "say hello", "napkin hello NAME [--loud]",
//                                            {"loud"}, run_hello}};
//        }  // namespace
//
//      The fourth field lists the options that take no value (flags); every other `--name` takes one
//      (`--name value` or `--name=value`).
//   3. Report bad input by throwing napkin::cli::usage_error (exit status 2, the usage is printed) or
//      let napkin's own exceptions through (exit status 1). Never print a number for bad input. Quote
//      the user's text with quote_input() (shortened, control characters escaped).
//   4. Add a test to tests/math/CMakeLists.txt with napkin_cli_test().
//
// main() exits with 1 when writing the output fails (a full disk, a closed pipe), whatever the command
// returned.
//
// Workload commands share positional_sizes(), parse_types(), parse_counting_arg() and print_report():
// --gpu, --pipe, --sparse, --dtype, --out-dtype, --acc-dtype, --counting. Units are decimal (1 GB =
// 1e9 B), as on datasheets; numbers become text through napkin/detail/number_text.hpp.
//
// The registry is the one piece of global mutable state: it is filled by the registrars during static
// initialization (before main) and only read afterwards, on one thread.
#pragma once

#include "command.hpp"  // the registry and the arguments
#include "parse.hpp"    // the user's text: sizes, types, pipes, GPUs
#include "report.hpp"   // the report of the workload commands
