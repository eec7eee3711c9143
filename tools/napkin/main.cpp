// SPDX-License-Identifier: Apache-2.0
// `napkin`: napkin math for CUDA kernels without a GPU. The commands live in *_cmd.cpp and register
// themselves (command.hpp); this file builds the CLI11 app from the registry, parses, names what it did
// not understand, runs the chosen command, renders its answer and maps failures to exit statuses:
//   0  an answer                           1  the answer is a failure (a regression: napkin diff), or the
//                                             output (stdout, or -o FILE) could not be written
//   2  bad usage or bad input (parse errors, unknown names, values napkin refuses)
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "names.hpp"
#include "napkin/config.hpp"
#include "napkin/document/text_file.hpp"
#include "napkin/text/printable.hpp"
#include "options.hpp"
#include "render.hpp"

namespace {

using namespace napkin::cli;

constexpr int exit_answer = 0;
constexpr int exit_failure = 1;
constexpr int exit_usage = 2;

const char* const overview =
    "napkin: napkin math for CUDA kernels. FLOPs, minimum bytes, arithmetic intensity, ridge point,\n"
    "regime and roofline time bounds from datasheet peaks (no GPU needed); occupancy of a launch;\n"
    "reports kept as JSON: compared (diff), charted (roofline), made into a page (report).";

const char* const root_footer =
    "Every command takes -h/--help (`napkin help COMMAND` prints the same) and\n"
    "--format text|json|csv|markdown (json: a document of docs/schema/napkin.schema.json;\n"
    "markdown: GitHub tables for a CI job summary, docs/ci.md).\n"
    "Exit status: 0 an answer; 1 the answer is a failure (a launch that does not fit on\n"
    "an SM, a regression in `napkin diff`) or the output could not be written; 2 bad\n"
    "usage or input.\n"
    "Sizes: K M G T are binary (1G = 2^30); bytes print as decimal GB with GiB beside.\n"
    "Reference: docs/cli.md.";

std::string version_text() {
  return "napkin " + std::to_string(NAPKIN_VERSION_MAJOR) + "." + std::to_string(NAPKIN_VERSION_MINOR) + "." +
         std::to_string(NAPKIN_VERSION_PATCH);
}

// napkin's exceptions start with "napkin: " or "napkin::<part>: "; the message already names the command.
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

// 0 when everything written to stdout reached it, else why not (errno; EIO when the system gave none): a
// full disk or a closed pipe is an error. errno is taken at the first failed flush (cout's flush reaches
// stdio's, and a second fflush of a failed stream reports nothing new).
int stdout_error() {
  errno = 0;
  std::cout.flush();
  int e = errno;
  if (std::fflush(stdout) != 0 && e == 0) e = errno;
  if (std::cout.good() && !std::ferror(stdout)) return 0;
  return e != 0 ? e : EIO;
}

// Writes `text` to stdout in one piece; 0 or why not (errno of the failed write or flush, EIO without one).
int write_stdout(const std::string& text) {
  std::cout.flush();
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0) return 0;
  return errno != 0 ? errno : EIO;
}

int finish(int status, const std::string& who, int e = stdout_error()) {
  if (e == 0) return status;
  std::cerr << who << ": cannot write to standard output: " << std::strerror(e) << "\n";
  return exit_failure;
}

// -o FILE: the answer goes to the file; a file that cannot be written is exit status 1.
// Through napkin::write_text_file: a temporary file renamed over FILE, so a failed write leaves FILE as it was.
int write_file(const std::string& file, const std::string& text, int status, const std::string& who) {
  const std::string why = napkin::write_text_file(file, text);
  if (why.empty()) return status;
  std::cerr << who << ": cannot write " << napkin::printable(file) << ": " << why << "\n";
  return exit_failure;
}

int usage_failure(const std::string& who, const std::string& message, const std::string& help_hint) {
  // Messages quote names from files (kernels, kinds, paths): shown, never sent to the terminal as controls.
  std::cerr << who << ": " << napkin::printable_lines(message) << "\n" << help_hint << "\n";
  return exit_usage;
}

std::vector<std::string> option_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* o : sub.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

