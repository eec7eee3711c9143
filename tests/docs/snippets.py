#!/usr/bin/env python3
"""Every C++ block of a Markdown file compiles as written (the README's, docs/nvtx.md's).

Each ```cpp block is a whole translation unit: a reader copies it as it stands, so a snippet that needs
something it does not define fails here. It is compiled warning-free (-Wall -Wextra -Werror) once per
--config (default: "c++17"; a config is a standard followed by extra flags, e.g.
"c++17 -DNAPKIN_NVTX_DISABLE"), with nvcc when it launches or defines a kernel (`<<<`, `__global__`)
and with the host compiler otherwise.

Usage: snippets.py --doc FILE --include DIR [--cuda-include DIR] [--cxx g++] [--nvcc PATH] [--config "c++20 -fno-exceptions"]
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```cpp\n(.*?)^```", re.M | re.S)


def command(args, src, std, flags, cuda):
    obj = str(src.with_suffix(".o"))
    if cuda:
        host = ",".join(["-Wall", "-Wextra", "-Werror", *flags])
        return [args.nvcc, f"-std={std}", "-c", "-o", obj, "-I", args.include, f"-Xcompiler={host}",
                "-Werror=all-warnings", str(src)]
    cmd = [args.cxx, f"-std={std}", "-c", "-o", obj, "-I", args.include, "-Wall", "-Wextra", "-Werror", *flags]
    for d in args.cuda_include:
        cmd += ["-isystem", d]
    return cmd + [str(src)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cuda-include", action="append", default=[])
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--config", action="append", default=[])
    args = ap.parse_args()
    configs = [c.split() for c in (args.config or ["c++17"])]
    blocks = BLOCK.findall(pathlib.Path(args.doc).read_text())
    if not blocks:
        print(f"snippets.py: no ```cpp block in {args.doc}")
        return 1
    failed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, code in enumerate(blocks, 1):
            first = code.strip().splitlines()[0]
            cuda = "<<<" in code or "__global__" in code
            src = pathlib.Path(tmp) / (f"snippet{i}.cu" if cuda else f"snippet{i}.cpp")
            src.write_text(code)
            for std, *flags in configs:
                what = f"block {i} ({first}) -std={std} {' '.join(flags)}"
                if cuda and not args.nvcc:
                    skipped += 1
                    print(f"{what}: SKIPPED: needs nvcc, none found")
                    continue
                cmd = command(args, src, std, flags, cuda)
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if r.returncode == 0:
                    print(f"{what}: compiles")
                else:
                    failed += 1
                    print(f"{what}: FAILS\n--- code ---\n{code}--- {' '.join(cmd)} ---\n{r.stdout}")
    total = len(blocks) * len(configs) - skipped
    print(f"{total - failed} of {total} compilations of the {len(blocks)} blocks of {args.doc} succeed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
