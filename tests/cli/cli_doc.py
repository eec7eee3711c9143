#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/cli.md's help blocks are the napkin CLI's own --help output, and the sample answers of the README,
docs/napkin-math.md, docs/reports.md and docs/ci.md are its own answers. Each block is a line
`<!-- napkin ARGS -->` followed by a ```text (or ```markdown) fence holding what `napkin ARGS` prints (run in
the current folder: CTest runs the documents other than docs/cli.md from the source folder, so ARGS name files
such as docs/examples/...).
    cli_doc.py --check docs/cli.md NAPKIN    fails when a block differs (CTest cli_doc)
    cli_doc.py --write docs/cli.md NAPKIN    rewrites the blocks from the tool"""
import os
import re
import subprocess
import sys

mode, doc, napkin = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(doc, encoding="utf-8").read()
block = re.compile(r"(<!-- napkin ([^>]*?) -->\n```(?:text|markdown)\n)(.*?)(```\n)", re.S)
stale = []


def regenerate(m):
    args = m.group(2).split()
    r = subprocess.run([napkin] + args, capture_output=True)
    if r.returncode not in (0, 1):  # 1: an answer that is a failure (a diff's regression) is still an answer
        sys.exit(f"{doc}: `napkin {' '.join(args)}` exited with {r.returncode}: {r.stderr.decode('utf-8')}")
    out = r.stdout.decode("utf-8")
    if out != m.group(3):
        stale.append("napkin " + " ".join(args))
    return m.group(1) + out + m.group(4)


new = block.sub(regenerate, text)
count = len(block.findall(text))
# A paragraph after `<!-- napkin commands -->` names every command of `napkin --help` as `name`.
help_text = subprocess.run([napkin, "--help"], capture_output=True, check=True).stdout.decode("utf-8")
commands = re.findall(r"^  ([a-z0-9]+) ", help_text.split("Subcommands:\n", 1)[1].split("\n\n", 1)[0], re.M)
for listing in re.findall(r"<!-- napkin commands -->\n(.*?)(?:\n\n|$)", text, re.S):
    count += 1
    for c in commands:
        if f"`{c}`" not in listing:
            stale.append(f"--help: its command `{c}` is missing from the list after <!-- napkin commands -->")
if mode == "--write":
    open(doc, "w", encoding="utf-8").write(new)
    print(f"{count} blocks written, {len(stale)} changed")
    sys.exit(0)
if count == 0:
    sys.exit(f"{doc}: no `<!-- napkin ARGS -->` blocks")
for s in stale:
    if s.startswith("--help: "):
        print(f"{doc}: {s[8:]} (add it by hand)")
    else:
        print(f"{doc}: the block of `{s}` differs from the tool's output; run: python3 tests/cli/cli_doc.py --write {doc} <napkin>")
print(f"{count} blocks checked")
sys.exit(1 if stale else 0)
