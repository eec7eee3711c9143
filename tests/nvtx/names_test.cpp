// Pure parts of napkin/nvtx.hpp: function-name cleanup, colors, name formatting. No tool needed.
#include <napkin/nvtx.hpp>

#include <doctest/doctest.h>

#include <string>

using napkin::detail::readable_function_name;

TEST_CASE("readable names from GCC's __PRETTY_FUNCTION__") {
  // Inputs copied from what GCC 12 prints (see docs/nvtx.md); outputs written by hand.
  CHECK(readable_function_name("int main()", 9) == "main");
  CHECK(readable_function_name("void ns::f(int, void (*)(int))", 9) == "ns::f");
  CHECK(readable_function_name("void ns::S<T>::operator()() [with T = float]", 9) == "ns::S<T>::operator()");
  CHECK(readable_function_name("static int* ns::S<T>::g() [with T = float]", 9) == "ns::S<T>::g");
  CHECK(readable_function_name("void ns::{anonymous}::anon()", 9) == "ns::{anonymous}::anon");
  CHECK(readable_function_name("void ns::tf(T) [with T = double]", 9) == "ns::tf");
  CHECK(readable_function_name("Conv::operator int() const", 9) == "Conv::operator int");
  CHECK(readable_function_name("bool Conv::operator<(Conv) const", 9) == "Conv::operator<");
  CHECK(readable_function_name("std::vector<int, std::allocator<int> > ns::make(std::size_t)", 9) == "ns::make");
  CHECK(readable_function_name("main()::<lambda(int)>", 42) == "main::lambda@42");
  CHECK(readable_function_name("main()::<lambda(int)>::<lambda()>", 42) == "main::lambda::lambda@42");
  CHECK(readable_function_name("ns::tf<double>(double)::<lambda(auto:1)> [with auto:1 = int]", 7) ==
        "ns::tf<double>::lambda@7");
}

TEST_CASE("readable names from Clang's __PRETTY_FUNCTION__") {
  // Inputs copied from what Clang 14 prints; outputs written by hand.
  CHECK(readable_function_name("auto main()::(anonymous class)::operator()(int) const", 42) == "main::lambda@42");
  CHECK(readable_function_name(
            "auto main()::(anonymous class)::operator()(int)::(anonymous class)::operator()() const", 42) ==
        "main::lambda::lambda@42");
  CHECK(readable_function_name("void ns::S<float>::operator()() [T = float]", 9) == "ns::S<float>::operator()");
  CHECK(readable_function_name("static int *ns::S<float>::g() [T = float]", 9) == "ns::S<float>::g");
  CHECK(readable_function_name("void ns::(anonymous namespace)::anon()", 9) == "ns::(anonymous namespace)::anon");
  CHECK(readable_function_name("auto ns::tf(double)::(anonymous class)::operator()(auto) const [x:auto = int]", 7) ==
        "ns::tf::lambda@7");
  CHECK(readable_function_name("int Conv::operator int() const", 9) == "Conv::operator int");
}

TEST_CASE("readable names never lose a name they cannot parse") {
  CHECK(readable_function_name("f", 1) == "f");
  CHECK(readable_function_name("", 1) == "");
  CHECK(readable_function_name("weird)(", 1) == "weird)(");
}

TEST_CASE("readable names from this compiler, end to end") {
  struct local {
    static std::string name() { return readable_function_name(NAPKIN_DETAIL_PRETTY_FUNCTION, 1); }
  };
  const std::string n = local::name();
  CHECK(n.size() > 13);
  CHECK(n.compare(n.size() - 13, 13, "::local::name") == 0);
  auto lambda = [] { return readable_function_name(NAPKIN_DETAIL_PRETTY_FUNCTION, 5); };
  const std::string l = lambda();
  REQUIRE(l.size() > 10);
  CHECK(l.substr(l.size() - 10) == "::lambda@5");
}

