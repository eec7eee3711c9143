#!/usr/bin/env bash
# On the GPU machine: can the monitor tell when ncu's SM % is led by an input its one PM-sampling pass lacks?
# ncu's SM % (sm__throughput) is the maximum of 25 inputs on GH100; the monitor samples eight of them
# (napkin/monitor/pm_sampler.hpp). This runs ncu once over the zoo's cases and once over the monitor
# workload's 13 kernels with every input of sm__throughput's breakdown, and with the L1's LSU and TEX data-pipe
# wavefronts (which one pass can hold beside the monitor's set: benchmarks/device/pm_sm_inputs_probe.cu), so
# that sm_uncovered.py can test a bound: every input the pass lacks is work of the L1's LSU or TEX data pipe,
# so at most the larger of the two wavefront rates.
# Usage: bash benchmarks/device/sm_uncovered.sh OUTDIR BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=${1:?OUTDIR}
build=${2:?BUILD_DIR}
mkdir -p "$out"
metrics=gpu__time_duration.sum,breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_pipe_tex_wavefronts.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
args=(--clock-control none --print-units base --csv --metrics "$metrics")
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  ncu --version | tail -1
} > "$out/device.txt" 2>&1
timeout 400 ncu "${args[@]}" --profile-from-start off "$build/benchmarks/zoo/zoo" plain > "$out/zoo.csv" 2> "$out/zoo.log"
echo "zoo rc=$?" >> "$out/zoo.log"
timeout 200 ncu "${args[@]}" "$build/examples/monitor/monitor_workload" plain > "$out/monitor_kernels.csv" \
  2> "$out/monitor_kernels.log"
echo "monitor_kernels rc=$?" >> "$out/monitor_kernels.log"
python3 benchmarks/device/sm_uncovered.py "$out/zoo.csv" "$out/monitor_kernels.csv" > "$out/sm_uncovered.md"
