#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""benchmarks/zoo/why_table.py on ncu's recorded H200 zoo run (tests/profiler/data/zoo_h200_why_{raw,details}.csv).

A napkin output made of ncu's own counters (--synthesize) must meet every bar on every kernel; one whose achieved
occupancy is 3 points off, or whose top stall is another, must miss those bars. Usage: why_table_test.py REPO_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
script = os.path.join(root, "benchmarks/zoo/why_table.py")
data = os.path.join(root, "tests/profiler/data")
raw = os.path.join(data, "zoo_h200_why_raw.csv")
details = os.path.join(data, "zoo_h200_why_details.csv")


def run(*args):
    return subprocess.run([sys.executable, script, *args], check=True, capture_output=True, text=True).stdout


def summary(table):
    return [line for line in table.splitlines() if re.match(r"^(Top|Achieved|Hit|Busiest)", line)]


failures = []


def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


fake = run("--synthesize", raw)
with tempfile.TemporaryDirectory() as tmp:
    same = os.path.join(tmp, "napkin_same.txt")
    open(same, "w").write(fake)
    lines = summary(run(same, raw, "--details", details))
    expect("four bars", len(lines) == 4)
    expect("top stall: 30 of 30 clear leaders, shares 37 of 37",
           "Top stall equal on 30 of 30 kernels with a clear leader; every share within 5 points on 37 of 37." in lines)
    expect("occupancy 37 of 37", "Achieved occupancy within 2 points on 37 of 37." in lines)
    expect("memory 37 of 37", any(l.startswith("Hit rates") and l.endswith("on 37 of 37.") for l in lines))
    expect("busiest pipe 37 of 37 (ncu's rule text, Shared/Tensor vs Tensor (FP) as one family)",
           "Busiest pipe equal on 37 of 37." in lines)

    off = os.path.join(tmp, "napkin_off.txt")
    occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active="
    open(off, "w").write(re.sub(re.escape(occupancy) + r"([0-9.e+-]+)",
                                lambda m: occupancy + repr(float(m.group(1)) + 3.0), fake))
    lines = summary(run(off, raw))
    expect("occupancy 3 points off: 0 of 37", "Achieved occupancy within 2 points on 0 of 37." in lines)

    swapped = os.path.join(tmp, "napkin_swapped.txt")
    # The uncoalesced load (case 19): long scoreboard's cycles moved to wait, so wait leads.
    text = []
    for line in fake.splitlines():
        if line.startswith("NAPKIN_WHY case=case19 "):
            ls = re.search(r"long_scoreboard_per_issue_active\.ratio=([0-9.e+-]+)", line).group(1)
            name = "long_scoreboard_per_issue_active.ratio="
            line = line.replace(name + ls, name + "0.0")
            line = re.sub(r"(stalled_wait_per_issue_active\.ratio=)([0-9.e+-]+)",
                          lambda m: m.group(1) + repr(float(m.group(2)) + float(ls)), line)
        text.append(line)
    open(swapped, "w").write("\n".join(text) + "\n")
    table = run(swapped, raw)
    lines = summary(table)
    expect("a swapped leader: 29 of 30, shares 36 of 37",
           "Top stall equal on 29 of 30 kernels with a clear leader; every share within 5 points on 36 of 37." in lines)
    row = r"\| case19 \| zoo_strided_load \| wait \| long_scoreboard \| yes \| NO \|"
    expect("the row says NO", re.search(row, table) is not None)

sys.exit(1 if failures else 0)
