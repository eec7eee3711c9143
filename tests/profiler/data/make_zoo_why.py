#!/usr/bin/env python3
"""Writes zoo_h200_why.csv: the counters napkin's `why` set collects, as Nsight Compute recorded them.

Source: `bash benchmarks/device/why_ncu.sh` on an NVIDIA H200 (driver 580.159.04, ncu 2025.3.1), which ran ncu's
WarpStateStats, Occupancy, LaunchStats, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis(+_Tables),
SourceCounters, InstructionStats and SchedulerStats sections over the kernel zoo and wrote
`ncu --page raw --csv --print-units base` (why_raw.csv). This keeps, for some zoo kernels, every column whose name
is in metric_sets::why() (ncu's SASS-patched shared-instruction counts stand in for the hardware ones napkin
collects). METRIC_NAMES_FILE: metric_sets::why()'s names, one a line, and the two SASS-patched counts.

Usage: make_zoo_why.py why_raw.csv METRIC_NAMES_FILE > zoo_h200_why.csv
       make_zoo_why.py --compact why_raw.csv METRIC_NAMES_FILE why_details.csv zoo_h200_why_raw.csv \
           zoo_h200_why_details.csv
"""
import csv
import sys

KERNELS = {  # ncu's kernel ID in why_raw.csv -> zoo case
    "1": "smem_tree_reduce", "5": "transpose_naive", "9": "atomic_histogram", "11": "fp64_fma", "17": "sfu",
    "19": "int_hash", "21": "gemm_fp16", "29": "mma_sync", "31": "l1_reread", "35": "local_spill",
    "39": "uncoalesced_load", "45": "bank_conflict", "49": "stream_copy", "53": "shuffle",
}


def compact_raw(raw_path, names_path, details_path, out_raw, out_details):
    """zoo_h200_why_raw.csv and zoo_h200_why_details.csv, the inputs of benchmarks/zoo/why_table.py's CI test:
    why_raw.csv cut to the columns it reads (every row, markers included, and the units row) and why_details.csv
    cut to the first sentence of each HighPipeUtilization rule."""
    rows = list(csv.reader(open(raw_path, newline="")))
    names = [l.strip() for l in open(names_path) if l.strip()]
    keep = [i for i, c in enumerate(rows[0]) if c in ("ID", "Kernel Name", "Grid Size") or c in names]
    note = ("# Cut by tests/profiler/data/make_zoo_why.py from Nsight Compute 2025.3.1's output on an NVIDIA H200 "
            "(benchmarks/device/why_ncu.sh)\n")
    with open(out_raw, "w", newline="") as f:
        f.write(note)
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        for row in rows:
            w.writerow([row[i] for i in keep])
    with open(out_details, "w", newline="") as f:
        f.write(note)
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(["ID", "Kernel Name", "Rule Name", "Rule Description"])
        for row in csv.DictReader(open(details_path, newline="")):
            if row["Rule Name"] == "HighPipeUtilization":
                w.writerow([row["ID"], row["Kernel Name"], row["Rule Name"], row["Rule Description"].split(". ")[0]])


def long_format(raw_path, names_path):
    rows = list(csv.reader(open(raw_path)))
    header = rows[0]
    names = [l.strip() for l in open(names_path) if l.strip()]
    print("# zoo kernel,metric,value: Nsight Compute 2025.3.1 on an NVIDIA H200 "
          "(tests/profiler/data/make_zoo_why.py)")
    for row in rows[2:]:
        if row[0] not in KERNELS:
            continue
        for name in names:
            if name in header:
                print(f"{KERNELS[row[0]]},{name},{row[header.index(name)].replace(',', '')}")


if __name__ == "__main__":
    if sys.argv[1] == "--compact":
        compact_raw(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6])
    else:
        long_format(sys.argv[1], sys.argv[2])
