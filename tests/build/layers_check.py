#!/usr/bin/env python3
"""The layers of include/napkin/ (docs/CONTRIBUTING.md, "Layers"): no folder-level include cycle, no long header.

Each header belongs to a part: its folder under include/napkin/ (napkin/cupti/host.hpp is `cupti`), or, for
a top-level header, its own name (napkin/profiler.hpp is `profiler`, the umbrella of profiler/;
napkin/config.hpp is `config`). An include from one part of another is an arrow between them. The check
fails when the arrows make a cycle (it prints one cycle and the include lines behind each of its arrows),
when an arrow points up the layer table below (docs/CONTRIBUTING.md, "Layers"; a new folder is added to both),
and when a header is over MAX_LINES lines (split it by what its parts do).

Usage: layers_check.py --include DIR [--graph]   (--graph also prints every arrow)
"""
import argparse
import collections
import pathlib
import re
import sys

MAX_LINES = 450
# docs/CONTRIBUTING.md's layer table: a part may include parts of its own layer or lower ones. Within a layer
# the arrows only have to be free of cycles (monitor uses profiler's verdicts, for one).
LAYERS = {
    "config": 1,
    "error": 2, "detail": 2, "text": 2,
    "check": 3, "nvtx": 3,
    "math": 4, "occupancy": 4, "document": 4, "system": 4,
    "cupti": 5,
    "profiler": 6, "monitor": 6,
    "report": 7, "mpi": 7, "compiled": 7, "compiled_plain": 7,
}
NAPKIN_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](napkin/[^>"]+)[>"]', re.M)


def part_of(header):
    """napkin/cupti/host.hpp -> cupti; napkin/profiler.hpp -> profiler."""
    parts = header.split("/")
    return parts[1] if len(parts) > 2 else parts[1][: -len(".hpp")]


def find_cycle(graph):
    """One cycle of `graph` (part -> set of parts) as a list of parts, or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True)
    ap.add_argument("--graph", action="store_true")
    args = ap.parse_args()
    root = pathlib.Path(args.include).resolve()
    headers = sorted(p.relative_to(root).as_posix() for p in (root / "napkin").rglob("*.hpp"))
    if not headers:
        print(f"no headers under {root / 'napkin'}")
        return 1
    graph = collections.defaultdict(set)
    why = collections.defaultdict(list)  # (from, to) -> include lines
    problems = []
    for h in headers:
        text = (root / h).read_text()
        for target in NAPKIN_INCLUDE.findall(text):
            a, b = part_of(h), part_of(target)
            if a != b:
                graph[a].add(b)
                why[(a, b)].append(f"{h} includes {target}")
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        if lines > MAX_LINES:
            problems.append(f"{h}: {lines} lines (at most {MAX_LINES}: split it by what its parts do)")
    if args.graph:
        for (a, b) in sorted(why):
            print(f"{a} -> {b} ({len(why[(a, b)])} includes)")
    for part in sorted(set(graph) | {b for targets in graph.values() for b in targets}):
        if part not in LAYERS:
            problems.append(f"{part}: a part in no layer; add it to LAYERS here and to docs/CONTRIBUTING.md")
    for (a, b) in sorted(why):
        if a in LAYERS and b in LAYERS and LAYERS[b] > LAYERS[a]:
            problems.append(f"{a} (layer {LAYERS[a]}) includes {b} (layer {LAYERS[b]}), a layer above it:")
            problems.extend(f"    {line}" for line in why[(a, b)])
    cycle = find_cycle(graph)
    if cycle:
        problems.append("folder-level include cycle: " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            for line in why[(a, b)]:
                problems.append(f"    {a} -> {b}: {line}")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(headers)} headers in {len(graph)} parts: every arrow points down the layers, no cycle, "
          f"none over {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
