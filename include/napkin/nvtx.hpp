// napkin/nvtx.hpp — RAII NVTX ranges that cost nothing when no tool is attached.
//
//   napkin::range r{"gemm"};                      // push/pop in napkin's domain, color from the name
//   napkin::range r{"layer {}", i};               // formatted only when a tool (nsys, ncu, ...) listens
//   napkin::range r{"io", napkin::rgb{0, 0, 255}, napkin::payload{bytes}};
//   NAPKIN_FUNC_RANGE();                          // named "ns::solver::step", "main::lambda@42", ...
//   auto job = napkin::unique_range{"request"};   // start/end: movable, may end on another thread
//   napkin::mark("checkpoint");
//   napkin::name_current_thread("loader"); napkin::name_stream(s, "copy");
//
// Format strings ("layer {}"): {} placeholders filled in order with operator<<, {{ and }} for braces.
// A malformed literal is a compile error in C++20 (checked like std::format_string) and, in any
// standard, when written NAPKIN_FMT("layer {}"); a format known only at run time is passed as
// napkin::runtime_format(text) (C++17 also takes it directly) and, if malformed, names the range with the
// text as written plus a marker: a range never throws for its format.
//
// Switches: NAPKIN_NVTX=0 in the environment or napkin::set_nvtx_enabled(false) at run time (one
// load per range); NVTX_DISABLE or NAPKIN_NVTX_DISABLE at compile time (every range is an empty
// object). Built on NVTX3's C++ wrappers through the explicit-version namespace nvtx3::v1, as
// nvtx3.hpp recommends for header-only libraries. Works with and without exceptions. See docs/nvtx.md.
#pragma once

#include "napkin/error.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(NVTX_DISABLE) || defined(NAPKIN_NVTX_DISABLE)
#define NAPKIN_NVTX_ENABLED 0
#else
#define NAPKIN_NVTX_ENABLED 1
#endif

// nvtx3.hpp's advice for header-only libraries: only explicit-version symbols, so that any other
// version of the wrappers can coexist in the same translation unit.
#if !defined(NVTX3_CPP_REQUIRE_EXPLICIT_VERSION)
#define NVTX3_CPP_REQUIRE_EXPLICIT_VERSION
#define NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT
#endif
#if !defined(NVTX_AS_SYSTEM_HEADER)
#define NVTX_AS_SYSTEM_HEADER  // NVTX's own code is not ours to warn about
#define NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif
#include <nvtx3/nvtx3.hpp>
#include <nvtx3/nvToolsExtCudaRt.h>  // stream/device/event naming; types only, no libcuda needed
#if defined(NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT)
#undef NVTX3_CPP_REQUIRE_EXPLICIT_VERSION
#undef NAPKIN_DETAIL_UNDEF_NVTX3_EXPLICIT
#endif
#if defined(NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM)
#undef NVTX_AS_SYSTEM_HEADER
#undef NAPKIN_DETAIL_UNDEF_NVTX_SYSTEM
#endif

#if defined(_WIN32)
#include <processthreadsapi.h>
#else
#include <sys/syscall.h>
#include <unistd.h>
#endif

// ---- Process-wide state --------------------------------------------------------------------------
// Shared by every translation unit of this napkin version, with or without exceptions, with NVTX
// compiled in or out (napkin/config.hpp): one switch, one NVTX initialization, one listener slot per
// process. Each piece is an atomic, constant-initialized, so it is usable during
// static initialization and never destroyed before a late range.
NAPKIN_BEGIN_PROCESS_STATE
/// napkin's run-time NVTX switch: the low two bits are unread (0) / on (1) / off (2), bit 2 is set while
/// a range listener is installed (see detail::switch_* in napkin/nvtx.hpp). "On" is stored with release
/// only after NVTX is initialized (nvtx_initialization); ranges load it with acquire.
inline std::atomic<unsigned char> nvtx_switch{0};
/// napkin's one call of nvtxInitialize (loads the NVTX tool, if any, and sets NVTX's dispatch pointers):
/// 0 not started, 1 running, 2 done. An atomic rather than std::once_flag: std::call_once may throw
/// (std::system_error) and goes through pthread_once, which glibc before 2.34 has only in libpthread.
inline std::atomic<unsigned char> nvtx_initialization{0};
/// Whether a malformed run-time format string was already reported on stderr (once per process).
inline std::atomic<bool> nvtx_format_reported{false};

/// Told about every napkin push/pop range (range_in, NAPKIN_RANGE, NAPKIN_FUNC_RANGE) while installed,
/// whether or not an NVTX tool listens and whatever napkin's NVTX switch says; ranges compiled out
/// (NAPKIN_NVTX_DISABLE) are not seen. napkin::profiler::watch_phase installs one at a time. Each
/// implementation must be thread-safe and outlive every range (static storage): a range may read the
/// pointer just before it is cleared. A pop goes to the listener installed when the range closes: one
/// installed later may hear a pop whose push it never saw (from any thread), and must ignore it.
/// (Declared here, not per exception setting, so that every kind of translation unit sees one type.)
class range_listener {
 public:
  /// A range opens on the calling thread; returns whether this listener wants on_pop() for it.
  virtual bool on_push(char const* domain, std::string_view name) noexcept = 0;
  /// A range that a listener's on_push() accepted closes, on the thread that opened it.
  virtual void on_pop() noexcept = 0;

 protected:
  range_listener() = default;
  ~range_listener() = default;
  range_listener(range_listener const&) = default;
  range_listener& operator=(range_listener const&) = default;
};
/// The process-wide listener slot (null almost always). Ranges look at it only when the switch's
/// listened bit sends them off the hot path. Written by detail::install/remove_range_listener.
inline std::atomic<range_listener*> installed_range_listener{nullptr};
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE

// ---- Attribute value types (NVTX3's, re-exported) -----------------------------------------------
using color = nvtx3::v1::color;        ///< ARGB color; napkin::color{0xFF00FF00u} or from rgb/argb
using rgb = nvtx3::v1::rgb;            ///< napkin::rgb{255, 128, 0}
using argb = nvtx3::v1::argb;          ///< napkin::argb{255, 255, 128, 0}
using category = nvtx3::v1::category;  ///< napkin::category{7}; name it with name_category<D>()
using payload = nvtx3::v1::payload;    ///< napkin::payload{std::int64_t{n}} (also int32/uint/float/double)

/// The domain every napkin range lands in unless told otherwise. In ncu: `--nvtx-include "napkin@name/"`.
struct default_domain {
  static constexpr char const* name{"napkin"};
};
/// NVTX's unnamed global domain (what nvtxRangePushA uses). In ncu: `--nvtx-include "name/"`.
using global_domain = nvtx3::v1::domain::global;

