#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: napkin::monitor's overhead, accuracy against ncu and
# its coexistence cases, on examples/monitor/monitor_workload.cu (docs/monitor.md).
# Usage: bash benchmarks/device/monitor.sh [OUTDIR] [BUILD_DIR] [SOAK_SECONDS] [ACCURACY_INTERVAL_US]
# Writes OUTDIR/{device.txt,overhead.txt,accuracy.txt,ncu_plain.csv,coexist.txt,concurrent.txt,soak.txt,tables.md}.
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

# Accuracy: the monitor's per-kernel readings against ncu's on the same kernels (>= 200 us each), in the same
# sequence (3 launches each, idle gaps; ncu's numbers are the mean over each kernel's 3 launches).
timeout 180 "$bin" accuracy --interval-us "$acc_us" > "$out/accuracy.txt" 2>&1
ncu --clock-control none --section SpeedOfLight --metrics dram__bytes.sum --print-units base --csv \
  -k 'regex:copy_kernel|softmax_smem_naive|fma_loop|gemm|smem_tree_reduce|strided_read' "$bin" accuracy --monitor off \
  --interval-us "$acc_us" > "$out/ncu_plain.csv" 2> "$out/ncu.log"
# The same with ncu leaving the caches as the program left them (the monitor's view: a kernel's DRAM
# bytes then include write-backs of earlier kernels' dirty lines, as in the program).
ncu --clock-control none --cache-control none --section SpeedOfLight --metrics dram__bytes.sum --print-units base \
  --csv -k 'regex:copy_kernel|softmax_smem_naive|fma_loop|gemm|smem_tree_reduce|strided_read' "$bin" accuracy \
  --monitor off --interval-us "$acc_us" > "$out/ncu_plain_nocache.csv" 2>> "$out/ncu.log"

# The profiler and the monitor in one process; two kernels at once on two streams.
timeout 120 "$bin" coexist > "$out/coexist.txt" 2>&1; echo "rc=$?" >> "$out/coexist.txt"
timeout 120 "$bin" concurrent > "$out/concurrent.txt" 2>&1; echo "rc=$?" >> "$out/concurrent.txt"
if [ "$soak_s" -gt 0 ]; then
  "$bin" soak --seconds "$soak_s" --interval-us 100 > "$out/soak.txt" 2>&1; echo "rc=$?" >> "$out/soak.txt"
fi

python3 - "$out" "$acc_us" > "$out/tables.md" <<'PY'
import csv, os, re, statistics, sys
out, acc_us = sys.argv[1], sys.argv[2]
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
def case_of(k):
    for key, c in (("copy_kernel", "copy"), ("softmax_smem_naive", "softmax"), ("fma_loop", "fma"),
                   ("smem_tree_reduce", "smem_reduce"), ("strided_read", "strided"), ("gemm", "sgemm")):
        if key in k: return c
names = {"Duration": "dur", "Compute (SM) Throughput": "sm", "DRAM Throughput": "dram", "dram__bytes.sum": "bytes",
         "L1/TEX Cache Throughput": "l1"}
scale = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
def read_ncu(name):
    got = {}
    path = os.path.join(out, name)
    rows = [r for r in csv.reader(l for l in open(path) if l.startswith('"'))] if os.path.exists(path) else []
    for r in rows[1:]:
        d = dict(zip(rows[0], r)); c = case_of(d.get("Kernel Name", "")); key = names.get(d.get("Metric Name"))
        if not c or not key: continue
        v = float(d["Metric Value"].replace(",", ""))
        if key == "dur": v *= scale.get(d.get("Metric Unit", "nsecond"), 1)
        got.setdefault(c, {}).setdefault(key, []).append(v)
    # The sequence's 3 launches are each kernel's last 3 (the warm-up's smaller launches come first).
    return {c: {k: statistics.mean(v[-3:]) for k, v in kv.items()} for c, kv in got.items()}
ncu = read_ncu("ncu_plain.csv")
ncu_warm = read_ncu("ncu_plain_nocache.csv")
mon = {}
for line in open(os.path.join(out, "accuracy.txt")):
    if line.startswith("NAPKIN_MONITOR_ROW by=kernel"):
        kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
        c = case_of(kv.get("name", ""))
        if c: mon[c] = kv
print(f"### Accuracy: monitor (per kernel, 3 launches each with idle gaps, {acc_us} us samples) vs `ncu --section SpeedOfLight --metrics dram__bytes.sum` on the same sequence, mean of the 3 launches (caches flushed: ncu's default; and `--cache-control none`)\n")
print("| kernel | ncu duration (us) | monitor mean (us) | ncu SM % | monitor SM % | ncu DRAM % | monitor DRAM % | ncu DRAM bytes (MB) | ncu, caches as left (MB) | monitor bytes per fully sampled launch (MB) | fully sampled | bytes diff (flushed / as left) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for c in ("copy", "softmax", "fma", "sgemm", "smem_reduce", "strided"):
    n, m = ncu.get(c), mon.get(c)
    if not n or not m: print(f"| {c} | missing | | | | | | | | | | |"); continue
    w = ncu_warm.get(c, {}).get("bytes", float("nan"))
    per = float(m.get("dram_bytes_per_complete_launch", "nan"))
    diff = (per / n["bytes"] - 1) * 100 if n.get("bytes") else float("nan")
    diff_w = (per / w - 1) * 100 if w == w and w > 0 else float("nan")
    print(f"| {c} | {n['dur']/1e3:.1f} | {float(m['mean_ns'])/1e3:.1f} | {n['sm']:.2f} | {float(m.get('sm_pct','nan')):.2f} | "
          f"{n['dram']:.2f} | {float(m.get('dram_pct','nan')):.2f} | {n['bytes']/1e6:.1f} | {w/1e6:.1f} | {per/1e6:.1f} | {m.get('complete', '?')} of {m['count']} | {diff:+.1f} % / {diff_w:+.1f} % |")
PY
echo "tables: $out/tables.md"
