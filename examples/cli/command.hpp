// The `napkin` CLI's command registry and command-line arguments (see cli.hpp for how to add a command),
// and the text helpers every part uses: quote_input() for the user's text in messages, comma_list().
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace napkin::cli {

// Bad command-line input: main prints the message and the command's usage, and exits with 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `text` as a message quotes it: at most 40 bytes (cut at a UTF-8 character boundary, then "…"), control
// characters as \xNN (a terminal escape in an argument is shown, not sent to the terminal).
inline std::string quote_input(std::string_view text) {
  constexpr std::size_t max_bytes = 40;
  std::size_t n = text.size();
  if (n > max_bytes) {
    n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // not inside a character
  }
  std::string out;
  out.reserve(n + 8);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (n < text.size()) out += "…";
  return out;
}

class arguments;
using handler = int (*)(arguments& args, std::ostream& out);

struct command {
  std::string_view name;
  std::string_view summary;             // one line for `napkin help`
  std::string_view usage;               // `napkin help <name>` and error messages print it
  std::vector<std::string_view> flags;  // options without a value
  handler run = nullptr;
};

inline std::vector<command>& registry() {
  static std::vector<command> commands;
  return commands;
}

struct registrar {
  explicit registrar(command c) { registry().push_back(std::move(c)); }
};

inline const command* find_command(std::string_view name) {
  for (const command& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

// Options shared by the workload commands; print_report() reads them.
inline constexpr std::string_view workload_options_usage =
    "  --gpu KEY          GPU from `napkin gpus` (default h100-sxm)\n"
    "  --pipe PIPE        math pipe (default: picked from the types; see `napkin gpus`)\n"
    "  --sparse           2:4 structured-sparse tensor peak (dense by default)\n"
    "  --dtype T          element type: fp64 fp32 tf32 fp16 bf16 fp8 int8, or int32 (needs --pipe: napkin\n"
    "                     has no integer CUDA-core peak; so does int8 outside gemm, conv2d, attention)\n"
    "  --out-dtype T      output type (default: --dtype)\n"
    "  --acc-dtype T      accumulate type (default: fp32 for 16/8-bit floats, int32 for int8)\n"
    "  --counting C       how FLOPs are printed: standard (FMA = 2, exp = 1), macs (FMA = 1) or dongarra\n"
    "                     (exp 8, div 4, sqrt 4); times, intensity and regime always use standard\n";

inline constexpr std::string_view workload_flags[] = {"sparse"};

// Parsed command line of one command: positional arguments, `--name value` options and flags.
class arguments {
 public:
  arguments(const command& cmd, const std::vector<std::string>& argv) : cmd_(&cmd) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
        positional_.push_back(a);
        continue;
      }
      std::string key = a.substr(2);
      std::string value;
      const std::size_t eq = key.find('=');
      const bool is_flag = std::find(cmd.flags.begin(), cmd.flags.end(), key) != cmd.flags.end() ||
                           std::find(std::begin(workload_flags), std::end(workload_flags), key) !=
                               std::end(workload_flags);
      if (eq != std::string::npos) {
        value = key.substr(eq + 1);
        key.resize(eq);
      } else if (!is_flag) {
        if (i + 1 >= argv.size()) throw usage_error("option '--" + quote_input(key) + "' needs a value");
        value = argv[++i];
      }
      options_.push_back({key, value, is_flag && eq == std::string::npos, false});
    }
  }

  const command& cmd() const { return *cmd_; }
  const std::vector<std::string>& positional() const { return positional_; }

  void expect_positional(std::size_t n, const char* what) const {
    if (positional_.size() != n)
      throw usage_error(std::string(cmd_->name) + " expects " + std::to_string(n) + " " + what + ", got " +
                        std::to_string(positional_.size()));
  }

  std::optional<std::string> option(std::string_view name) {
    std::optional<std::string> found;
    for (option_t& o : options_)
      if (o.name == name) {
        if (o.is_flag) throw usage_error("option '--" + quote_input(o.name) + "' is a flag and takes no value");
        o.used = true;
        found = o.value;  // the last occurrence wins
      }
    return found;
  }

  std::string option_or(std::string_view name, std::string fallback) {
    return option(name).value_or(std::move(fallback));
  }

  bool flag(std::string_view name) {
    bool set = false;
    for (option_t& o : options_)
      if (o.name == name) {
        if (!o.is_flag) throw usage_error("option '--" + quote_input(o.name) + "' takes no value");
        o.used = true;
        set = true;
      }
    return set;
  }

  // Call after reading every option: anything left is a typo or an option of another command.
  void finish() const {
    for (const option_t& o : options_)
      if (!o.used)
        throw usage_error("unknown option '--" + quote_input(o.name) + "' for `napkin " + std::string(cmd_->name) +
                          "`");
  }

 private:
  struct option_t {
    std::string name;
    std::string value;
    bool is_flag;
    bool used;
  };
  const command* cmd_;
  std::vector<std::string> positional_;
  std::vector<option_t> options_;
};

// "a, b, c": the names of `items`, as `name(item)` gives them.
template <class Items, class Name>
std::string comma_list(const Items& items, Name name) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ", ") + std::string(name(item));
  return list;
}

}  // namespace napkin::cli
