#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every napkin command answers in the four formats: --format json validates against the checked-in
schema (docs/schema/napkin.schema.json, jsonschema), --format csv parses with Python's csv module (a header
row, then rows as long as it), --format markdown holds a GitHub pipe table (a header, its alignment row,
rows as wide as the header; a diff with nothing beyond the threshold has only its gate line), with the
same exit status, and text stays the default (no --format = --format text). A command
without arguments here fails the test, so a new command gets some.
    formats.py SCHEMA NAPKIN DOCS RUNS
DOCS: what `shell_cases.sh make_documents` wrote; RUNS: what make_runs wrote. Run with Debian's
/usr/bin/python3 (python3-jsonschema); exit 77 (skipped) without jsonschema."""
import csv
import io
import json
import os
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("SKIPPED: jsonschema is not installed for this python3 (Debian: python3-jsonschema)")
    sys.exit(77)

schema_file, napkin, docs, runs = sys.argv[1:5]
# nvbench's JSON, real (tests/report/data/nvbench/README.md): an import, and a diff with nvbench's noise.
nvbench = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report", "data", "nvbench")

# Per command, argument lists; every list is run in the four formats.
CASES = {
    "attention": [["1", "32", "4K", "128", "--causal"], ["1", "32", "1K,2K", "128", "--gpu", "h100,a100"]],
    "conv2d": [["1", "64", "56", "56", "64", "3", "3", "--padding", "1", "--dtype", "fp16"]],
    "diff": [[f"{docs}/a.json", f"{docs}/b.json"], [f"{docs}/sweep.json", f"{docs}/sweep.json"],
             [f"{docs}/a.json", f"{docs}/c.json", "--allow-different-gpu"],
             [f"{nvbench}/nvbench_axes_ref.json", f"{nvbench}/nvbench_axes_cmp_edited.json", "--threshold", "1"]],
    "dtypes": [[]],
    "elementwise": [["1M", "--dtype", "fp16"]],
    "gemm": [["4096", "4096", "4096", "--dtype", "fp16", "--time", "200us"],
             ["1K..4K*2", "1K", "1K", "--dtype", "bf16", "--gpu", "all"],
             ["4096", "4096", "4096", "--gpu", f"my-h100@{docs}/edited.json"]],
    "gpus": [[], ["--ridge"], ["--keys"]],
    "layernorm": [["1024", "1024"]],
    "occupancy": [["--cc", "9.0", "--threads", "256", "--regs", "32"],
                  ["--cc", "9.0", "--threads", "1024", "--regs", "255"]],
    "merge": [[os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "merge", d)] for d in ("ranks", "monitor")],
    "pipes": [[]],
    "reduction": [["256M"], ["1K..1M*4"]],
    "report": [[f"{runs}/run.json", "--baseline", f"{runs}/baseline.json"],
               [f"{runs}/monitor.json", "--baseline", f"{runs}/monitor_baseline.json"],
               [f"{nvbench}/nvbench_axes_cmp.json", "--baseline", f"{nvbench}/nvbench_axes_ref.json"]],
    "rmsnorm": [["1024", "1024", "--dtype", "bf16"]],
    "roofline": [["--workload", "gemm 4096 4096 4096 --dtype fp16", "--workload", "softmax 32000 16384"],
                 [f"{runs}/run.json", f"{runs}/baseline.json"]],
    "softmax": [["32000", "16384", "--time", "3ms"]],
}


def run(args):
    p = subprocess.run([napkin] + args, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


CELL_SEPARATOR = re.compile(r"(?<!\\)\|")  # a '|' that a backslash does not escape
ALIGNMENT_ROW = re.compile(r"^\|( *:?-{3,}:? *\|)+$")


def markdown_problems(text):
    """Why `text` is not Markdown with well-formed pipe tables (at least one); [] when it is."""
    lines = text.split("\n")
    tables, problems = 0, []
    for i, line in enumerate(lines):
        if not ALIGNMENT_ROW.match(line):
            continue
        tables += 1
        header = lines[i - 1] if i > 0 else ""
        width = len(CELL_SEPARATOR.split(header)) - 2
        if not header.startswith("| ") or not header.endswith(" |") or width != line.count("|") - 1:
            problems.append(f"table {tables}: the header {header!r} does not match its alignment row")
        for row in lines[i + 1:]:
            if not row.startswith("|"):
                break
            if not row.endswith(" |") or len(CELL_SEPARATOR.split(row)) - 2 != width:
                problems.append(f"table {tables}: a row of another width than its header: {row[:120]!r}")
    if tables == 0 and "**Gate: PASS**" not in text:
        problems.append("no pipe table")
    return problems


def main():
    validator = jsonschema.Draft202012Validator(json.load(open(schema_file, encoding="utf-8")))
    failures, checked, kinds = [], 0, set()
    _, top, _ = run(["--help"])
    commands = [c for c in re.findall(r"^  ([a-z0-9]+) ", top.split("Subcommands:")[1], re.M) if c != "help"]
    for c in commands:
        if c not in CASES:
            failures.append(f"no arguments for `napkin {c}` here: add some to CASES")
    for c in commands:
        for args in CASES.get(c, []):
            cmd = [c] + args
            what = "napkin " + " ".join(cmd)
            status, text, err = run(cmd)
            if status not in (0, 1):
                failures.append(f"`{what}` exited with {status}: {err}")
                continue
            status_t, text_t, _ = run(cmd + ["--format", "text"])
            if (status_t, text_t) != (status, text):
                failures.append(f"`{what}`: --format text differs from the default")
            if text.lstrip().startswith("{"):
                failures.append(f"`{what}`: the default output looks like JSON")
            status_j, out, err = run(cmd + ["--format", "json"])
            if status_j != status:
                failures.append(f"`{what} --format json` exited with {status_j}, text with {status}: {err}")
            try:
                doc = json.loads(out)
                errors = list(validator.iter_errors(doc))
                for e in errors[:3]:
                    failures.append(f"`{what} --format json`: /{'/'.join(map(str, e.absolute_path))}: {e.message}")
                kinds.add(doc.get("kind"))
            except json.JSONDecodeError as e:
                failures.append(f"`{what} --format json` is not JSON: {e}")
            status_c, out, err = run(cmd + ["--format", "csv"])
            if status_c != status:
                failures.append(f"`{what} --format csv` exited with {status_c}, text with {status}: {err}")
            rows = list(csv.reader(io.StringIO(out, newline="")))
            if len(rows) < 2:
                failures.append(f"`{what} --format csv`: {len(rows)} rows, expected a header and at least one row")
            elif any(len(r) != len(rows[0]) for r in rows) or len(set(rows[0])) != len(rows[0]):
                failures.append(f"`{what} --format csv`: rows of different lengths, or a repeated column name")
            elif any(not h or not re.fullmatch(r"[a-z0-9_]+", h) for h in rows[0]):
                failures.append(f"`{what} --format csv`: the header row is not column names: {rows[0]}")
            status_m, out, err = run(cmd + ["--format", "markdown"])
            if status_m != status:
                failures.append(f"`{what} --format markdown` exited with {status_m}, text with {status}: {err}")
            for p in markdown_problems(out)[:3]:
                failures.append(f"`{what} --format markdown`: {p}")
            checked += 1
    print(f"{checked} answers checked in 4 formats; kinds: {', '.join(sorted(k for k in kinds if k))}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


sys.exit(main())
