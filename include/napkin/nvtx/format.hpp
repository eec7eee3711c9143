// SPDX-License-Identifier: Apache-2.0
// napkin/nvtx/format.hpp — formatted names ("layer {}"): the format-string type that checks a format,
// napkin's run-time formatter, and napkin::format / NAPKIN_FMT / napkin::runtime_format.
//
//   napkin::range r{"layer {} of {}", i, n};             formatted only when a tool listens
//   napkin::range r{NAPKIN_FMT("layer {}"), i};          checked at compile time in C++17 too
//   napkin::range r{napkin::runtime_format(text), i};    a format known only at run time
//   napkin::range r{napkin::format("x{}", i), napkin::payload{i}};  a format followed by attributes
//
// One syntax in every configuration: "{}" placeholders filled in order as operator<< writes them, "{{" and
// "}}" for literal braces, nothing else between braces. Strings, characters, numbers and pointers are
// written here as a default std::ostream writes them (a double as "%g", a bool as 1/0), without
// iostreams; any other type goes through its operator<<, so <ostream> is needed where such a name is
// formatted (which its operator<< needs anyway). This header includes no iostream: docs/compile-time.md.
// (For std::format's specifications, pass a callable that formats: napkin::range r{[&] { return
// std::format("{:>4}", i); }} is called only when a tool listens.)
//
// Where the format is checked:
//   - C++20 (consteval): a format written as a literal is checked at compile time, like std::format_string;
//     a malformed one stops the compiler at a function named after the problem. C++17 with Clang: the
//     same check through diagnose_if.
//   - NAPKIN_FMT("layer {}") (any standard, the C++17 way): the literal's shape becomes a template
//     argument and a static_assert compares it with the arguments.
//   - napkin::runtime_format(text) (any standard; C++17 also takes a plain string): checked when the name
//     is formatted, i.e. only when a tool listens. A malformed one never throws (a range may be opened in
//     a destructor or a noexcept function): the name becomes the text as written followed by
//     " [napkin: malformed NVTX format: <problem>]", and the first one of the process is reported on stderr.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iosfwd>  // std::ostream, std::streambuf: complete only where a type is streamed (stream_write)
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// Shared by every translation unit of this napkin version (napkin/config.hpp).
NAPKIN_BEGIN_PROCESS_STATE
// Whether a malformed run-time format string was already reported on stderr (once per process).
inline std::atomic<bool> nvtx_format_reported{false};
NAPKIN_END_PROCESS_STATE

NAPKIN_BEGIN_NAMESPACE

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

// What a format string looks like: how many {} it has, and whether every brace is part of {}, {{ or }}.
struct format_shape {
  std::size_t placeholders;
  bool well_formed;
};
constexpr format_shape shape_of(std::string_view f) noexcept {
  std::size_t placeholders = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '{' && f[i] != '}') continue;
    const bool doubled = i + 1 < f.size() && f[i + 1] == f[i];
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
  const format_shape shape = shape_of(f);
  if (!shape.well_formed) return format_problem::brace_is_not_a_placeholder_or_an_escape;
  if (shape.placeholders > arguments) return format_problem::more_placeholders_than_arguments;
  if (shape.placeholders < arguments) return format_problem::fewer_placeholders_than_arguments;
  return format_problem::none;
}
constexpr std::string_view to_string(format_problem p) noexcept {
  switch (p) {
    case format_problem::none: return "none";
    case format_problem::more_placeholders_than_arguments: return "more_placeholders_than_arguments";
    case format_problem::fewer_placeholders_than_arguments: return "fewer_placeholders_than_arguments";
    case format_problem::brace_is_not_a_placeholder_or_an_escape: return "brace_is_not_a_placeholder_or_an_escape";
  }
  return "unknown";
}
// What a malformed range's name and the stderr report say.
constexpr std::string_view describe(format_problem p) noexcept {
  switch (p) {
    case format_problem::none: return "no problem";
    case format_problem::more_placeholders_than_arguments: return "more {} than arguments";
    case format_problem::fewer_placeholders_than_arguments: return "fewer {} than arguments";
    case format_problem::brace_is_not_a_placeholder_or_an_escape:
      return "a brace that is not part of {}, {{ or }} (napkin's formats have {} placeholders only)";
  }
  return "unknown";
}

// Reached only while checking a literal format in constant evaluation (C++20): these are not constexpr,
// so the compiler stops and its diagnostic names the problem. Never called at run time.
inline void nvtx_format_has_more_placeholders_than_arguments() noexcept {}
inline void nvtx_format_has_fewer_placeholders_than_arguments() noexcept {}
inline void nvtx_format_has_a_brace_that_is_not_a_placeholder_or_an_escape() noexcept {}

