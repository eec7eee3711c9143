#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: napkin's SOL numbers against Nsight Compute's on the
# seven kernels of examples/profiler/profiler_kernels.cu (the shared kernels of examples/kernels), for
# measure() with and without the launch gate and per_kernel() (accuracy), and the wall time of each (cost).
# Usage: bash benchmarks/device/profiler.sh [OUTDIR] [BUILD_DIR]
# Writes OUTDIR/{device.txt,napkin.txt,ncu_sol.csv,ncu_range.csv,ncu.log,cost.txt,tables.md}; tables.md is what
# docs/profiler.md shows. ncu runs with --clock-control none (napkin never touches clocks) and its default
# cache control (flush before each pass: napkin's measure() flushes L2 too).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-profiler}}
build=${2:-build/device}
mkdir -p "$out"
bin=$build/examples/profiler/profiler_kernels
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
kernels="copy reduce softmax_naive softmax_opt strided_read fma_loop sgemm"
filter='regex:copy_kernel|sum_kernel|softmax_seed|strided_read_kernel|fma_loop_kernel|gemm'

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  ncu --version | tail -1
  nvcc --version | tail -1
} > "$out/device.txt" 2>&1

# napkin: measure() and per_kernel() for each kernel, with reports.
"$bin" napkin > "$out/napkin.txt" 2>&1 || echo "napkin run failed (rc=$?)" >> "$out/napkin.txt"

# ncu: the same kernels, one launch each, SpeedOfLight section.
ncu --clock-control none --section SpeedOfLight --print-units base --csv -k "$filter" "$bin" plain \
  > "$out/ncu_sol.csv" 2> "$out/ncu.log"

# ncu's range replay of the same launches, each inside its NVTX range (what measure() corresponds to).
: > "$out/ncu_range.csv"
for k in $kernels; do
  echo "#CASE $k" >> "$out/ncu_range.csv"
  ncu --replay-mode range --nvtx --nvtx-include "napkin@$k/" --clock-control none --section SpeedOfLight \
    --print-units base --csv "$bin" plain --only "$k" >> "$out/ncu_range.csv" 2>> "$out/ncu.log"
done

# Cost: wall time of one kernel's ncu run against the same program without ncu.
now() { date +%s.%N; }
: > "$out/cost.txt"
for k in $kernels; do
  t0=$(now); "$bin" plain --only "$k" > /dev/null 2>&1; t1=$(now)
  passes=$(ncu --clock-control none --section SpeedOfLight -k "$filter" "$bin" plain --only "$k" 2>&1 |
           grep -o '[0-9]* passes' | head -1 | cut -d' ' -f1)
  t2=$(now)
  echo "NCU_COST name=$k plain_s=$(awk "BEGIN{print $t1 - $t0}") ncu_s=$(awk "BEGIN{print $t2 - $t1}") ncu_passes=${passes:-?}" >> "$out/cost.txt"
done

python3 - "$out" > "$out/tables.md" <<'PY'
import csv, re, sys, os
out = sys.argv[1]
cases = ["copy", "reduce", "softmax_naive", "softmax_opt", "strided_read", "fma_loop", "sgemm"]
def case_of(kernel):
    for key, c in (("copy_kernel", "copy"), ("sum_kernel", "reduce"), ("softmax_seed_naive", "softmax_naive"),
                   ("softmax_seed_registers", "softmax_opt"), ("strided_read_kernel", "strided_read"),
                   ("fma_loop_kernel", "fma_loop"), ("gemm", "sgemm")):
        if key in kernel: return c
    return None
labels = {"Duration": "dur", "Compute (SM) Throughput": "sm", "Memory Throughput": "mem",
          "DRAM Throughput": "dram", "L1/TEX Cache Throughput": "l1", "L2 Cache Throughput": "l2",
          "SM Frequency": "smhz", "Elapsed Cycles": "cyc"}
metric = {"dur": "gpu__time_duration.sum", "sm": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
          "mem": "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
          "dram": "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
          "l1": "l1tex__throughput.avg.pct_of_peak_sustained_active",
          "l2": "lts__throughput.avg.pct_of_peak_sustained_elapsed", "smhz": "gpc__cycles_elapsed.avg.per_second",
          "cyc": "gpc__cycles_elapsed.max"}
scale = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
ncu = {}
with open(os.path.join(out, "ncu_sol.csv")) as f:
    rows = [r for r in csv.reader(l for l in f if l.startswith('"'))]
hdr = rows[0] if rows else []
for r in rows[1:]:
    d = dict(zip(hdr, r))
    c = case_of(d.get("Kernel Name", ""))
    key = labels.get(d.get("Metric Name"))
    if not c or not key: continue
    v = float(d["Metric Value"].replace(",", ""))
    if key == "dur": v *= scale.get(d.get("Metric Unit", "nsecond"), 1)
    ncu.setdefault(c, {})
    if key == "dur" and key in ncu[c]: v += ncu[c][key]  # several cuBLAS kernels: sum durations
    ncu[c][key] = v
