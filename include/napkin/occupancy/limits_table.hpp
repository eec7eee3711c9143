// SPDX-License-Identifier: Apache-2.0
// napkin/occupancy/limits_table.hpp — napkin's table: the sm_limits of every compute capability it knows,
// with the public source of each entry (docs/occupancy.md lists them). An unknown CC is an error, never a guess.
#pragma once

#include "napkin/occupancy/limits.hpp"

#include <array>
#include <cstddef>
#include <string>

NAPKIN_BEGIN_NAMESPACE

namespace detail {
// Keep the list in the message in step with known_compute_capabilities below.
[[noreturn]] inline void unknown_compute_capability(int major, int minor) {
  detail::raise_input_error("napkin::occupancy: unknown compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) +
                            " (napkin knows 5.0-5.3, 6.0-6.2, 7.0, 7.2, 7.5, 8.0, 8.6-8.9, 9.0, 10.0, 10.1, "
                            "10.3, 11.0, 12.0, 12.1; it never guesses)");
}

// The sources the entries name (sm_limits::source).
inline constexpr const char* guide_tables =
    "CUDA Programming Guide (Dec 2025) sec. 5.1.3, Tables 30-32 (limits, carveouts); register allocation unit: "
    "CUDA C++ Best Practices Guide, Calculating Occupancy; allocation units, sub-partitions and barriers: "
    "behaviour of CUDA 13.0 cuda_occupancy.h";
inline constexpr const char* legacy_tables =
    "CUDA C++ Programming Guide of CUDA 12 and earlier, Features and Technical Specifications (and NVIDIA CCCL "
    "arch_traits.h for 6.x/7.0); allocation units and block limits: CUDA 13.0 cuda_occupancy.h";

template <std::size_t N>
constexpr void set_carveouts(sm_limits& l, const int (&kib)[N]) {  // NOLINT(*-avoid-c-arrays): a braced list
  static_assert(N <= 10, "at most 10 carveout sizes");
  for (std::size_t i = 0; i < N; ++i) l.carveouts_kib[i] = kib[i];
  l.carveout_count = static_cast<int>(N);
}

// What every entry sets; the other fields keep sm_limits' defaults (1024 threads and 64 K registers per
// block, 255 registers per thread in warp units of 256 over 4 sub-partitions, 48 KiB per block).
constexpr sm_limits table_entry(compute_capability cc, const char* arch, int threads_per_sm, int blocks_per_sm,
                                int smem_per_sm_kib, const char* source) {
  sm_limits l{};
  l.cc = cc;
  l.architecture = arch;
  l.max_threads_per_sm = threads_per_sm;
  l.max_blocks_per_sm = blocks_per_sm;
  l.smem_per_sm = smem_per_sm_kib * 1024;
  l.source = source;
  return l;
}

constexpr sm_limits pre_volta(compute_capability cc, const char* arch, int smem_per_sm_kib, int regs_per_block) {
  sm_limits l = table_entry(cc, arch, 2048, 32, smem_per_sm_kib, legacy_tables);
  l.registers_per_block = regs_per_block;
  return l;
}

// CC >= 8.0: 1 KiB reserved per block, 128-byte allocation unit, opt-in = SM's shared memory - reserve.
// Block-barrier slots (CC >= 9.0) and virtual resources (CC >= 10.0) as cuda_occupancy.h 13.0 has them.
constexpr sm_limits ampere_plus(compute_capability cc, const char* arch, int threads_per_sm, int blocks_per_sm,
                                int smem_per_sm_kib, int barriers_per_sm = 0, int virtual_resources_per_sm = 0) {
  sm_limits l = table_entry(cc, arch, threads_per_sm, blocks_per_sm, smem_per_sm_kib, guide_tables);
  l.smem_reserved_per_block = 1024;
  l.smem_per_block_optin = l.smem_per_sm - l.smem_reserved_per_block;
  l.smem_allocation_unit = 128;
  if (smem_per_sm_kib == 100) set_carveouts(l, {0, 8, 16, 32, 64, 100});
  if (smem_per_sm_kib == 164) set_carveouts(l, {0, 8, 16, 32, 64, 100, 132, 164});
  if (smem_per_sm_kib == 228) set_carveouts(l, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228});
  l.barriers_per_sm = barriers_per_sm;
  l.virtual_resources_per_sm = virtual_resources_per_sm;
  return l;
}
}  // namespace detail

