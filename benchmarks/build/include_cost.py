#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Include cost of napkin's umbrella headers against nvtx3/nvtx3.hpp (issue #26, item 5; docs/compile-time.md).
# Each header is compiled alone in a one-line translation unit with `g++ -std=c++17 -fsyntax-only`; the
# headers are interleaved, round after round, and each header's figure is its minimum over the rounds, so a
# busy machine slows every header alike. `--floor` adds, for each header, a translation unit of only
# the system headers (the standard library, CUDA, CUPTI, NVTX) that napkin's files include directly, in
# the same order: what the header would cost if napkin's own code were free. `--nvcc` adds a one-kernel
# .cu file compiled to an object with nvcc (napkin/nvtx.hpp and napkin/check.hpp against nvtx3.hpp).
# `--before DIR` times each header also from DIR/include (an older tree, e.g. `git archive <commit> include`),
# in the same rounds. A benchmark, not a test: nothing here fails.
#
# `--cpu` times the compiler's user + system CPU seconds instead of wall seconds (for a machine that other
# builds share). `--header a.hpp+b.hpp` times one unit that includes both. `--separate` adds a column with each
# header compiled with -DNAPKIN_SEPARATE_COMPILATION=1 (declarations only where a header offers it; the bodies
# are then compiled once, in the file that includes napkin/compiled.hpp, timed as its own row).
#
#   python3 benchmarks/build/include_cost.py [--rounds 5] [--floor] [--nvcc] [--cpu] [--before DIR] [--out table.md]
#                                             [--separate] [--header napkin/x.hpp ...]
import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")
BASELINE = "nvtx3/nvtx3.hpp"
UMBRELLAS = ["napkin/nvtx.hpp", "napkin/check.hpp", "napkin/math.hpp", "napkin/occupancy.hpp",
             "napkin/profiler.hpp", "napkin/report.hpp", "napkin/monitor.hpp"]
KERNEL = """#include <%s>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
"""


def compile_seconds(cmd, cpu=False):
  """Wall seconds, or with cpu the compiler's user + system CPU seconds (steadier when other builds share the
  cores, since waiting for a core is not counted; contention for caches still is)."""
  if cpu:
    with tempfile.TemporaryFile() as err:
      child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
      _, status, usage = os.wait4(child.pid, 0)
      if status != 0:
        err.seek(0)
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err.read().decode(errors="replace")[-2000:]))
      return usage.ru_utime + usage.ru_stime
  start = time.perf_counter()
  done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
  seconds = time.perf_counter() - start
  if done.returncode != 0:
    sys.exit("failed: %s\n%s" % (" ".join(cmd), done.stderr[-2000:]))
  return seconds


