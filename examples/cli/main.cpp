// `napkin`: napkin math for CUDA kernels without a GPU. Commands live in *_cmd.cpp and register
// themselves (see cli.hpp); this file dispatches and implements `help`.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

using napkin::cli::command;

// napkin's exceptions start with "napkin: " or "napkin::<part>: " ("napkin::occupancy: "); main already
// names the command, so the prefix goes.
std::string without_prefix(const char* what) {
  const std::string s = what;
  if (s.rfind("napkin: ", 0) == 0) return s.substr(8);
  if (s.rfind("napkin::", 0) == 0) {
    std::size_t i = 8;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    if (i > 8 && s.compare(i, 2, ": ") == 0) return s.substr(i + 2);
  }
  return s;
}

// True when everything written to stdout reached it (a full disk or a closed pipe is an error, not a
// silent success).
bool stdout_ok() {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  return flushed && std::cout.good() && !std::ferror(stdout);
}

int finish(int status, const std::string& command) {
  if (stdout_ok()) return status;
  const int e = errno;
  std::cerr << "napkin " << command << ": cannot write to standard output" << (e ? ": " : "")
            << (e ? std::strerror(e) : "") << "\n";
  return 1;
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
  if (c == nullptr)
    throw napkin::cli::usage_error("unknown command '" + napkin::cli::quote_input(args.positional()[0]) + "'");
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
    std::cerr << "napkin: unknown command '" << napkin::cli::quote_input(name)
              << "' (`napkin help` lists the commands)\n";
    return 2;
  }
  try {
    napkin::cli::arguments args(*c, std::vector<std::string>(argv + 2, argv + argc));
    return finish(c->run(args, std::cout), std::string(c->name));
  } catch (const napkin::cli::usage_error& e) {
    std::cerr << "napkin " << c->name << ": " << without_prefix(e.what()) << "\nusage: " << c->usage << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "napkin " << c->name << ": " << without_prefix(e.what()) << "\n";
    return 1;
  }
}
