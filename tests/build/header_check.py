#!/usr/bin/env python3
"""Every public header compiles on its own, warning-free, and the whole library links from two TUs.

For the compilers (g++, clang++), standards (C++17, C++20) and exception modes:
  - each header in include/napkin is compiled alone (-fsyntax-only -Wall -Wextra -Wpedantic -Werror),
    included twice (include guards): with g++ -std=c++17 and exceptions, and each plain-C++ header (one
    that needs no CUDA header: the napkin math and occupancy among them, promised to users without CUDA and
    without exceptions) also with clang++ -std=c++20 -fno-exceptions (with one compiler, both with it).
    What only a header alone can show is a missing #include or guard, which turns on what the standard
    library pulls in transitively (the standard, the mode) and not on the warnings; every header's code in
    every combination of compiler, standard and mode is built by the two-TU programs, with -Werror, for every
    header but the MPI and separate-mode ones. Code built without exceptions must be able to use every header.
    Headers that need no CUDA header, directly or through other napkin headers, are compiled WITHOUT the
    toolkit on the include path: they are plain C++.
  - two translation units that each include every header are linked into one program (no ODR trouble
    from header-only definitions), which then runs; and again with the second unit built with
    -fno-exceptions (napkin keeps the two kinds of unit apart with inline namespaces, napkin/config.hpp).
With nvcc (-Werror all-warnings), one unit that includes every CUDA-facing header is compiled as CUDA C++, and
each header whose own text has device-side code (__device__, __global__, __host__, __CUDACC__, __CUDA_ARCH__)
is compiled alone as CUDA C++ (so is napkin/compiled.hpp, with the switch). The other headers are the same
text for nvcc as for g++ (nvcc hands host code to g++), whose alone-compiles above show that each includes what
it uses; what nvcc's own front end could refuse in them shows in the one unit. (Each alone took nvcc 12-18 s
on the 2-core development machine, and 64 headers were compiled so.)
Headers that include MPI's <mpi.h> (napkin/mpi.hpp) are compiled alone with --mpi-include's folders, or
skipped (said so) without them, and are left out of the two-TU program (tests/mpi links them with MPI).
Separate compilation (NAPKIN_SEPARATE_COMPILATION=1): napkin/compiled.hpp, which refuses to compile without it, is
compiled alone with it and left out of the two-TU program. An x_impl.hpp header holds x.hpp's bodies and is
compiled through x.hpp; every one must be included by napkin/compiled.hpp (napkin/compiled_plain.hpp for the
plain-C++ ones), and none may mark a body `inline` (at the start of a line) instead of NAPKIN_DETAIL_FUNC.
Each header that includes, directly or not, a header with bodies in an x_impl.hpp is compiled alone once more
with the switch (the first compiler, C++17): it must not lean on what only the bodies include. Then the two
units are built with the switch, linked with a third that includes napkin/compiled.hpp, and run: nothing
defined twice (a body the units call but nobody defines shows in the tests that call it:
tests/*/separate_compilation_test.cpp).
At the end, the failures are listed by header, so that a header failing only without exceptions shows.

Usage: header_check.py --include DIR --cuda-include DIR [--cuda-lib DIR] [--cxx g++ --cxx clang++] [--nvcc PATH]
                       [--mpi-include DIR]
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
import tempfile

CUDA_INCLUDE = re.compile(r'#\s*include\s*<(cuda|cu[a-z]+|nvtx3|nvrtc|nvJitLink|nvperf|nccl|cudnn|cupti)[^>]*>')
MPI_INCLUDE = re.compile(r'#\s*include\s*<mpi\.h>')
IMPL_SUFFIX = "_impl.hpp"
LINE_COMMENT = re.compile(r"//[^\n]*")
# In an x_impl.hpp a body is NAPKIN_DETAIL_FUNC, which is nothing when separately compiled; `inline` there would
# leave the one file that compiles it without a definition for the other units to link.
INLINE_IN_IMPL = re.compile(r"^(?:\[\[[^\]]*\]\]\s*)*inline\s+(?!constexpr\b|namespace\b)", re.M)
SEPARATE_ONLY = re.compile(r'#\s*if\s*!\s*NAPKIN_SEPARATE_COMPILATION\s*\n\s*#\s*error')
DEVICE_CODE = re.compile(r'__device__|__global__|__host__|__CUDACC__|__CUDA_ARCH__')
NAPKIN_INCLUDE = re.compile(r'#\s*include\s*[<"](napkin/[^>"]+)[>"]')
WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]


def reaches(start, deps, hit, follow=lambda d: True):
    """Whether `start`, or a header it includes directly or not (through the includes `follow` allows), is `hit`."""
    seen, stack = set(), [start]
    while stack:
        h = stack.pop()
        if h in seen:
            continue
        seen.add(h)
        if hit(h):
            return True
        stack.extend(d for d in deps.get(h, []) if follow(d))
    return False


def classify(include_dir):
    """The headers, each with whether it needs a CUDA header (directly or not), each one's napkin includes, and
    each one's text."""
    headers = sorted(p.relative_to(include_dir).as_posix() for p in include_dir.rglob("*.hpp"))
    texts = {h: (include_dir / h).read_text() for h in headers}
    deps = {h: NAPKIN_INCLUDE.findall(texts[h]) for h in headers}
    cuda = {h for h in headers if CUDA_INCLUDE.search(texts[h])}
    return {h: reaches(h, deps, lambda x: x in cuda) for h in headers}, deps, texts


