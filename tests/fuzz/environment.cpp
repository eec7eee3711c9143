// Fuzz target: what napkin reads from the environment. The first line of the input is NAPKIN_MONITOR's value
// (parse_monitor_settings); each further line NAME=VALUE sets a variable for the rank detection of
// napkin/document/rank.hpp (Open MPI, PMIx, Hydra, torchrun, Slurm conventions). Invariants: neither raises;
// settings that parse are settings that validate; a rank that is detected lies below its world size.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "napkin/monitor/settings.hpp"
#include "napkin/document/rank.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t first_end = input.find('\n');
  const std::string monitor = input.substr(0, first_end);
  const napkin::monitor_settings_result m = napkin::parse_monitor_settings(monitor.c_str());
  if (m.ok())
    fuzz::require(napkin::validate_monitor_settings(m.settings).empty(), "parsed settings that do not validate");

  std::map<std::string, std::string> environment;
  for (std::size_t start = first_end; start != std::string::npos && start < input.size();) {
    const std::size_t end = input.find('\n', start + 1);
    const std::string line = input.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos) environment[line.substr(0, eq)] = line.substr(eq + 1);
    start = end;
  }
  const napkin::detected_rank r = napkin::detect_rank([&](const char* name) -> std::optional<std::string> {
    const auto it = environment.find(name);
    if (it == environment.end()) return std::nullopt;
    return it->second;
  });
  if (r.ok()) {
    if (r.rank) fuzz::require(*r.rank >= 0, "a negative rank");
    if (r.rank && r.world_size) fuzz::require(*r.rank < *r.world_size, "a rank not below its world size");
    if (r.local_rank) fuzz::require(*r.local_rank >= 0, "a negative local rank");
  } else {
    fuzz::require(r.problem.rfind("napkin: ", 0) == 0, "a problem that does not say it is napkin's");
  }
  return 0;
}
