#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: issue 27's device check. The monitor's per-kernel rows
# against ncu's SpeedOfLight on the same 13 kernels (examples/monitor/monitor_workload.cu, accuracy mode), in
# two sequences: (a) back to back at the monitor's default settings, ROUNDS shuffled rounds; (b) 200 us samples,
# 3 launches of each kernel with idle gaps. docs/monitor.md ("Per-kernel rows against ncu") explains the tables.
# Usage: bash benchmarks/device/monitor_accuracy.sh [OUTDIR] [BUILD_DIR] [ROUNDS] [NCU_ROUNDS] [GAP_INTERVAL_US]
#   ROUNDS (default 10): back-to-back rounds under the monitor; NCU_ROUNDS (default 3): the first rounds of the
#   same orders under ncu, whose replay costs ~0.4 s per kernel launch: 13 x NCU_ROUNDS launches (-c caps it).
#   GAP_INTERVAL_US (default 200): the sample interval of sequence (b), whose gaps are 8 intervals.
# Writes OUTDIR/{monitor_b2b.txt,ncu_b2b.csv,monitor_gaps.txt,ncu_gaps.csv,ncu_*.log,accuracy_tables.md}.
# About 2 minutes on an H100 (ncu: 78 launches). ncu runs with --clock-control none, like napkin, which never
# touches clocks, and --profile-from-start off: the workload profiles only its sequence (cudaProfilerStart),
# not its warm-up.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:-${OUT:-/tmp/napkin-monitor}}
build=${2:-build/device}
rounds=${3:-10}
ncu_rounds=${4:-3}
gap_us=${5:-200}
mkdir -p "$out"
bin=$build/examples/monitor/monitor_workload
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
kernels='copy_kernel|softmax_smem_naive|fma_loop|gemm|smem_tree_reduce|mw_strided_passes|mw_transpose_naive|mw_l1_reread|mw_atomic_histogram|mw_fp64_fma|mw_sfu|mw_pointer_chase|mw_long_fma'
ncu_args=(--clock-control none --profile-from-start off --section SpeedOfLight --metrics dram__bytes.sum
  --print-units base --csv -k "regex:$kernels")

# (a) Back to back at the default settings (1 ms, the first second of every minute from the first kernel,
# settings.hpp): ROUNDS rounds, each in another order.
timeout 120 "$bin" accuracy --back-to-back "$rounds" > "$out/monitor_b2b.txt" 2>&1
echo "rc=$?" >> "$out/monitor_b2b.txt"
timeout 240 ncu "${ncu_args[@]}" -c $((13 * ncu_rounds)) "$bin" accuracy --monitor off --back-to-back "$ncu_rounds" \
  > "$out/ncu_b2b.csv" 2> "$out/ncu_b2b.log"
echo "ncu rc=$?" >> "$out/ncu_b2b.log"

# (b) 200 us samples, each launch followed by an idle gap of 8 intervals: 3 launches of each kernel.
timeout 120 "$bin" accuracy --interval-us "$gap_us" > "$out/monitor_gaps.txt" 2>&1
echo "rc=$?" >> "$out/monitor_gaps.txt"
timeout 240 ncu "${ncu_args[@]}" -c 39 "$bin" accuracy --monitor off --interval-us "$gap_us" \
  > "$out/ncu_gaps.csv" 2> "$out/ncu_gaps.log"
echo "ncu rc=$?" >> "$out/ncu_gaps.log"

python3 benchmarks/device/monitor_accuracy_table.py "$out" > "$out/accuracy_tables.md"
cat "$out/accuracy_tables.md"
echo "tables: $out/accuracy_tables.md"
