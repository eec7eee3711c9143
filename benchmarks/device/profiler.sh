#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: napkin's SOL numbers against Nsight Compute's on the
# ten kernels of examples/profiler/profiler_kernels.cu (the shared kernels of examples/kernels), for
# measure() and both per_kernel() replays with the default (fast, 2-pass on GH100) SOL set and the full
# 9-pass set (accuracy), the wall time of each (cost), and the L2 state before each pass (cache-state table).
# Usage: bash benchmarks/device/profiler.sh [OUTDIR] [BUILD_DIR]
# Writes OUTDIR/{device.txt,napkin*.txt,ncu_sol.csv,ncu_range.csv,ncu_bytes.csv,ncu.log,cost.txt,tables.md}; tables.md is what
# docs/profiler.md shows. ncu runs with --clock-control none (napkin never touches clocks) and its default
# cache control (flush before each pass: napkin's measure() flushes L2 too).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-profiler}}
build=${2:-build/device}
mkdir -p "$out"
: > "$out/ncu.log"
bin=$build/examples/profiler/profiler_kernels
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
kernels="copy reduce softmax_naive softmax_opt strided_read fma_loop sgemm smem_reduce l2_read tc_gemm"
filter='regex:copy_kernel|sum_kernel|softmax_smem|strided_read_kernel|fma_loop_kernel|gemm|nvjet|smem_tree_reduce_kernel|l2_resident_read_kernel'

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  ncu --version | tail -1
  nvcc --version | tail -1
} > "$out/device.txt" 2>&1

# napkin: measure() and per_kernel() (both replays) for each kernel, with reports; three runs, so that the
# accuracy table compares medians (ncu's SOL run is repeated as often: both read a kernel's own run-to-run
# spread, e.g. the strided read's +-1.5 % duration).
"$bin" napkin > "$out/napkin.txt" 2>&1 || echo "napkin run failed (rc=$?)" >> "$out/napkin.txt"
for r in 2 3; do
  "$bin" napkin > "$out/napkin_r$r.txt" 2>&1 || echo "napkin run $r failed (rc=$?)" >> "$out/napkin_r$r.txt"
done
# The full SOL set (ncu's own metric names, 9 passes on GH100), three runs: the reference napkin keeps one
# option away from the fast set.
for r in 1 2 3; do
  "$bin" napkin --set sol > "$out/napkin_sol_r$r.txt" 2>&1 || echo "napkin --set sol run $r failed (rc=$?)" >> "$out/napkin_sol_r$r.txt"
done
# What ncu's Memory % and L2 % are the maximum of, per kernel (to explain any fast-set difference).
ncu --clock-control none --metrics breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed \
  --print-units base --csv -k "$filter" "$bin" plain > "$out/ncu_breakdown.csv" 2>> "$out/ncu.log"
# The one-pass set: what measure() costs when the counters fit one pass.
"$bin" napkin --set one_pass > "$out/napkin_one_pass.txt" 2>&1 || echo "napkin --set one_pass failed" >> "$out/napkin_one_pass.txt"
# Cache state: DRAM bytes read/written per kernel (napkin's three ways, the old memset flush, ncu).
"$bin" napkin --set bytes > "$out/napkin_bytes.txt" 2>&1 || echo "napkin --set bytes failed" >> "$out/napkin_bytes.txt"
"$bin" napkin --set bytes --memset-flush > "$out/napkin_bytes_memset.txt" 2>&1 || echo "failed" >> "$out/napkin_bytes_memset.txt"
ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --print-units base \
  --csv -k "$filter" "$bin" plain > "$out/ncu_bytes.csv" 2>> "$out/ncu.log"

# ncu: the same kernels, one launch each, SpeedOfLight section.
for r in 1 2 3; do
  ncu --clock-control none --section SpeedOfLight --print-units base --csv -k "$filter" "$bin" plain \
    > "$out/ncu_sol_r$r.csv" 2>> "$out/ncu.log"
