// SPDX-License-Identifier: Apache-2.0
// --gpu FILE.json: GPUs from a JSON file of the reports' gpu-specs kind, read by the library
// (napkin/report/json_read_gpus.hpp; `napkin gpus --format json` writes one to start from).
//   --gpu FILE.json       every GPU of the file: one gives a report, several a comparison table
//   --gpu KEY@FILE.json   the file's entry with that key
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "names.hpp"
#include "napkin/report/json_read_gpus.hpp"

namespace napkin::cli {

inline bool names_gpu_file(std::string_view typed) {
  return typed.size() > 5 && lower(typed.substr(typed.size() - 5)) == ".json";
}

namespace detail {

[[noreturn]] inline void bad_gpu_file(const std::string& where, const std::string& what) {
  throw usage_error("--gpu: " + where + ": " + what);  // where: the file's name as given, and the entry
}

}  // namespace detail

// The GPUs `typed` names: FILE.json (all) or KEY@FILE.json (one).
inline std::vector<file_gpu> read_gpu_file(const std::string& typed) {
  const std::size_t at = typed.find('@');
  const std::string key = at == std::string::npos ? std::string() : typed.substr(0, at);
  const std::string file = at == std::string::npos ? typed : typed.substr(at + 1);
  std::vector<file_gpu> all;
  try {
    all = read_gpu_specs_file(file);
  } catch (const std::invalid_argument& e) {  // napkin's input error: "napkin: <file>: <what>"
    const std::string what = e.what();
    throw usage_error("--gpu: " + (what.rfind("napkin: ", 0) == 0 ? what.substr(8) : what));
  }
  std::vector<file_gpu> out;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string k(all[i].spec.key);
    if (k.find_first_of("@,") != std::string::npos)
      detail::bad_gpu_file(file + ": gpus[" + std::to_string(i) + "]",
                           "key '" + quote_input(k) +
                               "' holds '@' or ',', which --gpu cannot name (KEY@FILE.json picks a key, a,b lists GPUs)");
    keys.push_back(k);
    if (key.empty() || lower(k) == lower(key)) out.push_back(std::move(all[i]));
  }
  if (out.empty())
    detail::bad_gpu_file(typed, "no GPU with key '" + quote_input(key) + "' in " + file + did_you_mean(key, keys));
  if (!key.empty() && out.size() > 1) detail::bad_gpu_file(typed, "the key '" + quote_input(key) + "' is there twice");
  return out;
}

}  // namespace napkin::cli
