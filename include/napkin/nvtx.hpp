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
// Switches: NAPKIN_NVTX=0 in the environment or napkin::set_nvtx_enabled(false) at run time (one
// relaxed atomic load per range); NVTX_DISABLE or NAPKIN_NVTX_DISABLE at compile time (every range is
// an empty object). Built on NVTX3's C++ wrappers through the explicit-version namespace nvtx3::v1, as
// nvtx3.hpp recommends for header-only libraries. See docs/nvtx.md.
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
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__has_include)
#if __has_include(<format>)
#include <format>
#endif
#endif

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

/// HSV (hue in degrees [0, 360), saturation and value in [0, 1]) to an opaque NVTX color.
constexpr color color_from_hsv(unsigned hue_degrees, double saturation, double value) {
  if (hue_degrees >= 360 || !(saturation >= 0.0 && saturation <= 1.0) || !(value >= 0.0 && value <= 1.0)) {
    detail::raise_input_error("napkin::color_from_hsv: hue must be in [0, 360), saturation and value in [0, 1]");
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
// Constant-initialized, so it is valid before any dynamic initializer runs (static-init safe).
inline std::atomic<unsigned char> nvtx_switch{switch_unread};

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
  unsigned char current = nvtx_switch.load(std::memory_order_relaxed);
  while ((current & switch_state_mask) == switch_unread) {
    if (nvtx_switch.compare_exchange_weak(current, static_cast<unsigned char>(current | wanted),
                                          std::memory_order_relaxed)) {
      return wanted == switch_on;
    }
  }
  return (current & switch_state_mask) == switch_on;  // set_nvtx_enabled() won the race: the API call wins
}

/// Sets the on/off state, keeping the listened bit.
inline void write_nvtx_state(unsigned char state) noexcept {
  unsigned char current = nvtx_switch.load(std::memory_order_relaxed);
  while (!nvtx_switch.compare_exchange_weak(
      current, static_cast<unsigned char>((current & ~switch_state_mask) | state), std::memory_order_relaxed)) {
  }
}

/// The hot-path gate: a single relaxed load when the switch has been read.
inline bool runtime_enabled() noexcept {
  unsigned char const s = nvtx_switch.load(std::memory_order_relaxed);
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
namespace detail {
template <class T>
struct identity {
  using type = T;
};

#if defined(__cpp_lib_format) && __cpp_lib_format >= 201907L
#define NAPKIN_NVTX_HAS_STD_FORMAT 1
template <class... Args>
using format_string = std::format_string<Args const&...>;  // checked at compile time
template <class... Args>
std::string format_name(format_string<Args...> const& fmt, Args const&... args) {
  return std::format(fmt, args...);
}
#else
#define NAPKIN_NVTX_HAS_STD_FORMAT 0
/// Without <format> (C++17, libstdc++ < 13): "{}" placeholders filled in order with operator<<,
/// "{{" and "}}" for braces. A mismatch throws std::invalid_argument when the name is formatted.
template <class... Args>
struct basic_format_string {
  template <class S, std::enable_if_t<std::is_convertible_v<S const&, std::string_view>, int> = 0>
  // cppcheck-suppress noExplicitConstructor ; implicit, like std::format_string
  constexpr basic_format_string(S const& s) noexcept : text{s} {}  // NOLINT(google-explicit-constructor)
  std::string_view text;
};
template <class... Args>
using format_string = basic_format_string<typename identity<Args>::type...>;

template <class... Args>
std::string format_name(format_string<Args...> const& fmt, Args const&... args) {
  using writer = void (*)(std::ostream&, void const*);
  std::array<writer, sizeof...(Args)> const writers{
      {[](std::ostream& os, void const* p) { os << *static_cast<Args const*>(p); }...}};
  std::array<void const*, sizeof...(Args)> const values{{static_cast<void const*>(&args)...}};
  std::string_view const f = fmt.text;
  std::ostringstream os;
  std::size_t next = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '{' && i + 1 < f.size() && f[i + 1] == '{') {
      os << '{';
      ++i;
    } else if (f[i] == '}' && i + 1 < f.size() && f[i + 1] == '}') {
      os << '}';
      ++i;
    } else if (f[i] == '{' && i + 1 < f.size() && f[i + 1] == '}') {
      if (next == sizeof...(Args)) {
        detail::raise_input_error("napkin: NVTX name \"" + std::string{f} + "\" has more {} than arguments");
      }
      writers[next](os, values[next]);
      ++next;
      ++i;
    } else if (f[i] == '{' || f[i] == '}') {
      detail::raise_input_error("napkin: NVTX name \"" + std::string{f} +
                                  "\": only {} placeholders are supported without <format>");
    } else {
      os << f[i];
    }
  }
  if (next != sizeof...(Args)) {
    detail::raise_input_error("napkin: NVTX name \"" + std::string{f} + "\" has fewer {} than arguments");
  }
  return std::move(os).str();
}
#endif

template <class T>
inline constexpr bool is_attribute_v =
    std::is_same_v<T, payload> || std::is_base_of_v<category, T> || std::is_convertible_v<T const&, color>;
template <class T>
inline constexpr bool is_color_v = std::is_convertible_v<T const&, color>;
template <class... Ts>
using if_attributes = std::enable_if_t<(is_attribute_v<Ts> && ...), int>;
template <class... Ts>
using if_format_arguments = std::enable_if_t<(sizeof...(Ts) > 0) && (!is_attribute_v<Ts> && ...), int>;
}  // namespace detail

