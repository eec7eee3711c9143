#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The kernel zoo's accuracy tables (Markdown, to stdout) from what benchmarks/device/zoo.sh wrote to OUTDIR.

Usage: python3 benchmarks/zoo/accuracy_table.py OUTDIR > accuracy.md

Reads (each optional; what is missing leaves blanks):
  list.txt                       `zoo list`: the cases in order (the marker kernel's grid is the index + 1)
  napkin_r*.txt                  `zoo napkin` runs, default set: NAPKIN_SOL lines ending mode=... case=...
  napkin_sol.txt                 `zoo napkin --set sol`: the full set
  ncu_sol_r*.csv                 `ncu --section SpeedOfLight --csv --print-units base ... zoo plain`
  ncu_breakdown.csv              `ncu --metrics breakdown:...,TriageCompute... zoo plain`
  ncu_members_{sm,memory,l1,l2}.csv   each breakdown alone on one kernel: which inputs belong to which
  ncu_range.csv                  (ZOO_RANGE=1) ncu's range replay per case, blocks headed "#CASE name"

How ncu's kernels are tied to cases: in `zoo plain` each case is preceded by zoo_case_marker launched with a
grid of (case index + 1) blocks; ncu numbers kernels in launch order (ID), so every kernel after a marker, up
to the next, belongs to the case the marker names. Without markers (a -k filter), zoo_ kernels are matched by
name and library kernels are left out.

A case of several kernels is compared as one: durations summed, percentages weighted by duration (for ncu and
for napkin's per-kernel modes alike); measure() is one range over the whole case. Each number is the median
over the runs that have it. Stdlib only.
"""
import csv
import math
import os
import re
import sys
from statistics import median

# napkin's own keys (to_key_values), then the ncu metric names the values map carries.
NAPKIN_KEYS = {
    "dur": ("duration_ns", "gpu__time_duration.sum"),
    "sm": ("sm_pct", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    "mem": ("memory_pct", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
    "dram": ("dram_pct", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
    "l1": ("l1tex_pct", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
    "l2": ("l2_pct", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
}
# ncu's SpeedOfLight rows (and the raw metric names, should a run use --metrics instead).
NCU_NAMES = {
    "Duration": "dur", "gpu__time_duration.sum": "dur",
    "Compute (SM) Throughput": "sm", "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm",
    "Memory Throughput": "mem", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": "mem",
    "DRAM Throughput": "dram", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed": "dram",
    "L1/TEX Cache Throughput": "l1", "l1tex__throughput.avg.pct_of_peak_sustained_active": "l1",
    "L2 Cache Throughput": "l2", "lts__throughput.avg.pct_of_peak_sustained_elapsed": "l2",
}
PCTS = ("sm", "mem", "dram", "l1", "l2")
TIME_SCALE = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9}
MARKER = "zoo_case_marker"
TOL_POINTS, TOL_DURATION_PCT = 2.0, 3.0
BREAKDOWNS = (  # (label, parent metric, members file, triage counter)
    ("SM", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm",
     "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("Memory", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "memory", None),
    ("L1/TEX", "l1tex__throughput.avg.pct_of_peak_sustained_active", "l1",
     "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_active"),
    ("L2", "lts__throughput.avg.pct_of_peak_sustained_elapsed", "l2",
     "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed"),
)
# Only when a run has no markers: zoo kernels by name (library kernels cannot be placed so).
KERNEL_CASE = {
    "zoo_smem_tree_reduce": "smem_tree_reduce", "zoo_smem_stencil": "smem_stencil",
    "zoo_transpose_naive": "transpose_naive", "zoo_transpose_tiled": "transpose_tiled",
    "zoo_atomic_histogram": "atomic_histogram", "zoo_fp64_fma": "fp64_fma", "zoo_fp32_fma": "fp32_fma",
    "zoo_fp16_hfma2": "fp16_hfma2", "zoo_sfu": "sfu", "zoo_int_hash": "int_hash", "zoo_mma_sync_f16": "mma_sync",
    "zoo_l1_reread": "l1_reread", "zoo_l2_reread": "l2_reread", "zoo_local_spill": "local_spill",
    "zoo_divergent": "divergent", "zoo_strided_load": "uncoalesced_load", "zoo_scatter_store": "scattered_store",
    "zoo_pointer_chase": "pointer_chase", "zoo_bank_conflict32": "bank_conflict", "zoo_grid_reduce": "grid_reduce",
    "zoo_stream_copy": "stream_copy", "zoo_write_only": "write_only", "zoo_shuffle_butterfly": "shuffle",
    "zoo_short_copy": "short_copy", "zoo_long_fma": "long_fma", "zoo_graph_scale": "graph3",
    "zoo_graph_add": "graph3", "zoo_graph_square": "graph3", "zoo_concurrent_fma": "two_streams",
    "zoo_concurrent_copy": "two_streams",
}


def number(text):
    """A finite float, or None (missing, "n/a", nan, inf)."""
    try:
        v = float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def sol_verdict(sm, mem, dram):
    """napkin's SOL-table verdict (include/napkin/profiler/verdicts.hpp, classify_by_sol_table)."""
    if sm is None or mem is None:
        return "not-measured"
    if sm >= 60 and mem >= 60:
        return "balanced"
    if sm >= 60:
        return "compute-bound"
    if mem >= 60:
        if dram is None:
            return "unclassified"
        if dram >= 60:
            return "memory-bound-dram"
        return "internal-congestion" if dram < 30 else "unclassified"
    return "latency-bound" if sm < 40 and mem < 40 else "unclassified"


def combine(parts):
    """One value per key for a case of several kernels: durations summed, the rest weighted by duration."""
    parts = [p for p in parts if p.get("dur") is not None]
    if not parts:
        return None
    total = sum(p["dur"] for p in parts)
    out = {"dur": total, "kernels": len(parts)}
    keys = set().union(*parts) - {"dur", "kernels", "verdict", "name"}
    for k in keys:
        have = [p for p in parts if p.get(k) is not None]
        w = sum(p["dur"] for p in have)
        if have and len(have) == len(parts):
            out[k] = sum(p[k] * p["dur"] for p in have) / w if w > 0 else sum(p[k] for p in have) / len(have)
    if len(parts) == 1 and parts[0].get("verdict"):
        out["verdict"] = parts[0]["verdict"]
    return out


def medians(runs):
    """Per key, the median over the runs (dicts) that have it; the verdict most runs gave."""
    runs = [r for r in runs if r]
    if not runs:
        return None
    out = {"runs": len(runs)}
    for k in set().union(*runs):
        vals = [r[k] for r in runs if k in r]
        if all(isinstance(v, (int, float)) for v in vals):
            out[k] = median(vals)
        else:
            out[k] = max(set(vals), key=vals.count)
    return out


# ---- napkin ------------------------------------------------------------------------------------------------
def read_napkin(path):
    """{(mode, case): combined values} for one `zoo napkin` run, plus its ZOO_ERROR lines."""
    per = {}
    errors = []
    dropped = {}
    if not os.path.exists(path):
        return {}, errors
    for line in open(path, errors="replace"):
        if line.startswith("ZOO_ERROR"):
            errors.append(line.strip())
            continue
        if line.startswith("ZOO_KERNELS"):  # kernels CUPTI did not record: the row covers less than the case
            kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
            if kv.get("dropped", "0") not in ("0", ""):
                dropped[(kv.get("mode"), kv.get("case"))] = kv["dropped"]
            continue
        if not line.startswith("NAPKIN_SOL"):
            continue
        kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
        mode, case = kv.get("mode"), kv.get("case")
        if not mode or not case:
            continue
        vals = {"name": kv.get("name", "")}
        for key, names in NAPKIN_KEYS.items():
            for n in names:
                v = number(kv.get(n))
                if v is not None:
                    vals[key] = v
                    break
        if kv.get("verdict"):
            vals["verdict"] = kv["verdict"]
        per.setdefault((mode, case), []).append(vals)
    out = {k: combine(v) for k, v in per.items()}
    for k, n in dropped.items():
        if out.get(k):
            out[k]["dropped"] = n
    return out, errors


# ---- ncu ---------------------------------------------------------------------------------------------------
def read_ncu_kernels(path):
    """ncu's CSV (details page) as a list of kernels in ID order: {id, name, grid, metrics: {name: value}}."""
    if not os.path.exists(path):
        return []
    with open(path, errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]  # drops ==PROF== lines and the program's own output
    header, kernels = None, {}
    for row in csv.reader(lines):
        if "Metric Name" in row and "ID" in row:
            header = row
            continue
        if header is None or len(row) < header.index("Metric Value") + 1:
            continue  # rule rows and SOL rows differ in trailing columns; the metric's own are always there
        d = dict(zip(header, row))
        try:
            kid = int(d["ID"])
        except (KeyError, ValueError):
            continue
        pid = d.get("Process ID", "")
        k = kernels.setdefault((pid, kid), {"id": kid, "name": d.get("Kernel Name", ""),
                                            "grid": d.get("Grid Size", ""), "metrics": {}})
        v = number(d.get("Metric Value"))
        if v is None:
            continue
        unit = d.get("Metric Unit", "")
        name = d.get("Metric Name", "")
        if unit in TIME_SCALE and (name == "Duration" or name.startswith("gpu__time_duration")):
            v *= TIME_SCALE[unit]
        k["metrics"][name] = v
    return [kernels[k] for k in sorted(kernels)]


def grid_x(grid):
    m = re.match(r"\(?\s*(\d+)", grid or "")
    return int(m.group(1)) if m else None


def kernels_by_case(kernels, cases):
    """{case: [kernel, ...]} by the markers; without markers, zoo_ kernels by name."""
    out = {}
    if any(MARKER in k["name"] for k in kernels):
        current = None
        for k in kernels:
            if MARKER in k["name"]:
                i = grid_x(k["grid"])
                current = cases[i - 1] if i and 0 < i <= len(cases) else None
                continue
            if current:
                out.setdefault(current, []).append(k)
        return out
    for k in kernels:
        base = re.sub(r"\(.*$", "", k["name"]).split("::")[-1].strip()
        if base in KERNEL_CASE:
            out.setdefault(KERNEL_CASE[base], []).append(k)
    return out


def sol_values(kernel):
    vals = {}
    for name, key in NCU_NAMES.items():
        if name in kernel["metrics"] and key not in vals:
            vals[key] = kernel["metrics"][name]
    return vals


def read_ncu_sol(path, cases):
    by_case = kernels_by_case(read_ncu_kernels(path), cases)
    return {c: combine([sol_values(k) for k in ks]) for c, ks in by_case.items()}, by_case


def read_ncu_range(path):
    """ncu_range.csv: one block per case, headed '#CASE name'; one range (several if R > 1: combined)."""
    res = {}
    if not os.path.exists(path):
        return res
    blocks, case = {}, None
    for line in open(path, errors="replace"):
        if line.startswith("#CASE"):
            case = line.split()[1]
            blocks[case] = []
        elif case:
            blocks[case].append(line)
    for case, lines in blocks.items():
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.writelines(lines)
        ks = read_ncu_kernels(tmp)
        os.remove(tmp)
        if ks:
            res[case] = combine([sol_values(k) for k in ks])
    return res


# ---- tables ------------------------------------------------------------------------------------------------
def fmt(v, digits=2):
    return "" if v is None else f"{v:.{digits}f}"


def compare(row, ref):
    """(largest abs difference in points, duration difference %, within tolerance) against ncu's row."""
    if not row or not ref:
        return None, None, None
    diffs = [abs(row[k] - ref[k]) for k in PCTS if row.get(k) is not None and ref.get(k) is not None]
    points = max(diffs) if diffs else None
    dur = (row["dur"] - ref["dur"]) / ref["dur"] * 100 if row.get("dur") and ref.get("dur") else None
    ok = None
    if points is not None and dur is not None:
        ok = points <= TOL_POINTS and abs(dur) <= TOL_DURATION_PCT
    return points, dur, ok


def accuracy_table(cases, ncu, napkin, full, rng, ncu_runs, napkin_runs):
    print("### Accuracy: napkin against `ncu --section SpeedOfLight` per case\n")
    print(f"Medians of {ncu_runs} ncu runs and {napkin_runs} napkin runs (full set: one run). A case of several "
          "kernels is one row: durations summed, percentages weighted by duration; measure() is one range over the "
          "case, reported over the GPU's busy time inside it (the union of its kernels' activity records: the gaps "
          "between kernels are left out, and two_streams overlaps where ncu serializes). "
          f"\"Within\": every percentage within {TOL_POINTS:g} points of ncu's and the duration within "
          f"{TOL_DURATION_PCT:g} %. Verdict: napkin's SOL-table verdict (`verdict=` when napkin printed it for a "
          "one-kernel row; otherwise computed from the row's numbers with napkin's rule, marked *).\n")
    print("| case | source | kernels | duration (us) | SM % | Memory % | DRAM % | L1 % | L2 % | max abs diff (points) "
          "| duration diff | verdict | within 2 points and 3 % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    sources = [("ncu", ncu), ("measure", napkin.get("measure", {})), ("per_kernel", napkin.get("per_kernel", {})),
               ("application", napkin.get("application", {})), ("full-set application", full.get("application", {}))]
    if rng:
        sources.append(("ncu range replay", rng))
    summary = {}
    for c in cases:
        ref = ncu.get(c)
        for label, src in sources:
            row = src.get(c)
            if not row:
                continue
            verdict = row.get("verdict")
            if not verdict:
                verdict = sol_verdict(row.get("sm"), row.get("mem"), row.get("dram")) + "*"
            points, dur, ok = compare(row, ref) if label != "ncu" else (None, None, None)
            kernels = row.get("kernels") if label != "measure" else None  # measure(): one range, whatever it ran
            if row.get("dropped") and kernels is not None:  # fewer kernels than the case ran: never "within"
                kernels = f"{round(kernels)} ({row['dropped']} dropped)"
                ok = False if ok is not None else ok
            if ok is not None:
                summary.setdefault(label, []).append(ok)
            print(f"| {c} | {label} | {'' if kernels is None else kernels if isinstance(kernels, str) else round(kernels)} | "
                  f"{fmt(row['dur'] / 1e3 if row.get('dur') is not None else None)} | "
                  + " | ".join(fmt(row.get(k)) for k in PCTS)
                  + f" | {fmt(points)} | {'' if dur is None else f'{dur:+.1f}%'} | {verdict} | "
                  + ("" if ok is None else ("yes" if ok else "no")) + " |")
    if summary:
        print("\nWithin 2 points and 3 % of ncu: "
              + "; ".join(f"{label} {sum(v)}/{len(v)}" for label, v in summary.items()) + "\n")


def breakdown_table(cases, bd_kernels, members, ncu):
    print("\n### What ncu's throughputs are the maximum of (`breakdown:`), and GH100's TriageCompute counters\n")
    print("Per case, from one `ncu --metrics breakdown:...` run (kernels combined as above): ncu's percentage "
          "(SpeedOfLight median), the breakdown input with the largest value and that value, and the TriageCompute "
          "counter napkin's fast set reads instead.\n")
    head = ["case"]
    for label, _, _, triage in BREAKDOWNS:
        head += [f"ncu {label} %", f"{label}: largest input", "value"] + (["TriageCompute"] if triage else [])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for c in cases:
        ks = bd_kernels.get(c)
        if not ks:
            continue
        combined = combine([dict(k["metrics"], dur=k["metrics"].get("gpu__time_duration.sum")) for k in ks]) or {}
        cells = [c]
        for label, parent, file_key, triage in BREAKDOWNS:
            names = members.get(file_key) or guess_members(file_key, combined)
            names = [n for n in names if n != parent and n in combined]
            best = max(names, key=lambda n: combined[n]) if names else None
            key = {"SM": "sm", "Memory": "mem", "L1/TEX": "l1", "L2": "l2"}[label]
            ref = (ncu.get(c) or {}).get(key, combined.get(parent))
            cells += [fmt(ref), f"`{best}`" if best else "", fmt(combined.get(best)) if best else ""]
            if triage:
                cells.append(fmt(combined.get(triage)))
        print("| " + " | ".join(cells) + " |")


def guess_members(file_key, combined):
    """Without the members files: the breakdown inputs by their unit prefix (rough; the files are exact)."""
    prefixes = {"sm": ("sm__", "smsp__", "idc__"), "memory": ("dram__", "fbpa__", "lts__", "l1tex__", "gpu__dram"),
                "l1": ("l1tex__",), "l2": ("lts__",)}[file_key]
    return [n for n in combined if n.startswith(prefixes) and "pct_of_peak" in n and "TriageCompute" not in n]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: accuracy_table.py OUTDIR")
    out = sys.argv[1]
    cases, character = [], {}
    if os.path.exists(os.path.join(out, "list.txt")):
        for line in open(os.path.join(out, "list.txt")):
            if "\t" in line:
                name, char = line.rstrip("\n").split("\t", 1)
                cases.append(name)
                character[name] = char
    files = sorted(f for f in os.listdir(out) if re.fullmatch(r"napkin(_r\d+)?\.txt", f))
    nap_runs, errors = [], []
    for f in files:
        run, errs = read_napkin(os.path.join(out, f))
        if run:
            nap_runs.append(run)
        errors += [f"{f}: {e}" for e in errs]
    full, full_errors = read_napkin(os.path.join(out, "napkin_sol.txt"))
    errors += [f"napkin_sol.txt: {e}" for e in full_errors]
    for run in nap_runs + [full]:  # cases only napkin saw (no list.txt)
        for _, c in run:
            if c not in cases:
                cases.append(c)
    ncu_files = sorted(f for f in os.listdir(out) if re.fullmatch(r"ncu_sol(_r\d+)?\.csv", f))
    ncu_runs, ncu_names = [], {}
    for f in ncu_files:
        vals, by_case = read_ncu_sol(os.path.join(out, f), cases)
        if vals:
            ncu_runs.append(vals)
        for c, ks in by_case.items():
            ncu_names.setdefault(c, sorted({k["name"] for k in ks}))
    ncu = {c: medians([r.get(c) for r in ncu_runs]) for c in cases}
    ncu = {c: v for c, v in ncu.items() if v}
    napkin = {}
    for mode in ("measure", "per_kernel", "application"):
        napkin[mode] = {c: medians([r.get((mode, c)) for r in nap_runs]) for c in cases}
        napkin[mode] = {c: v for c, v in napkin[mode].items() if v}
    full_by_mode = {}
    for (mode, c), v in full.items():
        full_by_mode.setdefault(mode, {})[c] = v
    rng = read_ncu_range(os.path.join(out, "ncu_range.csv"))

    print("## Kernel zoo: napkin's profiler against Nsight Compute\n")
    if os.path.exists(os.path.join(out, "device.txt")):
        print("Device:\n\n```\n" + open(os.path.join(out, "device.txt")).read().strip() + "\n```\n")
    accuracy_table(cases, ncu, napkin, full_by_mode, rng, len(ncu_runs), len(nap_runs))

    bd_path = os.path.join(out, "ncu_breakdown.csv")
    if os.path.exists(bd_path):
        bd_kernels = kernels_by_case(read_ncu_kernels(bd_path), cases)
        members = {}
        for _, _, key, _ in BREAKDOWNS:
            ks = read_ncu_kernels(os.path.join(out, f"ncu_members_{key}.csv"))
            if ks:
                members[key] = sorted(set().union(*(k["metrics"].keys() for k in ks)))
        breakdown_table(cases, bd_kernels, members, ncu)

    times = {}
    if os.path.exists(os.path.join(out, "time.txt")):
        for line in open(os.path.join(out, "time.txt")):
            if line.startswith("ZOO_TIME"):
                kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
                times[kv.get("case")] = number(kv.get("us"))
    print("\n### The cases\n")
    print("| case | character | unprofiled time (us, best of 5) | ncu's kernels |")
    print("|---|---|---|---|")
    for c in cases:
        names = ", ".join(f"`{n}`" for n in ncu_names.get(c, []))
        print(f"| {c} | {character.get(c, '')} | {fmt(times.get(c), 1)} | {names} |")
    if errors:
        print("\n### Errors reported by `zoo napkin`\n")
        seen = {}
        for e in errors:
            f, msg = e.split(": ", 1)
            seen.setdefault(msg, []).append(f)
        for msg, where in seen.items():
            print(f"- `{msg}` ({', '.join(where)})")


if __name__ == "__main__":
    main()