// The limits of a compute capability. Unknown CCs are an error, never a guess.
constexpr sm_limits limits_of(compute_capability cc) {
  using detail::ampere_plus;
  using detail::pre_volta;
  switch (cc.number()) {
    case 50: return pre_volta(cc, "Maxwell", 64, 65536);
    // 5.2: 64 K registers per block, as the legacy Programming Guide lists (spreadsheet transcriptions say 32 K).
    case 52: return pre_volta(cc, "Maxwell", 96, 65536);
    case 53: return pre_volta(cc, "Maxwell (Tegra X1)", 64, 32768);
    case 60: {
      sm_limits l = pre_volta(cc, "Pascal (GP100)", 64, 65536);
      l.register_sub_partitions = 2;
      return l;
    }
    case 61: return pre_volta(cc, "Pascal", 96, 65536);
    case 62: return pre_volta(cc, "Pascal (Tegra X2)", 64, 32768);
    case 70:
    case 72: {
      sm_limits l = pre_volta(cc, cc.minor == 0 ? "Volta" : "Volta (Xavier)", 96, 65536);
      l.smem_per_block_optin = 96 * 1024;
      detail::set_carveouts(l, {0, 8, 16, 32, 64, 96});
      return l;
    }
    case 75: {
      sm_limits l = detail::table_entry(cc, "Turing", 1024, 16, 64, detail::guide_tables);
      l.smem_per_block_optin = 64 * 1024;
      detail::set_carveouts(l, {32, 64});
      return l;
    }
    case 80: return ampere_plus(cc, "Ampere (GA100)", 2048, 32, 164);
    case 86: return ampere_plus(cc, "Ampere", 1536, 16, 100);
    case 87: return ampere_plus(cc, "Ampere (Orin)", 1536, 16, 164);
    case 88: {
      // nvcc 13 targets sm_88, but no NVIDIA table lists it; CCCL's arch_traits<sm_88> copies sm_86.
      sm_limits l = ampere_plus(cc, "Ampere (sm_88, unverified)", 1536, 16, 100);
      l.verified = false;
      l.source = "not in the Programming Guide; NVIDIA CCCL arch_traits<sm_88> copies sm_86 (unverified)";
      return l;
    }
    case 89: return ampere_plus(cc, "Ada", 1536, 24, 100);
    case 90: return ampere_plus(cc, "Hopper", 2048, 32, 228, 64);
    case 100:
    case 103: return ampere_plus(cc, "Blackwell", 2048, 32, 228, 64, 128);
    case 101:  // Thor's CC before CUDA 13 renamed it 11.0 (sm_101 -> sm_110); same limits
    case 110: return ampere_plus(cc, "Blackwell (Thor)", 1536, 24, 228, 24, 128);
    case 120:
    case 121: return ampere_plus(cc, "Blackwell (GeForce/DGX Spark)", 1536, 24, 100, 24, 128);
    default: detail::unknown_compute_capability(cc.major, cc.minor);
  }
}

// Every compute capability napkin knows, oldest first.
inline constexpr std::array<compute_capability, 21> known_compute_capabilities{{
    {5, 0}, {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2}, {7, 0}, {7, 2}, {7, 5}, {8, 0},
    {8, 6}, {8, 7}, {8, 8}, {8, 9}, {9, 0}, {10, 0}, {10, 1}, {10, 3}, {11, 0}, {12, 0}, {12, 1}}};

NAPKIN_END_NAMESPACE
