// SPDX-License-Identifier: Apache-2.0
// napkin/report/json_read.hpp — reading napkin's JSON documents back: a file or a string becomes a
// json_value (parse_json, read_json_file) or the flattened report_document diff() compares
// (read_document, read_document_file).
//
// OPTIONAL: the one napkin header that needs a library beyond the CUDA toolkit, nlohmann/json
// (Debian/Ubuntu: nlohmann-json3-dev; https://github.com/nlohmann/json), for its parser. Nothing else in
// napkin includes it; writing documents needs nothing (document/json_writer.hpp).
//
// Nothing is thrown, with or without exceptions: every problem comes back as text naming the source
// and what is wrong (a file that cannot be read, one that is not a regular file or is larger than 64 MiB,
// an empty file, JSON syntax with its byte offset, a number too large for a double, nesting deeper than 256
// levels), and report_document::problem adds what makes a
// document unusable (no schema, an unknown schema_version, a wrong type). diff() turns a problem into its
// bad_input outcome.
#pragma once

#include "napkin/config.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "napkin/document/document.hpp"
#include "napkin/document/json_writer.hpp"

NAPKIN_BEGIN_NAMESPACE

struct json_read_result {
  json_value value;
  std::string problem;  // empty when the text was one valid JSON value
  bool ok() const { return problem.empty(); }
};

namespace detail {

// nlohmann's SAX interface, building a json_value. Containers are open on `stack`; a value goes into the
// innermost one (or becomes the root). Only the innermost container grows, so pointers to the outer ones
// stay valid.
class json_value_builder {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;
  static constexpr std::size_t max_depth = 256;

  json_value root;
  std::string problem;

  bool null() { return add(json_value()); }
  bool boolean(bool b) { return add(json_value::boolean(b)); }
  bool number_integer(number_integer_t v) { return add(json_value::number(static_cast<double>(v))); }
  bool number_unsigned(number_unsigned_t v) { return add(json_value::count(static_cast<std::uint64_t>(v))); }
  bool number_float(number_float_t v, const string_t& text) {
    if (!std::isfinite(v)) return fail("the number " + text + " does not fit a double");
    return add(json_value::number(v));
  }
  bool string(string_t& s) { return add(json_value::string(std::move(s))); }
  bool binary(binary_t&) { return fail("binary data is not JSON"); }
  bool start_object(std::size_t) { return open(json_value::object()); }
  bool key(string_t& k) {
    key_ = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(json_value::array()); }
  bool end_array() { return close(); }
  template <class Exception>
  bool parse_error(std::size_t byte, const std::string&, const Exception& e) {
    // e.what(): "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    std::string what = e.what();
    const std::size_t bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) what = what.substr(bracket + 2);
    return fail("not valid JSON (byte " + std::to_string(byte) + "): " + what);
  }

 private:
  bool fail(std::string why) {
    if (problem.empty()) problem = std::move(why);
    return false;
  }
  json_value* add_to_top(json_value v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    json_value& top = *stack_.back();
    if (!top.is_object()) return &top.push(std::move(v));
    // A repeated name replaces the earlier member (as set() would), found through the object's index.
    auto& names = names_.back();
    const auto [it, inserted] = names.try_emplace(key_, top.items().size());
    if (!inserted) return &(top.item_at(it->second) = std::move(v));
    return &top.add_member(key_, std::move(v));
  }
  bool add(json_value v) {
    add_to_top(std::move(v));
    return true;
  }
  bool open(json_value container) {
    if (stack_.size() >= max_depth) return fail("nested deeper than " + std::to_string(max_depth) + " levels");
    stack_.push_back(add_to_top(std::move(container)));
    names_.emplace_back();
    return true;
  }
  bool close() {
    stack_.pop_back();
    names_.pop_back();
    return true;
  }
  std::vector<json_value*> stack_;
  std::vector<std::unordered_map<std::string, std::size_t>> names_;  // per open container: member name -> index
  std::string key_;
};

}  // namespace detail

// One JSON value from text; `source` names it in the problem ("<string>", a file name).
inline json_read_result parse_json(std::string_view text, const std::string& source = "<string>") {
  json_read_result r;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    r.problem = source + ": " + (text.empty() ? "empty" : "only white space") + ", not a JSON document";
    return r;
  }
  detail::json_value_builder builder;
  const bool parsed = nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
  if (!parsed || !builder.problem.empty()) {
    r.problem = source + ": " + (builder.problem.empty() ? "not valid JSON" : builder.problem);
    return r;
  }
  r.value = std::move(builder.root);
  return r;
}

// The largest document napkin reads: larger is not a report napkin wrote, and reading it whole would
// take that much memory.
constexpr std::size_t max_document_bytes = std::size_t{64} << 20;

namespace detail {
inline const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}
}  // namespace detail

// The contents of a file: "" and a problem when it cannot be read (missing, no permission, not a regular
// file, larger than max_document_bytes). The one file reader of every napkin document reader (JSON
// documents, GPU files, the CLI's runs and ranks): /dev/zero, a FIFO or a folder are refused before
// anything is read (a FIFO is opened without waiting for a writer), and no more than the limit is read.
inline std::string read_file_text(const std::string& path, std::string& problem) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    problem = path + ": cannot open: " + std::strerror(errno);
    return {};
  }
  struct stat st {};
  std::string text;
  if (::fstat(fd, &st) != 0) {
    problem = path + ": cannot read: " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    problem = path + " is not a regular file (" + detail::file_type_name(st.st_mode) + "): napkin reads documents from files";
  } else if (static_cast<unsigned long long>(st.st_size) > max_document_bytes) {
    problem = path + " is larger than 64 MiB, napkin's limit for a document";
  } else {
    char buf[65536];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        problem = path + ": cannot read: " + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      text.append(buf, static_cast<std::size_t>(n));
      if (text.size() > max_document_bytes) {  // it grew while being read
        problem = path + " is larger than 64 MiB, napkin's limit for a document";
        break;
      }
    }
  }
  ::close(fd);
  if (!problem.empty()) text.clear();
  return text;
}

inline json_read_result read_json_file(const std::string& path) {
  json_read_result r;
  const std::string text = read_file_text(path, r.problem);
  if (!r.ok()) return r;
  return parse_json(text, path);
}

// A napkin report document from JSON text or a file, flattened for diff(). problem says what is wrong.
inline report_document read_document(std::string_view text, const std::string& source = "<string>") {
  json_read_result r = parse_json(text, source);
  if (!r.ok()) {
    report_document d;
    d.source = source;
    d.problem = r.problem;
    return d;
  }
  return flatten(r.value, source);
}

inline report_document read_document_file(const std::string& path) {
  report_document d;
  d.source = path;
  const std::string text = read_file_text(path, d.problem);
  if (!d.ok()) return d;
  return read_document(text, path);
}

NAPKIN_END_NAMESPACE
