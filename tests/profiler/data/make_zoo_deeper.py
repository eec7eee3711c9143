#!/usr/bin/env python3
"""Writes zoo_h200_deeper.csv: what tests/profiler/deeper_verdict_test.cpp needs beside zoo_h200_why.csv.

Sources, both Nsight Compute 2025.3.1 on the same NVIDIA H200 (driver 580.159.04):
  - why_raw.csv of `bash benchmarks/device/why_ncu.sh` (ncu's WarpStateStats, Occupancy, ComputeWorkloadAnalysis,
    MemoryWorkloadAnalysis, ... sections over the zoo): for the kernels zoo_h200_why.csv has, the two active-thread
    ratios; for six more kernels every column zoo_h200_why.csv holds, and the ratios.
  - docs/accuracy.md, "The zoo, measured (H200 ...)": the medians of three `ncu --section SpeedOfLight` runs per
    case (SM %, Memory %, DRAM %, L1/TEX %, L2 %), written under ncu's metric names.

Usage: make_zoo_deeper.py why_raw.csv zoo_h200_why.csv docs/accuracy.md > zoo_h200_deeper.csv
"""
import csv
import sys

KERNELS = {  # ncu's kernel ID in why_raw.csv -> zoo case (make_zoo_why.py's, and six more)
    "1": "smem_tree_reduce", "5": "transpose_naive", "9": "atomic_histogram", "11": "fp64_fma", "17": "sfu",
    "19": "int_hash", "21": "gemm_fp16", "29": "mma_sync", "31": "l1_reread", "35": "local_spill",
    "39": "uncoalesced_load", "45": "bank_conflict", "49": "stream_copy", "53": "shuffle",
    "7": "transpose_tiled", "33": "l2_reread", "37": "divergent", "41": "scattered_store", "43": "pointer_chase",
    "47": "grid_reduce",
}
RATIOS = ["smsp__thread_inst_executed_per_inst_executed.ratio",
          "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio"]
SOL = ["sm__throughput.avg.pct_of_peak_sustained_elapsed",
       "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
       "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
       "l1tex__throughput.avg.pct_of_peak_sustained_active",
       "lts__throughput.avg.pct_of_peak_sustained_elapsed"]


def main(raw_path, why_path, accuracy_path):
    rows = list(csv.reader(open(raw_path)))
    header = rows[0]
    have = {}
    for line in open(why_path):
        if line.startswith("#"):
            continue
        kernel, metric, _ = line.strip().split(",")
        have.setdefault(kernel, []).append(metric)
    names = have["smem_tree_reduce"]
    sol = {}
    in_h200 = False
    for line in open(accuracy_path):
        if line.startswith("## The zoo, measured (H200"):
            in_h200 = True
        cells = [c.strip() for c in line.split("|")]
        if in_h200 and len(cells) > 10 and cells[2] == "ncu":
            sol[cells[1]] = cells[5:10]
    print("# zoo kernel,metric,value: Nsight Compute 2025.3.1 on an NVIDIA H200 "
          "(tests/profiler/data/make_zoo_deeper.py)")
    for row in rows[2:]:
        case = KERNELS.get(row[0])
        if case is None:
            continue
        wanted = RATIOS + ([] if case in have else names)
        for name in wanted:
            print(f"{case},{name},{row[header.index(name)].replace(',', '')}")
        for name, value in zip(SOL, sol[case]):
            print(f"{case},{name},{value}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