/// NAPKIN_DOMAIN(my_lib, "my-lib"); declares a domain tag type for range_in<my_lib>, mark_in<my_lib>...
#define NAPKIN_DOMAIN(tag, domain_name)                                  \
  struct tag {                                                           \
    [[maybe_unused]] static constexpr char const* name{domain_name};     \
  }

// ---- Deterministic colors -------------------------------------------------------------------------
namespace detail {
/// 32-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/): tiny, constexpr, well distributed.
constexpr std::uint32_t fnv1a(std::string_view s) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}
// unit is in [0, 1], so adding 0.5 and truncating rounds half up (what Python's int(x * 255 + 0.5) does).
constexpr std::uint8_t to_byte(double unit) noexcept {
  return static_cast<std::uint8_t>(unit * 255.0 + 0.5);  // NOLINT(bugprone-incorrect-roundings)
}
}  // namespace detail

namespace detail {
// Not constexpr: in constant evaluation the compiler stops here and names the problem; at run time it is
// napkin's failure policy (an exception, or a message and abort without exceptions).
[[noreturn]] NAPKIN_DETAIL_COLD inline void hsv_out_of_range(unsigned hue_degrees, double saturation, double value) {
  char text[160];
  std::snprintf(text, sizeof text, "napkin: color_from_hsv(%u, %g, %g): hue must be in [0, 360), saturation "
                "and value in [0, 1]", hue_degrees, saturation, value);
  raise_input_error(text);
}
}  // namespace detail

/// HSV (hue in degrees [0, 360), saturation and value in [0, 1]) to an opaque NVTX color.
constexpr color color_from_hsv(unsigned hue_degrees, double saturation, double value) {
  if (hue_degrees >= 360 || !(saturation >= 0.0 && saturation <= 1.0) || !(value >= 0.0 && value <= 1.0)) {
    detail::hsv_out_of_range(hue_degrees, saturation, value);
  }
  unsigned const sector = hue_degrees / 60;
  double const f = static_cast<double>(hue_degrees % 60) / 60.0;
  double const p = value * (1.0 - saturation);
  double const q = value * (1.0 - saturation * f);
  double const t = value * (1.0 - saturation * (1.0 - f));
  double r = value, g = t, b = p;  // sector 0
  switch (sector) {
    case 1: r = q; g = value; b = p; break;
    case 2: r = p; g = value; b = t; break;
    case 3: r = p; g = q; b = value; break;
    case 4: r = t; g = p; b = value; break;
    case 5: r = value; g = p; b = q; break;
    default: break;
  }
  return color{rgb{detail::to_byte(r), detail::to_byte(g), detail::to_byte(b)}};
}

/// The color napkin gives a range that names none: the name's FNV-1a hash picks the hue; saturation
/// and value are fixed (0.75, 0.9) so every range is readable on Nsight's timeline. constexpr: NAPKIN_RANGE
/// makes a literal's color a compile-time constant; napkin::range computes it only when a tool listens.
constexpr color color_of(std::string_view name) {
  return color_from_hsv(detail::fnv1a(name) % 360u, 0.75, 0.9);
}

// ---- The run-time switch (shared by every configuration) -----------------------------------------
namespace detail {
// The low two bits: unread / on / off. switch_listened is set while a range listener is installed (below),
// so that a range's hot path stays one load and one compare against switch_on.
enum : unsigned char {
  switch_unread = 0,
  switch_on = 1,
  switch_off = 2,
  switch_state_mask = 3,
  switch_listened = 4
};
using process_state::nvtx_switch;

/// NVTX's one-time initialization, done by napkin before its switch first says "on". Until NVTX has
/// initialized, its dispatch pointers hold NVTX's init stub (non-null) whether or not a tool exists, so
/// a range could not tell "tool attached" from "not initialized yet" (see NAPKIN_DETAIL_NVTX_TOOL).
inline void initialize_nvtx() noexcept {
  std::atomic<unsigned char>& state = process_state::nvtx_initialization;
  if (NAPKIN_DETAIL_LIKELY(state.load(std::memory_order_acquire) == 2)) return;
  unsigned char expected = 0;
  if (state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
    nvtxInitialize(nullptr);
    state.store(2, std::memory_order_release);  // what the tool wrote happens-before every acquire of 2
    return;
  }
  while (state.load(std::memory_order_acquire) != 2) std::this_thread::yield();  // another thread initializes
}

/// First use only: NAPKIN_NVTX decides, unless set_nvtx_enabled() already did.
NAPKIN_DETAIL_COLD inline bool read_nvtx_switch() noexcept {
  unsigned char wanted = switch_on;
  if (char const* env = std::getenv("NAPKIN_NVTX"); env != nullptr && *env != '\0') {
    std::string_view const v{env};
    if (v == "0" || v == "off" || v == "OFF" || v == "false" || v == "FALSE" || v == "no") {
      wanted = switch_off;
    } else if (!(v == "1" || v == "on" || v == "ON" || v == "true" || v == "TRUE" || v == "yes")) {
      std::fprintf(stderr, "napkin: ignoring NAPKIN_NVTX=\"%s\" (expected 0/off/false/no or 1/on/true/yes); "
                           "NVTX ranges stay enabled\n", env);
    }
  }
  if (wanted == switch_on) initialize_nvtx();
  unsigned char current = nvtx_switch.load(std::memory_order_acquire);
  while ((current & switch_state_mask) == switch_unread) {
    if (nvtx_switch.compare_exchange_weak(current, static_cast<unsigned char>(current | wanted),
                                          std::memory_order_acq_rel, std::memory_order_acquire)) {
      return wanted == switch_on;
    }
  }
  return (current & switch_state_mask) == switch_on;  // set_nvtx_enabled() won the race: the API call wins
}

/// Sets the on/off state, keeping the listened bit. "On" is published only after NVTX is initialized.
inline void write_nvtx_state(unsigned char state) noexcept {
  if (state == switch_on) initialize_nvtx();
  unsigned char current = nvtx_switch.load(std::memory_order_relaxed);
  while (!nvtx_switch.compare_exchange_weak(current,
                                            static_cast<unsigned char>((current & ~switch_state_mask) | state),
                                            std::memory_order_release, std::memory_order_relaxed)) {
  }
}

/// The hot-path gate: a single load when the switch has been read. Acquire: a thread that sees "on"
/// also sees NVTX's dispatch pointers as its initialization left them (a plain load on x86-64).
inline bool runtime_enabled() noexcept {
  unsigned char const s = nvtx_switch.load(std::memory_order_acquire);
  if (NAPKIN_DETAIL_LIKELY(s == switch_on)) return true;
  unsigned char const state = s & switch_state_mask;
  return state == switch_unread ? read_nvtx_switch() : state == switch_on;
}
}  // namespace detail

// ---- Readable function names for NAPKIN_FUNC_RANGE ------------------------------------------------
namespace detail {
inline bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
}

