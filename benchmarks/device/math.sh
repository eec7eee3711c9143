#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: the napkin-math validation table of
# docs/napkin-math.md. Times a copy, a reduction, two softmaxes, an FMA-bound loop and two cuBLAS GEMMs
# (CUDA events, 3 warm-up runs, median of 30) and prints each against napkin's roofline lower bound on the
# table entry (default h100-sxm) and on the spec derived from cudaDeviceProp.
#   ratio = napkin lower bound / measured median; <= 1 expected, > 1 means a wrong peak or convention.
# Usage: bash benchmarks/device/math.sh [GPU_KEY] [BUILD_DIR]     (writes the table to stdout)
# Exit status: 0 all ratios <= 1; 3 some ratio above 1; 1 a failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
gpu=${1:-h100-sxm}
build=${2:-build/device}
exe=$build/examples/kernels/napkin_roofline_validation
cli=$build/tools/napkin/napkin
[ -x "$exe" ] || { echo "missing $exe: run benchmarks/device/build.sh first (needs nvcc)" >&2; exit 1; }
echo "## device"
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem,power.limit --format=csv 2>&1
nvcc --version 2>&1 | tail -1
echo
echo "## roofline validation ($exe --gpu $gpu)"
rc=0
NVIDIA_TF32_OVERRIDE=0 "$exe" --gpu "$gpu" --reps 30 || rc=$?
if [ -x "$cli" ]; then
  echo
  echo "## napkin's prediction for the same GEMM ($cli gemm 8192 8192 8192 --dtype bf16 --gpu $gpu)"
  "$cli" gemm 8192 8192 8192 --dtype bf16 --gpu "$gpu" || rc=$((rc ? rc : $?))
fi
echo "math.sh: rc=$rc"
exit $rc