done

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
# The whole job, every kernel of the seven cases (each case R times: 7 R kernels), one process each, against
# the same program without a tool: ncu profiling every kernel, and napkin measuring all of them with one
# per_kernel(fn, replay::application) call in a fresh process (profiler made, passes paid once).
for R in 1 3; do
  t0=$(now); "$bin" plain --repeat $R > /dev/null 2>&1; t1=$(now)
  profiled=$(ncu --clock-control none --section SpeedOfLight -k "$filter" "$bin" plain --repeat $R 2>&1 | grep -c "==PROF== Profiling")
  t2=$(now)
  echo "NCU_ALL repeat=$R plain_s=$(awk "BEGIN{print $t1 - $t0}") ncu_s=$(awk "BEGIN{print $t2 - $t1}") kernels=$profiled" >> "$out/cost.txt"
  wl=$out/napkin_workload.txt; [ $R = 1 ] || wl=$out/napkin_workload_r$R.txt
  t0=$(now); "$bin" plain --repeat $R > /dev/null 2>&1; t1=$(now)
  "$bin" workload --repeat $R > "$wl" 2>&1 || echo "workload run failed (rc=$?)" >> "$wl"
  t2=$(now)
  echo "NAPKIN_ALL repeat=$R plain_s=$(awk "BEGIN{print $t1 - $t0}") napkin_s=$(awk "BEGIN{print $t2 - $t1}")" >> "$out/cost.txt"
done

python3 - "$out" > "$out/tables.md" <<'PY'
import csv, re, sys, os
out = sys.argv[1]
cases = ["copy", "reduce", "softmax_naive", "softmax_opt", "strided_read", "fma_loop", "sgemm", "smem_reduce",
         "l2_read", "tc_gemm"]