/// Turns a compiler's function signature (GCC/Clang __PRETTY_FUNCTION__) into the qualified name a
/// person reads: no return type, parameters, qualifiers or template bindings; lambdas become
/// "enclosing::lambda@<line>". Anything it does not understand is left as is (never dropped).
inline std::string readable_function_name(std::string_view pretty, unsigned line) {
  std::string_view s = pretty;
  auto strip_suffix = [&s](std::string_view suffix) {
    if (s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
      s.remove_suffix(suffix.size());
      return true;
    }
    return false;
  };
  // Trailing template bindings: GCC " [with T = int]", Clang " [T = int]".
  if (!s.empty() && s.back() == ']') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ']') ++depth;
      if (s[i] == '[' && --depth == 0) {
        if (i > 0 && s[i - 1] == ' ') s = s.substr(0, i - 1);
        break;
      }
    }
  }
  while (strip_suffix(" const") || strip_suffix(" volatile") || strip_suffix(" &&") || strip_suffix(" &") ||
         strip_suffix(" noexcept")) {
  }
  // The parameter list: the parenthesis matching the final ')'.
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      if (s[i] == '(' && --depth == 0) {
        s = s.substr(0, i);
        break;
      }
    }
  }
  // The return type ends at the last space outside brackets, before any operator name.
  std::size_t name_end = s.size();
  for (std::size_t at = s.find("operator"); at != std::string_view::npos; at = s.find("operator", at + 1)) {
    bool const starts = at == 0 || s[at - 1] == ':' || s[at - 1] == ' ';
    bool const ends = at + 8 >= s.size() || !is_identifier_char(s[at + 8]);
    if (starts && ends) {
      name_end = at;
      break;
    }
  }
  std::size_t name_begin = 0;
  int depth = 0;
  for (std::size_t i = 0; i < name_end; ++i) {
    char const c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ' ' && depth == 0) name_begin = i + 1;
  }
  s = s.substr(name_begin);
  while (!s.empty() && (s.front() == '*' || s.front() == '&')) s.remove_prefix(1);

  std::string out{s};
  // Lambdas: Clang "(anonymous class)::operator()", GCC "<lambda(int)>".
  replace_all(out, "(anonymous class)::operator()", "lambda");
  for (std::size_t at = out.find("<lambda("); at != std::string::npos; at = out.find("<lambda(")) {
    int d = 0;
    std::size_t close = at;
    for (std::size_t i = at; i < out.size(); ++i) {
      if (out[i] == '<') ++d;
      if (out[i] == '>' && --d == 0) {
        close = i;
        break;
      }
    }
    if (close == at) break;  // unbalanced: leave the rest untouched
    out.replace(at, close - at + 1, "lambda");
  }
  // Parameter lists of enclosing functions ("main()::lambda" -> "main::lambda"), but not
  // "(anonymous namespace)::", which follows a scope separator rather than a name.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != '(' || i == 0 || !(is_identifier_char(out[i - 1]) || out[i - 1] == '>')) continue;
    int d = 0;
    std::size_t close = std::string::npos;
    for (std::size_t j = i; j < out.size(); ++j) {
      if (out[j] == '(') ++d;
      if (out[j] == ')' && --d == 0) {
        close = j;
        break;
      }
    }
    if (close != std::string::npos && out.compare(close + 1, 2, "::") == 0) out.erase(i, close - i + 1);
  }
  if (out.size() >= 6 && out.compare(out.size() - 6, 6, "lambda") == 0) {
    out += '@';
    out += std::to_string(line);
  }
  return out.empty() ? std::string{pretty} : out;
}
}  // namespace detail

// ---- Formatted names --------------------------------------------------------------------------------
// One syntax in every configuration: "{}" placeholders filled in order with operator<<, "{{" and "}}" for
// literal braces, nothing else between braces. (For std::format's specifications, pass a callable that
// formats: napkin::range r{[&] { return std::format("{:>4}", i); }} is called only when a tool listens.)
//
// Where the format is checked:
//   - C++20 (consteval): a format written as a literal is checked at compile time, like std::format_string;
//     a malformed one stops the compiler at a function named after the problem.
//   - NAPKIN_FMT("layer {}") (any standard, the C++17 way): the literal's shape becomes a template
//     argument and a static_assert compares it with the arguments.
//   - napkin::runtime_format(text) (any standard; C++17 also takes a plain string): checked when the name
//     is formatted, i.e. only when a tool listens. A malformed one never throws (a range may be opened in
//     a destructor or a noexcept function): the name becomes the text as written followed by
//     " [napkin: malformed NVTX format: <problem>]", and the first one of the process is reported on stderr.
#if defined(__cpp_consteval) || (defined(__clang__) && __cplusplus >= 202002L)
#define NAPKIN_NVTX_CHECKED_FORMAT 1
#define NAPKIN_DETAIL_FORMAT_CHECK consteval
#else
#define NAPKIN_NVTX_CHECKED_FORMAT 0
#define NAPKIN_DETAIL_FORMAT_CHECK constexpr
#endif

namespace detail {
template <class T>
struct identity {
  using type = T;
};

/// What a format string looks like: how many {} it has, and whether every brace is part of {}, {{ or }}.
struct format_shape {
  std::size_t placeholders;
  bool well_formed;
};
constexpr format_shape shape_of(std::string_view f) noexcept {
  std::size_t placeholders = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '{' && f[i] != '}') continue;
    bool const doubled = i + 1 < f.size() && f[i + 1] == f[i];
    if (f[i] == '{' && !doubled && i + 1 < f.size() && f[i + 1] == '}') {
      ++placeholders;
    } else if (!doubled) {
      return {placeholders, false};
    }
    ++i;  // past "{}", "{{" or "}}"
  }
  return {placeholders, true};
}

enum class format_problem : unsigned char {
  none,
  more_placeholders_than_arguments,
  fewer_placeholders_than_arguments,
  brace_is_not_a_placeholder_or_an_escape
};
constexpr format_problem check_format(std::string_view f, std::size_t arguments) noexcept {
  format_shape const shape = shape_of(f);
  if (!shape.well_formed) return format_problem::brace_is_not_a_placeholder_or_an_escape;
  if (shape.placeholders > arguments) return format_problem::more_placeholders_than_arguments;
  if (shape.placeholders < arguments) return format_problem::fewer_placeholders_than_arguments;
  return format_problem::none;
}
constexpr char const* describe(format_problem p) noexcept {
  switch (p) {
    case format_problem::more_placeholders_than_arguments: return "more {} than arguments";
    case format_problem::fewer_placeholders_than_arguments: return "fewer {} than arguments";
    case format_problem::brace_is_not_a_placeholder_or_an_escape:
      return "a brace that is not part of {}, {{ or }} (napkin's formats have {} placeholders only)";
    case format_problem::none: break;
  }
  return "no problem";
}

