#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: napkin's occupancy for real compiled kernels against
# the driver's cudaOccupancyMaxActiveBlocksPerMultiprocessor / cudaOccupancyMaxPotentialBlockSize, and the
# differential test against cuda_occupancy.h. Prints the table that docs/occupancy.md shows.
# Usage: bash benchmarks/device/occupancy.sh [OUTDIR] [BUILD_DIR]
# Writes OUTDIR/{device.txt,gpu_test.txt,differential.txt}; exits non-zero if either test fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-occupancy}}
build=${2:-build/device}
mkdir -p "$out"
gpu=$build/tests/occupancy/occupancy_gpu
diff=$build/tests/occupancy/occupancy_differential
[ -x "$gpu" ] || { echo "missing $gpu: run benchmarks/device/build.sh first (needs nvcc)" >&2; exit 1; }
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  nvcc --version | tail -1
} > "$out/device.txt" 2>&1
cat "$out/device.txt"
rc=0
"$gpu" > "$out/gpu_test.txt" 2>&1 || rc=$?
cat "$out/gpu_test.txt"
if [ -x "$diff" ]; then
  "$diff" > "$out/differential.txt" 2>&1 || rc=$((rc ? rc : $?))
  grep -E "compared|checked|TOTAL|MISMATCH|test cases" "$out/differential.txt"
fi
echo "occupancy.sh: rc=$rc (outputs in $out)"
exit $rc
