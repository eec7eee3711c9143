#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""napkin roofline and napkin report write their files: the SVG parses as XML (xml.etree) with the
points where the numbers put them, the HTML page has its sections and the chart.
    pictures.py NAPKIN RUNS OUT
RUNS: what make_runs wrote (expected numbers in make_runs.cpp's comment); OUT: a folder for the files."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

napkin, runs, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def run(args):
    p = subprocess.run([napkin] + args, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def check(condition, what):
    if not condition:
        failures.append(what)


def points(root):
    """label -> (intensity, FLOP/s, source) of each point of a roofline SVG."""
    labels = {}
    for t in root.iter(SVG + "text"):
        if "point-label" in t.get("class", ""):
            labels[t.get("data-index")] = "".join(t.itertext())
    found = {}
    for c in root.iter(SVG + "circle"):
        cls = c.get("class", "").split()
        if "point" in cls:
            found[c.get("data-label") or labels.get(c.get("data-index"), "")] = (
                float(c.get("data-intensity")), float(c.get("data-flops")), cls[-1])
    return found


def near(a, b):
    return abs(a - b) <= 1e-3 * abs(b)


# Estimates: 4096³ fp16 GEMM is 2·4096³ FLOP over 3·4096²·2 B = 4096/3 = 1365.3 FLOP/B, at the fp16-tc peak
# 989.4 TFLOP/s of h100-sxm; softmax 32000 x 16384 fp32 (fused) is 5 FLOP per 8 B = 0.625 FLOP/B at
# 0.625 x 3.35 TB/s = 2.094 TFLOP/s.
svg = os.path.join(out, "estimates.svg")
status, _, err = run(["roofline", "--gpu", "h100", "--workload", "gemm 4096 4096 4096 --dtype fp16",
                      "--workload", "softmax 32000 16384", "-o", svg])
check(status == 0, f"roofline of estimates exited with {status}: {err}")
root = ET.parse(svg).getroot()
check(root.tag == SVG + "svg", f"{svg}: the root is {root.tag}, not svg")
p = points(root)
g = p.get("gemm 4096 4096 4096 --dtype fp16")
check(g is not None and near(g[0], 4096 / 3) and near(g[1], 989.4e12) and g[2] == "estimate",
      f"{svg}: the GEMM point is {g}")
s = p.get("softmax 32000 16384")
check(s is not None and near(s[0], 0.625) and near(s[1], 0.625 * 3.35e12), f"{svg}: the softmax point is {s}")
text = open(svg, encoding="utf-8").read()
check("H100 SXM5 80GB" in text and "DRAM" in text, f"{svg}: no GPU name or DRAM ceiling")

# Without -o the SVG is the standard output.
status, stdout, _ = run(["roofline", "--workload", "reduction 256M"])
check(status == 0 and ET.fromstring(stdout).tag == SVG + "svg", "roofline without -o: no SVG on stdout")

# Measured: softmax 6e6 FLOP / 1.25e6 B = 4.8 FLOP/B at 6e6 / 2 µs = 3 TFLOP/s; its baseline 2.4 FLOP/B at
# 1.2 TFLOP/s; one arrow between them. "copy" has no FLOP counts: left out, with a note.
svg = os.path.join(out, "measured.svg")
status, _, err = run(["roofline", f"{runs}/run.json", f"{runs}/baseline.json", "-o", svg])
check(status == 0, f"roofline of runs exited with {status}: {err}")
check("not on the chart" in err and "copy" in err, f"no note about the kernel without FLOP counts: {err}")
root = ET.parse(svg).getroot()
p = points(root)
now, before = p.get("softmax"), p.get("softmax (baseline)")
check(now is not None and near(now[0], 4.8) and near(now[1], 3e12) and now[2] == "measured", f"{svg}: softmax is {now}")
check(before is not None and near(before[0], 2.4) and near(before[1], 1.2e12), f"{svg}: the baseline is {before}")
pairs = [l for l in root.iter(SVG + "line") if "pair" in l.get("class", "").split()]
check(len(pairs) == 1, f"{svg}: {len(pairs)} before/after arrows, expected 1")

# The page: its sections, the kernels, the chart inline, the baseline's change (5000 -> 2000 ns: -60.0%).
html = os.path.join(out, "report.html")
status, _, err = run(["report", f"{runs}/run.json", "--baseline", f"{runs}/baseline.json", "-o", html,
                      "--title", "softmax after the fix"])
check(status == 0, f"report exited with {status}: {err}")
page = open(html, encoding="utf-8").read()
for expected in ["<title>softmax after the fix</title>", "<h2>Kernels</h2>", "<h2>Roofline</h2>",
                 "<h2>Against the baseline</h2>", ">softmax<", ">copy<", "<svg", "-60.0%", "</html>"]:
    check(expected in page, f"{html}: no {expected!r}")
check("http://" not in page.replace("http://www.w3.org/2000/svg", ""), f"{html}: loads something from the network")

# Unwritable outputs: exit status 1 and a message naming the file.
for cmd in (["roofline", "--workload", "gemm 1K 1K 1K"], ["report", f"{runs}/run.json"]):
    bad = os.path.join(out, "no-such-folder", "file")
    status, stdout, err = run(cmd + ["-o", bad])
    check(status == 1 and "cannot write" in err and bad in err, f"{cmd[0]} -o {bad}: exit {status}, {err!r}")

print(f"pictures.py: {len(failures)} problems")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