// Reached only while checking a literal format in constant evaluation (C++20): these are not constexpr,
// so the compiler stops and its diagnostic names the problem. Never called at run time.
inline void nvtx_format_has_more_placeholders_than_arguments() noexcept {}
inline void nvtx_format_has_fewer_placeholders_than_arguments() noexcept {}
inline void nvtx_format_has_a_brace_that_is_not_a_placeholder_or_an_escape() noexcept {}

/// NAPKIN_FMT's result: the literal and its shape, as template arguments.
template <std::size_t Placeholders, bool WellFormed>
struct checked_literal {
  std::string_view text;
};
}  // namespace detail

/// A format string known only at run time; see napkin::runtime_format.
struct runtime_format_string {
  std::string_view text;
};
/// napkin::range r{napkin::runtime_format(text), i}: a format read or built at run time. It is checked
/// when the name is formatted (only when a tool listens); a malformed one names the range with the text
/// as written plus " [napkin: malformed NVTX format: ...]". `text` must outlive the range's constructor.
constexpr runtime_format_string runtime_format(std::string_view text) noexcept { return {text}; }

namespace detail {
/// The format string of a name formatted with Args: see "Formatted names" above for where it is checked.
template <class... Args>
class basic_format_string {
 public:
  /// A literal (C++20: checked at compile time) or, in C++17, any string.
  template <class S, std::enable_if_t<std::is_convertible_v<S const&, std::string_view>, int> = 0>
  // cppcheck-suppress noExplicitConstructor ; implicit, like std::format_string
  NAPKIN_DETAIL_FORMAT_CHECK basic_format_string(S const& s) noexcept : text_{s} {  // NOLINT(google-explicit-constructor)
#if NAPKIN_NVTX_CHECKED_FORMAT
    switch (check_format(text_, sizeof...(Args))) {
      case format_problem::more_placeholders_than_arguments:
        nvtx_format_has_more_placeholders_than_arguments();
        break;
      case format_problem::fewer_placeholders_than_arguments:
        nvtx_format_has_fewer_placeholders_than_arguments();
        break;
      case format_problem::brace_is_not_a_placeholder_or_an_escape:
        nvtx_format_has_a_brace_that_is_not_a_placeholder_or_an_escape();
        break;
      case format_problem::none:
        break;
    }
#endif
  }
#if !NAPKIN_NVTX_CHECKED_FORMAT && defined(__clang__)
  /// C++17 with Clang: a literal is checked at compile time too (diagnose_if sees the argument's value).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgcc-compat"  // diagnose_if is Clang's; this block is Clang-only
  template <std::size_t N>
  // cppcheck-suppress noExplicitConstructor
  constexpr basic_format_string(char const (&s)[N]) noexcept  // NOLINT(google-explicit-constructor)
      __attribute__((diagnose_if(check_format(s, sizeof...(Args)) == format_problem::more_placeholders_than_arguments,
                                 "napkin: NVTX format has more {} than arguments", "error")))
      __attribute__((diagnose_if(check_format(s, sizeof...(Args)) == format_problem::fewer_placeholders_than_arguments,
                                 "napkin: NVTX format has fewer {} than arguments", "error")))
      __attribute__((diagnose_if(check_format(s, sizeof...(Args)) ==
                                     format_problem::brace_is_not_a_placeholder_or_an_escape,
                                 "napkin: NVTX format has a brace that is not part of {}, {{ or }} "
                                 "(napkin's formats have {} placeholders only)", "error")))
      : text_{s} {}
#pragma clang diagnostic pop
#endif
  /// NAPKIN_FMT("..."): checked at compile time in every standard.
  template <std::size_t Placeholders, bool WellFormed>
  // cppcheck-suppress [noExplicitConstructor, passedByValue] ; implicit on purpose; one string_view, by value
  constexpr basic_format_string(checked_literal<Placeholders, WellFormed> c) noexcept  // NOLINT(google-explicit-constructor)
      : text_{c.text} {
    static_assert(WellFormed, "napkin: NVTX format has a brace that is not part of {}, {{ or }} "
                              "(napkin's formats have {} placeholders only)");
    static_assert(!WellFormed || Placeholders <= sizeof...(Args), "napkin: NVTX format has more {} than arguments");
    static_assert(!WellFormed || Placeholders >= sizeof...(Args), "napkin: NVTX format has fewer {} than arguments");
  }
  /// napkin::runtime_format(text): checked when formatted.
  // cppcheck-suppress [noExplicitConstructor, passedByValue] ; implicit on purpose; one string_view, by value
  constexpr basic_format_string(runtime_format_string r) noexcept : text_{r.text} {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] constexpr std::string_view get() const noexcept { return text_; }

 private:
  std::string_view text_;
};
template <class... Args>
using format_string = basic_format_string<typename identity<Args>::type...>;  // Args deduced elsewhere

/// The name a malformed run-time format gets; the first one of the process is also reported on stderr.
NAPKIN_DETAIL_COLD inline std::string malformed_format_name(std::string_view f, format_problem p) {
  std::string name{f};
  name += " [napkin: malformed NVTX format: ";
  name += describe(p);
  name += ']';
  if (!process_state::nvtx_format_reported.exchange(true, std::memory_order_relaxed)) {
    std::fprintf(stderr, "napkin: NVTX name \"%s\" is malformed (%s); the range is named \"%s\" "
                         "(reported once per process)\n", std::string{f}.c_str(), describe(p), name.c_str());
  }
  return name;
}

/// napkin's formatter, for any text (this is what a name's format goes through at run time, and what a
/// fuzzer can call): {} filled in order with operator<<, {{ and }} as braces. A malformed format is not
/// an error here: it returns malformed_format_name(). Throws only what allocation or an argument's
/// operator<< throws.
template <class... Args>
std::string format_runtime(std::string_view f, Args const&... args) {
  format_problem const problem = check_format(f, sizeof...(Args));
  if (problem != format_problem::none) return malformed_format_name(f, problem);
  using writer = void (*)(std::ostream&, void const*);
  std::array<writer, sizeof...(Args)> const writers{
      {[](std::ostream& os, void const* p) { os << *static_cast<Args const*>(p); }...}};
  std::array<void const*, sizeof...(Args)> const values{{static_cast<void const*>(&args)...}};
  std::ostringstream os;
  std::size_t next = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '{' && f[i + 1] == '}') {  // well formed: a brace is never last
      writers[next](os, values[next]);
      ++next;
      ++i;
    } else if (f[i] == '{' || f[i] == '}') {  // "{{" or "}}"
      os << f[i];
      ++i;
    } else {
      os << f[i];
    }
  }
  return std::move(os).str();
}

