// Reads what tests/nvtx/recorder.cpp (the NVTX tool this test runs under) has recorded.
#pragma once
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nvtx3/nvToolsExt.h>

namespace napkin_test {

// The recorder's exported function `symbol`; null when no tool is loaded in this process.
inline const char* (*recorder_function(const char* symbol))() {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  if (path == nullptr) return nullptr;
  void* lib = ::dlopen(path, RTLD_NOW | RTLD_NOLOAD);  // only if NVTX already loaded it
  if (lib == nullptr) return nullptr;
  auto* fn = reinterpret_cast<const char* (*)()>(::dlsym(lib, symbol));
  ::dlclose(lib);  // NVTX keeps its own reference
  return fn;
}
inline bool recorder_loaded() { return recorder_function("napkin_test_nvtx_take") != nullptr; }

// A test that needs the recorder cannot go on without it (throws; aborts in -fno-exceptions tests).
[[noreturn]] inline void recorder_missing(const char* what) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::runtime_error(what);
#else
  std::fprintf(stderr, "%s\n", what);
  std::abort();
#endif
}

inline std::vector<std::string> split_lines(const char* text) {
  std::vector<std::string> lines;
  std::istringstream in{text == nullptr ? "" : text};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The events recorded since the previous call; throws if the recorder is not loaded.
inline std::vector<std::string> take() {
  auto* fn = recorder_function("napkin_test_nvtx_take");
  if (fn == nullptr) recorder_missing("the NVTX recorder is not loaded (NVTX_INJECTION64_PATH unset?)");
  return split_lines(fn());
}
inline std::vector<std::string> history() {
  auto* fn = recorder_function("napkin_test_nvtx_history");
  if (fn == nullptr) recorder_missing("the NVTX recorder is not loaded");
  return split_lines(fn());
}

// Drops " tid=<n>" so that sequences can be compared across threads and runs.
inline std::vector<std::string> without_tids(std::vector<std::string> lines) {
  for (auto& l : lines) {
    auto at = l.find(" tid=");
    if (at == std::string::npos) continue;
    auto end = l.find(' ', at + 1);
    l.erase(at, end == std::string::npos ? std::string::npos : end - at);
  }
  return lines;
}
inline std::vector<std::string> take_without_tids() { return without_tids(take()); }

}  // namespace napkin_test
