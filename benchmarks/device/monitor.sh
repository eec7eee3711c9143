#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: napkin::monitor's overhead, accuracy against ncu and
# its coexistence cases, on examples/monitor/monitor_workload.cu (docs/monitor.md).
# Usage: bash benchmarks/device/monitor.sh [OUTDIR] [BUILD_DIR] [SOAK_SECONDS] [ACCURACY_INTERVAL_US]
# Writes OUTDIR/{device.txt,overhead.txt,coexist.txt,concurrent.txt,soak.txt,tables.md} and monitor_accuracy.sh's
# files (monitor_b2b.txt, ncu_b2b.csv, monitor_gaps.txt, ncu_gaps.csv, accuracy_tables.md). About 4 minutes.
# ncu runs with --clock-control none, like napkin, which never touches clocks.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-monitor}}
build=${2:-build/device}
soak_s=${3:-0}
acc_us=${4:-200}
mkdir -p "$out"
bin=$build/examples/monitor/monitor_workload
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/device.txt" 2>&1

# Overhead: the same 3-second workload with the monitor off and on, alternating, 5 times each.
: > "$out/overhead.txt"
for i in 1 2 3 4 5; do
  "$bin" run --seconds 3 --monitor off >> "$out/overhead.txt" 2>&1
  "$bin" run --seconds 3 --monitor on > "$out/run_on_$i.txt" 2>&1
  grep -E "WORKLOAD_WALL_S|MONITOR_CPU_S" "$out/run_on_$i.txt" >> "$out/overhead.txt"
done

# Accuracy: the monitor's per-kernel rows against ncu's on the same 13 kernels, back to back at the default
# interval and at ACCURACY_INTERVAL_US with idle gaps (monitor_accuracy.sh: its files and accuracy_tables.md).
bash benchmarks/device/monitor_accuracy.sh "$out" "$build" 10 3 "$acc_us" > "$out/monitor_accuracy.log" 2>&1

# The profiler and the monitor in one process; two kernels at once on two streams.
timeout 120 "$bin" coexist > "$out/coexist.txt" 2>&1; echo "rc=$?" >> "$out/coexist.txt"
timeout 120 "$bin" concurrent > "$out/concurrent.txt" 2>&1; echo "rc=$?" >> "$out/concurrent.txt"
if [ "$soak_s" -gt 0 ]; then
  "$bin" soak --seconds "$soak_s" --interval-us 100 > "$out/soak.txt" 2>&1; echo "rc=$?" >> "$out/soak.txt"
fi

python3 - "$out" > "$out/tables.md" <<'PY'
import os, re, statistics, sys
out = sys.argv[1]
off, on, cpu = [], [], []
for line in open(os.path.join(out, "overhead.txt")):
    m = re.search(r"WORKLOAD_WALL_S monitor=(on|off) wall_s=([0-9.]+)", line)
    if m: (on if m.group(1) == "on" else off).append(float(m.group(2)))
    m = re.search(r"MONITOR_CPU_S cpu_s=([0-9.]+) wall_s=([0-9.]+)", line)
    if m: cpu.append(float(m.group(1)) / float(m.group(2)) * 100)
print("### Overhead: the 3-second multi-phase workload, monitor off and on, 5 alternating runs each\n")
if off and on:
    mo, mn = statistics.median(off), statistics.median(on)
    print("| | runs | median wall (s) | all runs (s) |\n|---|---|---|---|")
    print(f"| monitor off | {len(off)} | {mo:.4f} | {', '.join(f'{x:.3f}' for x in off)} |")
    print(f"| monitor on | {len(on)} | {mn:.4f} | {', '.join(f'{x:.3f}' for x in on)} |")
    print(f"\nOn/off: {(mn / mo - 1) * 100:+.2f} %. The monitor's decode thread: "
          f"{statistics.median(cpu):.2f} % of one core (median; {min(cpu):.2f}-{max(cpu):.2f} %).\n")
acc = os.path.join(out, "accuracy_tables.md")
print(open(acc).read() if os.path.exists(acc) else "accuracy: missing (see monitor_accuracy.log)")
PY
echo "tables: $out/tables.md"