TEST_CASE("FNV-1a matches the published test vectors") {
  // From the FNV reference test suite (draft-eastlake-fnv, 32-bit FNV-1a).
  static_assert(napkin::detail::fnv1a("") == 0x811c9dc5u);
  static_assert(napkin::detail::fnv1a("a") == 0xe40c292cu);
  static_assert(napkin::detail::fnv1a("foobar") == 0xbf9cf968u);
  CHECK(napkin::detail::fnv1a(std::string{"foobar"}) == 0xbf9cf968u);
}

TEST_CASE("HSV to RGB matches Python's colorsys") {
  // python3: colorsys.hsv_to_rgb(h/360, s, v), each channel rounded as int(x*255 + 0.5).
  static_assert(napkin::color_from_hsv(0, 1.0, 1.0).get_value() == 0xFFFF0000u);
  static_assert(napkin::color_from_hsv(120, 1.0, 1.0).get_value() == 0xFF00FF00u);
  static_assert(napkin::color_from_hsv(240, 1.0, 1.0).get_value() == 0xFF0000FFu);
  static_assert(napkin::color_from_hsv(30, 0.5, 0.8).get_value() == 0xFFCC9966u);
  static_assert(napkin::color_from_hsv(200, 0.75, 0.9).get_value() == 0xFF39ACE6u);
  static_assert(napkin::color_from_hsv(359, 0.75, 0.9).get_value() == 0xFFE6393Cu);
  static_assert(napkin::color_from_hsv(60, 0.0, 0.5).get_value() == 0xFF808080u);
  // The message quotes the arguments as napkin/text/numbers.hpp's significant() writes them (four
  // significant digits): 0.5 -> "0.5000", 1.5 -> "1.500", -0.1 -> "-0.1000".
  CHECK_THROWS_WITH_AS(napkin::color_from_hsv(360, 0.5, 0.5),
                       "napkin: color_from_hsv(360, 0.5000, 0.5000): hue must be in [0, 360), saturation and value in "
                       "[0, 1]",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::color_from_hsv(10, 1.5, 0.5),
                       "napkin: color_from_hsv(10, 1.500, 0.5000): hue must be in [0, 360), saturation and value in "
                       "[0, 1]",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::color_from_hsv(10, 0.5, -0.1),
                       "napkin: color_from_hsv(10, 0.5000, -0.1000): hue must be in [0, 360), saturation and value in "
                       "[0, 1]",
                       std::invalid_argument);
}

TEST_CASE("a name's default color is a compile-time constant") {
  // Python: FNV-1a("gemm") % 360 = 251 -> hsv(251, 0.75, 0.9) = 0xFF5939E6.
  static_assert(napkin::color_of("gemm").get_value() == 0xFF5939E6u);
  static_assert(napkin::color_of("static-init").get_value() == 0xFFE67E39u);
  CHECK(napkin::color_of(std::string{"gemm"}).get_value() == 0xFF5939E6u);
}

TEST_CASE("the format checker: {} placeholders, {{ and }} escapes, nothing else") {
  using napkin::detail::check_format;
  using napkin::detail::format_problem;
  using napkin::detail::shape_of;
  // Shapes counted by hand.
  static_assert(shape_of("").placeholders == 0 && shape_of("").well_formed);
  static_assert(shape_of("layer {} of {}").placeholders == 2 && shape_of("layer {} of {}").well_formed);
  static_assert(shape_of("{{{}}}").placeholders == 1 && shape_of("{{{}}}").well_formed);  // "{" {} "}"
  static_assert(shape_of("{{}}").placeholders == 0 && shape_of("{{}}").well_formed);      // "{" "}"
  static_assert(!shape_of("{").well_formed);
  static_assert(!shape_of("}").well_formed);
  static_assert(!shape_of("{0}").well_formed);
  static_assert(!shape_of("{:>4}").well_formed);
  static_assert(!shape_of("{{}").well_formed);  // "{" then a lone "}"
  static_assert(!shape_of("x {").well_formed);  // a brace at the very end
  static_assert(check_format("a {} b", 1) == format_problem::none);
  static_assert(check_format("a {} {}", 1) == format_problem::more_placeholders_than_arguments);
  static_assert(check_format("a", 1) == format_problem::fewer_placeholders_than_arguments);
  static_assert(check_format("}{}", 1) == format_problem::brace_is_not_a_placeholder_or_an_escape);
  CHECK(check_format(std::string{"{}"}, 1) == format_problem::none);
}