// NAPKIN_FMT's result: the literal and its shape, as template arguments.
template <std::size_t Placeholders, bool WellFormed>
struct checked_literal {
  std::string_view text;
};
}  // namespace detail

// A format string known only at run time; see napkin::runtime_format.
struct runtime_format_string {
  std::string_view text;
};
// napkin::range r{napkin::runtime_format(text), i}: a format read or built at run time. It is checked
// when the name is formatted (only when a tool listens); a malformed one names the range with the text
// as written plus " [napkin: malformed NVTX format: ...]". `text` must outlive the range's constructor.
constexpr runtime_format_string runtime_format(std::string_view text) noexcept { return {text}; }

namespace detail {
// The format string of a name formatted with Args; where it is checked: this header's first comment.
template <class... Args>
class basic_format_string {
 public:
  // A literal (C++20: checked at compile time) or, in C++17, any string.
  template <class S, std::enable_if_t<std::is_convertible_v<const S&, std::string_view>, int> = 0>
  // cppcheck-suppress noExplicitConstructor ; implicit, like std::format_string
  NAPKIN_DETAIL_FORMAT_CHECK basic_format_string(const S& s) noexcept : text_{s} {  // NOLINT(google-explicit-constructor)
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
  // C++17 with Clang: a literal is checked at compile time too (diagnose_if sees the argument's value).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgcc-compat"  // diagnose_if is Clang's; this block is Clang-only
  template <std::size_t N>
  // cppcheck-suppress noExplicitConstructor
  constexpr basic_format_string(const char (&s)[N]) noexcept  // NOLINT(google-explicit-constructor)
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
  // NAPKIN_FMT("..."): checked at compile time in every standard.
  template <std::size_t Placeholders, bool WellFormed>
  // cppcheck-suppress [noExplicitConstructor, passedByValue] ; implicit on purpose; one string_view, by value
  constexpr basic_format_string(checked_literal<Placeholders, WellFormed> c) noexcept  // NOLINT(google-explicit-constructor)
      : text_{c.text} {
    static_assert(WellFormed, "napkin: NVTX format has a brace that is not part of {}, {{ or }} "
                              "(napkin's formats have {} placeholders only)");
    static_assert(!WellFormed || Placeholders <= sizeof...(Args), "napkin: NVTX format has more {} than arguments");
    static_assert(!WellFormed || Placeholders >= sizeof...(Args), "napkin: NVTX format has fewer {} than arguments");
  }
  // napkin::runtime_format(text): checked when formatted.
  // cppcheck-suppress [noExplicitConstructor, passedByValue] ; implicit on purpose; one string_view, by value
  constexpr basic_format_string(runtime_format_string r) noexcept : text_{r.text} {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] constexpr std::string_view get() const noexcept { return text_; }

 private:
  std::string_view text_;
};
template <class... Args>
using format_string = basic_format_string<typename identity<Args>::type...>;  // Args deduced elsewhere

// The name a malformed run-time format gets; the first one of the process is also reported on stderr.
NAPKIN_DETAIL_COLD inline std::string malformed_format_name(std::string_view f, format_problem p) {
  std::string name{f};
  name += " [napkin: malformed NVTX format: ";
  name += describe(p);
  name += ']';
  if (!process_state::nvtx_format_reported.exchange(true, std::memory_order_relaxed)) {
    std::fprintf(stderr, "napkin: NVTX name \"%s\" is malformed (%s); the range is named \"%s\" "
                         "(reported once per process)\n", std::string{f}.c_str(), std::string{describe(p)}.c_str(),
                 name.c_str());
  }
  return name;
}

// A type that only makes a name dependent, so that a class is complete only where a template is instantiated.
template <class Type, class>
struct dependent_on {
  using type = Type;
};

// A std::streambuf that appends to a string: the stream a type with its own operator<< is written to.
// A template (on the written type) so that <streambuf> is needed only where one is instantiated.
template <class T>
class appending_streambuf final : public dependent_on<std::streambuf, T>::type {
  using base = typename dependent_on<std::streambuf, T>::type;

 public:
  explicit appending_streambuf(std::string& out) noexcept : out_{out} {}

