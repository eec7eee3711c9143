#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""napkin::monitor's per-kernel rows on the zoo against ncu's SpeedOfLight (Markdown, to stdout).

Usage: python3 benchmarks/zoo/monitor_table.py MONITOR.txt NCU_SOL.csv > monitor_zoo.md

MONITOR.txt: `zoo monitor` (its NAPKIN_MONITOR_ROW by=kernel lines). NCU_SOL.csv: `ncu --clock-control none
--profile-from-start off --section SpeedOfLight --csv --print-units base zoo plain`.

Kernels are matched by name (the part before the argument list, without ncu's leading "void", spaces and
underscores left out, as the monitor's key=value names replace spaces by underscores, and a template argument
`false` or `true` read as ncu writes it, 0 or 1, where CUPTI's demangled name spells it out). A kernel ncu saw
with SM % or DRAM % more than 3 points apart in different launches (a library kernel two cases call with different sizes) is left out: the monitor's row is
the mix of those launches. A row holds when its DRAM % is within 3 points of ncu's and its SM % is within 3
points, or, where the monitor prints SM % as a range (sm_pct_upper more than 3 points above sm_pct), ncu's
lies in the range (within 3 points of either end). Rows the monitor could not resolve have no readings and no
verdict: they are counted as marked. So is a row outside whose kernel ran alongside other kernels for more than
3 % of its measured time (concurrent_ns over sampled_ns + dropped_ns) and which has no verdict: its readings are
its share of a shared device, which ncu, replaying each kernel alone, does not see. Stdlib only.
"""
import csv
import re
import sys
from statistics import median

TOL = 3.0
SHARED_LIMIT = 0.03  # monitor_row::concurrent_limit
NCU = {"Compute (SM) Throughput": "sm", "DRAM Throughput": "dram", "Duration": "dur"}


def key(name):
    name = re.sub(r"^void[\s_]", "", name)  # ncu writes a kernel's return type, CUPTI's demangled name does not
    name = re.sub(r"[\s_]", "", name.split("(")[0])
    # A template argument true or false as ncu writes it, 1 or 0
    return re.sub(r"(?<=[<,])(true|false)(?=[,>])", lambda m: "1" if m.group(1) == "true" else "0", name)


def load_ncu(path):
    launches = {}
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    h = rows[0]
    for r in rows[1:]:
        m = NCU.get(r[h.index("Metric Name")])
        if m is None:
            continue
        try:
            v = float(r[h.index("Metric Value")].replace(",", ""))
        except ValueError:
            continue
        launch = launches.setdefault(r[h.index("ID")], {"name": r[h.index("Kernel Name")]})
        launch[m] = v
    by_name = {}
    for launch in launches.values():
        if "zoo_case_marker" in launch["name"] or "sm" not in launch or "dram" not in launch:
            continue
        by_name.setdefault(key(launch["name"]), []).append(launch)
    return by_name


def load_monitor(path):
    rows, collisions = {}, []
    for line in open(path):
        if not line.startswith("NAPKIN_MONITOR_ROW by=kernel "):
            continue
        f = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
        if key(f["name"]) in rows:
            collisions.append(f["name"])
        rows[key(f["name"])] = f
    return rows, collisions


def num(f, k):
    return float(f[k]) if k in f and f[k] not in ("", "-", "n/a") else None


def shared(f):
    """The kernel ran alongside others for more than 3 % of its measured time (monitor_row::shared_device)."""
    measured = (num(f, "sampled_ns") or 0) + (num(f, "dropped_ns") or 0)
    return measured > 0 and (num(f, "concurrent_ns") or 0) > SHARED_LIMIT * measured


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    ncu, (mon, collisions) = load_ncu(argv[2]), load_monitor(argv[1])
    tally = {"within": 0, "range holds": 0, "unresolved": 0, "shared device, no verdict": 0,
             "outside, not marked": 0, "left out (varies in ncu)": 0, "not in the monitor's rows": 0,
             "names that collide": len(collisions)}
    print("| kernel | ncu launches | ncu SM % | ncu DRAM % | monitor SM % | monitor DRAM % | resolution | verdict | "
          "holds |")
    print("|---|---:|---:|---:|---|---:|---|---|---|")
    for k in sorted(ncu, key=lambda n: ncu[n][0]["name"]):
        launches = ncu[k]
        f = mon.get(k)
        if f is None:
            tally["not in the monitor's rows"] += 1
            continue
        sm_values = [x["sm"] for x in launches]
        dram_values = [x["dram"] for x in launches]
        name = launches[0]["name"].split("(")[0][:60]
        if max(sm_values) - min(sm_values) > TOL or max(dram_values) - min(dram_values) > TOL:
            tally["left out (varies in ncu)"] += 1
            continue
        n_sm, n_dram = median(sm_values), median(dram_values)
        sm, upper, dram = num(f, "sm_pct"), num(f, "sm_pct_upper"), num(f, "dram_pct")
        resolution = f.get("resolution", "")
        if resolution != "resolved" or sm is None or dram is None:
            verdict, shown = "unresolved", "-"
        else:
            is_range = upper is not None and upper > sm + TOL
            dram_ok = abs(dram - n_dram) <= TOL
            if is_range:
                shown = "%.2f to %.2f" % (sm, upper)
                verdict = "range holds" if dram_ok and sm - TOL <= n_sm <= upper + TOL else "outside, not marked"
            else:
                shown = "%.2f" % sm
                verdict = "within" if dram_ok and abs(sm - n_sm) <= TOL else "outside, not marked"
            if verdict == "outside, not marked" and shared(f) and f.get("verdict") == "not-measured":
                verdict = "shared device, no verdict"
        tally[verdict] += 1
        print("| `%s` | %d | %.2f | %.2f | %s | %s | %s | %s | %s |" % (
            name, len(launches), n_sm, n_dram, shown, "-" if dram is None else "%.2f" % dram, resolution,
            f.get("verdict", ""), verdict))
    print("\n" + "; ".join("%s: %d" % (k, v) for k, v in tally.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
