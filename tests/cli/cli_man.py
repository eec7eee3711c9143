#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/napkin.1, the man page `cmake --install` puts in share/man/man1, is generated from the tool's own help:
`napkin --help` (the description, the commands, exit status) and `napkin COMMAND --help` for every command.
    cli_man.py --check docs/napkin.1 NAPKIN    fails when the page differs from the tool's help, or misses a
                                               command (CTest cli_man)
    cli_man.py --write docs/napkin.1 NAPKIN    rewrites it from the tool"""
import re
import subprocess
import sys

mode, page, napkin = sys.argv[1], sys.argv[2], sys.argv[3]


def run(*args):
    return subprocess.run([napkin, *args], capture_output=True, check=True).stdout.decode("utf-8")


def roff(line):
    """One line of help as roff text: backslashes and hyphens escaped, no control character at the start."""
    line = line.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + line if line.startswith((".", "'")) else line


top = run("--help")
version = run("--version").split()[1]
description = top.split("\nUsage:")[0].replace("\n", " ")
commands = re.findall(r"^  ([a-z0-9]+) +(.*)$", top.split("Subcommands:\n", 1)[1].split("\n\n", 1)[0], re.M)
epilogue = top.split("Subcommands:\n", 1)[1].split("\n\n", 1)[1].strip("\n")

out = [".\\\" Generated from `napkin --help` by tests/cli/cli_man.py --write docs/napkin.1 NAPKIN; do not edit.",
       f'.TH NAPKIN 1 "" "napkin {version}" "User Commands"', ".SH NAME", "napkin \\- napkin math for CUDA kernels",
       ".SH SYNOPSIS", ".B napkin", "\\fICOMMAND\\fR [\\fIARGUMENTS\\fR] [\\fIOPTIONS\\fR]", ".br",
       ".B napkin help", "\\fICOMMAND\\fR", ".SH DESCRIPTION", roff(description.split("napkin: ", 1)[-1]),
       ".SH COMMANDS"]
for name, summary in commands:
    out += [".TP", f".B {name}", roff(summary)]
out += [".SH NOTES", ".nf"] + [roff(l) for l in epilogue.splitlines()] + [".fi", ".SH OPTIONS OF EACH COMMAND"]
for name, _ in commands:
    if name == "help":
        continue
    out += [f".SS napkin {name}", ".nf"] + [roff(l) for l in run(name, "--help").rstrip("\n").splitlines()] + [".fi"]
out += [".SH SEE ALSO", "docs/cli.md in napkin's sources (the reference, with examples); docs/napkin-math.md."]
text = "\n".join(out) + "\n"

if mode == "--write":
    open(page, "w", encoding="utf-8").write(text)
    print(f"{page}: {len(commands)} commands written")
    sys.exit(0)
current = open(page, encoding="utf-8").read()
listed = set(re.findall(r"^\.TP\n\.B ([a-z0-9]+)$", current, re.M))
missing = [name for name, _ in commands if name not in listed]
problems = [f"{page} does not list the command `{m}`" for m in missing]
if current != text:
    problems.append(f"{page} differs from the tool's help; run: python3 tests/cli/cli_man.py --write {page} <napkin>")
for p in problems:
    print(p)
print(f"{len(commands)} commands checked, {len(problems)} problems")
sys.exit(1 if problems else 0)
