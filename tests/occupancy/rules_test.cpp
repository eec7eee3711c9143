// Golden occupancy cases, pinned at compile time, and the run-time behaviour around them.
// Expected values are hand arithmetic written out next to each case, or the worked examples of
// docs/occupancy.md that were produced by the toolkit's cuda_occupancy.h (CUDA 13.0).
#include <doctest/doctest.h>

#include <napkin/occupancy.hpp>

#include <stdexcept>
#include <string>

namespace {
using napkin::compute_capability;
using napkin::kernel_resources;
using napkin::limiter;
using napkin::occupancy;

constexpr compute_capability sm_75{7, 5}, sm_80{8, 0}, sm_86{8, 6}, sm_90{9, 0}, sm_120{12, 0};
constexpr int KiB = 1024;

constexpr unsigned bits(limiter a) { return static_cast<unsigned>(a); }
constexpr unsigned bits(limiter a, limiter b) { return static_cast<unsigned>(a) | static_cast<unsigned>(b); }

// --- The golden case: H100, 256 threads, 32 registers, 8 KiB -> 8 blocks, 100%. ------------------
// Registers: 32 x 32 = 1024 per warp; 16384 / 1024 = 16 warps per sub-partition, x4 = 64 warps = 8 blocks.
// Shared memory: 8192 + 1024 reserved = 9216 B per block; 233472 / 9216 = 25 blocks.
// Warps: 64 / 8 = 8 blocks. Minimum 8: warps and registers tie.
constexpr auto golden = occupancy(sm_90, 256, 32, 8 * KiB);
static_assert(golden.blocks_per_sm == 8);
static_assert(golden.active_warps() == 64 && golden.occupancy() == 1.0);
static_assert(golden.blocks_by_registers == 8 && golden.blocks_by_shared_memory == 25 && golden.blocks_by_warps == 8);
static_assert(golden.smem_per_block == 9216 && golden.registers_per_block == 8192);
static_assert(golden.limiters.bits == bits(limiter::warps, limiter::registers));

// --- Registers (sub-partition rule, 256-register allocation unit per warp) ----------------------------------
// 128 regs: 4096/warp, 4 warps/sub-partition, 16 warps, 2 blocks of 8 warps: 25%.
static_assert(occupancy(sm_90, 256, 128).blocks_per_sm == 2 && occupancy(sm_90, 256, 128).active_warps() == 16);
static_assert(occupancy(sm_90, 256, 128).limiters.bits == bits(limiter::registers));
// 255 regs count as 256: 8192/warp, 2 warps/sub-partition, 8 warps: 1 block.
static_assert(occupancy(sm_90, 256, 255).blocks_per_sm == 1);
// 1024 threads x 64 regs = 65536 = the per-block limit: 1 block, 32 warps, 50%.
static_assert(occupancy(sm_90, 1024, 64).blocks_per_sm == 1 && occupancy(sm_90, 1024, 64).occupancy() == 0.5);
// 65 regs count as 72: 32 warps x 2304 = 73728 > 65536 registers per block: cannot launch.
static_assert(occupancy(sm_90, 1024, 65).blocks_per_sm == 0);
static_assert(occupancy(sm_90, 1024, 65).limiters.bits == bits(limiter::registers));
// 33 regs count as 40: 1280/warp, floor(16384/1280) = 12 warps/sub-partition, 48 warps: 6 blocks of 8 (75%).
static_assert(occupancy(sm_90, 256, 33).blocks_per_sm == 6 && occupancy(sm_90, 256, 33).occupancy() == 0.75);
static_assert(occupancy(sm_90, 64, 33).blocks_per_sm == 24);   // 48 warps / 2
static_assert(occupancy(sm_90, 64, 40).blocks_per_sm == 24);   // 12.8 -> 12 warps/sub-partition
static_assert(occupancy(sm_90, 96, 40).blocks_per_sm == 16);   // 48 / 3
// The kokkos #5739 case: 92 regs -> 96, 3072/warp, 5 warps/sub-partition, 20 warps, blocks of 7 warps: 2.
static_assert(occupancy(sm_90, 224, 92).blocks_per_sm == 2 && occupancy(sm_80, 224, 92).blocks_per_sm == 2);
// 80 regs: 2560/warp, 6 warps/sub-partition, 24 warps: 3 blocks of 7.
static_assert(occupancy(sm_90, 224, 80).blocks_per_sm == 3);
// 72 regs: 2304/warp, 7 warps/sub-partition, 28 warps, blocks of 3 warps: 9 blocks, 27 warps.
static_assert(occupancy(sm_90, 96, 72).blocks_per_sm == 9 && occupancy(sm_90, 96, 72).active_warps() == 27);

// --- Shared memory (1 KiB reserve per block on CC >= 8.0, 128-byte unit, carveout steps) ---------------
// 12 KiB + 1 KiB = 13312 B; 233472 / 13312 = 17 (not 228/12 = 19).
static_assert(occupancy(sm_90, 32, 8, 12 * KiB).blocks_per_sm == 17);
static_assert(occupancy(sm_90, 32, 8, 12 * KiB).limiters.bits == bits(limiter::shared_memory));
// 32 KiB + 1 KiB = 33792 B; 233472 / 33792 = 6.9 -> 6 blocks, 48 warps, 75%.
static_assert(occupancy(sm_90, 256, 32, 32 * KiB).blocks_per_sm == 6);
// 32256 + 1024 = 33280 = 233472 / 7 rounded down to 128: exactly 7 blocks.
static_assert(occupancy(sm_90, 256, 32, 32256).blocks_per_sm == 7);
// A100: 167936 / 33792 = 4.97 -> 4. RTX 30xx (8.6): 102400 / 33792 = 3.03 -> 3 blocks = 24 of 48 warps.
static_assert(occupancy(sm_80, 256, 32, 32 * KiB).blocks_per_sm == 4);
static_assert(occupancy(sm_86, 256, 32, 32 * KiB).blocks_per_sm == 3 && occupancy(sm_86, 256, 32, 32 * KiB).occupancy() == 0.5);
// No shared memory still allocates the reserve: 233472 / 1024 = 228 blocks by shared memory.
static_assert(occupancy(sm_90, 256, 32).blocks_by_shared_memory == 228);

// --- Block limits and warp slots per architecture ------------------------------------------------------
static_assert(occupancy(sm_86, 32, 16).blocks_per_sm == 16);  // 16 blocks/SM on 8.6: 16 of 48 warps
static_assert(occupancy(sm_86, 32, 16).limiters.bits == bits(limiter::blocks));
// 12.0: 24 blocks/SM; the 24 block-barrier slots with 1 barrier per block tie (as in cuda_occupancy.h).
static_assert(occupancy(sm_120, 32, 16).blocks_per_sm == 24);
static_assert(occupancy(sm_120, 32, 16).limiters.bits == bits(limiter::blocks, limiter::barriers));
// The denominator is per architecture: 128 regs, 256 threads = 16 warps is 16/48 on 8.6 and 16/32 on 7.5.
static_assert(occupancy(sm_86, 256, 128).active_warps() == 16 && occupancy(sm_86, 256, 128).max_warps_per_sm == 48);
static_assert(occupancy(sm_75, 256, 128).occupancy() == 0.5);
// 1024-thread blocks on 8.6: 48 warp slots hold one 32-warp block: 66.7%.
static_assert(occupancy(sm_86, 1024, 32).blocks_per_sm == 1 && occupancy(sm_86, 1024, 32).active_warps() == 32);

// Every known CC reaches 100% with 256 threads, 32 registers and no shared memory.
constexpr bool every_cc_reaches_full_occupancy() {
  for (const auto cc : napkin::known_compute_capabilities)
    if (occupancy(cc, 256, 32).occupancy() != 1.0) return false;
  return true;
}
static_assert(every_cc_reaches_full_occupancy());

// napkin's own table passes the validation every user-built sm_limits goes through.
constexpr bool every_table_entry_is_valid() {
  for (const auto cc : napkin::known_compute_capabilities)
    if (napkin::check_limits(napkin::limits_of(cc)) != napkin::limits_error::none) return false;
  return true;
}
static_assert(every_table_entry_is_valid());

// --- Legacy quirks --------------------------------------------------------------------------------------
// GP100 (6.0) has 2 sub-partitions: 40 regs -> 1280/warp, 32768/1280 = 25 warps per half, 50 warps, 25
// blocks of 2; on 6.1 (4 sub-partitions) 16384/1280 = 12, 48 warps, 24 blocks.
static_assert(occupancy(compute_capability{6, 0}, 64, 40).blocks_per_sm == 25);
static_assert(occupancy(compute_capability{6, 1}, 64, 40).blocks_per_sm == 24);
// 6.2 has 32 K registers per block; 800 threads = 25 warps, 40 regs = 1280/warp: 32000 fits, but the
// hardware check rounds warps to 28: 35840 > 32768, so the block cannot launch.
static_assert(occupancy(compute_capability{6, 2}, 800, 40).blocks_per_sm == 0);

// --- Carveout ----------------------------------------------------------------------------------------------
constexpr int blocks_with_carveout(int percent) {
  kernel_resources k{32};
  k.carveout_percent = percent;
  return occupancy(napkin::limits_of(sm_90), 256, k, 32 * KiB).blocks_per_sm;
}
// 33792-byte blocks. -1/100: 228 KiB -> 6. 75%: 171 KiB -> snapped up to 196 KiB = 200704 -> 5.
// 50%: 114 KiB -> 132 KiB = 135168 -> 4. 25%: 57 KiB -> 64 KiB -> 1. 0%: 0 -> raised to 64 KiB for one block.
static_assert(blocks_with_carveout(-1) == 6 && blocks_with_carveout(100) == 6 && blocks_with_carveout(75) == 5);
static_assert(blocks_with_carveout(50) == 4 && blocks_with_carveout(25) == 1 && blocks_with_carveout(0) == 1);

// --- 48 KiB and opt-in limits ---------------------------------------------------------------------------
constexpr int blocks_not_opted_in(int dynamic) {
  kernel_resources k{32};
  k.max_dynamic_smem = 48 * KiB;  // the default cudaFuncAttributeMaxDynamicSharedMemorySize
  return occupancy(napkin::limits_of(sm_90), 256, k, dynamic).blocks_per_sm;
}
static_assert(blocks_not_opted_in(48 * KiB) == 4);  // 49152 + 1024 = 50176; 233472 / 50176 = 4
static_assert(occupancy(sm_90, 256, 32, 227 * KiB).blocks_per_sm == 1);  // the opt-in limit: 228 KiB with reserve

// --- The next step ------------------------------------------------------------------------------------------
// 224 threads, 92 regs: 2 blocks (14 warps). 3 blocks need 21 warps: 4 x floor(16384 / rw) >= 21, so
// floor(16384 / rw) >= 6, rw <= 2730, i.e. 2560 (a multiple of 256) = 80 registers.
constexpr auto advice_regs = napkin::next_step(napkin::limits_of(sm_90), 224, kernel_resources{92});
static_assert(advice_regs.registers.value == 80 && advice_regs.registers.active_warps == 21);
// 32 KiB per block: 7 blocks need 33280 B allocated (233472 / 7 rounded down to 128), minus 1024 reserved.
constexpr auto advice_smem = napkin::next_step(napkin::limits_of(sm_90), 256, kernel_resources{32}, 32 * KiB);
static_assert(advice_smem.shared_memory.value == 32256 && advice_smem.shared_memory.active_warps == 56);
// Carveout 25% holds one 33792-byte block. Two need 67584 B: more than the 64 KiB step, so the 100 KiB step;
// p x 233472 / 100 > 65536 first at p = 29, and 102400 / 33792 = 3 blocks = 24 warps.
constexpr auto advice_carveout = [] {
  kernel_resources k{32};
  k.carveout_percent = 25;
  return napkin::next_step(napkin::limits_of(sm_90), 256, k, 32 * KiB);
}();
static_assert(advice_carveout.carveout.value == 29 && advice_carveout.carveout.active_warps == 24);
// 1024 threads on 8.6 (32 of 48 warps): the nearest block size with more warps is 768 (2 blocks, 48 warps).
constexpr auto advice_block = napkin::next_step(napkin::limits_of(sm_86), 1024, kernel_resources{32});
static_assert(advice_block.block_size.value == 768 && advice_block.block_size.active_warps == 48);
static_assert(napkin::next_step(napkin::limits_of(sm_90), 256, kernel_resources{32}).at_maximum());

// --- Best block size ----------------------------------------------------------------------------------------
// H100, 32 regs, 8 KiB per block: 1024 threads already give 64 warps (2 blocks x 32), so the search stops
// at its first try; 132 SMs x 2 blocks = 264.
constexpr auto best = napkin::best_block_size(napkin::limits_of(sm_90), kernel_resources{32}, 8 * KiB);
static_assert(best.block_size == 1024 && best.blocks_per_sm == 2 && best.min_grid_size(132) == 264);
// 128 regs on H100: any block size gets at most 16 warps (4 per sub-partition); 512 threads = 16 warps fits
// as 1 block; 1024 = 32 warps does not fit (65536 x 2 > 65536 per block): the largest tie is 512.
static_assert(napkin::best_block_size(napkin::limits_of(sm_90), kernel_resources{128}).block_size == 512);
// The smallest block as good (the runtime's ties go to the largest). H100, 32 regs: a warp takes 1024 registers,
// so registers allow all 64 warps; 32-thread blocks stop at the 32-block limit (32 warps), 64-thread blocks
// reach 32 x 2 = 64 warps: 64 to 1024 threads all fill the SM.
constexpr auto smallest = napkin::smallest_best_block_size(napkin::limits_of(sm_90), kernel_resources{32});
static_assert(smallest.block_size == 64 && smallest.blocks_per_sm == 32 && smallest.active_warps == 64);
// With 8 KiB per block each block takes 8192 + 1024 reserve = 9216 B of 233472: 25 blocks. 64 threads: 25 x 2
// = 50 warps; 96: 64 / 3 = 21 blocks by warps, 63 warps; 128: 16 blocks by warps x 4 = 64 warps.
static_assert(napkin::smallest_best_block_size(napkin::limits_of(sm_90), kernel_resources{32}, 8 * KiB).block_size == 128);
// 128 regs: 16 warps at most; 32-thread blocks reach them as 16 blocks of 1 warp (the largest tie is 512).
static_assert(napkin::smallest_best_block_size(napkin::limits_of(sm_90), kernel_resources{128}).block_size == 32);
static_assert(napkin::smallest_best_block_size(napkin::limits_of(sm_90), kernel_resources{128}).active_warps == 16);
// Shared memory growing with the block: 64 B per thread.
static_assert(napkin::best_block_size(napkin::limits_of(sm_86), kernel_resources{32},
                                      [](int threads) { return 64 * threads; }).active_warps == 48);

// --- Shared memory for N blocks (correct, unlike cudaOccAvailableDynamicSMemPerBlock on CC >= 8) -----------
// 2 blocks: 233472 / 2 = 116736 allocated each, minus the 1024 reserve = 115712 dynamic.
static_assert(napkin::max_dynamic_smem_for(napkin::limits_of(sm_90), 256, kernel_resources{32}, 2) == 115712);
static_assert(napkin::max_dynamic_smem_for(napkin::limits_of(sm_90), 256, kernel_resources{32}, 9) == -1);

// --- Enums as text: to_string is the enumerator's (or field's) name, describe the words; "unknown" outside --
static_assert(napkin::to_string(limiter::shared_memory) == "shared_memory");
static_assert(napkin::describe(limiter::blocks) == "blocks per SM");
static_assert(napkin::to_string(static_cast<limiter>(3)) == "unknown");  // two bits are no one limiter
static_assert(napkin::describe(static_cast<limiter>(64)) == "unknown");
static_assert(napkin::to_string(napkin::limits_error::compute_capability) == "cc");
static_assert(napkin::to_string(static_cast<napkin::limits_error>(99)) == "unknown");
static_assert(napkin::describe(static_cast<napkin::limits_error>(99)) == "unknown");
static_assert(napkin::to_string(napkin::launch_error::invalid_limits) == "invalid_limits");
static_assert(napkin::to_string(static_cast<napkin::launch_error>(-1)) == "unknown");
static_assert(napkin::describe(static_cast<napkin::launch_error>(99)) == "unknown");

// --- validate_launch: why a launch cannot run, never an error itself --------------------------------------
static_assert(napkin::validate_launch(napkin::limits_of(sm_90), 2048, kernel_resources{32}, 0) ==
              napkin::launch_error::threads_above_device_limit);
static_assert(napkin::validate_launch(napkin::limits_of(sm_90), 256, kernel_resources{32}, 0) ==
              napkin::launch_error::none);

// --- The three graphs ---------------------------------------------------------------------------------------
constexpr auto g_block = napkin::graph_block_size(napkin::limits_of(sm_90), 256, kernel_resources{32});
static_assert(g_block.size == 32 && g_block.points[7].x == 256 && g_block.points[7].active_warps == 64);
// A kernel limited to 128 threads per block (__launch_bounds__(128)): the graph stops at 128 (4 points).
constexpr kernel_resources bounded_128 = [] {
  kernel_resources k{32};
  k.max_threads_per_block = 128;
  return k;
}();
constexpr auto g_block_bounded = napkin::graph_block_size(napkin::limits_of(sm_90), 128, bounded_128);
static_assert(g_block_bounded.size == 4 && g_block_bounded.points[3].x == 128);
constexpr auto g_regs = napkin::graph_registers(napkin::limits_of(sm_90), 256, kernel_resources{32});
static_assert(g_regs.size == 256 && g_regs.points[128].active_warps == 16 && g_regs.current.active_warps == 64);
constexpr auto g_smem = napkin::graph_shared_memory(napkin::limits_of(sm_90), 256, kernel_resources{32});
// 0 .. 232448 B in 128-byte steps = 1817 points; at 32 KiB: 6 blocks = 48 warps.
static_assert(g_smem.size == 1817 && g_smem.points[256].x == 32 * KiB && g_smem.points[256].active_warps == 48);
}  // namespace

