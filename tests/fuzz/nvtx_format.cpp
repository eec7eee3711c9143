// Fuzz target: NVTX names formatted at run time, napkin::range r{"layer {}", i} (include/napkin/nvtx.hpp).
// Calls napkin::format(fmt, args...)() (napkin::lazy_format<Args...>::operator(), which is
// napkin::detail::format_name) with the input as the format string (C++17: any string converts to
// napkin::format_string) and one or two arguments (an int and a std::string; the first byte picks). A
// malformed format must end in std::invalid_argument or a name marked as malformed, never a crash or a
// read past the text; a name formatted from n arguments used n "{}", so it is at most the format's length
// - 2n plus the arguments' lengths.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "napkin/nvtx.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#if !NAPKIN_NVTX_HAS_STD_FORMAT  // with <format>, std::format checks the string at compile time
  if (size == 0) return 0;
  const std::string_view fmt(reinterpret_cast<const char*>(data) + 1, size - 1);
  const int number = 12345;
  const std::string word = "word";
  std::string name;
  std::size_t bound = fmt.size();
  try {
    if (data[0] % 2 == 0) {
      name = napkin::format<int>(fmt, number)();
      bound = bound - 2 + 5;  // exactly one "{}" became "12345"
    } else {
      name = napkin::format<int, std::string>(fmt, number, word)();
      bound = bound - 4 + 5 + 4;  // exactly two "{}" became "12345" and "word"
    }
  } catch (const std::invalid_argument&) {  // malformed, where napkin throws for it
    return 0;
  }
  // Malformed, where napkin names the range "<format> [napkin: malformed NVTX format: <problem>]" instead.
  constexpr std::string_view malformed = " [napkin: malformed NVTX format: ";
  if (name.size() > fmt.size() && name.compare(0, fmt.size(), fmt) == 0 &&
      name.compare(fmt.size(), malformed.size(), malformed) == 0)
    return 0;
  if (name.size() > bound) {
    std::fprintf(stderr, "fuzz_nvtx_format: \"%.*s\" formatted to %zu bytes\n", static_cast<int>(fmt.size()),
                 fmt.data(), name.size());
    std::abort();
  }
#else
  (void)data;
  (void)size;
#endif
  return 0;
}
