// The `napkin` command-line tool: command registry and shared helpers.
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
//      let napkin's own exceptions through (exit status 1). Never print a number for bad input.
//   4. Add a test to tests/math/CMakeLists.txt with napkin_cli_test().
//
// Workload commands share add_workload_options()/print_report(): --gpu, --pipe, --sparse, --dtype,
// --out-dtype, --acc-dtype, --counting. Units are decimal (1 GB = 1e9 B), as on datasheets.
//
// The registry is the one piece of global mutable state: it is filled by the registrars during static
// initialization (before main) and only read afterwards, on one thread.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/gpus.hpp"
#include "napkin/roofline.hpp"
#include "napkin/workloads.hpp"

namespace napkin::cli {

// Bad command-line input: main prints the message and the command's usage, and exits with 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
    "  --dtype T          element type: fp64 fp32 tf32 fp16 bf16 fp8 int8 int32\n"
    "  --out-dtype T      output type (default: --dtype)\n"
    "  --acc-dtype T      accumulate type (default: fp32 for 16/8-bit floats, int32 for int8)\n"
    "  --counting C       standard (FMA = 2, exp = 1), macs (FMA = 1) or dongarra (exp 8, div 4, sqrt 4)\n";

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
        if (i + 1 >= argv.size()) throw usage_error("option '--" + key + "' needs a value");
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
        if (o.is_flag) throw usage_error("option '--" + o.name + "' is a flag and takes no value");
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
        if (!o.is_flag) throw usage_error("option '--" + o.name + "' takes no value");
        o.used = true;
        set = true;
      }
    return set;
  }

  // Call after reading every option: anything left is a typo or an option of another command.
  void finish() const {
    for (const option_t& o : options_)
      if (!o.used) throw usage_error("unknown option '--" + o.name + "' for `napkin " + std::string(cmd_->name) + "`");
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

// ---- Parsing ---------------------------------------------------------------------------------------

inline std::int64_t parse_size(const std::string& text, const char* what = "size");

// A non-negative quantity: 4096, 8K (8·1024), 4M, 2G, 1T (binary multiples, as in "4K context"), or 2^28.
inline std::int64_t parse_quantity(const std::string& text, const char* what) {
  const auto fail = [&](const char* why) -> std::int64_t {
    throw usage_error(std::string(what) + " is not a size: '" + text + "' (" + why + ")");
  };
  if (text.empty()) return fail("empty");
  if (text[0] == '-') {
    // Let the library say it: a negative or zero size is an error there too.
    throw usage_error(std::string(what) + " must be positive, got '" + text + "'");
  }
  const std::size_t caret = text.find('^');
  if (caret != std::string::npos) {
    const std::int64_t base = parse_size(text.substr(0, caret), what);
    const std::int64_t exponent = parse_size(text.substr(caret + 1), what);
    if (base == 1) return 1;  // (the loop below would run `exponent` times)
    std::int64_t v = 1;
    for (std::int64_t i = 0; i < exponent; ++i) {
      if (v > std::numeric_limits<std::int64_t>::max() / base) return fail("too large for 64 bits");
      v *= base;
    }
    return v;
  }
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return fail("expected digits, optionally followed by K, M, G or T, or a power like 2^28");
  std::int64_t multiplier = 1;
  if (digits + 1 == text.size()) {
    switch (text[digits]) {
      case 'k': case 'K': multiplier = std::int64_t{1} << 10; break;
      case 'm': case 'M': multiplier = std::int64_t{1} << 20; break;
      case 'g': case 'G': multiplier = std::int64_t{1} << 30; break;
      case 't': case 'T': multiplier = std::int64_t{1} << 40; break;
      default: return fail("expected digits, optionally followed by K, M, G or T, or a power like 2^28");
    }
  } else if (digits != text.size()) {
    return fail("expected digits, optionally followed by K, M, G or T, or a power like 2^28");
  }
  std::int64_t v = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const int d = text[i] - '0';
    if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) return fail("too large for 64 bits");
    v = v * 10 + d;
  }
  if (v > std::numeric_limits<std::int64_t>::max() / multiplier) return fail("too large for 64 bits");
  return v * multiplier;
}

// A positive size, written as parse_quantity reads it.
inline std::int64_t parse_size(const std::string& text, const char* what) {
  const std::int64_t v = parse_quantity(text, what);
  if (v == 0) throw usage_error(std::string(what) + " must be positive, got '" + text + "'");
  return v;
}

// A non-negative count (padding, number of inputs, ops per element): "0", "00" and "0K" are zero.
inline std::int64_t parse_count(const std::string& text, const char* what) { return parse_quantity(text, what); }