def run(cmd, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True)
    ap.add_argument("--cuda-include", action="append", default=[])
    ap.add_argument("--cuda-lib", default="")
    ap.add_argument("--cxx", action="append", default=[])
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--link-lib", action="append", default=[])
    ap.add_argument("--mpi-include", action="append", default=[])
    args = ap.parse_args()
    include_dir = pathlib.Path(args.include).resolve()
    headers, direct_deps, texts = classify(include_dir)
    mpi_headers = {h for h in headers if MPI_INCLUDE.search(texts[h])}
    mpi_flags = [f for d in args.mpi_include for f in ("-isystem", d)]
    if mpi_headers and not args.mpi_include:
        print(f"SKIPPED (no --mpi-include): {' '.join(sorted(mpi_headers))}")
        headers = {h: c for h, c in headers.items() if h not in mpi_headers}
    separate_headers = {h for h in headers if SEPARATE_ONLY.search(texts[h])}
    impl_headers = {h for h in headers if h.endswith(IMPL_SUFFIX)}
    compiled_includes = set()
    for h in separate_headers:  # their #include lines, not a mention in a comment
        code = LINE_COMMENT.sub("", texts[h])
        compiled_includes |= set(NAPKIN_INCLUDE.findall(code))
    split = {h[: -len(IMPL_SUFFIX)] + ".hpp" for h in impl_headers}

    def reaches_split(h):  # through the headers' includes, not the bodies'
        return reaches(h, direct_deps, lambda x: x in split, follow=lambda d: not d.endswith(IMPL_SUFFIX))
    cuda_flags = [f for d in args.cuda_include for f in ("-isystem", d)]
    # Each header alone (the docstring says why): one compiler with C++17 and exceptions; for the plain-C++
    # headers also the other with C++20 and -fno-exceptions. Four a header (a pairwise design) took 13 min of
    # the 2-core machine.
    variants = ([(args.cxx[0], "c++17", []), (args.cxx[-1], "c++20", ["-fno-exceptions"])] if args.cxx else [])
    work = pathlib.Path(tempfile.mkdtemp(prefix="napkin_headers_"))
    jobs, failures = [], []

    for h in sorted(impl_headers - compiled_includes):
        failures.append(f"{h} is not included by napkin/compiled.hpp")
        print(f"FAIL {failures[-1]}")
    for h in sorted(impl_headers):
        for line in INLINE_IN_IMPL.findall(LINE_COMMENT.sub("", texts[h])):
            failures.append(f"{h}: a body marked `inline` ({line.strip()}...) where NAPKIN_DETAIL_FUNC belongs")
            print(f"FAIL {failures[-1]}")
    for h, cuda in headers.items():
        if h in impl_headers:
            continue  # compiled through x.hpp, and with the switch through compiled.hpp
        tu = work / (h.replace("/", "_") + ".cpp")
        tu.write_text(f"#include <{h}>\n#include <{h}>\n")
        for cxx, std, exceptions in (variants if not cuda else variants[:1]):
            cmd = [cxx, f"-std={std}", *WARNINGS, *exceptions, "-fsyntax-only", "-I", str(include_dir)]
            cmd += cuda_flags if cuda else []
            cmd += mpi_flags if h in mpi_headers else []
            cmd += ["-DNAPKIN_SEPARATE_COMPILATION=1"] if h in separate_headers else []
            name = f"{os.path.basename(cxx)} -std={std}{''.join(' ' + e for e in exceptions)} {h}"
            jobs.append((name + ("" if cuda else " (no CUDA on the path)"), cmd + [str(tu)], h, exceptions))
        if args.cxx and h not in separate_headers and reaches_split(h):
            cmd = [args.cxx[0], "-std=c++17", *WARNINGS, "-fsyntax-only", "-DNAPKIN_SEPARATE_COMPILATION=1",
                   "-I", str(include_dir), *(cuda_flags if cuda else []), *(mpi_flags if h in mpi_headers else [])]
            jobs.append((f"{os.path.basename(args.cxx[0])} -std=c++17 separate {h}", cmd + [str(tu)], h, []))
        if cuda and args.nvcc and (h in separate_headers or
                                   DEVICE_CODE.search(LINE_COMMENT.sub("", texts[h]))):
            cu = tu.with_suffix(".cu")
            cu.write_text(tu.read_text())
            jobs.append((f"nvcc {h}", [args.nvcc, "-std=c++17", "-Werror", "all-warnings",
                                       *(["-DNAPKIN_SEPARATE_COMPILATION=1"] if h in separate_headers else []),
                                       "-Xcompiler=-Wall,-Wextra", "-I", str(include_dir), *cuda_flags,
                                       "-c", str(cu), "-o", str(cu.with_suffix(".o"))], h, []))

    # Two TUs including everything, linked together.
    all_includes = "".join(f"#include <{h}>\n" for h in headers
                           if h not in mpi_headers | separate_headers | impl_headers)
    (work / "tu_a.cpp").write_text(all_includes + "int napkin_tu_a() { return 1; }\n")
    (work / "tu_b.cpp").write_text(all_includes + "int napkin_tu_b() { return 2; }\n")
    (work / "main.cpp").write_text("int napkin_tu_a();\nint napkin_tu_b();\n"
                                   "int main() { return napkin_tu_a() + napkin_tu_b() == 3 ? 0 : 1; }\n")
    if args.nvcc:  # every CUDA-facing header in one CUDA C++ unit but the MPI ones and those of separate mode
        cu = work / "all_cuda_facing.cu"
        cu.write_text("".join(f"#include <{h}>\n" for h, cuda in headers.items()
                              if cuda and h not in mpi_headers | separate_headers | impl_headers))
        jobs.append(("nvcc every CUDA-facing header in one unit", [
            args.nvcc, "-std=c++17", "-Werror", "all-warnings", "-Xcompiler=-Wall,-Wextra", "-I", str(include_dir),
            *cuda_flags, "-c", str(cu), "-o", str(cu.with_suffix(".o"))], None, []))
    libs = [f"-L{args.cuda_lib}", f"-Wl,-rpath,{args.cuda_lib}"] if args.cuda_lib else []
    libs += [f"-l{l}" for l in args.link_lib]

    def two_tu(cxx, std):
        # Both programs of one compiler and standard; they share tu_a and main (main.cpp has none of napkin).
        # Returns [(name, status, output)] for: both units with exceptions; tu_b built with -fno-exceptions.
        name = f"{os.path.basename(cxx)} -std={std} two TUs linked"
        base = [cxx, f"-std={std}", *WARNINGS, "-I", str(include_dir), *cuda_flags]
        objects = {}
        for n, flags in (("tu_a", []), ("main", []), ("tu_b", []), ("tu_b_noexc", ["-fno-exceptions"])):
            obj = work / f"{n}_{os.path.basename(cxx)}_{std}.o"
            code, out = run(base + flags + ["-c", str(work / f"{n.replace('_noexc', '')}.cpp"), "-o", str(obj)])
            objects[n] = (str(obj), code, out)
        results = []
        for variant, b in (("", "tu_b"), (" (second unit -fno-exceptions)", "tu_b_noexc")):
            failed = [objects[n] for n in ("tu_a", b, "main") if objects[n][1] != 0]
            if failed:
                results.append((name + variant, failed[0][1], failed[0][2]))
                continue
            exe = work / f"two_tu_{os.path.basename(cxx)}_{std}_{b}"
            code, out = run([cxx, objects["tu_a"][0], objects[b][0], objects["main"][0], "-o", str(exe), *libs])
            if code == 0:
                code, out2 = run([str(exe)])
                out += out2
            results.append((name + variant, code, out))
        return results

    def two_tu_separate(cxx):
        # The same two units with the switch, and a third that compiles the bodies (napkin/compiled.hpp).
        name = f"{os.path.basename(cxx)} -std=c++17 two TUs and napkin/compiled.hpp, separately compiled"
        base = [cxx, "-std=c++17", *WARNINGS, "-DNAPKIN_SEPARATE_COMPILATION=1", "-I", str(include_dir), *cuda_flags]
        (work / "compiled.cpp").write_text("#include <napkin/compiled.hpp>\n")
        objects = []
        for n in ("tu_a", "tu_b", "main", "compiled"):
            obj = work / f"{n}_{os.path.basename(cxx)}_separate.o"
            code, out = run(base + ["-c", str(work / f"{n}.cpp"), "-o", str(obj)])
            if code != 0:
                return [(name, code, out)]
            objects.append(str(obj))
        exe = work / f"two_tu_{os.path.basename(cxx)}_separate"
        code, out = run([cxx, *objects, "-o", str(exe), *libs])
        if code == 0:
            code, out2 = run([str(exe)])
            out += out2
        return [(name, code, out)]

    def one(cmd):
        return [(None, *run(cmd))]

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        # The long two-TU jobs first, so that the short ones fill in around them.
        futures = {pool.submit(two_tu, cxx, std): (None, None, []) for cxx in args.cxx for std in ("c++17", "c++20")}
        if args.cxx and separate_headers:
            futures[pool.submit(two_tu_separate, args.cxx[0])] = (None, None, [])
        futures.update({pool.submit(one, cmd): (name, h, exceptions) for name, cmd, h, exceptions in jobs})
        by_header, total = {}, 0  # failures may already hold impl headers missing from napkin/compiled.hpp
        for f in concurrent.futures.as_completed(futures):
            job_name, h, exceptions = futures[f]
            for name, code, out in f.result():
                name = name or job_name
                total += 1
                if code != 0:
                    failures.append(name)
                    print(f"FAIL {name}\n{out}")
                    if h:  # the compile that failed: compiler, standard and mode (its name up to the header)
                        by_header.setdefault(h, set()).add((name[: name.rfind(" " + h)], bool(exceptions)))
    plain = sum(1 for c in headers.values() if not c)
    print(f"{len(headers)} headers ({plain} plain C++, {len(headers) - plain} CUDA-facing); "
          f"compilers: {', '.join(args.cxx)}{', nvcc' if args.nvcc else ''}")
    for h in sorted(by_header):
        print(f"failing header: {h} ({', '.join(sorted(label for label, _ in by_header[h]))})")
    only_noexc = sorted(h for h, failed in by_header.items() if all(noexc for _, noexc in failed))
    if only_noexc:
        print(f"{len(only_noexc)} header(s) fail only in their -fno-exceptions compiles: {' '.join(only_noexc)}")
    total += 2 * len(impl_headers)  # each checked twice: included by napkin/compiled.hpp, no `inline` body
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