 protected:
  typename base::int_type overflow(typename base::int_type c) override {
    using traits = typename base::traits_type;
    if (!traits::eq_int_type(c, traits::eof())) out_.push_back(traits::to_char_type(c));
    return traits::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

// A type without a built-in form below: written by its operator<< (needs <ostream> here).
template <class T>
void stream_write(std::string& out, const T& v) {
  appending_streambuf<T> buffer{out};
  typename dependent_on<std::ostream, T>::type os{&buffer};
  os << v;
}

// A std::string, a std::string_view or a char array (a literal): written as text.
template <class T>
inline constexpr bool is_text_v =
    std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
    (std::is_array_v<T> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<T>>, char>);

// Writes one argument as a default std::ostream writes it (no flags, precision 6).
template <class T>
void write_argument(std::string& out, const T& v) {
  using C = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<C, bool>) {
    out += v ? '1' : '0';
  } else if constexpr (std::is_same_v<C, char> || std::is_same_v<C, signed char> || std::is_same_v<C, unsigned char>) {
    out += static_cast<char>(v);
  } else if constexpr (std::is_integral_v<C>) {
    out += std::to_string(v);
  } else if constexpr (std::is_floating_point_v<C>) {
    char buf[64];
    if constexpr (std::is_same_v<C, long double>) {
      std::snprintf(buf, sizeof buf, "%Lg", v);
    } else {
      std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    }
    out += buf;
  } else if constexpr (is_text_v<C>) {
    out += std::string_view{v};
  } else if constexpr (std::is_same_v<C, const char*> || std::is_same_v<C, char*>) {
    out += v != nullptr ? v : "(null)";
  } else if constexpr (std::is_pointer_v<C> && std::is_convertible_v<C, const void*>) {
    char buf[32];  // as std::ostream writes a pointer: 0 or 0x hex digits
    std::snprintf(buf, sizeof buf, "%#jx", static_cast<std::uintmax_t>(reinterpret_cast<std::uintptr_t>(v)));
    out += buf;
  } else {
    stream_write(out, v);
  }
}

// napkin's formatter, for any text (this is what a name's format goes through at run time, and what a
// fuzzer can call): {} filled in order as operator<< writes the arguments, {{ and }} as braces. A
// malformed format is not an error here: it returns malformed_format_name(). Throws only what allocation
// or an argument's operator<< throws.
template <class... Args>
std::string format_runtime(std::string_view f, const Args&... args) {
  const format_problem problem = check_format(f, sizeof...(Args));
  if (problem != format_problem::none) return malformed_format_name(f, problem);
  using writer = void (*)(std::string&, const void*);
  const std::array<writer, sizeof...(Args)> writers{
      {[](std::string& out, const void* p) { write_argument(out, *static_cast<const Args*>(p)); }...}};
  const std::array<const void*, sizeof...(Args)> values{{static_cast<const void*>(&args)...}};
  std::string out;
  out.reserve(f.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '{' && f[i + 1] == '}') {  // well formed: a brace is never last
      writers[next](out, values[next]);
      ++next;
      ++i;
    } else if (f[i] == '{' || f[i] == '}') {  // "{{" or "}}"
      out += f[i];
      ++i;
    } else {
      out += f[i];
    }
  }
  return out;
}

template <class... Args>
std::string format_name(const format_string<Args...>& fmt, const Args&... args) {
  return format_runtime(fmt.get(), args...);
}

}  // namespace detail

// The format string of napkin's formatted names ("layer {}").
template <class... Args>
using format_string = detail::format_string<Args...>;

// NAPKIN_FMT("layer {}"): a literal format checked at compile time in every standard (C++17 included):
// napkin::range r{NAPKIN_FMT("layer {}"), i}. A mismatch stops the compiler with "napkin: NVTX format ...".
#define NAPKIN_FMT(literal)                                                                       \
  ::napkin::detail::checked_literal<::napkin::detail::shape_of(literal).placeholders,            \
                                    ::napkin::detail::shape_of(literal).well_formed> {            \
    ::std::string_view { literal }                                                                \
  }

// A name formatted later, only if a tool listens: napkin::range r{napkin::format("x{}", i), napkin::payload{i}}.
// Holds references to its arguments: use it within the full expression that creates the range.
template <class... Args>
class lazy_format {
 public:
  explicit lazy_format(format_string<Args...> fmt, const Args&... args) noexcept : fmt_{fmt}, args_{&args...} {}
  [[nodiscard]] std::string operator()() const { return call(std::index_sequence_for<Args...>{}); }

 private:
  template <std::size_t... I>
  [[nodiscard]] std::string call(std::index_sequence<I...>) const {
    return detail::format_name<Args...>(fmt_, *std::get<I>(args_)...);
  }
  format_string<Args...> fmt_;
  std::tuple<const Args*...> args_;
};
template <class... Args>
lazy_format<Args...> format(format_string<Args...> fmt, const Args&... args) noexcept {
  return lazy_format<Args...>{fmt, args...};
}

NAPKIN_END_NAMESPACE

#undef NAPKIN_DETAIL_FORMAT_CHECK
