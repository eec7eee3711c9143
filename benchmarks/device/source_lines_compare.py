#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""napkin's top source line per kernel (source_lines_check napkin) against the top line of ncu's Source page
(--page source --csv --print-source cuda,sass: rows with a "Line No" are CUDA source lines, their "Warp Stall
Sampling (All Samples)" summed over the line's SASS). Usage: source_lines_compare.py OUTDIR"""
import csv
import os
import re
import sys


def ncu_lines(path):
    """[(samples, file, line, text)] of the CUDA source rows of an ncu Source-page CSV, most samples first."""
    rows = list(csv.reader(open(path, newline="")))
    out, header, file = [], None, ""
    for r in rows:
        if len(r) == 2 and r[0] == "File Path":
            file = r[1]
            continue
        if len(r) <= 2:
            continue
        if r[0] == "Line No":
            header = r
            continue
        if header and r[0]:
            i = header.index("Warp Stall Sampling (All Samples)")
            n = int(r[i]) if r[i] not in ("", "-") else 0
            out.append((n, os.path.basename(file), int(r[0]), r[1].strip()))
    out.sort(key=lambda x: -x[0])
    return out


def napkin_cases(path):
    cases = {}
    for line in open(path):
        m = re.match(r"case (\S+) top (\S+) samples (\d+) share (\S+) total (\d+) dropped (\d+) period (\d+) "
                     r"setup_s (\S+) run_s (\S+) drain_s (\S+) correlate_s (\S+) wall_s (\S+)", line)
        if m:
            k = m.group(1)
            cases[k] = dict(top=m.group(2), samples=int(m.group(3)), share=float(m.group(4)), total=int(m.group(5)),
                            dropped=int(m.group(6)), period=int(m.group(7)), setup=float(m.group(8)),
                            run=float(m.group(9)), drain=float(m.group(10)), correlate=float(m.group(11)),
                            wall=float(m.group(12)))
    return cases


def main():
    out = sys.argv[1]
    runs = {"default": os.path.join(out, "napkin.txt")}
    for p in (8, 10, 12):
        runs[f"2^{p}"] = os.path.join(out, f"napkin_{p}.txt")
    parsed = {name: napkin_cases(p) for name, p in runs.items() if os.path.exists(p)}
    kernels = ["zoo_strided_load", "zoo_bank_conflict32", "zoo_local_spill", "zoo_pointer_chase", "zoo_smem_tree_reduce"]
    same = 0
    print(f"{'kernel':22} {'ncu top line (share)':38} {'napkin top line (share), default period':44} match")
    for k in kernels:
        path = os.path.join(out, f"ncu_source_{k}.csv")
        ncu = ncu_lines(path) if os.path.exists(path) and os.path.getsize(path) > 0 else []
        total = sum(x[0] for x in ncu)
        ncu_top = f"{ncu[0][1]}:{ncu[0][2]} ({100.0 * ncu[0][0] / total:.1f} %)" if ncu and total else "-"
        n = parsed.get("default", {}).get(k)
        nap_top = f"{os.path.basename(n['top'])} ({n['share']:.1f} %)" if n else "-"
        ok = bool(ncu and n and n["top"].endswith(f"{ncu[0][1]}:{ncu[0][2]}"))
        same += ok
        print(f"{k:22} {ncu_top:38} {nap_top:44} {'yes' if ok else 'NO'}")
        for name, cases in parsed.items():
            c = cases.get(k)
            if c:
                print(f"    napkin {name:8} top {os.path.basename(c['top'])} samples {c['samples']} of {c['total']} "
                      f"(dropped {c['dropped']}, period 2^{c['period']}); host s: setup {c['setup']:.4f} run "
                      f"{c['run']:.4f} drain {c['drain']:.4f} correlate {c['correlate']:.4f} call {c['wall']:.4f}")
    print(f"top line equal on {same} of {len(kernels)}")
    t = os.path.join(out, "times.txt")
    if os.path.exists(t):
        print(open(t).read().strip())


if __name__ == "__main__":
    main()
