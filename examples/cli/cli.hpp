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

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "napkin/detail/number_text.hpp"
#include "napkin/math.hpp"
#include "napkin/occupancy.hpp"

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

// ---- Parsing ---------------------------------------------------------------------------------------
// Free functions of the user's text: each returns the value or throws usage_error whose message names
// the argument (`what`) and quotes the text as typed, shortened by quote_input(). They never recurse and
// never throw anything else (but std::bad_alloc), so a fuzzer can call them directly:
//   std::string   quote_input(std::string_view text)
//   std::int64_t  parse_quantity(const std::string& text, const char* what)   >= 0: 4096, 8K, 2^28
//   std::int64_t  parse_size(const std::string& text, const char* what)       > 0
//   std::int64_t  parse_count(const std::string& text, const char* what)      >= 0
//   int           parse_int(const std::string& text, const char* what, bool allow_zero = true)
//   int           parse_carveout(const std::string& text)                    -1 (default) or 0..100
//   compute_capability parse_cc(const std::string& text)                     9.0, 90, sm_90, sm_90a

// The longest text a size may have: 19 digits fit in int64, a power like 2^62 or 1K^4 is shorter.
inline constexpr std::size_t max_quantity_length = 64;

namespace detail {

// Digits, optionally followed by K, M, G or T (binary multiples). Returns nullptr and sets `value`, or
// the reason the text is not a number.
inline const char* parse_number(std::string_view s, std::int64_t& value) {
  constexpr const char* expected = "expected digits, optionally followed by K, M, G or T, or a power like 2^28";
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0) return expected;
  std::int64_t multiplier = 1;
  if (digits + 1 == s.size()) {
    switch (s[digits]) {
      case 'k': case 'K': multiplier = std::int64_t{1} << 10; break;
      case 'm': case 'M': multiplier = std::int64_t{1} << 20; break;
      case 'g': case 'G': multiplier = std::int64_t{1} << 30; break;
      case 't': case 'T': multiplier = std::int64_t{1} << 40; break;
      default: return expected;
    }
  } else if (digits != s.size()) {
    return expected;
  }
  std::int64_t v = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const int d = s[i] - '0';
    if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) return "too large for 64 bits";
    v = v * 10 + d;
  }
  if (v > std::numeric_limits<std::int64_t>::max() / multiplier) return "too large for 64 bits";
  value = v * multiplier;
  return nullptr;
}

}  // namespace detail

// A non-negative quantity: 4096, 8K (8·1024), 4M, 2G, 1T (binary multiples, as in "4K context"), or a
// power BASE^EXPONENT of two such numbers (2^28; 2^0 = 1). At most max_quantity_length characters.
inline std::int64_t parse_quantity(const std::string& text, const char* what) {
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw usage_error(std::string(what) + " is not a size: '" + quote_input(text) + "' (" + why + ")");
  };
  if (text.size() > max_quantity_length)
    return fail(std::to_string(text.size()) + " characters; a size has at most " +
                std::to_string(max_quantity_length));
  if (text.empty()) return fail("empty");
  if (text[0] == '-') throw usage_error(std::string(what) + " must not be negative, got '" + quote_input(text) + "'");
  const std::string_view s = text;
  const std::size_t caret = s.find('^');
  std::int64_t base = 0;
  if (const char* why = detail::parse_number(s.substr(0, caret), base)) return fail(why);
  if (caret == std::string_view::npos) return base;
  if (s.find('^', caret + 1) != std::string_view::npos) return fail("at most one '^': BASE^EXPONENT, e.g. 2^28");
  std::int64_t exponent = 0;
  if (const char* why = detail::parse_number(s.substr(caret + 1), exponent)) return fail(why);
  if (exponent == 0) return 1;
  if (base <= 1) return base;  // 0^k = 0 and 1^k = 1, without looping `exponent` times
  std::int64_t v = 1;
  for (std::int64_t i = 0; i < exponent; ++i) {  // at most 63 rounds: base >= 2 overflows by then
    if (v > std::numeric_limits<std::int64_t>::max() / base) return fail("too large for 64 bits");
    v *= base;
  }
  return v;
}

// A positive size, written as parse_quantity reads it.
inline std::int64_t parse_size(const std::string& text, const char* what = "size") {
  if (!text.empty() && text[0] == '-')
    throw usage_error(std::string(what) + " must be positive, got '" + quote_input(text) + "'");
  const std::int64_t v = parse_quantity(text, what);
  if (v == 0) {
    const bool plain_zero = text.find_first_not_of('0') == std::string::npos;
    throw usage_error(std::string(what) + " must be positive, got '" + quote_input(text) + "'" +
                      (plain_zero ? "" : " (= 0)"));
  }
  return v;
}

