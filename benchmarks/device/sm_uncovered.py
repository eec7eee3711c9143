#!/usr/bin/env python3
"""Tables for sm_uncovered.sh: per kernel, ncu's SM % and the inputs of its breakdown split into those the
monitor's one PM-sampling pass holds (napkin/monitor/pm_sampler.hpp: the instruction rate and the ALU, FMA,
FMA-heavy, FP64, tensor, uniform and XU pipes) and those it lacks, against the L1's LSU and TEX data-pipe
wavefronts (which the pass could hold). Tests two things on every kernel: the bound (the largest input the
pass lacks <= the larger wavefront rate), and what a mark would cost (kernels whose bound exceeds the held
inputs' maximum by more than 3 points, and of those, how many ncu's SM % actually exceeds by 3 points).

Usage: sm_uncovered.py NCU_CSV...   (ncu --csv --print-units base, one row per metric)
"""
import csv
import sys

SUFFIX = ".avg.pct_of_peak_sustained_elapsed"
# sm__issue_active reads within 0.23 points of sm__inst_executed, and the shared pipe never above the larger of
# the FP64 and tensor pipes, on 113 kernels of an H200 (docs/monitor.md, "Which SM % inputs the pass lacks"):
# counted with the inputs the pass holds.
HELD = ("sm__inst_executed", "sm__issue_active", "sm__pipe_shared_cycles_active", "sm__pipe_alu_cycles_active", "sm__inst_executed_pipe_alu",
        "sm__pipe_fma_cycles_active", "sm__inst_executed_pipe_fma", "sm__pipe_fmaheavy_cycles_active",
        "sm__inst_executed_pipe_fmaheavy", "sm__pipe_fp64_cycles_active", "sm__inst_executed_pipe_uniform",
        "sm__inst_executed_pipe_xu")
NOT_INPUTS = ("sm__throughput", "l1tex__data_pipe_lsu_wavefronts", "l1tex__data_pipe_tex_wavefronts",
              "l1tex__throughput", "gpu__time_duration")


def held(name):
    return name in HELD or name.startswith("sm__pipe_tensor")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def kernels(path):
    """(file, id, name) -> {metric: value}"""
    out = {}
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    head = next((i for i, r in enumerate(rows) if "Metric Name" in r), None)
    if head is None:
        return out
    h = rows[head]
    iid, iname, imetric, ivalue = (h.index(c) for c in ("ID", "Kernel Name", "Metric Name", "Metric Value"))
    for r in rows[head + 1:]:
        if len(r) <= ivalue:
            continue
        v = number(r[ivalue])
        if v is None:
            continue
        key = (path, int(r[iid]), r[iname].split("(")[0])
        m = r[imetric]
        if m.endswith(SUFFIX):
            m = m[: -len(SUFFIX)]
        out.setdefault(key, {})[m] = v
    return out


def main():
    rows = []
    for path in sys.argv[1:]:
        for key, m in kernels(path).items():
            if "sm__throughput" not in m:
                continue
            inputs = {k: v for k, v in m.items() if k.startswith(("sm__", "idc__")) and k not in NOT_INPUTS}
            held_in = {k: v for k, v in inputs.items() if held(k)}
            lacked = {k: v for k, v in inputs.items() if not held(k)}
            c_name, c = max(held_in.items(), key=lambda kv: kv[1], default=("-", 0.0))
            u_name, u = max(lacked.items(), key=lambda kv: kv[1], default=("-", 0.0))
            w = max(m.get("l1tex__data_pipe_lsu_wavefronts", 0.0), m.get("l1tex__data_pipe_tex_wavefronts", 0.0))
            rows.append((key, m["sm__throughput"], c, c_name, u, u_name, w, m.get("l1tex__throughput", 0.0),
                         m.get("gpu__time_duration", 0.0)))
    print("| kernel | ncu SM % | held max | held leader | lacked max | lacked leader | LSU/TEX wavefronts % | L1 % | bound holds | marked (W > held + 3) | needed (SM > held + 3) |")
    print("|---|---:|---:|---|---:|---|---:|---:|---|---|---|")
    holds = marked = needed = caught = 0
    for key, sm, c, cn, u, un, w, l1, _ in sorted(rows, key=lambda r: (r[0][0], r[0][1])):
        ok = u <= w + 0.5
        mk = w > c + 3.0
        nd = sm > c + 3.0
        holds += ok
        marked += mk
        needed += nd
        caught += nd and mk
        print(f"| {key[2][:40]} | {sm:.2f} | {c:.2f} | `{cn}` | {u:.2f} | `{un}` | {w:.2f} | {l1:.2f} | "
              f"{'yes' if ok else '**no**'} | {'yes' if mk else ''} | {'yes' if nd else ''} |")
    n = len(rows)
    print()
    print(f"kernels {n}; bound holds on {holds}; marked {marked}; needed {needed}, of which marked {caught}; "
          f"marked but not needed {marked - caught}")


if __name__ == "__main__":
    main()
