#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine, after benchmarks/device/build.sh: napkin's sections beyond SOL (warp state, pipes, memory
# chart, achieved occupancy: metric_sets::why()) against Nsight Compute's over every zoo case, and what each
# costs, side by side (docs/why.md).
# Usage: bash benchmarks/device/why.sh OUTDIR [BUILD_DIR]
# Writes OUTDIR/{napkin_why.txt,why.md,cost.txt} and, through benchmarks/device/why_ncu.sh, OUTDIR/ncu/
# {device.txt,why_raw.csv,why_details.csv,source_<kernel>.csv,ncu.log}.
#
# Cost: the wall clock of `zoo why` (napkin: every case in application replay, 17 passes on GH100) against the
# wall clock of ncu running its equivalent sections (33 passes on GH100, plus its Source page and
# SourceCounters sampling) over `zoo plain`; both include the zoo's start-up and cuBLAS warm-up, which `zoo
# plain` alone (timed first, unprofiled) shows. napkin's per-case times are its ZOO_COST lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: bash benchmarks/device/why.sh OUTDIR [BUILD_DIR]}
build=${2:-build/device}
mkdir -p "$out"
bin=$build/benchmarks/zoo/zoo
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

t0=$(now)
"$bin" plain > /dev/null 2>&1
t1=$(now)
"$bin" why > "$out/napkin_why.txt" 2>&1 || echo "zoo why failed (rc=$?)" >> "$out/napkin_why.txt"
t2=$(now)
bash benchmarks/device/why_ncu.sh "$out/ncu" "$build"
t3=$(now)
# ncu with only the sections napkin's why() set stands for (SOL, warp state, occupancy, launch, compute and
# memory workload analysis; no source counters, no Source page): the like-for-like cost.
ncu --clock-control none --profile-from-start off --section SpeedOfLight --section WarpStateStats \
  --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section MemoryWorkloadAnalysis_Tables "$bin" plain > "$out/ncu_equivalent.log" 2>&1
t4=$(now)
{
  echo "zoo plain (unprofiled, every case once after its warm-up): $(seconds "$t0" "$t1") s"
  echo "napkin: zoo why (metric_sets::why(), application replay, every case): $(seconds "$t1" "$t2") s"
  grep '^NAPKIN_SETUP' "$out/napkin_why.txt"
  grep '^ZOO_COST case=all' "$out/napkin_why.txt"
  echo "ncu: its sections over zoo plain (the profiling run alone): $(cat "$out/ncu/ncu_wall_s.txt" 2>/dev/null) s"
  echo "ncu: why_ncu.sh in all (with the CSV and Source page exports): $(seconds "$t2" "$t3") s"
  grep -m1 -o '[0-9]* passes' "$out/ncu/ncu.log" | head -1 | sed 's/^/ncu per kernel: /'
  echo "ncu: only the equivalent sections (SOL, warp state, occupancy, launch, compute, memory) over zoo plain: $(seconds "$t3" "$t4") s"
  grep -m1 -o '[0-9]* passes' "$out/ncu_equivalent.log" | head -1 | sed 's/^/ncu equivalent sections per kernel: /'
} > "$out/cost.txt"
cat "$out/cost.txt"
python3 benchmarks/zoo/why_table.py "$out/napkin_why.txt" "$out/ncu/why_raw.csv" --details "$out/ncu/why_details.csv" \
  > "$out/why.md"
grep -E '^(Top|Achieved|Hit|Busiest)' "$out/why.md"
