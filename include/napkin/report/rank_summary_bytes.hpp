// SPDX-License-Identifier: Apache-2.0
// napkin/report/rank_summary_bytes.hpp — a rank summary (cross_rank.hpp) as napkin's own compact byte
// format and back: what napkin::mpi::gather (napkin/mpi.hpp) sends between ranks. Plain C++17 and no MPI,
// so that the decoder, which reads bytes another process sent, can be tested and fuzzed without MPI.
//
// The format: a magic "NPKS", a version byte, then the context and the rows; integers as 8 little-endian
// bytes, doubles as their IEEE-754 bits in the same order, texts as their length then their bytes, an
// optional field as a presence byte then the value. summary_from_bytes checks every length and count
// against the bytes actually present before it makes anything of it, so a truncated, foreign or forged
// buffer is a problem (returned as text), never a read past its end nor an allocation beyond the input's size;
// the rank and world size are then checked as every reader of rank reports checks them (validate_rank_fields).
#pragma once

#include "napkin/config.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "napkin/report/cross_rank.hpp"

NAPKIN_BEGIN_NAMESPACE

namespace detail {

inline constexpr char summary_magic[4] = {'N', 'P', 'K', 'S'};
inline constexpr unsigned char summary_version = 1;
// The fewest bytes a row takes: name length (8), kind (1), launches (8), GPU time (8), communication flag (1).
inline constexpr std::size_t summary_row_bytes = 8 + 1 + 8 + 8 + 1;

class byte_writer {
 public:
  std::string bytes;
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void f64(double d) {
    std::uint64_t v = 0;
    std::memcpy(&v, &d, sizeof v);
    u64(v);
  }
  void text(const std::string& s) {
    u64(s.size());
    bytes += s;
  }
  void optional_i64(const std::optional<std::int64_t>& v) {
    bytes.push_back(v ? 1 : 0);
    if (v) u64(static_cast<std::uint64_t>(*v));
  }
  void optional_text(const std::optional<std::string>& v) {
    bytes.push_back(v ? 1 : 0);
    if (v) text(*v);
  }
};

class byte_reader {
 public:
  byte_reader(const char* data, std::size_t size) : data_(data), size_(size) {}
  std::string problem;  // the first thing that did not fit
  bool ok() const { return problem.empty(); }
  bool at_end() const { return at_ == size_; }
  std::size_t left() const { return size_ - at_; }

  bool take(std::size_t n, const char* what) {
    if (!ok()) return false;
    if (n > size_ - at_) {
      problem = std::string("truncated at byte ") + std::to_string(at_) + " (" + what + ")";
      return false;
    }
    return true;
  }
  unsigned char u8(const char* what) {
    if (!take(1, what)) return 0;
    return static_cast<unsigned char>(data_[at_++]);
  }
  std::uint64_t u64(const char* what) {
    if (!take(8, what)) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[at_ + i])) << (8 * i);
    at_ += 8;
    return v;
  }
  double f64(const char* what) {
    const std::uint64_t v = u64(what);
    double d = 0;
    std::memcpy(&d, &v, sizeof d);
    return d;
  }
  std::string text(const char* what) {
    const std::uint64_t n = u64(what);
    if (!take(n, what)) return {};
    std::string s(data_ + at_, static_cast<std::size_t>(n));
    at_ += static_cast<std::size_t>(n);
    return s;
  }
  std::optional<std::int64_t> optional_i64(const char* what) {
    if (u8(what) == 0) return std::nullopt;
    return static_cast<std::int64_t>(u64(what));
  }
  std::optional<std::string> optional_text(const char* what) {
    if (u8(what) == 0) return std::nullopt;
    return text(what);
  }

 private:
  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace detail

// A summary as bytes.
inline std::string summary_bytes(const rank_summary& s) {
  detail::byte_writer w;
  w.bytes.append(detail::summary_magic, 4);
  w.bytes.push_back(static_cast<char>(detail::summary_version));
  const report_context& c = s.context;
  w.optional_text(c.host);
  w.optional_i64(c.rank);
  w.optional_i64(c.world_size);
  w.optional_i64(c.local_rank);
  w.optional_i64(c.device_index);
  w.optional_text(c.device_name);
  w.optional_text(c.device_pci_bus_id);
  w.optional_text(c.device_uuid);
  w.u64(s.rows.size());
  for (const rank_row& r : s.rows) {
    w.text(r.name);
    w.bytes.push_back(r.by == row_kind::phase ? 1 : 0);
    w.u64(r.launches);
    w.f64(r.gpu_ns);
    w.bytes.push_back(r.communication_ns ? 1 : 0);
    if (r.communication_ns) w.f64(*r.communication_ns);
  }
  return std::move(w.bytes);
}

// The summary the bytes hold; `problem` says why they hold none (and the summary is then empty).
inline rank_summary summary_from_bytes(const char* data, std::size_t size, std::string& problem) {
  problem.clear();
  if (size < 5 || std::memcmp(data, detail::summary_magic, 4) != 0) {
    problem = "not a napkin rank summary (no \"NPKS\" magic)";
    return {};
  }
  if (static_cast<unsigned char>(data[4]) != detail::summary_version) {
    problem = "rank summary format version " + std::to_string(static_cast<unsigned char>(data[4])) +
              ", this napkin reads version " + std::to_string(detail::summary_version);
    return {};
  }
  detail::byte_reader r(data + 5, size - 5);
  rank_summary s;
  report_context& c = s.context;
  c.host = r.optional_text("host");
  c.rank = r.optional_i64("rank");
  c.world_size = r.optional_i64("world_size");
  c.local_rank = r.optional_i64("local_rank");
  c.device_index = r.optional_i64("device_index");
  c.device_name = r.optional_text("device_name");
  c.device_pci_bus_id = r.optional_text("device_pci_bus_id");
  c.device_uuid = r.optional_text("device_uuid");
  const std::uint64_t rows = r.u64("row count");
  // Every count is bounded by the bytes actually left before anything is made of it: a row takes at least
  // detail::summary_row_bytes, a text its length.
  if (r.ok() && rows > r.left() / detail::summary_row_bytes)
    r.problem = "row count " + std::to_string(rows) + " does not fit in the " + std::to_string(r.left()) + " bytes left";
  for (std::uint64_t i = 0; i < rows && r.ok(); ++i) {
    rank_row row;
    row.name = r.text("row name");
    const unsigned char by = r.u8("row kind");
    if (by > 1 && r.ok()) r.problem = "row " + std::to_string(i) + ": unknown kind " + std::to_string(by);
    row.by = by == 1 ? row_kind::phase : row_kind::kernel;
    row.launches = r.u64("launches");
    row.gpu_ns = r.f64("gpu_ns");
    if (r.u8("communication flag") != 0) row.communication_ns = r.f64("communication_ns");
    s.rows.push_back(std::move(row));
  }
  if (r.ok() && !r.at_end()) r.problem = "bytes left over after the last row";
  // A world size or rank past napkin's limit would make the table list up to 10^12 absent ranks.
  if (r.ok()) {
    std::string bad = validate_rank_fields(c, "the summary");
    if (!bad.empty()) r.problem = std::move(bad);
  }
  if (!r.ok()) {
    problem = "a broken rank summary: " + r.problem;
    return {};
  }
  return s;
}

NAPKIN_END_NAMESPACE
