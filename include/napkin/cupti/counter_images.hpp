// SPDX-License-Identifier: Apache-2.0
// The bytes CUPTI takes from outside, checked before CUPTI reads them: counter-availability images and
// counter-data images.
//
// CUPTI follows the offsets inside these images without bounds checks, so a garbage or truncated image
// crashed inside CUPTI (SIGSEGV). napkin refuses it with a profiler_error that says what is wrong. Host-only:
// no GPU or driver needed.
#pragma once

#include "napkin/config.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "napkin/cupti/errors.hpp"

NAPKIN_BEGIN_NAMESPACE
namespace detail {

// Little-endian fields of an image, read without alignment assumptions. Callers check the bounds first.
template <class T>
T image_field(const std::vector<std::uint8_t>& image, std::size_t offset) noexcept {
  T v{};
  std::memcpy(&v, image.data() + offset, sizeof v);
  return v;
}

// A counter-availability image (cuptiProfilerGetCounterAvailability) is a FlatBuffer: a 32-bit offset to
// its root table, whose first 32 bits point (backwards, signed) to the table's vtable {u16 vtable size,
// u16 table size, u16 field offsets...}. CUPTI's host API takes no size for it and reads those offsets
// blindly (a 16-byte image crashed cuptiProfilerHostInitialize), so napkin checks that the root table and its
// vtable lie inside the bytes. What the fields point to cannot be checked without CUPTI's schema.
inline void check_counter_availability_image(const std::vector<std::uint8_t>& image) {
  const std::size_t n = image.size();
  auto refuse = [n](const std::string& why) {
    raise_profiler_error("napkin: the counter availability image (" + std::to_string(n) +
                         " bytes) is not one CUPTI wrote: " + why +
                         "; pass the bytes of cuptiProfilerGetCounterAvailability unchanged, or none");
  };
  if (n < 12) refuse("it is shorter than the smallest possible image (12 bytes)");
  const std::uint32_t root = image_field<std::uint32_t>(image, 0);
  if (root > n - 4) refuse("its root offset " + std::to_string(root) + " points past its end");
  const std::int64_t vtable = static_cast<std::int64_t>(root) - image_field<std::int32_t>(image, root);
  if (vtable < 0 || vtable > static_cast<std::int64_t>(n) - 4)
    refuse("its root table's field table lies outside it (at " + std::to_string(vtable) + ")");
  const auto vt = static_cast<std::size_t>(vtable);
  const std::uint16_t vtable_size = image_field<std::uint16_t>(image, vt);
  const std::uint16_t table_size = image_field<std::uint16_t>(image, vt + 2);
  if (vtable_size < 4 || vtable_size % 2 != 0 || vt + vtable_size > n)
    refuse("its field table has an impossible size (" + std::to_string(vtable_size) + " bytes)");
  if (table_size < 4 || root + std::size_t{table_size} > n)
    refuse("its root table (" + std::to_string(table_size) + " bytes at " + std::to_string(root) +
           ") runs past its end");
  for (std::size_t i = 4; i < vtable_size; i += 2) {
    const std::uint16_t field = image_field<std::uint16_t>(image, vt + i);
    if (field != 0 && (field < 4 || field >= table_size))
      refuse("field " + std::to_string(i / 2 - 2) + " of its root table lies outside the table");
  }
}

// A counter-data image (cuptiRangeProfilerCounterDataImageInitialize, then filled by the passes and
// DecodeData) as CUPTI 13.0 lays it out: the 8 bytes "LOPDATA\0", a 60-byte header, and arrays located by
// descriptors {u64 descriptor size, u64 offset, u64 element size, u64 count} whose positions are the 32-bit
// header fields at 0x20, 0x24, 0x30, 0x34 and 0x38; the header fields at 0x28 and 0x2c are offsets too, and
// the last array ends where the image ends. Observed on images CUPTI's host library wrote for GH100 (1, 4 and
// 16 ranges) and checked against CUPTI: changing any of these fields made cuptiProfilerHostEvaluateToGpuValues
// crash. napkin checks each against the size of the bytes before CUPTI reads them.
inline constexpr char counter_data_magic[8] = {'L', 'O', 'P', 'D', 'A', 'T', 'A', '\0'};
inline constexpr std::size_t counter_data_header_bytes = 60;

inline void check_counter_data_image(const std::vector<std::uint8_t>& image, const char* call) {
  const std::size_t n = image.size();
  auto refuse = [&](const std::string& why) {
    raise_profiler_error(std::string("napkin: ") + call + ": the counter-data image (" + std::to_string(n) +
                         " bytes) " + why);
  };
  if (n == 0) refuse("is empty");
  if (n < counter_data_header_bytes)
    refuse("is shorter than CUPTI's 60-byte header: not a counter-data image, or a truncated one");
  if (std::memcmp(image.data(), counter_data_magic, sizeof counter_data_magic) != 0)
    refuse("does not start with CUPTI's \"LOPDATA\" header: not a counter-data image");
  for (std::size_t field : {0x28, 0x2c}) {
    const std::uint32_t offset = image_field<std::uint32_t>(image, field);
    if (offset > n) refuse("is truncated or damaged: its header points at byte " + std::to_string(offset));
  }
  for (std::size_t field : {0x20, 0x24, 0x30, 0x34, 0x38}) {
    const std::uint32_t at = image_field<std::uint32_t>(image, field);
    if (at < counter_data_header_bytes || at > n || n - at < 32)
      refuse("is truncated or damaged: its header points at an array description at byte " + std::to_string(at));
    const auto descriptor_size = image_field<std::uint64_t>(image, at);
    const auto offset = image_field<std::uint64_t>(image, at + 8);
    const auto element = image_field<std::uint64_t>(image, at + 16);
    const auto count = image_field<std::uint64_t>(image, at + 24);
    // The array [offset, offset + element * count) must lie inside the image (overflow-safe).
    const bool inside = descriptor_size >= 32 && offset <= n &&
                        (element == 0 || count <= (n - offset) / element);
    if (!inside)
      refuse("is truncated or damaged: an array of " + std::to_string(count) + " x " + std::to_string(element) +
             " bytes at byte " + std::to_string(offset) + " does not fit in it");
  }
}

}  // namespace detail
NAPKIN_END_NAMESPACE