TEST_CASE("a format problem's text: to_string the stable name, describe the phrase in a malformed name") {
  using napkin::detail::format_problem;
  static_assert(to_string(format_problem::none) == "none");
  static_assert(to_string(format_problem::more_placeholders_than_arguments) == "more_placeholders_than_arguments");
  static_assert(to_string(format_problem::fewer_placeholders_than_arguments) == "fewer_placeholders_than_arguments");
  static_assert(to_string(format_problem::brace_is_not_a_placeholder_or_an_escape) ==
                "brace_is_not_a_placeholder_or_an_escape");
  static_assert(to_string(static_cast<format_problem>(9)) == "unknown");
  static_assert(describe(format_problem::more_placeholders_than_arguments) == "more {} than arguments");
  static_assert(describe(static_cast<format_problem>(9)) == "unknown");
}

TEST_CASE("the run-time formatter: {} in order with operator<<, {{ and }} escapes") {
  using napkin::detail::format_runtime;
  CHECK(format_runtime("layer {}", 3) == "layer 3");
  CHECK(format_runtime("{}/{}: {}", "a", 2, 0.5) == "a/2: 0.5");
  CHECK(format_runtime("{{{}}}", 1) == "{1}");
  CHECK(format_runtime("[{}]", std::string{"s"}) == "[s]");
  CHECK(format_runtime("no arguments") == "no arguments");
  CHECK(format_runtime("{{}}") == "{}");
}

TEST_CASE("a malformed run-time format never throws: the name is the text as written plus a marker") {
  using napkin::detail::format_runtime;
  // Expected names written by hand from the documented rule: text + " [napkin: malformed NVTX format: <problem>]".
  CHECK(format_runtime("{} {}", 1) == "{} {} [napkin: malformed NVTX format: more {} than arguments]");
  CHECK(format_runtime("{}", 1, 2) == "{} [napkin: malformed NVTX format: fewer {} than arguments]");
  CHECK(format_runtime("{0}", 1) ==
        "{0} [napkin: malformed NVTX format: a brace that is not part of {}, {{ or }} (napkin's formats have {} "
        "placeholders only)]");
  CHECK(format_runtime("x {", 1).rfind("x { [napkin: malformed NVTX format: a brace", 0) == 0);
  CHECK(format_runtime("}", 1).rfind("} [napkin: malformed NVTX format: a brace", 0) == 0);
  // What a range's constructor calls: the same, through the format-string type.
  const std::string text = "layer {} {}";
  CHECK(napkin::detail::format_name<int>(napkin::runtime_format(text), 1) ==
        "layer {} {} [napkin: malformed NVTX format: more {} than arguments]");
  CHECK(napkin::format(napkin::runtime_format(text), 1)() ==
        "layer {} {} [napkin: malformed NVTX format: more {} than arguments]");
}

TEST_CASE("NAPKIN_FMT and C++20 literals are checked at compile time (good ones compile here)") {
  // The bad ones are compile-failure tests (tests/nvtx/compile_fail_test.cpp).
  CHECK(napkin::detail::format_name<int>(NAPKIN_FMT("layer {}"), 3) == "layer 3");
  CHECK(napkin::format(NAPKIN_FMT("{} of {}"), 1, 2)() == "1 of 2");
  CHECK(napkin::format("{}{{", 7)() == "7{");
}
