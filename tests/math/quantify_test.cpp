// The quantify formulas (napkin/math/quantify.hpp) on worked examples computed by hand in the comments.
#include <doctest/doctest.h>

#include <stdexcept>

#include "napkin/math/quantify.hpp"

using namespace napkin;

// 16 sectors per request where 4-byte loads need 4: (16 - 4) / 16 = 75% waste, 16 / 4 = 4x speedup.
static_assert(bandwidth_waste(16) == 0.75);
static_assert(coalescing_speedup(16) == 4.0);

TEST_CASE("coalescing: 16 and 5 sectors per request") {
  CHECK(bandwidth_waste(16) == 0.75);
  CHECK(coalescing_speedup(16) == 4.0);
  // 5 sectors per request: (5 - 4) / 5 = 20% waste, 5 / 4 = 1.25x.
  CHECK(bandwidth_waste(5) == doctest::Approx(0.20));
  CHECK(coalescing_speedup(5) == 1.25);
  // float4 loads: 16 sectors per request is already ideal.
  CHECK(ideal_sectors_per_request(16) == 16);
  CHECK(bandwidth_waste(16, ideal_sectors_per_request(16)) == 0.0);
  CHECK_THROWS_AS(bandwidth_waste(3), std::domain_error);  // below the ideal of 4-byte loads
  CHECK_THROWS_AS(coalescing_speedup(-1), std::domain_error);
}

TEST_CASE("traffic overhead") {
  CHECK(traffic_overhead(2.5e9, 1e9) == 2.5);
  CHECK_THROWS_AS(traffic_overhead(1e9, 0), std::domain_error);
  CHECK_THROWS_AS(traffic_overhead(-1, 1e9), std::domain_error);
}

TEST_CASE("Amdahl: a bank-conflict example") {
  // 60% of the time in shared loads with 3-way conflicts: removing them takes 0.6 to 0.2, the total from
  // 1.0 to 0.6, a 1 / 0.6 = 1.67x speedup.
  CHECK(amdahl_speedup(0.6, 3) == doctest::Approx(1.0 / 0.6));
  CHECK(amdahl_speedup(0.6, 3) == doctest::Approx(1.67).epsilon(1e-2));
  CHECK(amdahl_speedup(0, 10) == 1.0);
  CHECK(amdahl_speedup(1, 10) == doctest::Approx(10.0));
  CHECK(bank_conflict_ways(300, 100) == 3.0);
  CHECK_THROWS_AS(amdahl_speedup(1.5, 3), std::domain_error);
  CHECK_THROWS_AS(amdahl_speedup(0.5, 0), std::domain_error);
  CHECK_THROWS_AS(bank_conflict_ways(50, 100), std::domain_error);
}

TEST_CASE("divergence: 24 of 32 lanes active") {
  // 24 active threads per warp: 1 - 24/32 = 25% waste; 32/24 = 1.33x if all were active.
  CHECK(divergence_waste(24) == 0.25);
  CHECK(divergence_speedup(24) == doctest::Approx(1.333).epsilon(1e-3));
  CHECK(divergence_waste(32) == 0.0);
  CHECK_THROWS_AS(divergence_waste(0), std::domain_error);
  CHECK_THROWS_AS(divergence_speedup(33), std::domain_error);
}

TEST_CASE("instruction mix, warps and loop iterations") {
  // 8x8 thread tiles: 16 LDS feed 64 FFMA -> 0.25; no coarsening: 2 LDS per FFMA.
  CHECK(memory_instructions_per_ffma(16, 0, 0, 0, 64) == 0.25);
  CHECK(memory_instructions_per_ffma(2, 0, 0, 0, 1) == 2.0);
  CHECK_THROWS_AS(memory_instructions_per_ffma(1, 1, 1, 1, 0), std::domain_error);
  // W = grid·block / 32: 128 blocks of 256 threads = 1024 warps.
  CHECK(warps_in_launch(128, 1, 1, 256) == 1024);
  CHECK(warps_in_launch(16, 8, 1, 16, 16) == 16 * 8 * 8);
  CHECK(warps_in_launch(10, 1, 1, 48) == 20);  // 48 threads occupy 2 warps
  CHECK_THROWS_AS(warps_in_launch(0, 1, 1, 32), std::invalid_argument);
  CHECK_THROWS_AS(warps_in_launch(1, 1, 1, 2048), std::domain_error);
  // An instruction executed 10,240 times by 1,024 warps: 10 iterations.
  CHECK(loop_iterations(10240, 1024) == 10.0);
  CHECK_THROWS_AS(loop_iterations(1, 0), std::domain_error);
}

TEST_CASE("achieved rates") {
  // An FFMA is 2 FLOPs: 1e9 FFMAs in 1 ms = 2e9 FLOP / 1e-3 s = 2,000 GFLOP/s.
  CHECK(ffma_flops_per_second(1e9, 1e-3) == doctest::Approx(2000e9));
  CHECK(effective_bandwidth(3.01e9, 1e-3) == doctest::Approx(3.01e12));
  CHECK(fraction_of_roofline(0.9e-3, 1e-3) == doctest::Approx(0.9));
  CHECK_THROWS_AS(effective_bandwidth(1, 0), std::domain_error);
  CHECK_THROWS_AS(fraction_of_roofline(0, 1), std::domain_error);
}