TEST_CASE("invalid launches are rejected at run time with the numbers in the message") {
  const auto h100 = napkin::limits_of(sm_90);
  CHECK_THROWS_WITH_AS(occupancy(sm_90, 0, 32), doctest::Contains("threads per block is 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(sm_90, 1025, 32), doctest::Contains("1025 threads per block is above the device limit of 1024"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(sm_90, 256, 256), doctest::Contains("256 registers per thread is outside 0..255"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(sm_90, 256, -1), doctest::Contains("outside 0..255"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(sm_90, 256, 32, 227 * KiB + 1),
                       doctest::Contains("above the opt-in limit of 232448 B"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(sm_86, 256, 32, 99 * KiB + 1), doctest::Contains("101377 B dynamic shared memory per block is above the opt-in limit of 101376 B"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, kernel_resources{32, 48 * KiB + 1}),
                       doctest::Contains("static shared memory is above the 49152-byte limit"), std::invalid_argument);
  kernel_resources not_opted_in{32};
  not_opted_in.max_dynamic_smem = 48 * KiB;
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, not_opted_in, 48 * KiB + 1),
                       doctest::Contains("cudaFuncAttributeMaxDynamicSharedMemorySize"), std::invalid_argument);
  kernel_resources bounded{32};
  bounded.max_threads_per_block = 128;
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, bounded), doctest::Contains("above this kernel's limit of 128"),
                       std::invalid_argument);
  kernel_resources bad_carveout{32};
  bad_carveout.carveout_percent = 101;
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, bad_carveout),
                       doctest::Contains("carveout 101% is outside -1 (default) .. 100"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::limits_of({13, 0}), doctest::Contains("unknown compute capability 13.0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::max_dynamic_smem_for(h100, 256, kernel_resources{32}, 0),
                       doctest::Contains("0 blocks per SM requested"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, kernel_resources{32, -1}),
                       doctest::Contains("static shared memory is -1 bytes; it must be >= 0"), std::invalid_argument);
  kernel_resources negative_max_dynamic{32};
  negative_max_dynamic.max_dynamic_smem = -2;
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, negative_max_dynamic),
                       doctest::Contains("maximum dynamic shared memory is -2 bytes"), std::invalid_argument);
  kernel_resources negative_barriers{32};
  negative_barriers.block_barriers = -1;
  CHECK_THROWS_WITH_AS(occupancy(h100, 256, negative_barriers), doctest::Contains("block_barriers is -1"),
                       std::invalid_argument);
  // Each launch_error has its own text.
  CHECK(std::string(napkin::describe(napkin::launch_error::invalid_limits)).find("sm_limits") != std::string::npos);
  CHECK(std::string(napkin::describe(napkin::limits_error::warp_size)).find("32-thread warps") != std::string::npos);
  // try_occupancy reports instead of throwing.
  CHECK(napkin::try_occupancy(h100, 2048, kernel_resources{32}).error == napkin::launch_error::threads_above_device_limit);
  CHECK(napkin::try_occupancy(h100, 2048, kernel_resources{32}).blocks_per_sm == 0);
}