template <class... Args>
std::string format_name(format_string<Args...> const& fmt, Args const&... args) {
  return format_runtime(fmt.get(), args...);
}

template <class T>
inline constexpr bool is_attribute_v =
    std::is_same_v<T, payload> || std::is_base_of_v<category, T> || std::is_convertible_v<T const&, color>;
template <class T>
inline constexpr bool is_color_v = std::is_convertible_v<T const&, color>;
template <class... Ts>
using if_attributes = std::enable_if_t<(is_attribute_v<Ts> && ...), int>;
template <class... Ts>
using if_format_arguments = std::enable_if_t<(sizeof...(Ts) > 0) && (!is_attribute_v<Ts> && ...), int>;
/// What napkin accepts as a name (besides NAPKIN_RANGE's call sites).
template <class Name>
inline constexpr bool is_name_v = std::is_convertible_v<Name const&, char const*> ||
                                  std::is_convertible_v<Name const&, std::string_view> ||
                                  std::is_invocable_v<Name const&>;
}  // namespace detail

/// The format string of napkin's formatted names ("layer {}"); see "Formatted names" above.
template <class... Args>
using format_string = detail::format_string<Args...>;

/// NAPKIN_FMT("layer {}"): a literal format checked at compile time in every standard (C++17 included):
/// napkin::range r{NAPKIN_FMT("layer {}"), i}. A mismatch stops the compiler with "napkin: NVTX format ...".
#define NAPKIN_FMT(literal)                                                                       \
  ::napkin::detail::checked_literal<::napkin::detail::shape_of(literal).placeholders,            \
                                    ::napkin::detail::shape_of(literal).well_formed> {            \
    ::std::string_view { literal }                                                                \
  }

/// A name formatted later, only if a tool listens: napkin::range r{napkin::format("x{}", i), napkin::payload{i}}.
/// Holds references to its arguments: use it within the full expression that creates the range.
template <class... Args>
class lazy_format {
 public:
  explicit lazy_format(format_string<Args...> fmt, Args const&... args) noexcept : fmt_{fmt}, args_{&args...} {}
  [[nodiscard]] std::string operator()() const { return call(std::index_sequence_for<Args...>{}); }

 private:
  template <std::size_t... I>
  [[nodiscard]] std::string call(std::index_sequence<I...>) const {
    return detail::format_name<Args...>(fmt_, *std::get<I>(args_)...);
  }
  format_string<Args...> fmt_;
  std::tuple<Args const*...> args_;
};
template <class... Args>
lazy_format<Args...> format(format_string<Args...> fmt, Args const&... args) noexcept {
  return lazy_format<Args...>{fmt, args...};
}

// ---- Call sites registered once (NAPKIN_RANGE, NAPKIN_FUNC_RANGE) ---------------------------------
namespace detail {
/// One per macro call site. Constant-initialized (no guard, safe during static init) and trivially
/// destructible (safe during static destruction). The name is registered with the tool on the first
/// use that a tool sees; the registration is kept for the life of the process, like NVTX's domains.
template <class D>
class call_site {
 public:
  constexpr call_site(char const* name, color c, unsigned line, bool is_function) noexcept
      : source_{name}, color_{c}, line_{line}, is_function_{is_function} {}

  /// nvtx attributes' message: the registered handle, or the plain name if the tool registers none.
  nvtx3::v1::message message() noexcept {
    std::call_once(once_, [this] { register_name(); });
    if (handle_ != nullptr) return nvtx3::v1::message{handle_};
    return nvtx3::v1::message{name_ != nullptr ? name_ : source_};
  }
  [[nodiscard]] color default_color() const noexcept { return color_; }
  /// The name as a tool sees it (the readable one for NAPKIN_FUNC_RANGE).
  [[nodiscard]] char const* text() noexcept {
    std::call_once(once_, [this] { register_name(); });
    return name_ != nullptr ? name_ : source_;
  }

 private:
  void register_name() noexcept {
    if (is_function_) {
#if NAPKIN_HAS_EXCEPTIONS
      try {
#endif
        std::string const readable = readable_function_name(source_, line_);
        char* copy = new char[readable.size() + 1];  // kept for the process, reachable from here
        std::memcpy(copy, readable.c_str(), readable.size() + 1);
        name_ = copy;
        color_ = color_of(readable);
#if NAPKIN_HAS_EXCEPTIONS
      } catch (...) {  // out of memory: the raw signature is still a correct name
      }
#endif  // without exceptions, running out of memory ends the process, as everywhere else
    }
    handle_ = nvtxDomainRegisterStringA(nvtx3::v1::domain::get<D>(), name_ != nullptr ? name_ : source_);
  }
  char const* source_;
  char const* name_ = nullptr;
  color color_;
  unsigned line_;
  bool is_function_;
  std::once_flag once_;
  nvtxStringHandle_t handle_ = nullptr;
};

/// NVTX's name for domain D: "" for the global domain.
template <class D>
constexpr char const* domain_name_of() noexcept {
  if constexpr (std::is_same_v<D, nvtx3::v1::domain::global>) {
    return "";
  } else {
    return D::name;
  }
}
}  // namespace detail

// ---- Range listeners: how napkin's profiler sees an annotated phase ---------------------------------
namespace detail {
using process_state::installed_range_listener;
using process_state::range_listener;  // documented where it is declared, above

/// Installs `l` (static storage); replaces any other. napkin::profiler::watch_phase is the one user.
inline void install_range_listener(range_listener* l) noexcept {
  installed_range_listener.store(l, std::memory_order_release);
  nvtx_switch.fetch_or(switch_listened, std::memory_order_release);
}
/// Removes `l` if it is the installed one. A range it accepted that is still open loses its pop.
inline void remove_range_listener(range_listener* l) noexcept {
  range_listener* expected = l;
  if (installed_range_listener.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
    nvtx_switch.fetch_and(static_cast<unsigned char>(~switch_listened), std::memory_order_release);
  }
}

/// The name text of any name napkin accepts, built only when a listener asks.
template <class D, class Name>
std::string name_text(Name const& name) {
  using N = std::decay_t<Name>;
  if constexpr (std::is_same_v<N, call_site<D>*>) {
    return name->text();
  } else if constexpr (std::is_array_v<Name> || std::is_same_v<N, char const*> || std::is_same_v<N, char*>) {
    char const* const s = name;
    return s != nullptr ? s : "(null)";
  } else if constexpr (std::is_convertible_v<Name const&, std::string_view>) {
    return std::string{std::string_view{name}};
  } else {
    return std::string{name()};
  }
}
}  // namespace detail

#if NAPKIN_NVTX_ENABLED

