#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine, after the zoo is built: Nsight Compute's "why" sections over every zoo case, the ground
# truth for napkin's warp-state, occupancy, pipe, memory-chart and source-line numbers (docs/why.md).
# Usage: bash benchmarks/device/why_ncu.sh OUTDIR [BUILD_DIR]
# Writes OUTDIR/{device.txt,why_raw.csv,why_details.csv,source_<case>.csv,sections.tar.gz,ncu.log,ncu_wall_s.txt}.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: bash benchmarks/device/why_ncu.sh OUTDIR [BUILD_DIR]}
build=${2:-build/device}
mkdir -p "$out"
bin=$build/benchmarks/zoo/zoo
[ -x "$bin" ] || { echo "missing $bin" >&2; exit 1; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  ncu --version | tail -1
} > "$out/device.txt" 2>&1
sections=(--section WarpStateStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis
          --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section SourceCounters
          --section InstructionStats --section SchedulerStats)
rep=/tmp/why.ncu-rep
rm -f "$rep"
start=$(date +%s.%N)
ncu --clock-control none --profile-from-start off --import-source yes "${sections[@]}" -o "${rep%.ncu-rep}" \
  "$bin" plain > "$out/ncu.log" 2>&1
# The profiling run's wall clock alone (benchmarks/device/why.sh sets it beside napkin's).
awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", b - a }' > "$out/ncu_wall_s.txt"
ncu -i "$rep" --csv --print-units base --page raw > "$out/why_raw.csv" 2>> "$out/ncu.log"
ncu -i "$rep" --csv --print-units base --page details > "$out/why_details.csv" 2>> "$out/ncu.log"
# The Source page of the cases with a clear hot line, SASS and CUDA source side by side.
for k in zoo_strided_load zoo_bank_conflict32 zoo_local_spill zoo_pointer_chase zoo_smem_tree_reduce; do
  ncu -i "$rep" --csv --page source --print-source cuda,sass -k "$k" > "$out/source_$k.csv" 2>> "$out/ncu.log" || true
done
d=$(dirname "$(find / -name WarpStateStats.section -not -path '*/proc/*' 2>/dev/null | head -1)")
tar -czf "$out/sections.tar.gz" -C "$d" . 2>> "$out/ncu.log"
