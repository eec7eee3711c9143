#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine, after the examples are built: issue 30's cost goal, the system view's wall time with the
# monitor at its defaults, on the multi-phase workload (examples/monitor/monitor_workload.cu, run mode: 26
# kernels, 16 copies and host waits per iteration). PAIRS (default 7) rounds of three runs of the same
# 1,500 iterations, in turn: no monitor, the monitor with system=off, the monitor with its default (system=on).
# Prints the medians and the ratios; the system view's overhead is system=on over system=off.
# Usage: bash benchmarks/device/system_cost.sh OUTDIR [BUILD_DIR] [PAIRS]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?usage: system_cost.sh OUTDIR [BUILD_DIR] [PAIRS]}
build=${2:-build/device}
pairs=${3:-7}
mkdir -p "$out"
bin=$build/examples/monitor/monitor_workload
: > "$out/system_cost.txt"
for i in $(seq "$pairs"); do
  "$bin" run --iterations 1500 --monitor off 2>&1 | grep WORKLOAD_WALL_S >> "$out/system_cost.txt"
  "$bin" run --iterations 1500 --system off 2>&1 | grep -E "WORKLOAD_WALL_S|MONITOR_CPU_S" >> "$out/system_cost.txt"
  "$bin" run --iterations 1500 2>&1 | grep -E "WORKLOAD_WALL_S|MONITOR_CPU_S" >> "$out/system_cost.txt"
done
python3 - "$out/system_cost.txt" <<'PY'
import re, statistics, sys
runs = {"off": [], "system=off": [], "system=on": []}
for line in open(sys.argv[1]):
    m = re.search(r"monitor=(on|off) wall_s=([0-9.]+)(?: system=(on|off))?", line)
    if m:
        key = "off" if m.group(1) == "off" else "system=" + (m.group(3) or "on")
        runs[key].append(float(m.group(2)))
med = {k: statistics.median(v) for k, v in runs.items() if v}
print("WALL medians: " + ", ".join(f"{k} {v:.4f} s" for k, v in med.items()) + f" ({len(runs['off'])} rounds)")
if "system=off" in med and "system=on" in med:
    print(f"SYSTEM_VIEW_OVERHEAD {100 * (med['system=on'] / med['system=off'] - 1):+.2f} % (system=on over system=off)")
if "off" in med and "system=on" in med:
    print(f"MONITOR_TOTAL_OVERHEAD {100 * (med['system=on'] / med['off'] - 1):+.2f} % (monitor default over no monitor)")
PY