// ---- NVTX state (only in translation units that emit) ----------------------------------------------
namespace detail {

// Whether a tool implements an NVTX entry point: NVTX dispatches each C call through one function pointer
// in NVTX_VERSIONED_IDENTIFIER(nvtxGlobals) (nvtxDetail/nvtxImpl.h). Before NVTX initializes, every
// pointer holds NVTX's init stub (non-null); its initialization (nvtxInitOnce, nvtxDetail/nvtxInit.h)
// loads the tool named by NVTX_INJECTION64_PATH, lets it assign the pointers of the entry points it
// implements, and sets the others to null. So the pointer answers "a tool listens" only once NVTX has
// initialized, which napkin guarantees before any range reads it:
//   - napkin calls nvtxInitialize (once, process_state::nvtx_initialization) before it stores
//     "on" in its switch (release), and a range reads the switch (acquire) before the pointer; the
//     pointers a tool wrote during initialization therefore happen-before the range's read (no data race,
//     also for ThreadSanitizer, whichever thread initialized NVTX);
//   - the read itself is a relaxed atomic load (__atomic_load_n, GCC/Clang) of the pointer-sized word:
//     never torn, never cached across iterations by the compiler; on x86-64 and AArch64 a plain load.
// NVTX_NO_IMPL builds (tools themselves) have no such pointers: "maybe attached", take the full path.
#if defined(NVTX_NO_IMPL)
#define NAPKIN_DETAIL_NVTX_TOOL(entry) true
#elif defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_NVTX_TOOL(entry) \
  (__atomic_load_n(&NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).entry##_impl_fnptr, __ATOMIC_RELAXED) != nullptr)
#else
#define NAPKIN_DETAIL_NVTX_TOOL(entry) (NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).entry##_impl_fnptr != nullptr)
#endif

inline bool should_push() noexcept {
  return runtime_enabled() && NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx);
}
inline bool should_start() noexcept {
  return runtime_enabled() && NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangeStartEx);
}
inline bool should_mark() noexcept { return runtime_enabled() && NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainMarkEx); }

/// Calls emit(nvtxEventAttributes_t const*) with the name and attributes; only reached when a tool
/// listens, so this is where names are converted, formatted and hashed.
template <class D, class Name, class... Attributes, class Emit>
void with_attributes(Name const& name, Emit&& emit, Attributes const&... attributes) {
  constexpr bool has_color = (is_color_v<Attributes> || ...);
  auto const finish = [&](nvtx3::v1::message const& m, auto const& default_color) {
    if constexpr (has_color) {
      (void)default_color;
      nvtx3::v1::event_attributes const a{attributes..., m};
      emit(a.get());
    } else {
      nvtx3::v1::event_attributes const a{attributes..., m, default_color()};
      emit(a.get());
    }
  };
  using N = std::decay_t<Name>;
  if constexpr (std::is_same_v<N, call_site<D>*>) {
    finish(name->message(), [&] { return name->default_color(); });
  } else if constexpr (std::is_array_v<Name>) {
    char const* const s = name;
    finish(nvtx3::v1::message{s}, [&] { return color_of(s); });
  } else if constexpr (std::is_same_v<N, char const*> || std::is_same_v<N, char*>) {
    char const* const s = name != nullptr ? static_cast<char const*>(name) : "(null)";
    finish(nvtx3::v1::message{s}, [&] { return color_of(s); });
  } else if constexpr (std::is_same_v<N, std::string>) {
    finish(nvtx3::v1::message{name.c_str()}, [&] { return color_of(name); });
  } else if constexpr (std::is_convertible_v<Name const&, std::string_view>) {
    std::string const s{std::string_view{name}};  // NVTX needs a terminated string
    finish(nvtx3::v1::message{s.c_str()}, [&] { return color_of(s); });
  } else if constexpr (std::is_invocable_v<Name const&>) {
    std::string const s{name()};  // napkin::format(...) or any callable returning a string
    finish(nvtx3::v1::message{s.c_str()}, [&] { return color_of(s); });
  } else {
    static_assert(std::is_invocable_v<Name const&>,
                  "napkin NVTX names are string literals, char const*, std::string, std::string_view, "
                  "napkin::format(...) or a callable returning a string");
  }
}
}  // namespace detail

inline namespace nvtx_on {

/// Whether napkin emits NVTX events now (the run-time switch; NAPKIN_NVTX is read on first use).
inline bool nvtx_enabled() noexcept { return detail::runtime_enabled(); }
/// Turns every napkin range, mark and name on or off for the whole process, from any thread. Ranges
/// already open finish as they started, so pushes and pops stay balanced.
inline void set_nvtx_enabled(bool on) noexcept {
  detail::write_nvtx_state(on ? detail::switch_on : detail::switch_off);
}
/// Whether a tool receives NVTX ranges from this module. Initializes NVTX (cheap after the first call):
/// call it early to keep NVTX's one-time tool search out of a timed region.
inline bool nvtx_tool_attached() noexcept {
  detail::initialize_nvtx();
  return NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx);
}

