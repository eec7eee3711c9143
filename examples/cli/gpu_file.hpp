// SPDX-License-Identifier: Apache-2.0
// --gpu FILE.json: GPUs from a JSON file of the reports' gpu-specs kind (docs/schema/napkin.schema.json;
// `napkin gpus --format json` writes one to start from).
//   --gpu FILE.json       every GPU of the file: one gives a report, several a comparison table
//   --gpu KEY@FILE.json   the file's entry with that key
// Read with nlohmann/json (napkin/report/json_read.hpp). Each entry needs its key, a DRAM bandwidth and at
// least one peak; the ridges in the file are ignored (napkin derives them from the peaks).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "names.hpp"
#include "napkin/math.hpp"
#include "napkin/report/json_read.hpp"

namespace napkin::cli {

// The strings a file's spec views (gpu_spec holds string_views): shared by every copy of the GPU.
struct owned_gpu_strings {
  std::string key, name, source;
};

struct file_gpu {
  gpu_spec spec;
  std::shared_ptr<const owned_gpu_strings> strings;
  std::string file;
};

inline bool names_gpu_file(std::string_view typed) {
  return typed.size() > 5 && lower(typed.substr(typed.size() - 5)) == ".json";
}

namespace detail {

[[noreturn]] inline void bad_gpu_file(const std::string& where, const std::string& what) {
  throw usage_error("--gpu: " + where + ": " + what);  // where: the file's name as given, and the entry
}

inline double number_member(const json_value& entry, const char* field, const std::string& where, bool required) {
  const json_value* v = entry.find(field);
  if (v == nullptr || v->is_null()) {
    if (required) bad_gpu_file(where, std::string(field) + " is required (a number > 0)");
    return 0;
  }
  if (!v->is_number() || !(v->as_number() > 0) || !std::isfinite(v->as_number()))
    bad_gpu_file(where, std::string(field) + " must be a number > 0 or null");
  return v->as_number();
}

inline std::string string_member(const json_value& entry, const char* field, const std::string& where) {
  const json_value* v = entry.find(field);
  if (v == nullptr || !v->is_string()) bad_gpu_file(where, std::string(field) + " must be a string");
  return v->as_string();
}

inline file_gpu read_gpu_entry(const json_value& entry, const std::string& where, const std::string& file) {
  if (!entry.is_object()) bad_gpu_file(where, "expected an object");
  auto strings = std::make_shared<owned_gpu_strings>();
  strings->key = string_member(entry, "key", where);
  if (strings->key.empty()) bad_gpu_file(where, "key must not be empty");
  if (strings->key.find_first_of("@,") != std::string::npos)
    bad_gpu_file(where, "key '" + quote_input(strings->key) +
                            "' holds '@' or ',', which --gpu cannot name (KEY@FILE.json picks a key, a,b lists GPUs)");
  strings->name = string_member(entry, "name", where);
  const json_value* source = entry.find("source");
  strings->source = (source != nullptr && source->is_string() ? source->as_string() + "; " : std::string()) +
                    "read from " + file;
  file_gpu g;
  const std::string cc = string_member(entry, "compute_capability", where);
  if (cc.size() < 3 || cc.size() > 5 || cc.find('.') != cc.size() - 2 || cc.find_first_not_of("0123456789.") != std::string::npos)
    bad_gpu_file(where, "compute_capability must look like \"9.0\", got '" + quote_input(cc) + "'");
  g.spec.cc_major = std::stoi(cc.substr(0, cc.size() - 2));
  g.spec.cc_minor = cc.back() - '0';
  const double sms = number_member(entry, "sm_count", where, false);
  if (sms != std::floor(sms) || sms > 1e6) bad_gpu_file(where, "sm_count must be a whole number up to 1e6");
  g.spec.sm_count = static_cast<int>(sms);
  g.spec.boost_clock_mhz = number_member(entry, "boost_clock_mhz", where, false);
  g.spec.memory_bandwidth = number_member(entry, "memory_bandwidth_bytes_per_s", where, true);
  const double l2 = number_member(entry, "l2_bytes", where, false);
  if (l2 != std::floor(l2) || l2 > 1e15) bad_gpu_file(where, "l2_bytes must be a whole number of bytes");
  g.spec.l2_bytes = static_cast<std::uint64_t>(l2);
  const json_value* peaks = entry.find("peak_flop_per_s");
  if (peaks == nullptr || !peaks->is_object())
    bad_gpu_file(where, "peak_flop_per_s must be an object: pipe name -> FLOP/s or null");
  bool any = false;
  for (std::size_t i = 0; i < peaks->keys().size(); ++i) {
    const std::string& name = peaks->keys()[i];
    pipe p{};
    try {
      p = parse_pipe(name);
    } catch (const std::invalid_argument&) {
      bad_gpu_file(where, "peak_flop_per_s has an unknown pipe '" + quote_input(name) + "' (`napkin pipes`)");
    }
    const double v = number_member(*peaks, name.c_str(), where + ".peak_flop_per_s", false);
    g.spec.peaks[index(p)] = v;
    any = any || v > 0;
  }
  if (!any) bad_gpu_file(where, "peak_flop_per_s gives no peak: at least one pipe needs a number");
  g.spec.key = strings->key;
  g.spec.name = strings->name;
  g.spec.source = strings->source;
  g.strings = std::move(strings);
  g.file = file;
  return g;
}

}  // namespace detail

// The GPUs `typed` names: FILE.json (all) or KEY@FILE.json (one).
inline std::vector<file_gpu> read_gpu_file(const std::string& typed) {
  const std::size_t at = typed.find('@');
  const std::string key = at == std::string::npos ? std::string() : typed.substr(0, at);
  const std::string file = at == std::string::npos ? typed : typed.substr(at + 1);
  const json_read_result r = read_json_file(file);
  if (!r.ok()) throw usage_error("--gpu: " + r.problem);
  const report_document header = flatten(r.value, file);  // the schema, its version, the kind
  if (!header.ok()) throw usage_error("--gpu: " + header.problem);
  if (header.kind != report_kind::gpu_specs)
    detail::bad_gpu_file(file, "a document of kind '" + header.kind +
                                   "'; a GPU file is of kind 'gpu-specs' (`napkin gpus --format json` writes one)");
  const json_value& gpus = *r.value.find("gpus");
  std::vector<file_gpu> out;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < gpus.items().size(); ++i) {
    file_gpu g = detail::read_gpu_entry(gpus.items()[i], file + ": gpus[" + std::to_string(i) + "]", file);
    keys.emplace_back(g.spec.key);
    if (key.empty() || lower(g.spec.key) == lower(key)) out.push_back(std::move(g));
  }
  if (gpus.items().empty()) detail::bad_gpu_file(file, "the document has no GPU");
  if (out.empty())
    detail::bad_gpu_file(typed, "no GPU with key '" + quote_input(key) + "' in " + file + did_you_mean(key, keys));
  if (!key.empty() && out.size() > 1) detail::bad_gpu_file(typed, "the key '" + quote_input(key) + "' is there twice");
  return out;
}

}  // namespace napkin::cli
