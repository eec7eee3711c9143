#!/usr/bin/env python3
"""Writes zoo_h200_why.csv: the counters napkin's `why` set collects, as Nsight Compute recorded them.

Source: `bash benchmarks/device/why_ncu.sh` on an NVIDIA H200 (driver 580.159.04, ncu 2025.3.1), which ran ncu's
WarpStateStats, Occupancy, LaunchStats, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis(+_Tables),
SourceCounters, InstructionStats and SchedulerStats sections over the kernel zoo and wrote
`ncu --page raw --csv --print-units base` (why_raw.csv). This keeps, for some zoo kernels, every column whose name
is in metric_sets::why() (ncu's SASS-patched shared-instruction counts stand in for the hardware ones napkin
collects). Usage: make_zoo_why.py why_raw.csv METRIC_NAMES_FILE > zoo_h200_why.csv
"""
import csv
import sys

KERNELS = {  # ncu's kernel ID in why_raw.csv -> zoo case
    "1": "smem_tree_reduce", "5": "transpose_naive", "9": "atomic_histogram", "11": "fp64_fma", "17": "sfu",
    "19": "int_hash", "21": "gemm_fp16", "29": "mma_sync", "31": "l1_reread", "35": "local_spill",
    "39": "uncoalesced_load", "45": "bank_conflict", "49": "stream_copy", "53": "shuffle",
}

rows = list(csv.reader(open(sys.argv[1])))
header = rows[0]
names = [l.strip() for l in open(sys.argv[2]) if l.strip()]
print("# zoo kernel,metric,value: Nsight Compute 2025.3.1 on an NVIDIA H200 (tests/profiler/data/make_zoo_why.py)")
for row in rows[2:]:
    if row[0] not in KERNELS:
        continue
    for name in names:
        if name in header:
            print(f"{KERNELS[row[0]]},{name},{row[header.index(name)].replace(',', '')}")