/// A push/pop range: opens in the constructor, closes in the destructor, on the same thread, in
/// reverse order of opening. With no tool attached or napkin switched off it does one load of the
/// switch, one pointer test and nothing else: no formatting, hashing or allocation.
template <class D = default_domain>
class [[nodiscard]] range_in {
 public:
  /// range_in r{"name", napkin::payload{n}, napkin::rgb{..}, napkin::category{2}} — attributes optional.
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit range_in(Name const& name, Attributes const&... attributes) {
    unsigned char const s = detail::nvtx_switch.load(std::memory_order_acquire);
    if (NAPKIN_DETAIL_LIKELY(s == detail::switch_on)) {
      if (NAPKIN_DETAIL_UNLIKELY(NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx))) state_ = push(name, attributes...);
    } else if (s != detail::switch_off) {
      state_ = push_slow(s, name, attributes...);
    }
  }
  /// range_in r{"layer {} of {}", i, n} — formatted only when a tool listens.
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit range_in(format_string<Args...> fmt, Args const&... args) {
    unsigned char const s = detail::nvtx_switch.load(std::memory_order_acquire);
    if (NAPKIN_DETAIL_LIKELY(s == detail::switch_on)) {
      if (NAPKIN_DETAIL_UNLIKELY(NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx))) {
        state_ = push(lazy_format<Args...>{fmt, args...});
      }
    } else if (s != detail::switch_off) {
      state_ = push_slow(s, lazy_format<Args...>{fmt, args...});
    }
  }
  /// For NAPKIN_FUNC_RANGE and NAPKIN_RANGE (which passes its literal again): one registration per site.
  template <class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] range_in(detail::call_site<D>& site, Attributes const&... attributes) noexcept
      : range_in(&site, attributes...) {}
  template <std::size_t N, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] range_in(detail::call_site<D>& site, char const (&)[N], Attributes const&... attributes) noexcept
      : range_in(&site, attributes...) {}
  ~range_in() {
    if (NAPKIN_DETAIL_UNLIKELY(state_ != 0)) pop(state_);
  }
  range_in(range_in const&) = delete;
  range_in& operator=(range_in const&) = delete;
  range_in(range_in&&) = delete;
  range_in& operator=(range_in&&) = delete;
  static void* operator new(std::size_t) = delete;  // scope-bound by design; see unique_range_in
  static void* operator new[](std::size_t) = delete;

 private:
  enum : unsigned char { pushed_to_nvtx = 1, listener_owed_pop = 2 };

  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD static unsigned char push(Name const& name, Attributes const&... attributes) {
    nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
    detail::with_attributes<D>(
        name, [domain](nvtxEventAttributes_t const* a) { nvtxDomainRangePushEx(domain, a); }, attributes...);
    return pushed_to_nvtx;
  }
  // Off the hot path: the switch is unread, or a listener is installed (napkin's profiler watches a phase).
  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD static unsigned char push_slow(unsigned char s, Name const& name,
                                                        Attributes const&... attributes) {
    unsigned char state = 0;
    if (detail::should_push()) state = push(name, attributes...);
    if ((s & detail::switch_listened) != 0) {
      if (detail::range_listener* l = detail::installed_range_listener.load(std::memory_order_acquire)) {
#if NAPKIN_HAS_EXCEPTIONS
        try {
#endif
          if (l->on_push(detail::domain_name_of<D>(), detail::name_text<D>(name))) state |= listener_owed_pop;
#if NAPKIN_HAS_EXCEPTIONS
        } catch (...) {  // building the name failed (out of memory, a callable name threw): not the watched phase
        }
#endif

      }
    }
    return state;
  }
  NAPKIN_DETAIL_COLD static void pop(unsigned char state) noexcept {
    if ((state & listener_owed_pop) != 0) {
      if (detail::range_listener* l = detail::installed_range_listener.load(std::memory_order_acquire)) l->on_pop();
    }
    if ((state & pushed_to_nvtx) != 0) nvtxDomainRangePop(nvtx3::v1::domain::get<D>());
  }
  unsigned char state_ = 0;
};
using range = range_in<>;

/// A start/end range: movable, may end on another thread and in any order; ends in its destructor
/// unless end() was called. Costs the same as range_in when no tool listens; never allocates.
template <class D = default_domain>
class [[nodiscard]] unique_range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit unique_range_in(Name const& name, Attributes const&... attributes) {
    if (NAPKIN_DETAIL_UNLIKELY(detail::should_start())) start(name, attributes...);
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit unique_range_in(format_string<Args...> fmt, Args const&... args) {
    if (NAPKIN_DETAIL_UNLIKELY(detail::should_start())) start(lazy_format<Args...>{fmt, args...});
  }
  unique_range_in(unique_range_in&& other) noexcept
      : id_{other.id_}, started_{std::exchange(other.started_, false)} {}
  unique_range_in& operator=(unique_range_in&& other) noexcept {
    if (this != &other) {
      end();
      id_ = other.id_;
      started_ = std::exchange(other.started_, false);
    }
    return *this;
  }
  unique_range_in(unique_range_in const&) = delete;
  unique_range_in& operator=(unique_range_in const&) = delete;
  ~unique_range_in() { end(); }

  /// Ends the range now, on the calling thread; later calls do nothing.
  void end() noexcept {
    if (std::exchange(started_, false)) nvtxDomainRangeEnd(nvtx3::v1::domain::get<D>(), id_);
  }
  /// Whether a tool saw this range start and it has not ended yet.
  [[nodiscard]] bool running() const noexcept { return started_; }

 private:
  template <class Name, class... Attributes>
  NAPKIN_DETAIL_COLD void start(Name const& name, Attributes const&... attributes) {
    nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
    detail::with_attributes<D>(
        name, [this, domain](nvtxEventAttributes_t const* a) { id_ = nvtxDomainRangeStartEx(domain, a); },
        attributes...);
    started_ = true;
  }
  nvtxRangeId_t id_ = 0;
  bool started_ = false;
};
using unique_range = unique_range_in<>;

/// An instant event on the timeline.
template <class D = default_domain, class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark_in(Name const& name, Attributes const&... attributes) {
  if (NAPKIN_DETAIL_LIKELY(!detail::should_mark())) return;
  nvtxDomainHandle_t domain = nvtx3::v1::domain::get<D>();
  detail::with_attributes<D>(
      name, [domain](nvtxEventAttributes_t const* a) { nvtxDomainMarkEx(domain, a); }, attributes...);
}
template <class D = default_domain, class... Args, detail::if_format_arguments<Args...> = 0>
void mark_in(format_string<Args...> fmt, Args const&... args) {
  if (NAPKIN_DETAIL_UNLIKELY(detail::should_mark())) mark_in<D>(lazy_format<Args...>{fmt, args...});
}
template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark(Name const& name, Attributes const&... attributes) {
  mark_in<default_domain>(name, attributes...);
}
template <class... Args, detail::if_format_arguments<Args...> = 0>
void mark(format_string<Args...> fmt, Args const&... args) {
  if (NAPKIN_DETAIL_UNLIKELY(detail::should_mark())) mark_in<default_domain>(lazy_format<Args...>{fmt, args...});
}

