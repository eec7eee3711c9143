// Bad input at run time (issue #12, items 3 and 5): compute capabilities that would alias real ones, a
// user-built sm_limits with impossible fields, and kernel inputs at the edges of int. Each case must end
// in an exception whose message names the problem and the value, never a wrong number or a crash.
// The compile-time side of the same cases is in invalid_launch_test.cpp (tests/occupancy/CMakeLists.txt).
#include <doctest/doctest.h>

#include <napkin/occupancy.hpp>

#include <climits>
#include <stdexcept>
#include <string>

namespace {
using napkin::compute_capability;
using napkin::kernel_resources;
using napkin::sm_limits;

constexpr int KiB = 1024;

// H100's limits with one field changed, as a user who builds their own sm_limits would.
template <class Change>
sm_limits h100_with(Change change) {
  sm_limits l = napkin::limits_of({9, 0});
  change(l);
  return l;
}

// The same change must be refused by occupancy() with `message`, and by try_occupancy() with 0 blocks.
template <class Change>
void refused(Change change, const char* message) {
  const sm_limits l = h100_with(change);
  CHECK_THROWS_WITH_AS(napkin::occupancy(l, 256, kernel_resources{32}), doctest::Contains(message),
                       std::invalid_argument);
  CHECK(napkin::try_occupancy(l, 256, kernel_resources{32}).blocks_per_sm == 0);
  CHECK_FALSE(napkin::try_occupancy(l, 256, kernel_resources{32}).valid());
  // Every public entry that takes limits refuses them the same way.
  CHECK_THROWS_WITH_AS(napkin::next_step(l, 256, kernel_resources{32}), doctest::Contains(message),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::best_block_size(l, kernel_resources{32}), doctest::Contains(message),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::graph_shared_memory(l, 256, kernel_resources{32}), doctest::Contains(message),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::to_text(l, 256, kernel_resources{32}), doctest::Contains(message),
                       std::invalid_argument);
}
}  // namespace

