#!/usr/bin/env bash
# On the two-GPU machine (nvidia-h200-x2), after benchmarks/device/build.sh: issue 18's device checks
# (docs/multi-gpu.md "On two GPUs"). NVLink multicast stays off in every process started here.
# Usage: bash benchmarks/device/multi_gpu.sh OUTDIR [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
build=${2:-build/device}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
{ nvidia-smi -L; nvidia-smi topo -m; mpirun --version | head -1; } > "$out/device.txt" 2>&1

# Two threads measuring two GPUs in one process, against each GPU measured alone.
for how in application kernel measure; do
  timeout 300 "$build/examples/multi_gpu/two_threads" $how > "$out/two_threads_$how.txt" 2>&1
  echo "rc=$?" >> "$out/two_threads_$how.txt"
done

# The MPI job: one rank per GPU, NCCL all-reduce + compute, the last rank computing twice as long.
timeout 300 mpirun --allow-run-as-root -np 2 -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST \
  -x NVSHMEM_DISABLE_NVLS -x LD_LIBRARY_PATH "$build/examples/mpi/mpi_imbalance" --iterations 200 \
  --out "$out/job" > "$out/mpi.txt" 2>&1; echo "rc=$?" >> "$out/mpi.txt"

# The same per-rank files merged without MPI.
for kind in monitor kernels; do
  "$build/tools/napkin/napkin" merge "$out/job/$kind" > "$out/merge_$kind.txt" 2>&1; echo "rc=$?" >> "$out/merge_$kind.txt"
done
echo "outputs in $out"
