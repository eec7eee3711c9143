#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine, after benchmarks/device/build.sh: the kernel zoo (benchmarks/zoo/zoo.cu, 34 kernels of
# distinct character) measured by napkin in-process and by Nsight Compute, and the accuracy tables
# (benchmarks/zoo/accuracy_table.py) for docs/accuracy.md.
# Usage: bash benchmarks/device/zoo.sh OUTDIR [BUILD_DIR]
# Writes OUTDIR/{device.txt,list.txt,time.txt,napkin_r{1,2,3}.txt,napkin_sol.txt,ncu_sol_r{1,2,3}.csv,
# ncu_breakdown.csv,ncu_members_{sm,memory,l1,l2}.csv,ncu.log,accuracy.md}; with ZOO_RANGE=1 also ncu_range.csv
# (ncu's range replay of each case, one ncu process per case: slow).
#
# ncu runs once over all cases per table (`zoo plain`), with --clock-control none (napkin never touches clocks),
# its default cache control (flush before each pass, as napkin does) and --profile-from-start off: `zoo plain`
# warms every case up first (cuBLAS's modules and heuristics), then calls cudaProfilerStart(). Each case is
# preceded by the marker kernel zoo_case_marker with a grid of (case index + 1) blocks: the table script gives
# every kernel after a marker to that case (ncu's IDs are in launch order), cuBLAS's kernels included.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: bash benchmarks/device/zoo.sh OUTDIR [BUILD_DIR]}
build=${2:-build/device}
mkdir -p "$out"
: > "$out/ncu.log"
bin=$build/benchmarks/zoo/zoo
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
ncu_args=(--clock-control none --print-units base --csv --profile-from-start off)

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  nvidia-smi | head -4 | tail -2
  ncu --version | tail -1
  nvcc --version | tail -1
} > "$out/device.txt" 2>&1

"$bin" list > "$out/list.txt"
# Each case's kernel time unprofiled (best of 5 event-timed runs): are the sizes in the 20 us - 5 ms band?
"$bin" time > "$out/time.txt" 2>&1 || echo "time run failed (rc=$?)" >> "$out/time.txt"

# napkin: measure(), per_kernel() and per_kernel(application) of every case, default (fast) set, three runs
# (the table compares medians), and the full SOL set once.
for r in 1 2 3; do
  "$bin" napkin > "$out/napkin_r$r.txt" 2>&1 || echo "napkin run $r failed (rc=$?)" >> "$out/napkin_r$r.txt"
done
"$bin" napkin --set sol > "$out/napkin_sol.txt" 2>&1 || echo "napkin --set sol failed (rc=$?)" >> "$out/napkin_sol.txt"

# ncu's SpeedOfLight section over every case, three runs, each timed against the same program without ncu:
# ncu's per-kernel cost inside a run = (ncu's run - the plain run) / kernels profiled (cost.txt).
now() { date +%s.%N; }
: > "$out/cost.txt"
for r in 1 2 3; do
  t0=$(now); "$bin" plain > /dev/null 2>&1; t1=$(now)
  ncu "${ncu_args[@]}" --section SpeedOfLight "$bin" plain > "$out/ncu_sol_r$r.csv" 2> "$out/ncu_r$r.log"
  t2=$(now)
  profiled=$(grep -o '^"[0-9]*"' "$out/ncu_sol_r$r.csv" | sort -u | wc -l)  # kernel IDs (--csv prints no PROF lines)
  cat "$out/ncu_r$r.log" >> "$out/ncu.log"
  echo "NCU_RUN r=$r plain_s=$(awk "BEGIN{print $t1 - $t0}") ncu_s=$(awk "BEGIN{print $t2 - $t1}") kernels=$profiled" \
    >> "$out/cost.txt"
done

# What ncu's SM %, Memory %, L1 % and L2 % are the maximum of, with the GH100 TriageCompute counters napkin's
# fast set uses instead, and each kernel's duration (the weight for cases of several kernels).
parents=(sm__throughput.avg.pct_of_peak_sustained_elapsed
         gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
         l1tex__throughput.avg.pct_of_peak_sustained_active
         lts__throughput.avg.pct_of_peak_sustained_elapsed)
metrics=gpu__time_duration.sum
for p in "${parents[@]}"; do metrics+=",breakdown:$p,$p"; done
metrics+=,TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active
metrics+=,LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed
ncu "${ncu_args[@]}" --metrics "$metrics" "$bin" plain > "$out/ncu_breakdown.csv" 2>> "$out/ncu.log"
# Which inputs belong to which breakdown (one run above lists them all together): each breakdown alone, on
# the first marker kernel only (a few seconds each).
names=(sm memory l1 l2)
for i in 0 1 2 3; do
  ncu "${ncu_args[@]}" --metrics "breakdown:${parents[$i]}" -k regex:zoo_case_marker -c 1 "$bin" plain \
    --only smem_tree_reduce > "$out/ncu_members_${names[$i]}.csv" 2>> "$out/ncu.log"
done

# Optional: ncu's range replay of each case inside its NVTX range (what measure() covers), one process each.
if [ "${ZOO_RANGE:-0}" = 1 ]; then
  : > "$out/ncu_range.csv"
  while IFS=$'\t' read -r name _; do
    echo "#CASE $name" >> "$out/ncu_range.csv"
    ncu --replay-mode range --nvtx --nvtx-include "napkin@$name/" --clock-control none --section SpeedOfLight \
      --print-units base --csv "$bin" plain --only "$name" --no-profiler-api >> "$out/ncu_range.csv" 2>> "$out/ncu.log"
  done < "$out/list.txt"
fi

python3 benchmarks/zoo/accuracy_table.py "$out" > "$out/accuracy.md"
echo "tables: $out/accuracy.md"