// Item 3. major * 10 + minor made 8.10 read as 9.0 and 10.-10 as 9.0: a silently wrong table entry.
TEST_CASE("a compute capability whose minor is outside 0..9 or that is negative is an error, not an alias") {
  CHECK_THROWS_WITH_AS(napkin::limits_of({8, 10}), doctest::Contains("compute capability 8.10"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::limits_of({8, 10}), doctest::Contains("minor version must be 0..9"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(compute_capability(10, -10), doctest::Contains("compute capability 10.-10"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(compute_capability(-9, 0), doctest::Contains("major version must be 0.."),
                       std::invalid_argument);
  // INT_MAX * 10 overflows int (undefined behaviour in number()).
  CHECK_THROWS_WITH_AS(compute_capability(INT_MAX, 0), doctest::Contains("major version must be 0..214748363"),
                       std::invalid_argument);
  // The fields are public: a changed field is caught where the number is formed.
  compute_capability cc{8, 0};
  cc.minor = 10;
  CHECK_THROWS_WITH_AS(cc.number(), doctest::Contains("compute capability 8.10"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::limits_of(cc), doctest::Contains("compute capability 8.10"), std::invalid_argument);
  cc = compute_capability{10, 0};
  cc.minor = -10;
  CHECK_THROWS_WITH_AS(napkin::limits_of(cc), doctest::Contains("compute capability 10.-10"), std::invalid_argument);
  // The edges that are valid: 0..9 for the minor (12.1 and 10.3 are real), and the numbers they make.
  CHECK(compute_capability(12, 1).number() == 121);
  CHECK(compute_capability(10, 3).number() == 103);
  CHECK(compute_capability(0, 9).number() == 9);
}

// Item 5. Each case used to be arithmetic on a field nobody checked.
TEST_CASE("a user-built sm_limits is validated once, and the error names the field and its value") {
  // warp_size 0: max_warps_per_sm() and the warps per block divided by it (SIGFPE at -O2).
  refused([](sm_limits& l) { l.warp_size = 0; }, "sm_limits.warp_size is 0");
  refused([](sm_limits& l) { l.warp_size = 64; }, "sm_limits.warp_size is 64; it must be 32");
  // smem_allocation_unit 0: the allocation was rounded up to a multiple of 0 (division by zero).
  refused([](sm_limits& l) { l.smem_allocation_unit = 0; }, "sm_limits.smem_allocation_unit is 0");
  // carveout_count 11: read past carveouts_kib (10 entries) and returned 0 blocks.
  refused([](sm_limits& l) { l.carveout_count = 11; }, "sm_limits.carveout_count is 11; it must be 0..10");
  refused([](sm_limits& l) { l.carveout_count = -1; }, "sm_limits.carveout_count is -1");
  // INT_MAX major: major * 10 overflowed.
  refused([](sm_limits& l) { l.cc.major = INT_MAX; }, "major version must be 0..214748363");
  refused([](sm_limits& l) { l.cc.minor = 10; }, "compute capability 9.10");
  // The register file: units and sub-partitions are divisors.
  refused([](sm_limits& l) { l.register_allocation_unit = 0; }, "sm_limits.register_allocation_unit is 0");
  refused([](sm_limits& l) { l.register_sub_partitions = 0; }, "sm_limits.register_sub_partitions is 0");
  refused([](sm_limits& l) { l.portable_register_sub_partitions = -4; },
          "sm_limits.portable_register_sub_partitions is -4");
  refused([](sm_limits& l) { l.registers_per_sm = 0; }, "sm_limits.registers_per_sm is 0");
  refused([](sm_limits& l) { l.registers_per_block = 65537; }, "sm_limits.registers_per_block is 65537");
  refused([](sm_limits& l) { l.max_registers_per_thread = 256; }, "sm_limits.max_registers_per_thread is 256");
  refused([](sm_limits& l) { l.max_registers_per_thread = INT_MAX; }, "sm_limits.max_registers_per_thread is");
  // Threads and blocks.
  refused([](sm_limits& l) { l.max_threads_per_sm = 0; }, "sm_limits.max_threads_per_sm is 0");
  refused([](sm_limits& l) { l.max_threads_per_sm = INT_MAX; }, "sm_limits.max_threads_per_sm is 2147483647");
  refused([](sm_limits& l) { l.max_threads_per_block = 0; }, "sm_limits.max_threads_per_block is 0");
  refused([](sm_limits& l) { l.max_threads_per_block = 4096; }, "sm_limits.max_threads_per_block is 4096");
  refused([](sm_limits& l) { l.max_blocks_per_sm = 0; }, "sm_limits.max_blocks_per_sm is 0");
  // Shared memory.
  refused([](sm_limits& l) { l.smem_per_sm = -1; }, "sm_limits.smem_per_sm is -1");
  refused([](sm_limits& l) { l.smem_per_sm = INT_MAX; }, "sm_limits.smem_per_sm is 2147483647");
  refused([](sm_limits& l) { l.smem_reserved_per_block = -1024; }, "sm_limits.smem_reserved_per_block is -1024");
  refused([](sm_limits& l) { l.smem_per_block_optin = INT_MAX; }, "sm_limits.smem_per_block_optin is 2147483647");
  refused([](sm_limits& l) { l.smem_per_block = 300 * KiB; }, "sm_limits.smem_per_block is 307200");
  refused([](sm_limits& l) { l.carveouts_kib[3] = 4; }, "sm_limits.carveouts_kib[3] is 4");
  refused([](sm_limits& l) { l.carveouts_kib[9] = 2097152; }, "sm_limits.carveouts_kib[9] is 2097152");
  // The per-SM counts that divide: negative is meaningless (0 means "not a limit").
  refused([](sm_limits& l) { l.barriers_per_sm = -1; }, "sm_limits.barriers_per_sm is -1");
  refused([](sm_limits& l) { l.virtual_resources_per_sm = -1; }, "sm_limits.virtual_resources_per_sm is -1");
  refused([](sm_limits& l) { l.sm_count = -1; }, "sm_limits.sm_count is -1");
  refused([](sm_limits& l) { l.architecture = nullptr; }, "sm_limits.architecture is null");
  refused([](sm_limits& l) { l.source = nullptr; }, "sm_limits.source is null");
}

TEST_CASE("the members of sm_limits refuse what they cannot compute") {
  sm_limits l = napkin::limits_of({9, 0});
  l.warp_size = 0;
  CHECK_THROWS_WITH_AS(l.max_warps_per_sm(), doctest::Contains("sm_limits.warp_size is 0"), std::invalid_argument);
  const sm_limits h100 = napkin::limits_of({9, 0});
  CHECK(h100.carveout_bytes(9) == 228 * KiB);
  CHECK_THROWS_WITH_AS(h100.carveout_bytes(10), doctest::Contains("carveout index 10 is outside 0..9"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(h100.carveout_bytes(-1), doctest::Contains("carveout index -1 is outside 0..9"),
                       std::invalid_argument);
  l = h100;
  l.carveout_count = 11;
  CHECK_THROWS_WITH_AS(napkin::snap_to_carveout(l, 0), doctest::Contains("sm_limits.carveout_count is 11"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::preferred_carveout(l, kernel_resources{32}),
                       doctest::Contains("sm_limits.carveout_count is 11"), std::invalid_argument);
}

TEST_CASE("a valid user-built sm_limits is accepted: a CC napkin does not know, with the user's numbers") {
  // What a user does for a GPU newer than napkin: start from a known entry, change what differs.
  sm_limits l = napkin::limits_of({9, 0});
  l.cc = {13, 0};
  l.architecture = "next";
  l.max_threads_per_sm = 1536;  // 48 warps
  // 256 threads, 32 registers: 16 warps/sub-partition x 4 = 64 warps by registers; 48 warp slots hold 6
  // blocks of 8 warps; shared memory 233472 / 1024 = 228; blocks/SM 32. So 6 blocks, 48 warps, 100%.
  const auto r = napkin::occupancy(l, 256, kernel_resources{32});
  CHECK(r.blocks_per_sm == 6);
  CHECK(r.occupancy() == 1.0);
  // More shared memory than the 2048-point graph holds at every 128-byte unit: 328 KiB per SM, 327 KiB
  // opt-in = 2617 units, so the graph takes every 2nd unit (256 B) and still ends at the opt-in limit:
  // 334848 / 256 + 1 = 1309 points. (It used to stop silently at 2047 x 128 = 262016 B.)
  sm_limits big_smem = l;
  big_smem.smem_per_sm = 328 * KiB;
  big_smem.smem_per_block_optin = 327 * KiB;
  const auto g = napkin::graph_shared_memory(big_smem, 256, kernel_resources{32});
  CHECK(g.size == 1309);
  CHECK(g.points[1].x == 256);
  CHECK(g.points[g.size - 1].x == 327 * KiB);
  // The largest values the validation allows are still computed exactly (no int overflow on the way):
  // 16384 threads/SM = 512 warps; 2^20 registers per SM and per block; 16 MiB of shared memory per SM.
  l.max_threads_per_sm = 16384;
  l.max_blocks_per_sm = 16384;
  l.registers_per_sm = 1 << 20;
  l.registers_per_block = 1 << 20;
  l.register_allocation_unit = 1 << 20;  // every warp is allocated 2^20 registers
  l.register_sub_partitions = 512;
  l.portable_register_sub_partitions = 512;
  l.smem_per_sm = 16 * 1024 * KiB;
  l.smem_per_block_optin = l.smem_per_sm - l.smem_reserved_per_block;
  l.smem_allocation_unit = l.smem_per_sm;
  l.carveout_count = 0;
  // 1024 threads = 32 warps; each warp takes a whole 2^20-register allocation unit: 32 x 2^20 = 2^25
  // registers per block > 2^20, so the block cannot launch (and 2^25 fits an int).
  const auto big = napkin::occupancy(l, 1024, kernel_resources{255});
  CHECK(big.registers_per_warp == 1 << 20);
  CHECK(big.registers_per_block == 1 << 25);
  CHECK(big.blocks_per_sm == 0);
  // 32 threads, one warp: 2^20 registers = the whole SM: 1 block. Shared memory: the reserve rounded up to
  // the 16 MiB unit = the whole SM: 1 block.
  // With 512 sub-partitions even one warp is checked as 512 (the hardware check rounds warps up to a
  // multiple of them): 512 x 2^20 = 2^29 > 2^20, 0 blocks. With 1 sub-partition one warp fits.
  CHECK(napkin::occupancy(l, 32, kernel_resources{255}).blocks_per_sm == 0);
  l.register_sub_partitions = 1;
  l.portable_register_sub_partitions = 1;
  const auto one = napkin::occupancy(l, 32, kernel_resources{255});
  CHECK(one.blocks_by_registers == 1);
  CHECK(one.smem_per_block == 16 * 1024 * KiB);
  CHECK(one.blocks_per_sm == 1);
}

// The rest of the audit of occupancy.hpp's arithmetic: user inputs at the edges of int.
TEST_CASE("kernel inputs at the edges of int are refused with a message, never wrapped") {
  const auto h100 = napkin::limits_of({9, 0});
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, INT_MAX, kernel_resources{32}),
                       doctest::Contains("2147483647 threads per block is above the device limit of 1024"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, INT_MIN, kernel_resources{32}),
                       doctest::Contains("threads per block is -2147483648"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, kernel_resources{INT_MAX}),
                       doctest::Contains("2147483647 registers per thread is outside 0..255"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, kernel_resources{32}, INT_MAX),
                       doctest::Contains("2147483647 B dynamic shared memory per block is above the opt-in limit"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, kernel_resources{32}, INT_MIN),
                       doctest::Contains("dynamic shared memory is -2147483648 bytes"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, kernel_resources{32, INT_MAX}),
                       doctest::Contains("2147483647 bytes of static shared memory is above the 49152-byte limit"),
                       std::invalid_argument);
  kernel_resources k{32};
  k.max_dynamic_smem = INT_MAX;
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, k),
                       doctest::Contains("maximum dynamic shared memory (2147483647 B)"), std::invalid_argument);
  k = kernel_resources{32};
  k.carveout_percent = INT_MIN;
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, k), doctest::Contains("carveout -2147483648% is outside -1"),
                       std::invalid_argument);
  // A negative kernel thread limit used to mean "the device limit"; it is an error like the other counts.
  k = kernel_resources{32};
  k.max_threads_per_block = -1;
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, k), doctest::Contains("max_threads_per_block is -1"),
                       std::invalid_argument);
  k = kernel_resources{32};
  k.block_barriers = -1;
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, k), doctest::Contains("block_barriers is -1; it must be >= 0"),
                       std::invalid_argument);
  k = kernel_resources{32};
  k.virtual_resources = INT_MIN;
  CHECK_THROWS_WITH_AS(napkin::occupancy(h100, 256, k),
                       doctest::Contains("virtual_resources is -2147483648; it must be >= 0"), std::invalid_argument);
  // Huge barrier or virtual-resource counts are valid and mean 0 blocks (64 / INT_MAX = 0), like the header.
  k = kernel_resources{32};
  k.block_barriers = INT_MAX;
  CHECK(napkin::occupancy(h100, 256, k).blocks_per_sm == 0);
  // A shared-memory function of the block size that returns more than an int holds: that size is invalid
  // (0 blocks), not truncated. 2^40 B for blocks of >= 512 threads: 480 threads (15 warps) get 64 / 15 = 4
  // blocks = 1920 threads; 256 threads (8 warps) get 8 blocks = 2048 threads, the whole SM, where the search
  // stops.
  const auto best = napkin::best_block_size(h100, kernel_resources{32},
                                            [](int threads) { return threads >= 512 ? 1LL << 40 : 0LL; });
  CHECK(best.block_size == 256);
  CHECK(best.blocks_per_sm == 8);
}

TEST_CASE("min_grid_size refuses a negative SM count and a product above INT_MAX") {
  const auto best = napkin::best_block_size(napkin::limits_of({9, 0}), kernel_resources{32});
  REQUIRE(best.blocks_per_sm == 2);  // 1024 threads, 32 warps: 64 / 32
  CHECK(best.min_grid_size(132) == 264);
  CHECK_THROWS_WITH_AS(best.min_grid_size(-1), doctest::Contains("SM count is -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(best.min_grid_size(INT_MAX), doctest::Contains("2 blocks x 2147483647 SMs"),
                       std::overflow_error);
}

TEST_CASE("max_dynamic_smem_for and the graphs: messages name the problem") {
  const auto h100 = napkin::limits_of({9, 0});
  CHECK_THROWS_WITH_AS(napkin::max_dynamic_smem_for(h100, 256, kernel_resources{32}, 0),
                       doctest::Contains("0 blocks per SM requested; ask for at least 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::max_dynamic_smem_for(h100, 256, kernel_resources{32}, INT_MIN),
                       doctest::Contains("-2147483648 blocks per SM requested"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(napkin::graph_registers(h100, 2048, kernel_resources{32}),
                       doctest::Contains("2048 threads per block is above the device limit"), std::invalid_argument);
}
