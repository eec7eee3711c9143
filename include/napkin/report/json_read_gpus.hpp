// SPDX-License-Identifier: Apache-2.0
// napkin/report/json_read_gpus.hpp — GPUs read back from a JSON document of the gpu-specs kind
// (docs/schema/napkin.schema.json; to_json(gpu_spec_list) and `napkin gpus --format json` write one): what
// the `napkin` tool's --gpu FILE.json reads. Each entry needs its key, a DRAM bandwidth and at least one
// peak; the ridges in the file are ignored (napkin derives them from the peaks).
//
// OPTIONAL like json_read.hpp, which parses the file (nlohmann/json). Bad input (a file that cannot be read,
// another kind, a wrong member) is napkin's input error (napkin/error.hpp) naming the file and the entry:
// std::invalid_argument by default.
#pragma once

#include "napkin/config.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "napkin/error.hpp"
#include "napkin/math/gpu_spec.hpp"
#include "napkin/math/pipes.hpp"
#include "napkin/document/document.hpp"
#include "napkin/report/json_read.hpp"
#include "napkin/text/enum_names.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

// The strings a file's spec views (gpu_spec holds string_views): shared by every copy of the GPU.
struct owned_gpu_strings {
  std::string key, name, source;
};

// One GPU of a file: its spec, the strings the spec views, the file's name.
struct file_gpu {
  gpu_spec spec;
  std::shared_ptr<const owned_gpu_strings> strings;
  std::string file;
};

namespace detail {

[[noreturn]] inline void bad_gpu_file(const std::string& where, const std::string& what) {
  raise_input_error("napkin: " + where + ": " + what);  // where: the file's name as given, and the entry
}

inline double gpu_number(const json_value& entry, const char* field, const std::string& where, bool required) {
  const json_value* v = entry.find(field);
  if (v == nullptr || v->is_null()) {
    if (required) bad_gpu_file(where, std::string(field) + " is required (a number > 0)");
    return 0;
  }
  if (!v->is_number() || !(v->as_number() > 0) || !std::isfinite(v->as_number()))
    bad_gpu_file(where, std::string(field) + " must be a number > 0 or null");
  return v->as_number();
}

inline std::string gpu_text(const json_value& entry, const char* field, const std::string& where) {
  const json_value* v = entry.find(field);
  if (v == nullptr || !v->is_string()) bad_gpu_file(where, std::string(field) + " must be a string");
  return v->as_string();
}

inline file_gpu read_gpu_entry(const json_value& entry, const std::string& where, const std::string& file) {
  if (!entry.is_object()) bad_gpu_file(where, "expected an object");
  auto strings = std::make_shared<owned_gpu_strings>();
  strings->key = gpu_text(entry, "key", where);
  if (strings->key.empty()) bad_gpu_file(where, "key must not be empty");
  strings->name = gpu_text(entry, "name", where);
  const json_value* source = entry.find("source");
  strings->source = (source != nullptr && source->is_string() ? source->as_string() + "; " : std::string()) +
                    "read from " + file;
  file_gpu g;
  const std::string cc = gpu_text(entry, "compute_capability", where);
  if (cc.size() < 3 || cc.size() > 5 || cc.find('.') != cc.size() - 2 || cc.find_first_not_of("0123456789.") != std::string::npos)
    bad_gpu_file(where, "compute_capability must look like \"9.0\", got '" + quote_input(cc) + "'");
  g.spec.cc_major = std::stoi(cc.substr(0, cc.size() - 2));
  g.spec.cc_minor = cc.back() - '0';
  const double sms = gpu_number(entry, "sm_count", where, false);
  if (sms != std::floor(sms) || sms > 1e6) bad_gpu_file(where, "sm_count must be a whole number up to 1e6");
  g.spec.sm_count = static_cast<int>(sms);
  g.spec.boost_clock_mhz = gpu_number(entry, "boost_clock_mhz", where, false);
  g.spec.memory_bandwidth = gpu_number(entry, "memory_bandwidth_bytes_per_s", where, true);
  const double l2 = gpu_number(entry, "l2_bytes", where, false);
  if (l2 != std::floor(l2) || l2 > 1e15) bad_gpu_file(where, "l2_bytes must be a whole number of bytes");
  g.spec.l2_bytes = static_cast<std::uint64_t>(l2);
  const json_value* peaks = entry.find("peak_flop_per_s");
  if (peaks == nullptr || !peaks->is_object())
    bad_gpu_file(where, "peak_flop_per_s must be an object: pipe name -> FLOP/s or null");
  bool any = false;
  for (std::size_t i = 0; i < peaks->keys().size(); ++i) {
    const std::string& name = peaks->keys()[i];
    const std::optional<pipe> p = from_string(name, all_pipes);  // parse_pipe's names, without its failure
    if (!p) bad_gpu_file(where, "peak_flop_per_s has an unknown pipe '" + quote_input(name) + "' (`napkin pipes`)");
    const double v = gpu_number(*peaks, name.c_str(), where + ".peak_flop_per_s", false);
    g.spec.peaks[index(*p)] = v;
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

// Every GPU of the gpu-specs document `file`, in the file's order (at least one).
inline std::vector<file_gpu> read_gpu_specs_file(const std::string& file) {
  const json_read_result r = read_json_file(file);
  if (!r.ok()) detail::raise_input_error("napkin: " + r.problem);
  const report_document header = flatten(r.value, file);  // the schema, its version, the kind
  if (!header.ok()) detail::raise_input_error("napkin: " + header.problem);
  if (header.kind != report_kind::gpu_specs)
    detail::bad_gpu_file(file, "a document of kind '" + header.kind +
                                   "'; a GPU file is of kind 'gpu-specs' (`napkin gpus --format json` writes one)");
  const json_value& gpus = *r.value.find("gpus");
  std::vector<file_gpu> out;
  for (std::size_t i = 0; i < gpus.items().size(); ++i)
    out.push_back(detail::read_gpu_entry(gpus.items()[i], file + ": gpus[" + std::to_string(i) + "]", file));
  if (out.empty()) detail::bad_gpu_file(file, "the document has no GPU");
  return out;
}

NAPKIN_END_NAMESPACE
