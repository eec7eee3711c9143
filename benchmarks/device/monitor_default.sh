#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine, after the examples are built: issue 27's cost goals at the monitor's default settings
# (1 ms samples, the first second of every minute counted from the first kernel; settings.hpp), on the
# multi-phase workload (examples/monitor/monitor_workload.cu, run mode, ~10,500 kernels a second).
# Usage: bash benchmarks/device/monitor_default.sh OUTDIR [BUILD_DIR] [CPU_SECONDS] [WALL_PAIRS]
#   cpu.txt: one run of CPU_SECONDS (default 120) with the monitor at its defaults: MONITOR_CPU_S (its CPU over
#            the run, as a share of one core), samples kept and lost (MONITOR_DIAGNOSTICS, the report's totals).
#   wall.txt: WALL_PAIRS (default 5) pairs of runs of the same 1,500 iterations (~3 s on an H100), monitor off
#            then on, alternating: the wall-time overhead is the ratio of the medians.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: monitor_default.sh OUTDIR [BUILD_DIR] [CPU_SECONDS] [WALL_PAIRS]}
build=${2:-build/device}
seconds=${3:-120}
pairs=${4:-5}
mkdir -p "$out"
bin=$build/examples/monitor/monitor_workload
"$bin" run --seconds "$seconds" > "$out/cpu.txt" 2>&1
: > "$out/wall.txt"
for i in $(seq "$pairs"); do
  "$bin" run --iterations 1500 --monitor off 2>&1 | grep WORKLOAD_WALL_S >> "$out/wall.txt"
  "$bin" run --iterations 1500 2>&1 | grep WORKLOAD_WALL_S >> "$out/wall.txt"
done
python3 - "$out/wall.txt" <<'PY'
import re, statistics, sys
off, on = [], []
for line in open(sys.argv[1]):
    m = re.search(r"monitor=(on|off) wall_s=([0-9.]+)", line)
    if m: (on if m.group(1) == "on" else off).append(float(m.group(2)))
if off and on:
    a, b = statistics.median(off), statistics.median(on)
    print(f"WALL median off {a:.4f} s, on {b:.4f} s: {100 * (b / a - 1):+.2f} % ({len(off)} pairs)")
PY
grep -E "MONITOR_CPU_S|MONITOR_DIAGNOSTICS" "$out/cpu.txt"
