// SPDX-License-Identifier: Apache-2.0
// Nvbench's JSON read as kernel_reports (napkin/report/nvbench_json_read.hpp): the function bodies. Included by
// nvbench_json_read.hpp (header-only, the default) or, with NAPKIN_SEPARATE_COMPILATION, only by napkin/compiled.hpp
// (compiled once).
#pragma once

#include "napkin/config.hpp"

#include <clocale>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "napkin/report/nvbench_json_read.hpp"
#include "napkin/error.hpp"
#include "napkin/math/gpu_table.hpp"
#include "napkin/text/numbers.hpp"
#include "napkin/text/printable.hpp"

NAPKIN_BEGIN_NAMESPACE

NAPKIN_DETAIL_FUNC std::string nvbench_metric_set(const std::string& file) { return "nvbench JSON: " + file; }

NAPKIN_DETAIL_FUNC std::string gpu_key_for_device_name(std::string_view name, std::int64_t sm_version) {
  for (const device_name_key& d : nvbench_device_keys) {
    if (d.name != name) continue;
    for (const gpu_spec& g : gpu_table)
      if (g.key == d.key && g.cc_major * 100 + g.cc_minor * 10 == sm_version) return std::string(g.key);
  }
  return {};
}

namespace detail {

[[noreturn]] NAPKIN_DETAIL_FUNC void bad_nvbench(const std::string& where, const std::string& what) {
  raise_input_error("napkin: " + where + ": " + what);
}

NAPKIN_DETAIL_FUNC const json_value& nvbench_member(const json_value& o, const char* name, const std::string& where) {
  const json_value* v = o.find(name);
  if (v == nullptr) bad_nvbench(where, std::string("no \"") + name + "\" (not nvbench's JSON, or an edited file?)");
  return *v;
}

NAPKIN_DETAIL_FUNC std::string nvbench_text(const json_value& o, const char* name, const std::string& where) {
  const json_value& v = nvbench_member(o, name, where);
  if (!v.is_string()) bad_nvbench(where + "." + name, "expected a string, got " + std::string(to_string(v.kind())));
  return v.as_string();
}

// A whole number within a double's exact integers (ids, sm_version).
NAPKIN_DETAIL_FUNC std::int64_t nvbench_integer(const json_value& v, const std::string& where) {
  if (!v.is_number()) bad_nvbench(where, "expected a whole number, got " + std::string(to_string(v.kind())));
  const double x = v.as_number();
  if (!(std::fabs(x) <= 9007199254740992.0) || x != std::floor(x))
    bad_nvbench(where, "expected a whole number, got " + general(x));
  return static_cast<std::int64_t>(x);
}

// An array member; null (nvbench writes an empty list as null: "axes": null) is an empty one.
NAPKIN_DETAIL_FUNC const std::vector<json_value>& nvbench_array(const json_value& o, const char* name,
                                                                const std::string& where) {
  static const std::vector<json_value> none;
  const json_value& v = nvbench_member(o, name, where);
  if (v.is_null()) return none;
  if (!v.is_array()) bad_nvbench(where + "." + name, "expected an array, got " + std::string(to_string(v.kind())));
  return v.items();
}

NAPKIN_DETAIL_FUNC std::optional<double> nvbench_number_text(std::string_view s) {
  if (s == "inf" || s == "+inf") return HUGE_VAL;
  if (s == "-inf") return -HUGE_VAL;
  if (s == "nan" || s == "-nan") return std::nan("");
  std::string plain(s);
  std::size_t i = 0;
  const auto digits = [&s, &i]() {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (digits() == 0) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const char point = *std::localeconv()->decimal_point;  // strtod reads the locale's decimal point
  for (char& c : plain)
    if (c == '.') c = point;
  return std::strtod(plain.c_str(), nullptr);  // beyond a double: +-HUGE_VAL, which the caller refuses
}

// The number a summary holds (its data item named "value", of type int64 or float64): nullopt for a summary
// without one (a file name, a string); +-inf or nan for what nvbench could not estimate (null in the file).
NAPKIN_DETAIL_FUNC std::optional<double> nvbench_summary_value(const json_value& summary, const std::string& where) {
  const json_value* data = summary.find("data");
  if (data == nullptr || data->is_null()) return std::nullopt;
  if (!data->is_array()) bad_nvbench(where + ".data", "expected an array, got " + std::string(to_string(data->kind())));
  for (std::size_t i = 0; i < data->items().size(); ++i) {
    const json_value& item = data->items()[i];
    const std::string at = where + ".data[" + std::to_string(i) + "]";
    if (!item.is_object()) bad_nvbench(at, "expected an object, got " + std::string(to_string(item.kind())));
    if (nvbench_text(item, "name", at) != "value") continue;
    const std::string type = nvbench_text(item, "type", at);
    if (type != "int64" && type != "float64") return std::nullopt;
    const json_value& v = nvbench_member(item, "value", at);
    if (v.is_null()) return HUGE_VAL;  // nlohmann writes infinity as null
    if (v.is_number()) return v.as_number();
    if (!v.is_string())
      bad_nvbench(at + ".value", "expected a number as text, got " + std::string(to_string(v.kind())));
    const std::optional<double> x = nvbench_number_text(v.as_string());
    if (!x) bad_nvbench(at + ".value", "'" + quote_input(v.as_string()) + "' is not a number (type " + type + ")");
    return x;
  }
  return std::nullopt;
}

struct nvbench_device {
  std::string name;
  std::int64_t sm_version = 0;  // 0: not given
  std::optional<double> bus_bandwidth;
};

}  // namespace detail

NAPKIN_DETAIL_FUNC bool looks_like_nvbench_json(const json_value& doc) {
  return doc.is_object() && doc.find("schema") == nullptr && doc.find("benchmarks") != nullptr;
}

NAPKIN_DETAIL_FUNC nvbench_run read_nvbench_json(const json_value& doc, const std::string& file) {
  if (!doc.is_object())
    detail::bad_nvbench(file, "expected nvbench's JSON object, got " + std::string(to_string(doc.kind())));
  if (const json_value* meta = doc.find("meta"); meta != nullptr && meta->is_object()) {
    const json_value* version = meta->find("version");
    const json_value* json = version != nullptr && version->is_object() ? version->find("json") : nullptr;
    const json_value* major = json != nullptr && json->is_object() ? json->find("major") : nullptr;
    if (major != nullptr && detail::nvbench_integer(*major, file + ": meta.version.json.major") != 1)
      detail::bad_nvbench(file, "nvbench JSON format " + general(major->as_number()) + ".x; napkin reads format 1.x");
  }
  std::map<std::int64_t, detail::nvbench_device> devices;
  const std::vector<json_value>& device_list = detail::nvbench_array(doc, "devices", file);
  for (std::size_t i = 0; i < device_list.size(); ++i) {
    const json_value& d = device_list[i];
    const std::string at = file + ": devices[" + std::to_string(i) + "]";
    if (!d.is_object()) detail::bad_nvbench(at, "expected an object, got " + std::string(to_string(d.kind())));
    const std::int64_t id = detail::nvbench_integer(detail::nvbench_member(d, "id", at), at + ".id");
    detail::nvbench_device dev;
    dev.name = detail::nvbench_text(d, "name", at);
    if (const json_value* sm = d.find("sm_version"); sm != nullptr)
      dev.sm_version = detail::nvbench_integer(*sm, at + ".sm_version");
    if (const json_value* bw = d.find("global_memory_bus_bandwidth");
        bw != nullptr && bw->is_number() && bw->as_number() > 0 && std::isfinite(bw->as_number()))
      dev.bus_bandwidth = bw->as_number();
    if (!devices.emplace(id, std::move(dev)).second)
      detail::bad_nvbench(at, "device id " + std::to_string(id) + " twice");
  }
  nvbench_run out;
  out.file = file;
  std::set<std::int64_t> used;
  std::set<std::string> names;
  const std::vector<json_value>& benchmarks = detail::nvbench_array(doc, "benchmarks", file);
  for (std::size_t b = 0; b < benchmarks.size(); ++b) {
    const json_value& bench = benchmarks[b];
    const std::string bench_at = file + ": benchmarks[" + std::to_string(b) + "]";
    if (!bench.is_object())
      detail::bad_nvbench(bench_at, "expected an object, got " + std::string(to_string(bench.kind())));
    const std::string bench_name = detail::nvbench_text(bench, "name", bench_at);
    const std::vector<json_value>& states = detail::nvbench_array(bench, "states", bench_at);
    for (std::size_t s = 0; s < states.size(); ++s) {
      const json_value& st = states[s];
      const std::string at = bench_at + ".states[" + std::to_string(s) + "]";
      if (!st.is_object()) detail::bad_nvbench(at, "expected an object, got " + std::string(to_string(st.kind())));
      const std::string state_name = detail::nvbench_text(st, "name", at);
      const std::string name = state_name.empty() ? bench_name : bench_name + " " + state_name;
      if (const json_value* skipped = st.find("is_skipped");
          skipped != nullptr && skipped->kind() == json_value::type::boolean && skipped->as_boolean()) {
        const json_value* why = st.find("skip_reason");
        out.notes.push_back(printable(name) + ": skipped by nvbench" +
                            (why != nullptr && why->is_string() ? " (" + why->as_string() + ")" : std::string()));
        continue;
      }
      if (!names.insert(name).second)
        detail::bad_nvbench(at, "the state '" + quote_input(name) + "' is in the file twice");
      const std::int64_t device = detail::nvbench_integer(detail::nvbench_member(st, "device", at), at + ".device");
      const auto dev = devices.find(device);
      if (dev == devices.end())
        detail::bad_nvbench(at + ".device", "device " + std::to_string(device) + " is not in the file's \"devices\"");
      used.insert(device);
      sol_report k;
      k.name = name;
      k.how = measured_by::nvbench;
      k.metric_set = nvbench_metric_set(file);
      k.context.device_index = device;
      k.context.device_name = dev->second.name;
      const std::vector<json_value>& summaries = detail::nvbench_array(st, "summaries", at);
      for (std::size_t i = 0; i < summaries.size(); ++i) {
        const json_value& summary = summaries[i];
        const std::string summary_at = at + ".summaries[" + std::to_string(i) + "]";
        if (!summary.is_object())
          detail::bad_nvbench(summary_at, "expected an object, got " + std::string(to_string(summary.kind())));
        const std::string tag = detail::nvbench_text(summary, "tag", summary_at);
        const std::optional<double> x = detail::nvbench_summary_value(summary, summary_at);
        if (!x) continue;  // a summary that holds no number (a file name)
        if (tag.empty() || tag.size() > 256)
          detail::bad_nvbench(summary_at + ".tag", "expected a summary tag such as nv/cold/time/gpu/mean");
        if (k.values.count(tag) != 0)
          detail::bad_nvbench(summary_at, "the tag '" + quote_input(tag) + "' twice in one state");
        if (!std::isfinite(*x) && tag == nvbench_tags::cold_gpu_noise) {
          out.notes.push_back(printable(name) +
                              ": no noise (nvbench could not estimate it from its samples): its time changes "
                              "are held against the other file's noise, or the threshold alone");
          continue;
        }
        // As json_read_run.hpp reads a value back: a key with "pct" in it is a percentage.
        const std::string bad = detail::measured_number_problem(*x, tag.find("pct") != std::string::npos);
        if (!bad.empty()) {
          out.notes.push_back(printable(name) + ": " + printable(tag) + " left out, " + bad);
          continue;
        }
        k.values[tag] = *x;
      }
      // The time: the cold mean (each launch isolated, L2 flushed), else the batch mean (launches back to back).
      const bool cold = k.get(std::string(nvbench_tags::cold_gpu_mean)).has_value();
      const std::string time_tag(cold ? nvbench_tags::cold_gpu_mean : nvbench_tags::batch_gpu_mean);
      const std::optional<double> seconds = k.get(time_tag);
      const auto derive = [&k, &out, &name](const char* field, double value, bool percentage, std::string how) {
        const std::string bad = detail::measured_number_problem(value, percentage);
        if (!bad.empty()) {
          out.notes.push_back(printable(name) + ": " + field + " left out, " + bad);
          return false;
        }
        k.derived[field] = value;
        k.derivations[field] = std::move(how);
        return true;
      };
      if (!seconds) {
        out.notes.push_back(printable(name) +
                            ": no GPU time (neither nv/cold/time/gpu/mean nor nv/batch/time/gpu/mean)");
      } else if (derive("duration_ns", *seconds * 1e9, false,
                        "nvbench's " + time_tag +
                            (cold ? " (CUDA events around each isolated launch, L2 flushed between)"
                                  : " (launches back to back, their total over their count)") +
                            ", in ns")) {
        if (const auto noise = k.get(std::string(nvbench_tags::cold_gpu_noise)); noise && cold)
          derive(
              "duration_noise_pct", *noise * 100.0, true,
              "nvbench's nv/cold/time/gpu/stdev/relative: the relative standard deviation of the cold samples, in %");
        const auto bytes_per_s = k.get(std::string(nvbench_tags::global_bytes_per_second));
        if (bytes_per_s && cold)
          derive("dram_bytes", *bytes_per_s * *seconds, false,
                 "nvbench's nv/cold/bw/global/bytes_per_second x nv/cold/time/gpu/mean: the global-memory bytes the "
                 "benchmark declares (add_global_memory_reads/writes), not DRAM traffic counted by ncu");
        const auto utilization = k.get(std::string(nvbench_tags::global_utilization));
        if (utilization && cold)
          derive(
              "dram_pct", *utilization * 100.0, true,
              "nvbench's nv/cold/bw/global/utilization: the declared bytes per second of the device's bus bandwidth" +
                  (dev->second.bus_bandwidth ? " (" + si(*dev->second.bus_bandwidth, "B/s") + ")" : std::string()) +
                  ", not ncu's dram__throughput");
      }
      out.run.kernels.push_back(std::move(k));
    }
  }
  if (out.run.kernels.empty())
    detail::bad_nvbench(file, "no benchmark state that ran (nvbench's JSON with benchmarks -> states -> summaries)");
  std::set<std::string> device_names;
  for (std::int64_t id : used) device_names.insert(devices[id].name);
  if (device_names.size() == 1) {
    const detail::nvbench_device& d = devices[*used.begin()];
    out.gpu.name = d.name;
    if (d.sm_version > 0 && d.sm_version < 100000)
      out.gpu.compute_capability = std::to_string(d.sm_version / 100) + "." + std::to_string(d.sm_version / 10 % 10);
    out.gpu.key = gpu_key_for_device_name(d.name, d.sm_version);
    if (out.gpu.key.empty())
      out.notes.push_back("no GPU key: '" + printable(d.name) +
                          "' is not a device name napkin maps to its table (give --gpu)");
  } else {
    std::string list;
    for (const std::string& n : device_names) list += (list.empty() ? "" : ", ") + printable(n);
    out.notes.push_back("the states ran on " + std::to_string(device_names.size()) + " kinds of device (" + list +
                        "): the document names no one GPU; each kernel's context names its device");
  }
  return out;
}

NAPKIN_END_NAMESPACE
