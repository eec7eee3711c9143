#!/usr/bin/env bash
# On the GPU machine: the inputs of Nsight Compute's four SOL throughputs (ncu's `breakdown:`) on this chip,
# each asked alone (so each list is that throughput's own), with their values on the kernels of
# breakdown_probe.cu; ncu's metric list for GH100; and the cost and values of candidate fast sets
# (benchmarks/device/fast_sets/*.txt) measured by napkin's per_kernel(fn, replay::application).
# Usage: bash benchmarks/device/breakdown.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-breakdown}}
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -o /tmp/breakdown_probe benchmarks/device/breakdown_probe.cu
nvcc -O3 -std=c++17 -arch=sm_90 -DNAPKIN_PROBE_PROFILER -Iinclude -I"$(dirname "$(which nvcc)")/../extras/CUPTI/include" \
  -o /tmp/breakdown_probe_napkin benchmarks/device/breakdown_probe.cu -lcupti \
  -L"$(dirname "$(which nvcc)")/../extras/CUPTI/lib64" 2> "$out/build.log"
for t in sm__throughput.avg.pct_of_peak_sustained_elapsed gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed \
         l1tex__throughput.avg.pct_of_peak_sustained_active lts__throughput.avg.pct_of_peak_sustained_elapsed; do
  ncu --clock-control none --metrics "breakdown:$t,$t" --print-units base --csv /tmp/breakdown_probe \
    > "$out/breakdown_${t%%.*}.csv" 2>> "$out/breakdown.log"
done
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/device.txt"; ncu --version >> "$out/device.txt"
/tmp/breakdown_probe_napkin benchmarks/device/fast_sets/*.txt > "$out/fast_sets.txt" 2>&1