def case_of(kernel):
    if "nvjet" in kernel or ("gemm" in kernel and "bf16" in kernel): return "tc_gemm"  # cuBLAS's BF16 kernel
    for key, c in (("smem_tree_reduce", "smem_reduce"), ("l2_resident_read", "l2_read"), ("copy_kernel", "copy"), ("sum_kernel", "reduce"), ("softmax_smem_naive", "softmax_naive"),
                   ("softmax_smem_registers", "softmax_opt"), ("strided_read_kernel", "strided_read"),
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
def read_ncu(path):
    res = {}
    if not os.path.exists(path): return res
    with open(path) as f:
        rows = [r for r in csv.reader(l for l in f if l.startswith('"'))]
    hdr = rows[0] if rows else []
    for r in rows[1:]:
        d = dict(zip(hdr, r))
        c = case_of(d.get("Kernel Name", ""))
        key = labels.get(d.get("Metric Name"))
        if not c or not key: continue
        v = float(d["Metric Value"].replace(",", ""))
        if key == "dur": v *= scale.get(d.get("Metric Unit", "nsecond"), 1)
        res.setdefault(c, {})
        if key == "dur" and key in res[c]: v += res[c][key]  # several cuBLAS kernels: sum durations
        res[c][key] = v
    return res
def read_napkin(path):
    napkin, per, app, cost, wl = {}, {}, {}, {}, {}
    if not os.path.exists(path): return napkin, per, app, cost, wl
    for line in open(path):
        if line.startswith("NAPKIN_SOL"):
            kv = dict(t.split("=", 1) for t in line.split()[1:])
            mode = kv.get("mode")
            if mode == "measure": napkin[kv["name"]] = kv
            elif mode in ("per_kernel", "application", "workload"):
                c = kv["case"] if mode != "workload" else case_of(kv["name"])
                into = {"per_kernel": per, "application": app, "workload": wl}[mode]
                # several kernels (cuBLAS): keep the longest
                if c and (c not in into or float(kv[metric["dur"]]) > float(into[c][metric["dur"]])): into[c] = kv
        elif line.startswith("NAPKIN_COST"):
            kv = dict(t.split("=", 1) for t in line.split()[1:]); cost[kv["name"]] = kv
    return napkin, per, app, cost, wl
def median(xs):
    xs = sorted(xs); n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
def med_dicts(runs):
    """Per case, per key: the median over the runs that have it (values as floats where they parse)."""
    out_ = {}
    for c in set().union(*runs) if runs else ():
        have = [r[c] for r in runs if c in r]
        m = {}
        for k in have[0]:
            try: m[k] = median([float(h[k]) for h in have if k in h])
            except ValueError: m[k] = have[0][k]
        m["_runs"] = len(have)
        dk = metric["dur"] if metric["dur"] in have[0] else "dur"
        m["_dur_all"] = sorted(float(h[dk]) for h in have if dk in h)
        out_[c] = m
    return out_
ncu_runs = [read_ncu(os.path.join(out, f"ncu_sol_r{r}.csv")) for r in (1, 2, 3)]
ncu_runs = [r for r in ncu_runs if r]
ncu = med_dicts(ncu_runs)
nap_runs = [read_napkin(os.path.join(out, f)) for f in ("napkin.txt", "napkin_r2.txt", "napkin_r3.txt")]
nap_runs = [r for r in nap_runs if r[0]]
napkin, per, app, cost = (med_dicts([r[i] for r in nap_runs]) for i in range(4))
sol_runs = [read_napkin(os.path.join(out, f"napkin_sol_r{r}.txt")) for r in (1, 2, 3)]
sol_runs = [r for r in sol_runs if r[0]]
sol_measure, sol_per, sol_app, sol_cost = (med_dicts([r[i] for r in sol_runs]) if sol_runs else {} for i in range(4))
wl = read_napkin(os.path.join(out, "napkin_workload.txt"))[4]
wl = med_dicts([wl]) if wl else {}
rng = {}
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
rng = med_dicts([rng]) if rng else {}
ncost, ncu_jobs, nap_jobs, wl_lines = {}, {}, {}, {}
for line in open(os.path.join(out, "cost.txt")):
    kv = dict(t.split("=", 1) for t in line.split()[1:])
    if line.startswith("NCU_ALL"): ncu_jobs[kv.get("repeat", "1")] = kv
    elif line.startswith("NAPKIN_ALL"): nap_jobs[kv.get("repeat", "1")] = kv
    else: ncost[kv["name"]] = kv
ncu_all = ncu_jobs.get("1", {})
for f in sorted(os.listdir(out)):
    if f.startswith("napkin_workload"):
        for line in open(os.path.join(out, f)):
            if line.startswith("NAPKIN_WORKLOAD"):
                kv = dict(t.split("=", 1) for t in line.split()[1:]); wl_lines[kv.get("repeat", "1")] = kv
cols = ["dur", "sm", "mem", "dram", "l1", "l2"]
def spread(src):
    d = src.get("_dur_all", [])
    return f"{d[0]/1e3:.1f}-{d[-1]/1e3:.1f}" if len(d) > 1 else ""
print("### Accuracy: napkin vs `ncu --clock-control none --section SpeedOfLight`\n")
print(f"Medians of {len(ncu_runs)} ncu runs and {len(nap_runs)} napkin runs (each value its own median); the last "
      "column is the duration's range over those runs. The workload row is one run: all seven cases' kernels in one "
      "`per_kernel(fn, replay::application)` call, L2 flushed before each pass (not before each kernel, as ncu does).\n")
print("| kernel | source | duration (us) | SM % | Memory % | DRAM % | L1/TEX % | L2 % | max abs diff (points) | duration diff | duration range over runs (us) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for c in cases:
    ref = ncu.get(c)
    if ref:
        print(f"| {c} | ncu | " + " | ".join(f"{ref[k]/1e3:.2f}" if k == "dur" else f"{ref.get(k, float('nan')):.2f}" for k in cols) + f" | | | {spread(ref)} |")
    for label, src in (("napkin measure()", napkin.get(c)), ("napkin per_kernel()", per.get(c)),
                       ("napkin per_kernel(application)", app.get(c)), ("napkin workload", wl.get(c)),
                       ("full set: measure()", sol_measure.get(c)), ("full set: per_kernel()", sol_per.get(c)),
                       ("full set: per_kernel(application)", sol_app.get(c)),
                       ("ncu --replay-mode range", rng.get(c))):
        if not src: continue
        vals = [float(src[metric[k]]) for k in cols]
        diff = dd = ""
        if ref:
            diff = f"{max(abs(vals[i] - ref[k]) for i, k in enumerate(cols) if k != 'dur' and k in ref):.2f}"
            dd = f"{(vals[0] - ref['dur']) / ref['dur'] * 100:+.1f}%"
        print(f"| {c} | {label} | {vals[0]/1e3:.2f} | " + " | ".join(f"{v:.2f}" for v in vals[1:]) + f" | {diff} | {dd} | {spread(src)} |")
print("\n### Cost: wall time per measured kernel\n")
try:
    marginal = (float(ncu_all["ncu_s"]) - float(ncu_all["plain_s"])) / int(ncu_all["kernels"])
except (KeyError, ValueError, ZeroDivisionError):
    marginal = float("nan")
print(f"napkin's times are medians of {len(nap_runs)} runs. ncu per kernel when one run profiles all ten cases (its start-up shared: "
      f"{ncu_all.get('kernels', '?')} kernels profiled, minus the plain run, per kernel): {marginal:.2f} s\n")
print("| kernel | kernel time (ms) | napkin passes | ncu passes | napkin measure() (s) | napkin per_kernel() (s) | napkin per_kernel(application) (s) | full set measure() (s) | ncu run minus plain run (s) | ncu process / measure() | ncu per kernel in one run of all ten / measure() | ncu process / per_kernel(application) | ncu in one run / per_kernel(application) | measure() beyond passes x kernel (ms) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for c in cases:
    if c not in cost: continue
    k = cost[c]; n = ncost.get(c, {})
    kms, p, ms = float(k["kernel_ms"]), int(k["passes"]), float(k["measure_s"])
    try: ncu_s = float(n["ncu_s"]) - float(n["plain_s"])
    except (KeyError, ValueError): ncu_s = float("nan")
    a_s = float(k.get('application_s', 'nan')); full_s = float(sol_cost.get(c, {}).get('measure_s', 'nan'))
    print(f"| {c} | {kms:.3f} | {p} | {n.get('ncu_passes', '?')} | {ms:.4f} | {float(k['per_kernel_s']):.4f} | {a_s:.4f} | {full_s:.4f} | {ncu_s:.2f} | {ncu_s / ms:.1f}x | {marginal / ms:.1f}x | {ncu_s / a_s:.1f}x | {marginal / a_s:.1f}x | {(ms - p * kms / 1e3) * 1e3:.1f} |")
if nap_jobs and ncu_jobs and wl_lines:
    print("\n### Cost of the whole job: every kernel of the ten cases (each R times), one process each\n")
    print("Process wall time minus the same program run without a tool (`plain --repeat R`): every fixed cost is in "
          "(ncu's start-up; napkin's CUPTI load, profiler construction, enabling, first start).\n")
    print("| R | tool | kernels measured | passes | process minus plain run (s) | per measured kernel (s) | napkin's measuring call (s) | napkin's profiler construction (s) | ncu / napkin per kernel |")
    print("|---|---|---|---|---|---|---|---|---|")
    for R in sorted(ncu_jobs, key=int):
        try:
            n, m, w = ncu_jobs[R], nap_jobs[R], wl_lines[R]
            ncu_job = float(n["ncu_s"]) - float(n["plain_s"]); nap_job = float(m["napkin_s"]) - float(m["plain_s"])
            nk, wk = int(n["kernels"]), int(w["kernels"])
            print(f"| {R} | `ncu --clock-control none --section SpeedOfLight -k ...` | {nk} | 10 per kernel | {ncu_job:.2f} | {ncu_job / nk:.3f} | | | |")
            print(f"| {R} | napkin `per_kernel(all, replay::application, reset)` | {wk} | {w['passes']} for all | {nap_job:.2f} | {nap_job / wk:.3f} | {float(w['workload_s']):.3f} | {float(w['setup_s']):.3f} | {(ncu_job / nk) / (nap_job / wk):.1f}x |")
        except (KeyError, ValueError, ZeroDivisionError) as e:
            print(f"| {R} | (skipped: {e}) | | | | | | | |")
op = read_napkin(os.path.join(out, "napkin_one_pass.txt"))[3]
if op:
    print("\n### Cost of the one-pass set (`profiler_kernels napkin --set one_pass`, one run)\n")
    print("| kernel | passes | measure() (s) | per_kernel(application) (s) |")
    print("|---|---|---|---|")
    for c in cases:
        if c in op: print(f"| {c} | {op[c]['passes']} | {float(op[c]['measure_s']):.4f} | {float(op[c]['application_s']):.4f} |")
print("\n### Where measure()'s time goes (napkin's own breakdown, ms)\n")
print("| kernel | enable | setup (counter data, SetConfig) | passes | of which passes x kernel | decode + evaluate | per pass beyond the kernel |")
print("|---|---|---|---|---|---|---|")
for c in cases:
    if c not in napkin or c not in cost: continue
    m = napkin[c]; kms = float(cost[c]["kernel_ms"]); p = int(m["passes"])
    e, su, ps, de = (float(m[x]) * 1e3 for x in ("enable_s", "setup_s", "passes_s", "decode_s"))
    print(f"| {c} | {e:.1f} | {su:.1f} | {ps:.1f} | {p * kms:.1f} | {de:.1f} | {(ps - p * kms) / p:.2f} |")
tri = {}
for s in ("tri5", "tri2"):
    path = os.path.join(out, f"napkin_{s}.txt")
    if not os.path.exists(path): continue
    for line in open(path):
        if line.startswith("NAPKIN_SOL"):
            kv = dict(t.split("=", 1) for t in line.split()[1:])
            key = (s, kv.get("mode"), kv.get("case", kv["name"]))
            if key not in tri or float(kv[metric["dur"]]) > float(tri[key][metric["dur"]]): tri[key] = kv
def by_case(path, mode):
    res = {}
    if not os.path.exists(path): return res
    for line in open(path):
        if line.startswith("NAPKIN_SOL"):
            kv = dict(t.split("=", 1) for t in line.split()[1:])
            if kv.get("mode") != mode: continue
            c = kv.get("case", kv["name"])
            if c not in res or float(kv[metric["dur"]]) > float(res[c][metric["dur"]]): res[c] = kv
    return res
nb = {}
if os.path.exists(os.path.join(out, "ncu_bytes.csv")):
    with open(os.path.join(out, "ncu_bytes.csv")) as f:
        rows = [r for r in csv.reader(l for l in f if l.startswith('"'))]
    for r in rows[1:]:
        d = dict(zip(rows[0], r)); c = case_of(d.get("Kernel Name", ""))
        if not c or d.get("Metric Name") not in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"): continue
        v = float(d["Metric Value"].replace(",", "")); m = d["Metric Name"]
        nb.setdefault(c, {})
        if c == "sgemm" and m in nb[c]: v = max(v, nb[c][m])  # the GEMM kernel, not cuBLAS helpers
        nb[c][m] = v
bk, ba, bm = (by_case(os.path.join(out, "napkin_bytes.txt"), m) for m in ("per_kernel", "application", "measure"))
bmm = by_case(os.path.join(out, "napkin_bytes_memset.txt"), "measure")
if nb and bk:
    W, R, D = "dram__bytes_write.sum", "dram__bytes_read.sum", "gpu__time_duration.sum"
    print("\n### Cache state: DRAM bytes written (MB) and duration (us) by how L2 was left before each pass\n")
    print("| kernel | DRAM read (MB, ncu) | written: ncu | per_kernel() kernel replay | per_kernel(application) | measure(), napkin's read flush | measure(), memset flush | duration: ncu | kernel replay | application | measure() read flush | measure() memset flush |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        if c not in nb or c not in bk or c not in ba or c not in bm or c not in bmm: continue
        n = nb[c]
        print(f"| {c} | {n[R]/1e6:.1f} | {n[W]/1e6:.1f} | {float(bk[c][W])/1e6:.1f} | {float(ba[c][W])/1e6:.1f} | {float(bm[c][W])/1e6:.1f} | {float(bmm[c][W])/1e6:.1f} | {n[D]/1e3:.1f} | {float(bk[c][D])/1e3:.1f} | {float(ba[c][D])/1e3:.1f} | {float(bm[c][D])/1e3:.1f} | {float(bmm[c][D])/1e3:.1f} |")
if tri:
    TSM = "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed"
    TL1 = "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active"
    TL2 = "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed"
    print("\n### TriageCompute experiment (per_kernel(), kernel replay): a cheaper SOL set?\n")
    print("| kernel | ncu SM % | tri5 TriageCompute SM % | tri2 TriageCompute SM % | ncu L1 % | tri2 TriageCompute L1 % | ncu L2 % | tri2 TriageCompute L2 % | measure() s: sol (9 passes) | tri5 (5 passes) | tri2 (2 passes) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    def total(kv): return sum(float(kv[x]) for x in ("enable_s", "setup_s", "passes_s", "decode_s"))
    for c in cases:
        a, b = tri.get(("tri5", "per_kernel", c)), tri.get(("tri2", "per_kernel", c))
        ma, mb = tri.get(("tri5", "measure", c)), tri.get(("tri2", "measure", c))
        ref = ncu.get(c, {})
        if not (a and b and ma and mb and c in napkin): continue
        print(f"| {c} | {ref.get('sm', float('nan')):.2f} | {float(a[TSM]):.2f} | {float(b[TSM]):.2f} | {ref.get('l1', float('nan')):.2f} | {float(b[TL1]):.2f} | {ref.get('l2', float('nan')):.2f} | {float(b[TL2]):.2f} | {total(napkin[c]):.3f} | {total(ma):.3f} | {total(mb):.3f} |")
PY
echo "tables: $out/tables.md"
