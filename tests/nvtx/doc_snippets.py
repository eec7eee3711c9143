#!/usr/bin/env python3
"""Every C++ block of docs/nvtx.md compiles as written, in every configuration napkin's NVTX header has.

Each ```cpp block is a whole translation unit. It is compiled warning-free (-Wall -Wextra -Werror) with
NVTX on, compiled out (-DNAPKIN_NVTX_DISABLE, -DNVTX_DISABLE) and without exceptions, in C++17 and C++20:
a form the documentation shows must not break a build that switches NVTX off (issue: `auto u =
napkin::unique_range{"request {}", 7};` warned "set but not used" with NAPKIN_NVTX_DISABLE).

Usage: doc_snippets.py --doc docs/nvtx.md --include DIR [--cuda-include DIR] [--cxx g++]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```cpp\n(.*?)^```", re.M | re.S)
CONFIGURATIONS = [
    ("c++17", []),
    ("c++20", []),
    ("c++17", ["-DNAPKIN_NVTX_DISABLE"]),
    ("c++20", ["-DNAPKIN_NVTX_DISABLE"]),
    ("c++17", ["-DNVTX_DISABLE"]),
    ("c++17", ["-fno-exceptions"]),
    ("c++20", ["-fno-exceptions", "-DNAPKIN_NVTX_DISABLE"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cuda-include", action="append", default=[])
    ap.add_argument("--cxx", default="g++")
    args = ap.parse_args()
    blocks = BLOCK.findall(pathlib.Path(args.doc).read_text())
    if not blocks:
        print(f"doc_snippets.py: no ```cpp block in {args.doc}")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, code in enumerate(blocks, 1):
            src = pathlib.Path(tmp) / f"snippet{i}.cpp"
            src.write_text(code)
            for std, flags in CONFIGURATIONS:
                cmd = [args.cxx, f"-std={std}", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *flags,
                       "-I", args.include]
                for d in args.cuda_include:
                    cmd += ["-isystem", d]
                cmd.append(str(src))
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                what = f"block {i} ({code.strip().splitlines()[0]}) -std={std} {' '.join(flags)}"
                if r.returncode == 0:
                    print(f"{what}: compiles")
                else:
                    failed += 1
                    print(f"{what}: FAILS\n--- {' '.join(cmd)} ---\n{r.stdout}")
    total = len(blocks) * len(CONFIGURATIONS)
    print(f"{total - failed} of {total} compilations of the {len(blocks)} docs/nvtx.md blocks succeed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
