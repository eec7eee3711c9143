#!/usr/bin/env bash
# The lead's run on the lent GPU machine: build everything, run every test (GPU tests included), then the
# profiler's accuracy/cost run against ncu with its probes (user range, dirty L2, pass cost, legacy API, strided read), the occupancy,
# napkin-math and NVTX device scripts, the NVTX benchmark, and compute-sanitizer on the GPU tests that do
# not fault on purpose.
# Summaries go to $OUT (at most 8 files come back).
# Call it from the device tool with carry [".carry"] (doctest and Google Benchmark: make_carry.sh).
# The recorded runs used a `git archive` of main copied to /tmp; running it in place is the same.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/napkin-device}; mkdir -p "$out"
bash benchmarks/device/build.sh > /tmp/build.log 2>&1 || { grep -B2 -A8 "error" /tmp/build.log | head -60; }
export LD_LIBRARY_PATH=$PWD/.carry/prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
(cd build/device && ctest --output-on-failure -j 8 -E "build_headers") > "$out/ctest.log" 2>&1
grep -E "tests passed|\*\*\*Failed|\*\*\*Skipped" "$out/ctest.log" | head -20
bash benchmarks/device/profiler.sh /tmp/prof build/device > /dev/null 2>&1; echo "profiler rc=$?"
for probe in user_range_probe dirty_l2_probe pass_cost_probe; do
  nvcc -std=c++17 -arch=sm_90 -Iinclude benchmarks/device/$probe.cu -o /tmp/$probe -lcupti -lcublas > /tmp/probe_build.log 2>&1 ||
    cat /tmp/probe_build.log
done
{ cat /tmp/prof/device.txt /tmp/prof/tables.md; echo; echo "## user_range_probe"; /tmp/user_range_probe; echo;
  echo "## dirty_l2_probe"; /tmp/dirty_l2_probe; echo;
  echo "## pass_cost_probe"; /tmp/pass_cost_probe; echo;
  echo "## legacy_pass_probe"; bash benchmarks/device/legacy_pass_probe.sh; echo;
  echo "## strided_probe"; bash benchmarks/device/strided_probe.sh build/device; echo;
  echo "## napkin_workload.txt"; cat /tmp/prof/napkin_workload.txt; echo "## cost.txt"; cat /tmp/prof/cost.txt;
  echo "## napkin.txt"; cat /tmp/prof/napkin.txt; echo "## ncu.log"; tail -20 /tmp/prof/ncu.log; } > "$out/profiler.txt" 2>&1
bash benchmarks/device/occupancy.sh /tmp/occ build/device > /dev/null 2>&1; echo "occupancy rc=$?"
cat /tmp/occ/*.txt > "$out/occupancy.txt"
bash benchmarks/device/math.sh h100-sxm build/device > "$out/math.txt" 2>&1; echo "math rc=$?"
bash benchmarks/device/nvtx.sh /tmp/nvtx build/device > /dev/null 2>&1; echo "nvtx rc=$?"
cp /tmp/nvtx/nvtx_ncu.txt "$out/" 2>/dev/null
{ lscpu | grep "Model name"; build/device/benchmarks/nvtx/nvtx_bench --benchmark_repetitions=10 \
    --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true; } > "$out/nvtx_bench.txt" 2>&1
build/device/benchmarks/check/check_benchmark --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true > "$out/check_bench.txt" 2>&1
{
  for args in "build/device/tests/check/check_gpu_test --test-case=launch:*" "build/device/tests/occupancy/occupancy_gpu"; do
    echo "\$ compute-sanitizer --tool memcheck --report-api-errors no $args"
    # shellcheck disable=SC2086
    compute-sanitizer --tool memcheck --report-api-errors no $args 2>&1 | grep -E "ERROR SUMMARY|test cases|Status"
  done
} > "$out/sanitizer.txt" 2>&1
cat "$out/sanitizer.txt"
