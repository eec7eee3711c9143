#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/cli.md's help blocks are the napkin CLI's own --help output. Each block is a line
`<!-- napkin ARGS -->` followed by a ```text fence holding what `napkin ARGS` prints.
    cli_doc.py --check docs/cli.md NAPKIN    fails when a block differs (CTest cli_doc)
    cli_doc.py --write docs/cli.md NAPKIN    rewrites the blocks from the tool"""
import re
import subprocess
import sys

mode, doc, napkin = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(doc, encoding="utf-8").read()
block = re.compile(r"(<!-- napkin ([^>]*?) -->\n```text\n)(.*?)(```\n)", re.S)
stale = []


def regenerate(m):
    args = m.group(2).split()
    out = subprocess.run([napkin] + args, capture_output=True, check=True).stdout.decode("utf-8")
    if out != m.group(3):
        stale.append("napkin " + " ".join(args))
    return m.group(1) + out + m.group(4)


new = block.sub(regenerate, text)
count = len(block.findall(text))
if mode == "--write":
    open(doc, "w", encoding="utf-8").write(new)
    print(f"{count} blocks written, {len(stale)} changed")
    sys.exit(0)
if count == 0:
    sys.exit(f"{doc}: no `<!-- napkin ARGS -->` blocks")
for s in stale:
    print(f"{doc}: the block of `{s}` differs from the tool's output; run: python3 tests/cli/cli_doc.py --write {doc} <napkin>")
print(f"{count} blocks checked")
sys.exit(1 if stale else 0)