// A non-negative count (padding, number of inputs, ops per element): "0", "00" and "0K" are zero.
inline std::int64_t parse_count(const std::string& text, const char* what) { return parse_quantity(text, what); }

// A count or size that fits in an int.
inline int parse_int(const std::string& text, const char* what, bool allow_zero = true) {
  const std::int64_t v = allow_zero ? parse_count(text, what) : parse_size(text, what);
  if (v > std::numeric_limits<int>::max())
    throw usage_error(std::string(what) + " is too large: '" + quote_input(text) + "'");
  return static_cast<int>(v);
}

// The command's positional arguments as positive sizes, one name each for the error messages; `what`
// says what the command expects: positional_sizes(args, "sizes (M N K)", {"M", "N", "K"}).
inline std::vector<std::int64_t> positional_sizes(const arguments& args, const char* what,
                                                  std::initializer_list<const char*> names) {
  args.expect_positional(names.size(), what);
  std::vector<std::int64_t> sizes;
  sizes.reserve(names.size());
  for (const char* name : names) sizes.push_back(parse_size(args.positional()[sizes.size()], name));
  return sizes;
}

// cudaFuncAttributePreferredSharedMemoryCarveout as napkin::kernel_resources takes it: -1 (or
// "default") for the driver's default, else a percentage 0..100.
inline int parse_carveout(const std::string& text) {
  if (text == "-1" || text == "default") return -1;
  const bool digits = !text.empty() && text.size() <= 3 && text.find_first_not_of("0123456789") == std::string::npos;
  const int v = digits ? std::stoi(text) : -2;
  if (v < 0 || v > 100)
    throw usage_error("carveout must be -1 (the driver's default) or 0..100, got '" + quote_input(text) + "'");
  return v;
}

// A compute capability: "9.0", "12.1", "90", "120", "sm_90", "compute_90", and the architecture- and
// family-specific targets "sm_90a", "sm_100f" (same compute capability).
inline compute_capability parse_cc(const std::string& text) {
  const auto fail = [&]() -> compute_capability {
    throw usage_error("not a compute capability: '" + quote_input(text) + "' (e.g. 9.0, 12.1, 90, sm_90 or sm_90a)");
  };
  std::string_view s = text;
  const auto digits_only = [](std::string_view d, std::size_t min, std::size_t max) {
    return d.size() >= min && d.size() <= max && d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const auto number = [](std::string_view d) {
    int v = 0;
    for (char c : d) v = v * 10 + (c - '0');
    return v;
  };
  bool target = false;  // sm_XY / compute_XY
  for (std::string_view prefix : {std::string_view("sm_"), std::string_view("compute_")})
    if (s.substr(0, prefix.size()) == prefix) {
      s.remove_prefix(prefix.size());
      target = true;
      break;
    }
  if (target && !s.empty() && (s.back() == 'a' || s.back() == 'f')) s.remove_suffix(1);
  const std::size_t dot = s.find('.');
  if (!target && dot != std::string_view::npos) {
    const std::string_view major = s.substr(0, dot), minor = s.substr(dot + 1);
    if (!digits_only(major, 1, 2) || !digits_only(minor, 1, 1)) return fail();
    return {number(major), number(minor)};
  }
  if (!digits_only(s, 2, 3)) return fail();
  return {number(s.substr(0, s.size() - 1)), s.back() - '0'};
}

inline dtype parse_dtype_arg(const std::string& text) {
  try {
    return napkin::parse_dtype(text);
  } catch (const std::invalid_argument&) {
    throw usage_error("unknown element type '" + quote_input(text) +
                      "' (fp64, fp32, tf32, fp16, bf16, fp8, int8 or int32)");
  }
}

// "a, b, c": the names of `items`, as `name(item)` gives them.
template <class Items, class Name>
std::string comma_list(const Items& items, Name name) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ", ") + std::string(name(item));
  return list;
}

inline pipe parse_pipe_arg(const std::string& text) {
  try {
    return napkin::parse_pipe(text);
  } catch (const std::invalid_argument&) {
    throw usage_error("unknown pipe '" + quote_input(text) + "' (" +
                      comma_list(all_pipes, [](pipe p) { return to_string(p); }) + ")");
  }
}