// CLI11's parse errors in napkin's words, where they differ.
std::string parse_error_text(const CLI::ParseError& e) {
  std::string what = e.what();
  const std::size_t colon = what.find(": ");
  const std::string option = colon == std::string::npos ? "" : what.substr(0, colon);
  if (what.find("At Most 1 required but received") != std::string::npos)
    return "option '" + option + "' given more than once; it takes one value" +
           (option == "--gpu" ? " (several GPUs: --gpu a,b,c)" : "");
  if (what.find("required") != std::string::npos && what.find("missing") != std::string::npos && !option.empty())
    return "option '" + option + "' needs a value";
  return what;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{overview, "napkin"};
  app.get_formatter()->column_width(28);
  app.set_version_flag("--version", version_text(), "print napkin's version and exit");
  app.allow_extras();  // what CLI11 does not know is named below, as unknown option or command
  app.require_subcommand(0, 1);
  app.footer(root_footer);

  output_options output;
  std::vector<command> commands = registry();
  std::sort(commands.begin(), commands.end(), [](const command& a, const command& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, runner>> runners;
  for (const command& c : commands) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.summary));
    runners.emplace_back(sub, c.setup(*sub));
    add_output_options(*sub, output);  // one place: every command's --format
  }
  CLI::App* help = app.add_subcommand("help", "a command's help: `napkin help gemm` = `napkin gemm --help`");
  std::string help_topic;
  help->add_option("COMMAND", help_topic, "the command (default: this overview)")->type_name("COMMAND");

  std::vector<std::string> command_names;
  for (const command& c : commands) command_names.emplace_back(c.name);
  command_names.emplace_back("help");

  const auto who = [&app]() {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    return chosen.empty() ? std::string("napkin") : "napkin " + chosen.front()->get_name();
  };
  const auto hint = [&app]() {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    return chosen.empty() ? std::string("Run `napkin --help` for the commands.")
                          : "Run `napkin " + chosen.front()->get_name() + " --help` for its options.";
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return finish(exit_answer, who());
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return finish(exit_answer, who());
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return finish(exit_answer, "napkin");
  } catch (const CLI::ParseError& e) {
    return usage_failure(who(), parse_error_text(e), hint());
  }

  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) {
    const std::vector<std::string> rest = app.remaining();
    if (rest.empty()) {
      std::cerr << app.help();
      return exit_usage;
    }
    if (rest.front().size() > 1 && rest.front()[0] == '-')
      return usage_failure("napkin", "unknown option '" + quote_input(rest.front()) + "'", hint());
    return usage_failure("napkin",
                         "unknown command '" + quote_input(rest.front()) + "'" + did_you_mean(rest.front(), command_names),
                         hint());
  }
  CLI::App* sub = chosen.front();
  for (const std::string& extra : sub->remaining()) {
    if (extra == "--") continue;  // CLI11 leaves the separator among the extras
    if (extra.size() > 1 && extra[0] == '-' && !std::isdigit(static_cast<unsigned char>(extra[1])))
      return usage_failure(who(),
                           "unknown option '" + quote_input(extra) + "'" +
                               did_you_mean(extra.substr(0, extra.find('=')), option_names(*sub)),
                           hint());
    return usage_failure(who(), "unexpected argument '" + quote_input(extra) + "'", hint());
  }

  if (sub == help) {
    if (lower(help_topic) == "help") {
      std::cout << help->help("napkin");
      return finish(exit_answer, who());
    }
    if (help_topic.empty()) {
      app.clear();  // else CLI11 prints the help of the chosen subcommand, `help`
      std::cout << app.help();
      return finish(exit_answer, "napkin help");
    }
    for (const auto& r : runners)
      if (r.first->get_name() == lower(help_topic)) {
        std::cout << r.first->help("napkin");
        return finish(exit_answer, who());
      }
    return usage_failure(who(),
                         "unknown command '" + quote_input(help_topic) + "'" + did_you_mean(help_topic, command_names),
                         hint());
  }

  try {
    check_output_options(output);
    for (const auto& r : runners)
      if (r.first == sub) {
        const answer a = r.second();
        for (const std::string& note : answer_notes(a))
          std::cerr << who() << ": note: " << napkin::printable_lines(note) << "\n";
        const std::string file = output_file(a);
        std::ostringstream text;  // all of it first: a failed render leaves no half-written file
        render(text, a, output);
        if (file.empty()) return finish(answer_status(a), who(), write_stdout(text.str()));
        return write_file(file, text.str(), answer_status(a), who());
      }
    return exit_failure;  // every subcommand but help has a runner
  } catch (const usage_error& e) {
    return usage_failure(who(), without_prefix(e.what()), hint());
  } catch (const std::invalid_argument& e) {  // napkin's bad-input errors (napkin/error.hpp)
    return usage_failure(who(), without_prefix(e.what()), hint());
  } catch (const std::domain_error& e) {
    return usage_failure(who(), without_prefix(e.what()), hint());
  } catch (const std::overflow_error& e) {
    return usage_failure(who(), without_prefix(e.what()), hint());
  } catch (const std::exception& e) {
    std::cerr << who() << ": " << napkin::printable_lines(without_prefix(e.what())) << "\n";
    return exit_failure;
  }
}