TEST_CASE("the limits table: every entry has a source; unverified ones say so") {
  for (const auto cc : napkin::known_compute_capabilities) {
    const auto l = napkin::limits_of(cc);
    CAPTURE(cc.number());
    CHECK(std::string(l.source).size() > 20);
    CHECK(l.cc == cc);
    // CC >= 8.0: opt-in = shared memory per SM - the 1 KiB reserve (Fuser #4465 tests the same identity).
    if (cc.major >= 8) CHECK(l.smem_per_block_optin == l.smem_per_sm - l.smem_reserved_per_block);
    if (l.carveout_count > 0) CHECK(l.carveout_bytes(l.carveout_count - 1) == l.smem_per_sm);
  }
  CHECK_FALSE(napkin::limits_of({8, 8}).verified);
  CHECK(napkin::limits_of({9, 0}).verified);
}

// The simplified register formula, max_warps_per_sub_partition = 16384 / (registers x 32) and warps per SM
// = 4 x that, is the exact rule without the 256-register allocation unit and without whole blocks. Where
// it agrees and where it does not, by hand:
TEST_CASE("the simplified sub-partition formula against the exact rule") {
  // Agrees: 128 registers (a multiple of 8), 256-thread blocks: simplified 4 x 16384/4096 = 16 warps; exact 16.
  CHECK(occupancy(sm_90, 256, 128).active_warps() == 16);
  // Differs: 33 registers are allocated as 40. Simplified: 4 x 16384/1056 = 60 warps (93.75%).
  // Exact: 16384/1280 = 12 per sub-partition -> 48 warps, 6 blocks (75%).
  CHECK(occupancy(sm_90, 256, 33).active_warps() == 48);
  // Differs: a multiple of 8 but blocks that do not divide the warps. 40 registers: simplified 48 warps; exact
  // 12 warps per sub-partition = 48, but 224-thread blocks (7 warps) fit 6 times = 42 warps.
  CHECK(occupancy(sm_90, 224, 40).active_warps() == 42);
}