napkin, per, cost, rng = {}, {}, {}, {}
case, hdr = None, None
for line in open(os.path.join(out, "ncu_range.csv")):
    if line.startswith("#CASE"): case, hdr = line.split()[1], None; continue
    if not line.startswith('"'): continue
    row = next(csv.reader([line]))
    if hdr is None: hdr = row; continue
    d = dict(zip(hdr, row)); key = labels.get(d.get("Metric Name"))
    if not key or not case: continue
    v = float(d["Metric Value"].replace(",", ""))
    if key == "dur": v *= scale.get(d.get("Metric Unit", "nsecond"), 1)
    rng.setdefault(case, {})[metric[key]] = v
for line in open(os.path.join(out, "napkin.txt")):
    if line.startswith("NAPKIN_SOL"):
        kv = dict(t.split("=", 1) for t in line.split()[1:])
        if kv.get("mode") == "measure": napkin[kv["name"]] = kv
        elif kv.get("mode") == "per_kernel":
            c = kv["case"]
            # several kernels (cuBLAS): keep the longest
            if c not in per or float(kv[metric["dur"]]) > float(per[c][metric["dur"]]): per[c] = kv
    elif line.startswith("NAPKIN_COST"):
        kv = dict(t.split("=", 1) for t in line.split()[1:]); cost[kv["name"]] = kv
ncost = {}
for line in open(os.path.join(out, "cost.txt")):
    kv = dict(t.split("=", 1) for t in line.split()[1:]); ncost[kv["name"]] = kv
cols = ["dur", "sm", "mem", "dram", "l1", "l2"]
print("### Accuracy: napkin vs `ncu --clock-control none --section SpeedOfLight`\n")
print("| kernel | source | duration (us) | SM % | Memory % | DRAM % | L1/TEX % | L2 % | max abs diff (points) | duration diff |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in cases:
    ref = ncu.get(c)
    def fmt(src):
        return [src[metric[k]] if isinstance(src, dict) and metric[k] in src else None for k in cols]
    if ref:
        print(f"| {c} | ncu | " + " | ".join(f"{ref[k]/1e3:.2f}" if k == "dur" else f"{ref.get(k, float('nan')):.2f}" for k in cols) + " | | |")
    for label, src in (("napkin measure()", napkin.get(c)), ("napkin per_kernel()", per.get(c)),
                       ("ncu --replay-mode range", rng.get(c))):
        if not src: continue
        vals = [float(src[metric[k]]) for k in cols]
        diff = dd = ""
        if ref:
            diff = f"{max(abs(vals[i] - ref[k]) for i, k in enumerate(cols) if k != 'dur' and k in ref):.2f}"
            dd = f"{(vals[0] - ref['dur']) / ref['dur'] * 100:+.1f}%"
        print(f"| {c} | {label} | {vals[0]/1e3:.2f} | " + " | ".join(f"{v:.2f}" for v in vals[1:]) + f" | {diff} | {dd} |")
print("\n### Cost: wall time per measured kernel\n")
print("| kernel | kernel time (ms) | napkin passes | ncu passes | napkin measure() (s) | napkin per_kernel() (s) | ncu run minus plain run (s) | ncu / measure() | measure() / (passes x kernel) | measure() beyond passes x kernel (ms) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in cases:
    if c not in cost: continue
    k = cost[c]; n = ncost.get(c, {})
    kms, p, ms = float(k["kernel_ms"]), int(k["passes"]), float(k["measure_s"])
    try: ncu_s = float(n["ncu_s"]) - float(n["plain_s"])
    except (KeyError, ValueError): ncu_s = float("nan")
    print(f"| {c} | {kms:.3f} | {p} | {n.get('ncu_passes', '?')} | {ms:.4f} | {float(k['per_kernel_s']):.4f} | {ncu_s:.2f} | {ncu_s / ms:.0f}x | {ms / (p * kms / 1e3):.1f} | {(ms - p * kms / 1e3) * 1e3:.1f} |")
print("\n### Where measure()'s time goes (napkin's own breakdown, ms)\n")
print("| kernel | enable | setup (counter data, SetConfig) | passes | of which passes x kernel | decode + evaluate | per pass beyond the kernel |")
print("|---|---|---|---|---|---|---|")
for c in cases:
    if c not in napkin or c not in cost: continue
    m = napkin[c]; kms = float(cost[c]["kernel_ms"]); p = int(m["passes"])
    e, su, ps, de = (float(m[x]) * 1e3 for x in ("enable_s", "setup_s", "passes_s", "decode_s"))
    print(f"| {c} | {e:.1f} | {su:.1f} | {ps:.1f} | {p * kms:.1f} | {de:.1f} | {(ps - p * kms) / p:.2f} |")
PY
echo "tables: $out/tables.md"
