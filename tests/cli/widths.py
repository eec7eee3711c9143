#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every line the napkin CLI prints on standard output fits in 100 columns (characters, not bytes):
the help of the tool and of every command, and the answers below, at least one per command (a command
with none here fails the test, so a new command gets one). Error messages on stderr are single lines
on purpose (grep-able) and are not checked. The pictures (roofline's SVG, report's HTML) go to files.
    usage: widths.py NAPKIN DOCS RUNS OUT   (DOCS, RUNS: the documents tests/cli writes; OUT: a folder)"""
import os
import re
import subprocess
import sys

MAX = 100
napkin, docs, runs, out = sys.argv[1:5]
os.makedirs(out, exist_ok=True)

ANSWERS = {
    "attention": [["1", "32", "4K", "128", "--causal"], ["1", "32", "1K..8K*2", "128", "--gpu", "h100,a100"],
                  ["1", "32", "4K", "128", "--time", "1.5ms"]],
    "conv2d": [["1", "64", "56", "56", "64", "3", "3", "--padding", "1", "--dtype", "fp16"],
               ["1..64*2", "64", "56", "56", "64", "3", "3", "--gpu", "all"],
               ["1,8", "64,128", "56", "56", "64,128", "1,3", "1,3", "--dtype", "fp16"]],
    "diff": [[f"{docs}/a.json", f"{docs}/b.json"], [f"{docs}/sweep.json", f"{docs}/sweep.json"]],
    "dtypes": [[]],
    "elementwise": [["1M", "--dtype", "fp16"], ["1M..1G*4", "--inputs", "2", "--ops", "2", "--gpu", "all"]],
    "gemm": [["4096", "4096", "4096", "--dtype", "fp16", "--time", "200us"],
             ["1024..16384*2", "1024..16384*2", "1024..16384*2", "--dtype", "fp16", "--gpu", "h100,a100,4090"],
             ["4096", "4096", "4096", "--gpu", f"{docs}/edited.json"],
             ["4096", "4096", "4096", "--dtype", "bf16", "--gpu", "all"],
             ["4096", "4096", "4096", "--dtype", "fp8", "--gpu", "h100", "--peak", "fp8-tc=2000T",
              "--bandwidth", "4T", "--sms", "140", "--clock", "1900", "--l2", "60M", "--counting", "macs"]],
    "gpus": [[], ["--ridge"], ["--sources"], ["--keys"], ["all"]],
    "layernorm": [["1024", "1024"], ["1K..64K*2", "1K..8K*2"]],
    "occupancy": [["--cc", "9.0", "--threads", "256", "--regs", "32", "--graphs"],
                  ["--gpu", "h100", "--threads", "1024", "--regs", "255"],
                  ["--cc", "8.6", "--threads", "96", "--regs", "40", "--smem", "40K", "--graphs"],
                  ["--gpu", "h100", "--threads", "256", "--regs", "32"], ["--gpu", "h100", "--threads", "32", "--regs", "32"]],
    "merge": [[os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "merge", d)] for d in ("ranks", "monitor")],
    "pipes": [[]],
    "reduction": [["256M"], ["1K..1G*2", "--gpu", "all"]],
    "report": [[f"{runs}/run.json", "--baseline", f"{runs}/baseline.json", "-o", f"{out}/report.html"]],
    "roofline": [["--workload", "gemm 4096 4096 4096", "-o", f"{out}/roofline.svg"]],
    "rmsnorm": [["1024", "1024", "--dtype", "bf16", "--time", "10us"]],
    "softmax": [["32000", "16384", "--counting", "dongarra", "--time", "3s"], ["1K..4K+1K", "1K,2K", "--algorithm", "online"]],
}


def run(args):
    p = subprocess.run([napkin] + args, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8")


def main():
    failures = []
    _, top = run(["--help"])
    commands = re.findall(r"^  ([a-z0-9]+) ", top.split("Subcommands:")[1], re.M)
    runs = [["--help"], ["--version"]]
    for c in commands:
        runs += [[c, "--help"]]
        if c == "help":
            continue
        if c not in ANSWERS:
            failures.append(f"no answer of `napkin {c}` is checked here: add one to ANSWERS")
        runs += [[c] + a for a in ANSWERS.get(c, [])]
    for args in runs:
        status, out = run(args)
        if status not in (0, 1):
            failures.append(f"`napkin {' '.join(args)}` exited with {status}")
        for n, line in enumerate(out.splitlines(), 1):
            if len(line) > MAX:
                failures.append(f"`napkin {' '.join(args)}` line {n} has {len(line)} columns:\n{line}")
                break  # one line per output is enough
    print(f"{len(runs)} outputs checked")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


sys.exit(main())
