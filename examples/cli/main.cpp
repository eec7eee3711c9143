// `napkin`: napkin math for CUDA kernels without a GPU. Commands live in *_cmd.cpp and register
// themselves (see cli.hpp); this file dispatches and implements `help`.
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using napkin::cli::command;

// napkin's exceptions start with "napkin: "; main already names the command.
std::string without_prefix(const char* what) {
  const std::string s = what;
  return s.rfind("napkin: ", 0) == 0 ? s.substr(8) : s;
}

void print_overview(std::ostream& out) {
  out << "usage: napkin <command> [arguments] [options]\n\n"
         "Napkin math for CUDA kernels: FLOPs, minimum bytes, arithmetic intensity, ridge point,\n"
         "expected regime and roofline lower-bound time, from datasheet peaks (no GPU needed).\n\n"
         "commands:\n";
  std::vector<command> commands = napkin::cli::registry();
  std::sort(commands.begin(), commands.end(), [](const command& a, const command& b) { return a.name < b.name; });
  for (const command& c : commands) {
    std::string name(c.name);
    name.resize(std::max<std::size_t>(name.size(), 12), ' ');
    out << "  " << name << " " << c.summary << "\n";
  }
  out << "\noptions of the workload commands:\n" << napkin::cli::workload_options_usage
      << "\nsizes accept K, M, G, T (binary: 8K = 8192) and powers (2^28).\n"
         "`napkin help <command>` prints a command's usage.\n";
}

int run_help(napkin::cli::arguments& args, std::ostream& out) {
  args.finish();
  if (args.positional().empty()) {
    print_overview(out);
    return 0;
  }
  const command* c = napkin::cli::find_command(args.positional()[0]);
  if (c == nullptr) throw napkin::cli::usage_error("unknown command '" + args.positional()[0] + "'");
  out << "usage: " << c->usage << "\n";
  return 0;
}

const napkin::cli::registrar help{{"help", "this overview; `napkin help <command>` for one command",
                                   "napkin help [command]", {}, run_help}};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_overview(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  const command* c = napkin::cli::find_command(name == "--help" || name == "-h" ? "help" : name);
  if (c == nullptr) {
    std::cerr << "napkin: unknown command '" << name << "' (`napkin help` lists the commands)\n";
    return 2;
  }
  try {
    napkin::cli::arguments args(*c, std::vector<std::string>(argv + 2, argv + argc));
    return c->run(args, std::cout);
  } catch (const napkin::cli::usage_error& e) {
    std::cerr << "napkin " << c->name << ": " << without_prefix(e.what()) << "\nusage: " << c->usage << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "napkin " << c->name << ": " << without_prefix(e.what()) << "\n";
    return 1;
  }
}
