// SPDX-License-Identifier: Apache-2.0
// A GPU's UUID as nvidia-smi -L and NVML print it: "GPU-" then the 16 bytes in lowercase hex, grouped
// 8-4-4-4-12 ("GPU-8c0b1e2a-4f3d-...-...").
//
// Plain C++17: the bytes come from cudaDeviceProp::uuid (document/context_cuda.hpp); the text is tested
// without a GPU.
#pragma once

#include "napkin/config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

NAPKIN_BEGIN_NAMESPACE

inline std::string gpu_uuid_text(const std::array<std::uint8_t, 16>& bytes) {
  constexpr const char* hex = "0123456789abcdef";
  std::string out = "GPU-";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += hex[bytes[i] >> 4];
    out += hex[bytes[i] & 0xf];
  }
  return out;
}

NAPKIN_END_NAMESPACE