inline dtype parse_dtype_arg(const std::string& text) {
  try {
    return napkin::parse_dtype(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

inline pipe parse_pipe_arg(const std::string& text) {
  try {
    return napkin::parse_pipe(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

inline std::string known_gpu_keys() {
  std::string keys;
  for (const gpu_spec& g : gpu_table) keys += (keys.empty() ? "" : ", ") + std::string(g.key);
  return keys;
}

inline gpu_spec lookup_gpu(const std::string& key) {
  try {
    return napkin::find_gpu(key);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string(e.what()) + "; known GPUs: " + known_gpu_keys());
  }
}

inline counting parse_counting(const std::string& text) {
  if (text == "standard") return counting::standard();
  if (text == "macs") return counting::macs();
  if (text == "dongarra") return counting::dongarra();
  throw usage_error("unknown counting convention '" + text + "' (standard, macs or dongarra)");
}

// --dtype/--out-dtype/--acc-dtype with a per-command default input type.
inline element_types parse_types(arguments& args, dtype default_input) {
  const std::optional<std::string> in = args.option("dtype");
  element_types t = in ? parse_dtype_arg(*in) : default_input;
  if (const auto out = args.option("out-dtype")) t.output = parse_dtype_arg(*out);
  if (const auto acc = args.option("acc-dtype")) t.accumulate = parse_dtype_arg(*acc);
  return t;
}

inline counting parse_counting_arg(arguments& args) { return parse_counting(args.option_or("counting", "standard")); }

// ---- Formatting ------------------------------------------------------------------------------------

// Four significant digits, at least one decimal: 682.7, 19.97, 0.6250, 1365.3.
inline std::string format_number(double x) {
  if (x == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  const int decimals = std::max(1, 3 - magnitude);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

// value with a decimal SI prefix: human(1.374e11, "FLOP") = "137.4 GFLOP".
inline std::string human(double value, std::string_view unit) {
  static constexpr struct {
    double scale;
    const char* prefix;
  } prefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& p : prefixes)
    if (std::fabs(value) >= p.scale) return format_number(value / p.scale) + " " + p.prefix + std::string(unit);
  if (value == std::floor(value)) return std::to_string(static_cast<long long>(value)) + " " + std::string(unit);
  return format_number(value) + " " + std::string(unit);
}

inline std::string format_flops(double flops) { return human(flops, "FLOP"); }
inline std::string format_bytes(double bytes) { return human(bytes, "B"); }
inline std::string format_flop_rate(double flops_per_second) { return human(flops_per_second, "FLOP/s"); }
inline std::string format_bandwidth(double bytes_per_second) { return human(bytes_per_second, "B/s"); }
inline std::string format_intensity(double flop_per_byte) { return format_number(flop_per_byte) + " FLOP/B"; }

inline std::string format_time(double seconds) {
  if (seconds >= 1) return format_number(seconds) + " s";
  if (seconds >= 1e-3) return format_number(seconds * 1e3) + " ms";
  if (seconds >= 1e-6) return format_number(seconds * 1e6) + " µs";
  return format_number(seconds * 1e9) + " ns";
}

inline std::string describe_types(const element_types& t) {
  return std::string(to_string(t.input)) + " in, " + std::string(to_string(t.output)) + " out, " +
         std::string(to_string(t.accumulate)) + " accumulate";
}

// ---- The report every workload command prints -------------------------------------------------------

// Reads --gpu, --pipe and --sparse, finishes argument parsing, and prints the workload and its roofline.
inline int print_report(arguments& args, std::ostream& out, const std::string& title, const workload& w) {
  const gpu_spec g = lookup_gpu(args.option_or("gpu", "h100-sxm"));
  const std::optional<std::string> pipe_arg = args.option("pipe");
  const sparsity s = args.flag("sparse") ? sparsity::sparse_2_4 : sparsity::dense;
  args.finish();

  pipe p{};
  if (pipe_arg) {
    p = parse_pipe_arg(*pipe_arg);
  } else {
    try {
      p = default_pipe(g, w);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string(e.what()) + "; pass --pipe (for memory-bound work any pipe gives the same "
                                                "memory time, e.g. --pipe fp32)");
    }
  }
  const roofline_estimate e = estimate(w, g, p, s);

  const auto line = [&out](const char* label, const std::string& value, const std::string& note = {}) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "  %-14s", label);
    out << buf << value;
    if (!note.empty()) out << "   " << note;
    out << "\n";
  };
  out << title << "\n";
  line("types", describe_types(w.types));
  line("FLOPs", format_flops(e.flops));
  line("bytes", format_bytes(e.bytes),
       "read " + format_bytes(static_cast<double>(w.bytes_read)) + ", written " +
           format_bytes(static_cast<double>(w.bytes_written)));
  line("intensity", format_intensity(e.intensity));
  out << "on " << g.key << " (" << g.name << "), pipe " << to_string(p) << " (" << describe(p) << "), "
      << (s == sparsity::dense ? "dense" : "2:4 sparse") << "\n";
  line("peak", format_flop_rate(peak_flops(g, p, s)));
  line("bandwidth", format_bandwidth(g.memory_bandwidth));
  line("ridge", format_intensity(e.ridge), "intensity needed to be compute-bound");
  line("regime", std::string(to_string(e.bound)),
       "intensity is " + format_number(e.intensity / e.ridge) + "x the ridge");
  line("attainable", format_flop_rate(e.attainable_flops), "min(peak, bandwidth x intensity)");
  line("compute time", format_time(e.compute_seconds), "FLOPs / peak");
  line("memory time", format_time(e.memory_seconds), "bytes / bandwidth");
  line("lower bound", format_time(e.lower_bound_seconds()), "max(compute, memory); data already in L2 can beat it");
  line("no overlap", format_time(e.no_overlap_seconds()), "compute + memory");
  return 0;
}

}  // namespace napkin::cli
