#!/usr/bin/env python3
"""Generate napkin's status-name tables for the CUDA libraries that have no name getter.

The driver (CUresult: the getter lives in libcuda, which may be absent), cuFFT, cuRAND, cuSOLVER,
nvJitLink and NCCL (names only; ncclGetErrorString gives the text) keep their status enumerations only in
their headers. This script reads those headers and writes include/napkin/check/detail/<lib>_names.hpp.

  python3 cmake/gen_status_names.py [--cuda-include DIR]          regenerate the tables
  python3 cmake/gen_status_names.py --check [--cuda-include DIR]  exit 1 if an enumerator of the installed
                                                                   headers is missing from the tables or has
                                                                   another value (CTest runs this)
"""
import argparse
import pathlib
import re
import sys

# (library key, header, enum type name as it appears after the closing brace, C++ status type)
LIBRARIES = [
    ("driver", "cuda.h", "CUresult", "CUresult"),
    ("cufft", "cufft.h", "cufftResult", "cufftResult"),
    ("curand", "curand.h", "curandStatus", "curandStatus_t"),
    ("cusolver", "cusolver_common.h", "cusolverStatus_t", "cusolverStatus_t"),
    ("nvjitlink", "nvJitLink.h", "nvJitLinkResult", "nvJitLinkResult"),
    ("nccl", "nccl.h", "ncclResult_t", "ncclResult_t"),
]

# Texts for the enumerators whose headers carry no comment, from each library's documentation.
HAND_TEXT = {
    "CUFFT_SUCCESS": "The cuFFT operation was successful",
    "CUFFT_INVALID_PLAN": "cuFFT was passed an invalid plan handle",
    "CUFFT_ALLOC_FAILED": "cuFFT failed to allocate GPU or CPU memory",
    "CUFFT_INVALID_TYPE": "The cuFFT type provided is unsupported",
    "CUFFT_INVALID_VALUE": "User specified an invalid pointer or parameter",
    "CUFFT_INTERNAL_ERROR": "Driver or internal cuFFT library error",
    "CUFFT_EXEC_FAILED": "Failed to execute an FFT on the GPU",
    "CUFFT_SETUP_FAILED": "The cuFFT library failed to initialize",
    "CUFFT_INVALID_SIZE": "User specified an invalid transform size",
    "CUFFT_UNALIGNED_DATA": "Unaligned data",
    "CUFFT_INVALID_DEVICE": "Execution of a plan was on a different GPU than plan creation",
    "CUFFT_NO_WORKSPACE": "No workspace has been provided prior to plan execution",
    "CUFFT_NOT_IMPLEMENTED": "Function does not implement functionality for the parameters given",
    "CUFFT_NOT_SUPPORTED": "Operation is not supported for the parameters given",
    "CUFFT_MISSING_DEPENDENCY": "A required dependency (e.g. NVRTC or nvJitLink) is missing",
    "CUFFT_NVRTC_FAILURE": "An NVRTC failure was encountered during a cuFFT operation",
    "CUFFT_NVJITLINK_FAILURE": "An nvJitLink failure was encountered during a cuFFT operation",
    "CUFFT_NVSHMEM_FAILURE": "An NVSHMEM failure was encountered during a cuFFT operation",
    "CUSOLVER_STATUS_SUCCESS": "The operation completed successfully",
    "CUSOLVER_STATUS_NOT_INITIALIZED": "The cuSOLVER library was not initialized",
    "CUSOLVER_STATUS_ALLOC_FAILED": "Resource allocation failed inside the cuSOLVER library",
    "CUSOLVER_STATUS_INVALID_VALUE": "An unsupported value or parameter was passed to the function",
    "CUSOLVER_STATUS_ARCH_MISMATCH": "The function requires a feature absent from the device architecture",
    "CUSOLVER_STATUS_MAPPING_ERROR": "An access to GPU memory space failed",
    "CUSOLVER_STATUS_EXECUTION_FAILED": "The GPU program failed to execute",
    "CUSOLVER_STATUS_INTERNAL_ERROR": "An internal cuSOLVER operation failed",
    "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED": "The matrix type is not supported by this function",
    "CUSOLVER_STATUS_NOT_SUPPORTED": "The parameter combination is not supported",
    "CUSOLVER_STATUS_ZERO_PIVOT": "A zero pivot was encountered",
    "CUSOLVER_STATUS_INVALID_LICENSE": "Invalid license",
    "CUSOLVER_STATUS_INVALID_WORKSPACE": "The workspace is invalid or too small",
    "ncclSuccess": "no error",
}

# `typedef enum [tag] { ... } name;` or `enum tag { ... };`
ENUM_RE = re.compile(r"enum\s*(?P<tag>\w*)\s*\{(?P<body>[^{}]*?)\}\s*(?P<name>\w*)\s*;", re.S)
COMMENT_RE = re.compile(r"/\*\*<?(.*?)\*/|///<?(.*?)$", re.S | re.M)


def clean(text):
    text = re.sub(r"^\s*\*\s?", "", text, flags=re.M)
    text = text.replace("::", "").replace("\\p ", "").replace("\\deprecated", "Deprecated.")
    text = re.sub(r"\\\w+\s*", "", text)
    text = " ".join(text.split())
    # First sentence is enough for an error message.
    m = re.match(r"(.+?\.)(\s|$)", text)
    return (m.group(1) if m else text).rstrip(".").strip()


