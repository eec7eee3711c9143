#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/ci.md's recipe does what the page says: its GitHub Actions step (run as GitHub runs a step, with
`bash -e`) and its shell script (perf_gate.sh), taken from the page as written, run in a scratch folder
whose perf/ holds checked-in documents, with napkin on PATH:
  - tests/cli/data/ci/: softmax 2.00 -> 2.50 us (+25.0 %) and SM 30 -> 24 % (-20.0 %): exit 1, both rows
    marked as regressions in the job summary, the gate line FAIL;
  - the same file twice: exit 0, the gate line PASS;
  - the real ncu recording (tests/report/data/ncu_zoo_raw*.csv): zoo_fp32_fma 294.11 -> 588.22 us
    (+100.0 %): exit 1;
  - a missing file: exit 2.
    ci_recipe.py REPOSITORY NAPKIN"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, napkin = sys.argv[1], os.path.abspath(sys.argv[2])
page = open(os.path.join(root, "docs", "ci.md"), encoding="utf-8").read()
failures = []


def fence(language, first_line):
    """The ```language block of the page whose first line starts with first_line."""
    for m in re.finditer(r"```" + language + r"\n(.*?)```\n", page, re.S):
        if m.group(1).lstrip().startswith(first_line):
            return m.group(1)
    sys.exit(f"docs/ci.md: no ```{language} block starting with {first_line!r}")


yaml = fence("yaml", "- name: Kernel performance gate")
step = re.search(r"^\s+run: (.+)$", yaml, re.M)
if not step:
    sys.exit("docs/ci.md: the gate step has no one-line `run:`")
step_command = step.group(1)
script = fence("sh", "#!/bin/sh")

ci = os.path.join(root, "tests", "cli", "data", "ci")
ncu = os.path.join(root, "tests", "report", "data")
GATE_FAIL = "### napkin diff: FAIL\n\n**Gate: FAIL**: 2 of 36 numbers worse by more than 10.0% (regression, exit status 1).\n"
GATE_PASS = "### napkin diff: PASS\n\n**Gate: PASS**: 0 of 36 numbers worse by more than 10.0% (no-regression, exit status 0).\n"
ROWS = ["| softmax | `duration_ns` | 2.00 us | 2.50 us | +25.0% | **worse (regression)** |\n",
        "| softmax | `sm_pct` | 30.0% | 24.0% | -20.0% | **worse (regression)** |\n",
        "| softmax | `flop_per_s` | 3.000 TFLOP/s | 2.400 TFLOP/s | -20.0% | worse |\n"]
NCU_ROW = "| zoo\\_fp32\\_fma(int, float, float, float, float \\*) | `duration_ns` | 294.11 us | 588.22 us | +100.0% | **worse (regression)** |\n"


def run(what, argv, baseline, current, expect_status, expect_parts, summary_file=True, suffix=".json"):
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "perf"))
        shutil.copy(baseline, os.path.join(d, "perf", "baseline" + suffix))
        if current:
            shutil.copy(current, os.path.join(d, "perf", "current" + suffix))
        open(os.path.join(d, "perf_gate.sh"), "w", encoding="utf-8").write(script)
        env = dict(os.environ, PATH=os.path.dirname(napkin) + os.pathsep + os.environ.get("PATH", ""))
        summary = os.path.join(d, "summary.md")
        env.pop("GITHUB_STEP_SUMMARY", None)
        if summary_file:
            open(summary, "w").close()
            env["GITHUB_STEP_SUMMARY"] = summary
        p = subprocess.run(argv, cwd=d, env=env, capture_output=True)
        out = open(summary, encoding="utf-8").read() if summary_file else p.stdout.decode("utf-8")
        if p.returncode != expect_status:
            failures.append(f"{what}: exit status {p.returncode}, expected {expect_status}: {p.stderr.decode()}")
        for part in expect_parts:
            if part not in out:
                failures.append(f"{what}: the summary lacks {part!r}:\n{out}")
        return out


# The step as GitHub runs it (bash -e), and the script, on the regression, on no change and on real ncu data.
# GitHub's two ways to run a step on Linux: the default `bash -e {0}`, and `shell: bash`'s pipefail form.
github_default = ["bash", "-e", "-c", step_command]
github = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step_command]
shell = ["sh", "perf_gate.sh", "perf/baseline.json", "perf/current.json"]
base, now = os.path.join(ci, "baseline.json"), os.path.join(ci, "current.json")
run("the GitHub step, a regression", github, base, now, 1, [GATE_FAIL] + ROWS)
run("the GitHub step (default shell), a regression", github_default, base, now, 1, [GATE_FAIL] + ROWS)
run("the GitHub step, no change", github, base, base, 0, [GATE_PASS])
run("the script, a regression", shell, base, now, 1, [GATE_FAIL] + ROWS)
run("the script, no change", shell, base, base, 0, [GATE_PASS])
run("the script without a job summary: standard output", shell, base, now, 1, [GATE_FAIL] + ROWS, summary_file=False)
run("the script on ncu's CSV", ["sh", "perf_gate.sh", "perf/baseline.ncu.csv", "perf/current.ncu.csv"],
    os.path.join(ncu, "ncu_zoo_raw.csv"), os.path.join(ncu, "ncu_zoo_raw_edited.csv"), 1,
    ["### napkin diff: FAIL\n", NCU_ROW], suffix=".ncu.csv")
run("the script, a missing file", shell, base, None, 2, [])
print(f"docs/ci.md: the GitHub step and perf_gate.sh checked, {len(failures)} failures")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