TEST_CASE("to_text() names the limiter and the next step") {
  const auto h100 = napkin::limits_of(sm_90);
  const std::string regs = napkin::to_text(h100, 224, kernel_resources{92});
  CHECK(regs.find("Limited by registers") != std::string::npos);
  CHECK(regs.find("3072 registers") != std::string::npos);  // 92 -> 96 per thread x 32
  CHECK(regs.find("use at most 80 registers per thread") != std::string::npos);
  CHECK(regs.find("occupancy 21.9%") != std::string::npos);  // 14 of 64 warps = 21.875%
  CHECK(regs.find("-> 21 warps (32.8%)") != std::string::npos);  // 21 of 64 = 32.8125%
  const std::string smem = napkin::to_text(h100, 256, kernel_resources{32}, 32 * KiB);
  CHECK(smem.find("Limited by shared memory") != std::string::npos);
  CHECK(smem.find("33792 B") != std::string::npos);
  CHECK(smem.find("at most 32256 B") != std::string::npos);
  const std::string full = napkin::to_text(h100, 256, kernel_resources{32}, 8 * KiB);
  CHECK(full.find("occupancy 100.0%") != std::string::npos);  // 64 of 64 warps
  CHECK(full.find("at its maximum") != std::string::npos);
  const std::string cannot = napkin::to_text(h100, 1024, kernel_resources{65});
  CHECK(cannot.find("cannot launch") != std::string::npos);
}