// ---- Names for categories, threads, streams, devices, events ---------------------------------------
/// Names category `id` in domain D (once, at setup) and returns it for use as an attribute.
template <class D = default_domain>
category name_category(std::uint32_t id, char const* name) noexcept {
  if (detail::runtime_enabled()) nvtxDomainNameCategoryA(nvtx3::v1::domain::get<D>(), id, name);
  return category{id};
}
/// The OS id of the calling thread, as NVTX's nvtxNameOsThread expects it.
inline std::uint32_t current_os_thread_id() noexcept {
#if defined(_WIN32)
  return static_cast<std::uint32_t>(GetCurrentThreadId());
#else
  return static_cast<std::uint32_t>(::syscall(SYS_gettid));
#endif
}
inline void name_thread(std::uint32_t os_thread_id, char const* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameOsThreadA(os_thread_id, name);
}
inline void name_current_thread(char const* name) noexcept { name_thread(current_os_thread_id(), name); }
/// Names a CUDA stream (cudaStream_t, including the legacy/per-thread default handles) for Nsight.
inline void name_stream(cudaStream_t stream, char const* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaStreamA(stream, name);
}
/// Names CUDA device `device` (a runtime device ordinal) for Nsight.
inline void name_device(int device, char const* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaDeviceA(device, name);
}
inline void name_event(cudaEvent_t event, char const* name) noexcept {
  if (detail::runtime_enabled()) nvtxNameCudaEventA(event, name);
}

}  // namespace nvtx_on
#else   // ---- compiled out: same API, empty inline bodies ------------------------------------------
// The same overloads as above, so that a compiled-out build accepts and rejects the same code (formats
// are checked here too). The types are marked unused for GCC: they are empty and trivially destructible,
// and `auto u = napkin::unique_range{"request {}", 7};` must not warn "set but not used".
#if defined(__GNUC__) || defined(__clang__)
#define NAPKIN_DETAIL_UNUSED_TYPE gnu::unused
#else
#define NAPKIN_DETAIL_UNUSED_TYPE maybe_unused
#endif
inline namespace nvtx_off {
inline bool nvtx_enabled() noexcept { return false; }
inline void set_nvtx_enabled(bool) noexcept {}
inline bool nvtx_tool_attached() noexcept { return false; }

template <class D = default_domain>
class [[nodiscard, NAPKIN_DETAIL_UNUSED_TYPE]] range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit range_in(Name const&, Attributes const&...) noexcept {
    static_assert(detail::is_name_v<Name>, "napkin NVTX names are string literals, char const*, std::string, "
                                           "std::string_view, napkin::format(...) or a callable returning a string");
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit range_in(format_string<Args...>, Args const&...) noexcept {}
  ~range_in() = default;
  range_in(range_in const&) = delete;
  range_in& operator=(range_in const&) = delete;
  range_in(range_in&&) = delete;
  range_in& operator=(range_in&&) = delete;
  static void* operator new(std::size_t) = delete;
  static void* operator new[](std::size_t) = delete;
};
using range = range_in<>;

template <class D = default_domain>
class [[nodiscard, NAPKIN_DETAIL_UNUSED_TYPE]] unique_range_in {
 public:
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  [[nodiscard]] explicit unique_range_in(Name const&, Attributes const&...) noexcept {
    static_assert(detail::is_name_v<Name>, "napkin NVTX names are string literals, char const*, std::string, "
                                           "std::string_view, napkin::format(...) or a callable returning a string");
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  [[nodiscard]] explicit unique_range_in(format_string<Args...>, Args const&...) noexcept {}
  void end() noexcept {}
  [[nodiscard]] bool running() const noexcept { return false; }
};
using unique_range = unique_range_in<>;

template <class D = default_domain, class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark_in(Name const&, Attributes const&...) noexcept {
  static_assert(detail::is_name_v<Name>, "napkin NVTX names are string literals, char const*, std::string, "
                                         "std::string_view, napkin::format(...) or a callable returning a string");
}
template <class D = default_domain, class... Args, detail::if_format_arguments<Args...> = 0>
void mark_in(format_string<Args...>, Args const&...) noexcept {}
template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
void mark(Name const& name, Attributes const&... attributes) noexcept {
  mark_in<default_domain>(name, attributes...);
}
template <class... Args, detail::if_format_arguments<Args...> = 0>
void mark(format_string<Args...>, Args const&...) noexcept {}
template <class D = default_domain>
category name_category(std::uint32_t id, char const*) noexcept {
  return category{id};
}
inline std::uint32_t current_os_thread_id() noexcept { return 0; }
inline void name_thread(std::uint32_t, char const*) noexcept {}
inline void name_current_thread(char const*) noexcept {}
inline void name_stream(cudaStream_t, char const*) noexcept {}
inline void name_device(int, char const*) noexcept {}
inline void name_event(cudaEvent_t, char const*) noexcept {}
}  // namespace nvtx_off
#endif  // NAPKIN_NVTX_ENABLED

NAPKIN_END_NAMESPACE

// ---- Macros: one registered name per call site ---------------------------------------------------
#define NAPKIN_DETAIL_CAT2(a, b) a##b
#define NAPKIN_DETAIL_CAT(a, b) NAPKIN_DETAIL_CAT2(a, b)
#define NAPKIN_DETAIL_FIRST(...) NAPKIN_DETAIL_FIRST2(__VA_ARGS__, unused)
#define NAPKIN_DETAIL_FIRST2(first, ...) first

#if NAPKIN_NVTX_ENABLED
/// NAPKIN_RANGE_IN(domain, "literal", attributes...): a range for the rest of the scope whose name is
/// registered with the tool once and whose default color is computed at compile time.
#define NAPKIN_RANGE_IN(D, ...)                                                                           \
  static constexpr ::napkin::color NAPKIN_DETAIL_CAT(napkin_range_color_, __LINE__) =                    \
      ::napkin::color_of(NAPKIN_DETAIL_FIRST(__VA_ARGS__));                                               \
  static ::napkin::detail::call_site<D> NAPKIN_DETAIL_CAT(napkin_range_site_, __LINE__){                 \
      NAPKIN_DETAIL_FIRST(__VA_ARGS__), NAPKIN_DETAIL_CAT(napkin_range_color_, __LINE__), __LINE__, false}; \
  ::napkin::range_in<D> const NAPKIN_DETAIL_CAT(napkin_range_, __LINE__) {                               \
    NAPKIN_DETAIL_CAT(napkin_range_site_, __LINE__), __VA_ARGS__                                           \
  }
/// NAPKIN_FUNC_RANGE_WITH(domain, attributes...): a range named after the enclosing function, qualified
/// and readable ("ns::solver<T>::step", "main::lambda@42"), registered with the tool once per site.
#define NAPKIN_FUNC_RANGE_WITH(D, ...)                                                                   \
  static ::napkin::detail::call_site<D> NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__){                   \
      NAPKIN_DETAIL_PRETTY_FUNCTION, ::napkin::color{0u}, __LINE__, true};                                \
  ::napkin::range_in<D> const NAPKIN_DETAIL_CAT(napkin_func_range_, __LINE__) {                          \
    NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__), __VA_ARGS__                                           \
  }
#define NAPKIN_FUNC_RANGE_IN(D)                                                                          \
  static ::napkin::detail::call_site<D> NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__){                   \
      NAPKIN_DETAIL_PRETTY_FUNCTION, ::napkin::color{0u}, __LINE__, true};                                \
  ::napkin::range_in<D> const NAPKIN_DETAIL_CAT(napkin_func_range_, __LINE__) {                          \
    NAPKIN_DETAIL_CAT(napkin_func_site_, __LINE__)                                                        \
  }
#else
#define NAPKIN_RANGE_IN(D, ...) static_cast<void>(0)
#define NAPKIN_FUNC_RANGE_WITH(D, ...) static_cast<void>(0)
#define NAPKIN_FUNC_RANGE_IN(D) static_cast<void>(0)
#endif
/// NAPKIN_RANGE("literal", attributes...) in napkin's default domain.
#define NAPKIN_RANGE(...) NAPKIN_RANGE_IN(::napkin::default_domain, __VA_ARGS__)
/// NAPKIN_FUNC_RANGE(): a range named after the enclosing function, in napkin's default domain.
#define NAPKIN_FUNC_RANGE() NAPKIN_FUNC_RANGE_IN(::napkin::default_domain)
