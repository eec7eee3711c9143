#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine: napkin's source lines (CUPTI PC sampling, in-process) against Nsight Compute's Source
# page on five zoo kernels with a clear hot line, same binary (-lineinfo), each tool timed (docs/source-lines.md).
# Usage: bash benchmarks/device/source_lines.sh OUTDIR [BUILD_DIR]
# Writes OUTDIR/{device.txt,napkin.txt,napkin_<period>.txt,ncu.log,ncu_source_<kernel>.csv,times.txt,compare.txt}.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: bash benchmarks/device/source_lines.sh OUTDIR [BUILD_DIR]}
build=${2:-build/device}
mkdir -p "$out" "$build"
cuda=${CUDA_HOME:-/usr/local/cuda}
cupti_lib=$cuda/extras/CUPTI/lib64
[ -d "$cupti_lib" ] || cupti_lib=$cuda/lib64
export LD_LIBRARY_PATH=$cupti_lib:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=$build/source_lines_check
"$cuda/bin/nvcc" -std=c++17 -O3 -lineinfo -arch=sm_90 -Iinclude -Iexamples/kernels -I"$cuda/extras/CUPTI/include" \
  benchmarks/device/source_lines_check.cu -o "$bin" -L"$cupti_lib" -lcupti || { echo "build failed" >&2; exit 1; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  ncu --version | tail -1
} > "$out/device.txt" 2>&1
now() { date +%s.%N; }
: > "$out/times.txt"
# napkin: CUPTI's default period, then 2^10 cycles; wall time of the whole process.
t0=$(now); "$bin" napkin > "$out/napkin.txt" 2>&1; rc=$?; t1=$(now)
echo "napkin_process_s $(python3 -c "print(round($t1 - $t0, 3))") rc $rc" >> "$out/times.txt"
for p in 8 10 12; do "$bin" napkin "$p" > "$out/napkin_$p.txt" 2>&1; done
# The same binary unprofiled, then under ncu's SourceCounters (source-level warp-stall sampling).
t0=$(now); "$bin" plain > /dev/null 2>&1; t1=$(now)
echo "plain_process_s $(python3 -c "print(round($t1 - $t0, 3))")" >> "$out/times.txt"
rep=/tmp/source_lines_check
rm -f "$rep.ncu-rep"
t0=$(now)
ncu --section SourceCounters --import-source yes -k regex:'zoo_(strided_load|bank_conflict32|local_spill|pointer_chase|smem_tree_reduce)' \
  -o "$rep" "$bin" plain > "$out/ncu.log" 2>&1
t1=$(now)
echo "ncu_process_s $(python3 -c "print(round($t1 - $t0, 3))")" >> "$out/times.txt"
for k in zoo_strided_load zoo_bank_conflict32 zoo_local_spill zoo_pointer_chase zoo_smem_tree_reduce; do
  ncu -i "$rep.ncu-rep" --csv --page source --print-source cuda,sass -k "$k" > "$out/ncu_source_$k.csv" 2>> "$out/ncu.log" || true
done
# ncu's per-kernel duration under SourceCounters, for the cost comparison.
ncu -i "$rep.ncu-rep" --csv --page raw --metrics gpu__time_duration.sum > "$out/ncu_raw.csv" 2>> "$out/ncu.log" || true
python3 benchmarks/device/source_lines_compare.py "$out" | tee "$out/compare.txt"