inline gpu_spec lookup_gpu(const std::string& key) {
  try {
    return napkin::find_gpu(key);
  } catch (const std::invalid_argument&) {
    throw usage_error("unknown GPU '" + quote_input(key) + "'; `napkin gpus` lists the known GPUs: " +
                      comma_list(gpu_table, [](const gpu_spec& g) { return g.key; }));
  }
}

inline counting parse_counting(const std::string& text) {
  if (text == "standard") return counting::standard();
  if (text == "macs") return counting::macs();
  if (text == "dongarra") return counting::dongarra();
  throw usage_error("unknown counting convention '" + quote_input(text) + "' (standard, macs or dongarra)");
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
// Numbers go through napkin/detail/number_text.hpp; what is left here is layout.

// `text` followed by spaces up to `width` bytes (the labels are ASCII), or `text` when it is longer.
inline std::string pad_right(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

// Spaces then `text`, `width` bytes in all (a right-aligned table cell).
inline std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

// One report row: "  <label padded to label_width><value>[   <note>]".
inline void print_row(std::ostream& out, std::size_t label_width, const char* label, const std::string& value,
                      const std::string& note = {}) {
  out << "  " << pad_right(label, label_width) << value;
  if (!note.empty()) out << "   " << note;
  out << "\n";
}

// "as MACs (FMA = 1)", "with Dongarra's weights, with the softmax", ...
inline std::string describe_counting(const counting& c) {
  counting ops = c;
  ops.attention_softmax = false;
  std::string s;
  if (ops == counting::macs()) s = "as MACs (FMA = 1)";
  else if (ops == counting::dongarra()) s = "with Dongarra's weights";
  else if (ops != counting::standard()) s = "in the chosen convention";
  if (c.attention_softmax) s += s.empty() ? "with the softmax" : ", with the softmax";
  return s;
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
    } catch (const std::invalid_argument&) {
      const std::string in(to_string(w.types.input)), acc(to_string(w.types.accumulate));
      throw usage_error(
          (w.matrix ? "no math pipe for " + in + " matrix products (" + acc +
                          " accumulate): tensor cores take fp64, tf32, fp16, bf16, fp8 and int8 inputs"
                    : "no math pipe for " + acc + " arithmetic") +
          ", and napkin has no integer or fp8 CUDA-core peak. Pass --pipe PIPE to choose the roof (the memory time "
          "is the same on every pipe, e.g. --pipe fp32 for memory-bound work)");
    }
  }
  const roofline_estimate e = estimate(w, g, p, s);

  using napkin::detail::estimate_duration;
  using napkin::detail::si;
  using napkin::detail::significant;
  const auto line = [&out](const char* label, const std::string& value, const std::string& note = {}) {
    print_row(out, 14, label, value, note);
  };
  const auto intensity = [](double flop_per_byte) { return significant(flop_per_byte) + " FLOP/B"; };
  out << title << "\n";
  line("types", describe_types(w.types));
  if (w.convention == counting::standard())
    line("FLOPs", si(e.flops, "FLOP"));
  else  // the convention changes this line only: time, intensity and regime use the standard count
    line("FLOPs", si(static_cast<double>(w.counted_flops()), "FLOP"),
         "counted " + describe_counting(w.convention) + "; standard " + si(e.flops, "FLOP") + " for the roofline");
  line("bytes", si(e.bytes, "B"),
       "read " + si(static_cast<double>(w.bytes_read), "B") + ", written " +
           si(static_cast<double>(w.bytes_written), "B"));
  line("intensity", intensity(e.intensity));
  out << "on " << g.key << " (" << g.name << "), pipe " << to_string(p) << " (" << describe(p) << "), "
      << describe(s) << "\n";
  line("peak", si(peak_flops(g, p, s), "FLOP/s"));
  line("bandwidth", si(g.memory_bandwidth, "B/s"));
  line("ridge", intensity(e.ridge), "intensity needed to be compute-bound");
  line("regime", std::string(to_string(e.bound)), "intensity is " + significant(e.intensity / e.ridge) + "x the ridge");
  line("attainable", si(e.attainable_flops, "FLOP/s"), "min(peak, bandwidth x intensity)");
  line("compute time", estimate_duration(e.compute_seconds), "FLOPs / peak");
  line("memory time", estimate_duration(e.memory_seconds), "bytes / bandwidth");
  line("lower bound", estimate_duration(e.lower_bound_seconds()), "max(compute, memory); data already in L2 can beat it");
  line("no overlap", estimate_duration(e.no_overlap_seconds()), "compute + memory");
  return 0;
}

}  // namespace napkin::cli