TEST_CASE("to_text() says why block barriers and virtual resources limit") {
  // 12.0: 24 blocks/SM and 24 barrier slots with 1 barrier per block tie (as in cuda_occupancy.h 13.0).
  const std::string tie = napkin::to_text(napkin::limits_of(sm_120), 32, kernel_resources{16});
  CHECK(tie.find("Limited by blocks per SM and block barriers") != std::string::npos);
  CHECK(tie.find("Each block uses 1 block barrier of the SM's 24 barrier slots") != std::string::npos);
  CHECK(tie.find("so 24 blocks fit") != std::string::npos);
  // H100 with 16 barriers per block: 64 / 16 = 4 blocks of 8 warps = 32 of 64 warps, barriers alone.
  kernel_resources barriers{32};
  barriers.block_barriers = 16;
  const std::string only = napkin::to_text(napkin::limits_of(sm_90), 256, barriers);
  CHECK(only.find("Limited by block barriers.") != std::string::npos);
  CHECK(only.find("Each block uses 16 block barriers of the SM's 64 barrier slots") != std::string::npos);
  CHECK(only.find("so 4 blocks fit") != std::string::npos);
  // 12.0 with 40 virtual resources per block: 128 / 40 = 3 blocks.
  kernel_resources virtuals{16};
  virtuals.virtual_resources = 40;
  const std::string v = napkin::to_text(napkin::limits_of(sm_120), 32, virtuals);
  CHECK(v.find("Limited by virtual resources") != std::string::npos);
  CHECK(v.find("Each block uses 40 of the SM's 128 virtual resources") != std::string::npos);
  CHECK(v.find("so 3 blocks fit") != std::string::npos);
  // More barriers than the SM has: the block cannot launch, and to_text says why.
  barriers.block_barriers = 65;
  const std::string none = napkin::to_text(napkin::limits_of(sm_90), 256, barriers);
  CHECK(none.find("The block cannot launch: it uses 65 block barriers of the SM's 64") != std::string::npos);
}
