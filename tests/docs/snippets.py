#!/usr/bin/env python3
"""Every C++ snippet of the README compiles as written.

Each ```cpp block of README.md is a whole translation unit: it is compiled alone, warning-free
(-Wall -Wextra -Werror), with nvcc when it launches a kernel or defines one (`<<<`, `__global__`) and
with the host compiler otherwise. A snippet that needs something it does not define fails here, which
is the point: a reader copies it as it stands. The CMake block is exercised by tests/build's consumer
projects.

Usage: snippets.py --readme README.md --include DIR [--cuda-include DIR] [--cxx g++] [--nvcc PATH]
Exit 0 when every snippet compiles; prints each snippet's result.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```cpp\n(.*?)^```", re.M | re.S)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cuda-include", action="append", default=[])
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--nvcc", default="")
    args = ap.parse_args()
    text = pathlib.Path(args.readme).read_text()
    blocks = BLOCK.findall(text)
    if not blocks:
        print(f"snippets.py: no ```cpp block in {args.readme}")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, code in enumerate(blocks, 1):
            first = code.strip().splitlines()[0]
            cuda = "<<<" in code or "__global__" in code
            src = pathlib.Path(tmp) / (f"snippet{i}.cu" if cuda else f"snippet{i}.cpp")
            src.write_text(code)
            if cuda:
                if not args.nvcc:
                    print(f"snippet {i} ({first}): SKIPPED: needs nvcc, none found")
                    continue
                cmd = [args.nvcc, "-std=c++17", "-c", "-o", str(src.with_suffix(".o")), "-I", args.include,
                       "-Xcompiler=-Wall,-Wextra,-Werror", "-Werror=all-warnings", str(src)]
            else:
                cmd = [args.cxx, "-std=c++17", "-c", "-o", str(src.with_suffix(".o")), "-I", args.include,
                       "-Wall", "-Wextra", "-Werror", str(src)]
                for d in args.cuda_include:
                    cmd += ["-isystem", d]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode == 0:
                print(f"snippet {i} ({first}): compiles")
            else:
                failed += 1
                print(f"snippet {i} ({first}): FAILS\n--- code ---\n{code}--- {' '.join(cmd)} ---\n{r.stdout}")
    print(f"{len(blocks) - failed} of {len(blocks)} README snippets compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
