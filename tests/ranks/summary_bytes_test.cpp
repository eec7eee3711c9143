// SPDX-License-Identifier: Apache-2.0
// The rank-summary byte format (napkin/report/rank_summary_bytes.hpp) without MPI: a round trip, and
// buffers whose counts claim more than they hold. Byte counts are worked out in the comments from the
// format: 4 magic + 1 version, per optional field a presence byte (+ 8 for an integer, + 8 + length for a
// text), an 8-byte row count, per row 8 + name + 1 + 8 + 8 + 1 (+ 8 with a communication time).
#include <doctest/doctest.h>

#include <string>

#include "napkin/report/rank_summary_bytes.hpp"

using namespace napkin;

namespace {
// The little-endian bytes of `v`, as the format writes every integer.
std::string le64(std::uint64_t v) {
  std::string out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}
// A summary of rank 0 with no other context and no row: 5, host absent (1), rank (1 + 8), six more fields
// absent (6), the row count 0 (8).
std::string header_rank0() {
  return std::string("NPKS\x01", 5) + '\x00' + '\x01' + le64(0) + std::string(6, '\0') + le64(0);
}
}  // namespace

TEST_CASE("rank summary bytes: a summary of many rows with empty names comes back whole") {
  rank_summary s;
  s.context.rank = 3;
  s.context.world_size = 4;
  for (int i = 0; i < 1000; ++i) s.rows.push_back({"", row_kind::kernel, 1, 2.0, std::nullopt});
  const std::string bytes = summary_bytes(s);
  // 5 + (1 + 0 absent host) + 9 rank + 9 world + 5 absent + 8 count + 1000 x 26 per row.
  CHECK(bytes.size() == 5 + 1 + 9 + 9 + 5 + 8 + 1000 * 26);
  std::string problem;
  const rank_summary back = summary_from_bytes(bytes.data(), bytes.size(), problem);
  CHECK(problem.empty());
  CHECK(back.rows.size() == 1000);
  CHECK(*back.context.rank == 3);
  CHECK(back.rows[999].gpu_ns == 2.0);
}

TEST_CASE("rank summary bytes: a count beyond the bytes present is refused before anything is made of it") {
  std::string problem;
  const std::string empty = header_rank0();
  const rank_summary none = summary_from_bytes(empty.data(), empty.size(), problem);
  CHECK(problem.empty());
  CHECK(none.rows.empty());
  // The count says 2^62 rows, the buffer holds none.
  std::string forged = empty.substr(0, empty.size() - 8) + le64(std::uint64_t{1} << 62);
  summary_from_bytes(forged.data(), forged.size(), problem);
  CHECK(problem == "a broken rank summary: row count 4611686018427387904 does not fit in the 0 bytes left");
  // One row claimed, 25 bytes given: one short of the smallest row.
  forged = empty.substr(0, empty.size() - 8) + le64(1) + std::string(25, '\0');
  summary_from_bytes(forged.data(), forged.size(), problem);
  CHECK(problem == "a broken rank summary: row count 1 does not fit in the 25 bytes left");
  // A host name of 2^63 bytes in a 30-byte buffer.
  forged = std::string("NPKS\x01", 5) + '\x01' + le64(std::uint64_t{1} << 63) + std::string(16, '\0');
  summary_from_bytes(forged.data(), forged.size(), problem);
  CHECK(problem == "a broken rank summary: truncated at byte 9 (host)");
}
