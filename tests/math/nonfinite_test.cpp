// NaN and infinity are refused wherever napkin takes a double: roofs, derating, GPU specs (built by hand,
// from a table of peaks or derived from device properties) and every quantify formula. (Compile-time
// refusals are in constexpr_test.cpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "math/error_message.hpp"
#include "napkin/math/quantify.hpp"
#include "napkin/math.hpp"

using namespace napkin;
using napkin_test::contains;
using napkin_test::error_message;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double qnan = std::numeric_limits<double>::quiet_NaN();
constexpr double huge = std::numeric_limits<double>::max();
}  // namespace

TEST_CASE("roofs: infinite or NaN ceilings, intensities and overflowing ratios") {
  CHECK_THROWS_AS((roof{inf, 1e12}.ridge()), std::domain_error);
  CHECK_THROWS_AS((roof{1e15, inf}.ridge()), std::domain_error);
  CHECK_THROWS_AS((roof{qnan, 1e12}.ridge()), std::domain_error);
  CHECK_THROWS_AS((roof{1e15, qnan}.attainable_flops(1)), std::domain_error);
  CHECK(contains(error_message([] { roof{inf, 1e12}.ridge(); }), "finite"));
  const roof r{66.9e12, 3350e9};
  CHECK_THROWS_AS(r.attainable_flops(inf), std::domain_error);
  CHECK_THROWS_AS(r.attainable_flops(qnan), std::domain_error);
  // Finite ceilings whose ratio is not a finite number: huge / tiny overflows.
  CHECK_THROWS_AS((roof{huge, 1e-300}.ridge()), std::domain_error);
  CHECK_THROWS_AS((estimate(gemm(4096, 4096, 4096), roof{1e-300, 1e12})), std::domain_error);
  // Derating by NaN or infinity.
  CHECK_THROWS_AS(derate(r, qnan, 0.9), std::domain_error);
  CHECK_THROWS_AS(derate(r, 0.8, inf), std::domain_error);
  CHECK_THROWS_AS((derate(roof{inf, 1e12}, 0.8, 0.9)), std::domain_error);
}

TEST_CASE("GPU specs: infinite peaks, bandwidths and clocks") {
  gpu_spec g = gpus::h100_sxm;
  g.peaks[index(pipe::fp32)] = inf;
  CHECK_THROWS_AS(g.peak(pipe::fp32), std::domain_error);
  CHECK_THROWS_AS(estimate(reduction(1024), g, pipe::fp32), std::domain_error);
  gpu_spec b = gpus::h100_sxm;
  b.memory_bandwidth = inf;
  CHECK_THROWS_AS(roof_of(b, pipe::fp32), std::domain_error);
  b.memory_bandwidth = qnan;
  CHECK_THROWS_AS(roof_of(b, pipe::fp32), std::domain_error);
  CHECK_THROWS_AS((make_peaks({{pipe::fp32, inf}})), std::domain_error);

  // derive_gpu_spec: an infinite or NaN clock is refused, and so is a finite clock so large that the
  // peaks overflow (132 SMs x 256 FLOP/clk x 1e306 kHz x 1e3 is above DBL_MAX).
  CHECK_THROWS_AS((derive_gpu_spec({9, 0, 132, inf, 2619000, 5120, 0})), std::domain_error);
  CHECK_THROWS_AS((derive_gpu_spec({9, 0, 132, qnan, 2619000, 5120, 0})), std::domain_error);
  CHECK_THROWS_AS((derive_gpu_spec({9, 0, 132, 1980000, inf, 5120, 0})), std::domain_error);
  CHECK_THROWS_AS((derive_gpu_spec({9, 0, 132, 1e306, 2619000, 5120, 0})), std::domain_error);
  CHECK_THROWS_AS(dram_bandwidth(inf, 5120), std::domain_error);
  CHECK_THROWS_AS(dram_bandwidth(qnan, 5120), std::domain_error);
  CHECK(contains(error_message([] { derive_gpu_spec({9, 0, 132, inf, 2619000, 5120, 0}); }), "SM clock"));
}

TEST_CASE("quantify: NaN and infinity in every formula") {
  CHECK_THROWS_AS(ideal_sectors_per_request(inf), std::domain_error);
  CHECK_THROWS_AS(bandwidth_waste(inf, 4), std::domain_error);  // was (inf - 4) / inf = NaN
  CHECK_THROWS_AS(bandwidth_waste(16, inf), std::domain_error);
  CHECK_THROWS_AS(bandwidth_waste(qnan, 4), std::domain_error);
  CHECK_THROWS_AS(coalescing_speedup(inf), std::domain_error);
  CHECK_THROWS_AS(traffic_overhead(inf, 1e9), std::domain_error);
  CHECK_THROWS_AS(traffic_overhead(1e9, inf), std::domain_error);
  CHECK_THROWS_AS(traffic_overhead(qnan, 1e9), std::domain_error);
  CHECK_THROWS_AS(amdahl_speedup(qnan, 2), std::domain_error);
  CHECK_THROWS_AS(amdahl_speedup(0.5, inf), std::domain_error);
  CHECK_THROWS_AS(bank_conflict_ways(inf, 100), std::domain_error);
  CHECK_THROWS_AS(bank_conflict_ways(300, inf), std::domain_error);
  CHECK_THROWS_AS(divergence_waste(qnan), std::domain_error);
  CHECK_THROWS_AS(divergence_speedup(inf), std::domain_error);
  CHECK_THROWS_AS(memory_instructions_per_ffma(inf, 0, 0, 0, 64), std::domain_error);
  CHECK_THROWS_AS(memory_instructions_per_ffma(16, 0, 0, 0, inf), std::domain_error);
  CHECK_THROWS_AS(loop_iterations(inf, 1024), std::domain_error);
  CHECK_THROWS_AS(loop_iterations(10240, qnan), std::domain_error);
  CHECK_THROWS_AS(ffma_flops_per_second(inf, 1e-3), std::domain_error);
  CHECK_THROWS_AS(ffma_flops_per_second(1e9, inf), std::domain_error);
  CHECK_THROWS_AS(effective_bandwidth(qnan, 1e-3), std::domain_error);
  CHECK_THROWS_AS(effective_bandwidth(1e9, inf), std::domain_error);
  CHECK_THROWS_AS(fraction_of_roofline(inf, 1e-3), std::domain_error);
  CHECK_THROWS_AS(fraction_of_roofline(1e-3, qnan), std::domain_error);
  // Finite inputs whose result overflows: 2 x DBL_MAX FFMAs per second.
  CHECK_THROWS_AS(ffma_flops_per_second(huge, 1), std::domain_error);
  CHECK(contains(error_message([] { bandwidth_waste(inf, 4); }), "finite"));
  // The ordinary values still work (hand-computed: (16 - 4) / 16 = 0.75).
  CHECK(bandwidth_waste(16, 4) == 0.75);
}