def system_includes(cxx, includes, source):
  """The headers outside include/napkin/ that a napkin header (or the file itself) includes, in order."""
  done = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-H", *includes, source], capture_output=True, text=True)
  napkin = os.path.join(ROOT, "include", "napkin") + os.sep
  stack = {0: source}  # depth -> the header open at that depth
  found = []
  for line in done.stderr.splitlines():
    dots, _, path = line.partition(" ")
    if not dots or set(dots) != {"."}:
      continue
    depth = len(dots)
    stack[depth] = path
    parent = stack.get(depth - 1, "")
    if (depth == 1 or parent.startswith(napkin)) and not path.startswith(napkin) and path not in found:
      found.append(path)
  return found


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--rounds", type=int, default=5)
  parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
  parser.add_argument("--floor", action="store_true", help="also time each header's system headers alone")
  parser.add_argument("--nvcc", action="store_true", help="also time nvcc on a one-kernel .cu file")
  parser.add_argument("--header", action="append",
                      help="time these headers instead of the umbrellas; a+b: one unit that includes a and b")
  parser.add_argument("--cpu", action="store_true", help="user + system CPU seconds instead of wall seconds")
  parser.add_argument("--separate", action="store_true",
                      help="also time each header with -DNAPKIN_SEPARATE_COMPILATION=1, and napkin/compiled.hpp")
  parser.add_argument("--before", help="a tree whose include/ is timed too, as 'before'")
  parser.add_argument("--out", help="write the Markdown table here too")
  args = parser.parse_args()

  trees = {"after": os.path.join(ROOT, "include")}
  if args.before:
    trees["before"] = os.path.join(os.path.abspath(args.before), "include")
  flags = {tree: ["-I", path, "-I", os.path.join(CUDA, "include")] for tree, path in trees.items()}
  headers = [BASELINE] + (args.header or UMBRELLAS)
  work = tempfile.mkdtemp(prefix="napkin-include-cost-")
  rows = []  # (compiler, header)
  jobs = {}  # (compiler, header, what) -> command; what: "after", "before" or "floor"
  for header in headers:
    source = os.path.join(work, "tu_%d.cpp" % len(rows))
    with open(source, "w") as f:
      f.write("".join("#include <%s>\n" % h for h in header.split("+")))
    rows.append(("g++", header))
    for tree in trees:
      jobs[("g++", header, tree)] = [args.cxx, "-std=c++17", "-fsyntax-only", *flags[tree], source]
    if args.separate:
      jobs[("g++", header, "separate")] = [args.cxx, "-std=c++17", "-fsyntax-only", "-DNAPKIN_SEPARATE_COMPILATION=1",
                                           *flags["after"], source]
    if args.floor and header != BASELINE:
      floor = os.path.join(work, "floor_%d.cpp" % len(rows))
      with open(floor, "w") as f:
        f.write("".join('#include "%s"\n' % path for path in system_includes(args.cxx, flags["after"], source)))
      jobs[("g++", header, "floor")] = [args.cxx, "-std=c++17", "-fsyntax-only", *flags["after"], floor]
  if args.separate:  # the one file that compiles the bodies: what separate compilation moves there
    source = os.path.join(work, "compiled.cpp")
    with open(source, "w") as f:
      f.write("#include <napkin/compiled.hpp>\n")
    rows.append(("g++", "napkin/compiled.hpp"))
    jobs[("g++", "napkin/compiled.hpp", "separate")] = [args.cxx, "-std=c++17", "-fsyntax-only",
                                                        "-DNAPKIN_SEPARATE_COMPILATION=1", *flags["after"], source]
  if args.nvcc:
    for header in [BASELINE, "napkin/nvtx.hpp", "napkin/check.hpp"]:
      source = os.path.join(work, "kernel_%d.cu" % len(rows))
      with open(source, "w") as f:
        f.write(KERNEL % header)
      rows.append(("nvcc", header))
      for tree in trees:
        jobs[("nvcc", header, tree)] = [os.path.join(CUDA, "bin", "nvcc"), "-std=c++17", "-c", *flags[tree], source,
                                        "-o", source + "." + tree + ".o"]

  best = {key: float("inf") for key in jobs}
  for _ in range(args.rounds):
    for key, cmd in jobs.items():
      best[key] = min(best[key], compile_seconds(cmd, args.cpu))

  version = subprocess.run([args.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
  head = "| Compiler and header | Seconds | Ratio to nvtx3.hpp |"
  rule = "|---|---:|---:|"
  if args.before:
    head, rule = head + " Before | Before's ratio |", rule + "---:|---:|"
  if args.separate:
    head, rule = head + " Separate compilation | Its ratio |", rule + "---:|---:|"
  if args.floor:
    head, rule = head + " Its system headers alone |", rule + "---:|"
  lines = ["Machine: %s, %d cores (`nproc`), %s; minimum of %d interleaved rounds%s." %
           (platform.machine(), os.cpu_count(), version, args.rounds,
            ", user + system CPU seconds" if args.cpu else ""), "", head, rule]
  for compiler, header in rows:
    base = best[(compiler, BASELINE, "after")]
    seconds = best.get((compiler, header, "after"))
    line = ("| %s `%s` | %.2f | %.2fx |" % (compiler, header, seconds, seconds / base) if seconds is not None
            else "| %s `%s` | | |" % (compiler, header))
    if args.before:
      old = best.get((compiler, header, "before"))
      line += " %.2f | %.2fx |" % (old, old / best[(compiler, BASELINE, "before")]) if old is not None else " | |"
    if args.separate:
      apart = best.get((compiler, header, "separate"))
      line += " %.2f | %.2fx |" % (apart, apart / base) if apart is not None else " | |"
    if args.floor:
      line += " %.2f |" % best[(compiler, header, "floor")] if (compiler, header, "floor") in best else " |"
    lines.append(line)
  table = "\n".join(lines) + "\n"
  sys.stdout.write(table)
  if args.out:
    with open(args.out, "w") as f:
      f.write(table)


if __name__ == "__main__":
  main()