/// The format string of napkin's formatted names ("layer {}"): std::format's (checked at compile
/// time) where <format> exists, else "{}" placeholders only.
template <class... Args>
using format_string = detail::format_string<Args...>;

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
      try {
        std::string const readable = readable_function_name(source_, line_);
        char* copy = new char[readable.size() + 1];  // kept for the process, reachable from here
        std::memcpy(copy, readable.c_str(), readable.size() + 1);
        name_ = copy;
        color_ = color_of(readable);
      } catch (...) {  // out of memory: the raw signature is still a correct name
      }
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
/// Told about every napkin push/pop range (range_in, NAPKIN_RANGE, NAPKIN_FUNC_RANGE) while installed,
/// whether or not an NVTX tool listens and whatever napkin's NVTX switch says; ranges compiled out
/// (NAPKIN_NVTX_DISABLE) are not seen. napkin::profiler::watch_phase installs one at a time. Each
/// implementation must be thread-safe and outlive every range (static storage): a range may read the
/// pointer just before it is cleared. A pop goes to the listener installed when the range closes: one
/// installed later may hear a pop whose push it never saw (from any thread), and must ignore it.
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
/// switch_listened bit sends them off the hot path. Constant-initialized; written by the two functions below.
inline std::atomic<range_listener*> installed_range_listener{nullptr};

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

// NVTX dispatches through one function pointer per entry point; once NVTX has initialized, the
// pointer is null unless a tool claimed that entry point. Before initialization it points to NVTX's
// init stub (non-null), so the first range takes the full path and triggers initialization. Reading
// it is what every NVTX C call does first, so it is the same (benign, word-sized) race NVTX has.
#if defined(NVTX_NO_IMPL)
#define NAPKIN_DETAIL_NVTX_TOOL(entry) true
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
  nvtxInitialize(nullptr);
  return NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx);
}

/// A push/pop range: opens in the constructor, closes in the destructor, on the same thread, in
/// reverse order of opening. With no tool attached or napkin switched off it does one relaxed load,
/// one pointer test and nothing else: no formatting, hashing or allocation.
template <class D = default_domain>
class [[nodiscard]] range_in {
 public:
  /// range_in r{"name", napkin::payload{n}, napkin::rgb{..}, napkin::category{2}} — attributes optional.
  template <class Name, class... Attributes, detail::if_attributes<Attributes...> = 0>
  explicit range_in(Name const& name, Attributes const&... attributes) {
    unsigned char const s = detail::nvtx_switch.load(std::memory_order_relaxed);
    if (NAPKIN_DETAIL_LIKELY(s == detail::switch_on)) {
      if (NAPKIN_DETAIL_UNLIKELY(NAPKIN_DETAIL_NVTX_TOOL(nvtxDomainRangePushEx))) state_ = push(name, attributes...);
    } else if (s != detail::switch_off) {
      state_ = push_slow(s, name, attributes...);
    }
  }
  /// range_in r{"layer {} of {}", i, n} — formatted only when a tool listens.
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  explicit range_in(format_string<Args...> fmt, Args const&... args) {
    unsigned char const s = detail::nvtx_switch.load(std::memory_order_relaxed);
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
  range_in(detail::call_site<D>& site, Attributes const&... attributes) noexcept
      : range_in(&site, attributes...) {}
  template <std::size_t N, class... Attributes, detail::if_attributes<Attributes...> = 0>
  range_in(detail::call_site<D>& site, char const (&)[N], Attributes const&... attributes) noexcept
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
        try {
          if (l->on_push(detail::domain_name_of<D>(), detail::name_text<D>(name))) state |= listener_owed_pop;
        } catch (...) {  // formatting the name failed (out of memory, bad format): not the watched phase
        }
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
  explicit unique_range_in(Name const& name, Attributes const&... attributes) {
    if (NAPKIN_DETAIL_UNLIKELY(detail::should_start())) start(name, attributes...);
  }
  template <class... Args, detail::if_format_arguments<Args...> = 0>
  explicit unique_range_in(format_string<Args...> fmt, Args const&... args) {
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
inline namespace nvtx_off {
inline bool nvtx_enabled() noexcept { return false; }
inline void set_nvtx_enabled(bool) noexcept {}
inline bool nvtx_tool_attached() noexcept { return false; }

template <class D = default_domain>
class [[nodiscard]] range_in {
 public:
  template <class... Args>
  explicit range_in(Args const&...) noexcept {}
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
class [[nodiscard]] unique_range_in {
 public:
  template <class... Args>
  explicit unique_range_in(Args const&...) noexcept {}
  void end() noexcept {}
  [[nodiscard]] bool running() const noexcept { return false; }
};
using unique_range = unique_range_in<>;

template <class D = default_domain, class... Args>
void mark_in(Args const&...) noexcept {}
template <class... Args>
void mark(Args const&...) noexcept {}
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