def parse_enum(header_text, enum_name):
    for m in ENUM_RE.finditer(header_text):
        if enum_name not in (m.group("name"), m.group("tag")):
            continue
        body = m.group("body")
        entries, pending, value = [], "", -1
        # Walk tokens: comments and enumerators in order.
        pos = 0
        token_re = re.compile(r"/\*\*<(?P<tc>.*?)\*/|///<(?P<tl>[^\n]*)|/\*(?P<c>.*?)\*/|//(?P<l>[^\n]*)|"
                              r"(?P<id>[A-Za-z_]\w*)\s*(?:=\s*(?P<val>[^,/\n]+))?\s*,?", re.S)
        for t in token_re.finditer(body, pos):
            if t.group("tc") is not None or t.group("tl") is not None:
                if entries and not entries[-1][2]:
                    entries[-1][2] = clean(t.group("tc") or t.group("tl"))
            elif t.group("c") is not None:
                pending = clean(t.group("c"))
            elif t.group("l") is not None:
                pass
            elif t.group("id"):
                ident = t.group("id")
                if t.group("val"):
                    value = int(t.group("val").strip(), 0)
                else:
                    value += 1
                entries.append([ident, value, pending])
                pending = ""
        return [(n, v, HAND_TEXT.get(n, d)) for n, v, d in entries
                if not n.endswith("_FORCE_INT") and n != "ncclNumResults"]
    raise SystemExit(f"enum {enum_name} not found")


def render(key, header, status_type, entries):
    lines = preamble(header, status_type) + [f"inline constexpr status_entry {key}_status_table[] = {{"]
    for name, value, text in entries:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'    {{{value}, "{name}", "{text}"}},')
    lines += ["};", "", "}  // namespace detail", "NAPKIN_END_NAMESPACE", ""]
    return "\n".join(lines)


def preamble(header, status_type):
    """Everything a generated table starts with, down to its first entry."""
    return [
        "// SPDX-License-Identifier: Apache-2.0",
        f"// Generated by cmake/gen_status_names.py from the CUDA toolkit's {header}. Do not edit.",
        f"// Enumerator names and texts of {status_type}, for a library without a name getter at hand.",
        "#pragma once",
        "",
        '#include "napkin/config.hpp"',
        '#include "napkin/check/detail/status_table.hpp"',
        "",
        "NAPKIN_BEGIN_NAMESPACE",
        "namespace detail {",
        "",
    ]


def check_sticky_list(inc, check_hpp):
    """napkin's sticky runtime errors must be exactly those driver_types.h describes as leaving the
    context inconsistent ("the process must be terminated and relaunched")."""
    header = (inc / "driver_types.h").read_text(errors="replace")
    body = re.search(r"enum\s+__device_builtin__\s+cudaError\s*\{(.*?)\};", header, re.S).group(1)
    documented = {name for comment, name in re.findall(r"/\*\*(.*?)\*/\s*(cudaError\w+)\s*=", body, re.S)
                  if "relaunch" in comment or "inconsistent state" in comment}
    source = check_hpp.read_text()
    sticky_fn = re.search(r"static constexpr bool sticky\(cudaError_t e\).*?return true;", source, re.S).group(0)
    ours = set(re.findall(r"case (cudaError\w+):", sticky_fn))
    for name in sorted(documented - ours):
        print(f"driver_types.h documents {name} as sticky; napkin/check.hpp does not")
    for name in sorted(ours - documented):
        print(f"napkin/check.hpp calls {name} sticky; driver_types.h does not")
    print(f"driver_types.h: {len(documented)} sticky runtime errors, napkin/check.hpp: {len(ours)}")
    return len(documented ^ ours)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include")
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent
                                          / "include/napkin/check/detail"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    inc, out = pathlib.Path(args.cuda_include), pathlib.Path(args.out)
    problems = 0
    for key, header, enum_name, status_type in LIBRARIES:
        if not (inc / header).exists():
            print(f"{header}: not installed with this toolkit; its table is not checked")
            continue
        src = (inc / header).read_text(errors="replace")
        entries = parse_enum(src, enum_name)
        target = out / f"{key}_names.hpp"
        if args.check:
            committed = target.read_text()
            if not committed.startswith("\n".join(preamble(header, status_type))):
                print(f"{target.name} does not start as this script writes it: regenerate it")
                problems += 1
            table = dict(re.findall(r'\{(-?\d+), "(\w+)"', committed))
            for name, value, _ in entries:
                if table.get(str(value)) != name and name not in committed:
                    print(f"{header}: {name} = {value} is missing from {target.name}")
                    problems += 1
            print(f"{header}: {len(entries)} enumerators of {status_type} checked against {target.name}")
        else:
            target.write_text(render(key, header, status_type, entries))
            print(f"wrote {target} ({len(entries)} entries)")
    if args.check:
        problems += check_sticky_list(inc, pathlib.Path(args.out).parent.parent / "check.hpp")
    if problems:
        print(f"{problems} problems: regenerate with python3 cmake/gen_status_names.py, or fix check.hpp")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
