#!/usr/bin/env bash
# On the GPU machine, after benchmarks/device/build.sh: shows that Nsight Compute selects kernels by a
# napkin range name. Runs ncu on examples/nvtx/nvtx_kernels.cu with and without --nvtx-include filters
# and prints which kernels were profiled for each. ncu's syntax: "<domain>@<range>/" selects a push/pop
# range of a named domain, "<range>/" one of the global domain, "<domain>@<range>" (no slash) a
# start/end range. napkin::range lands in domain "napkin" unless given another (range_in<D>).
# Usage: bash benchmarks/device/nvtx.sh [OUTDIR] [BUILD_DIR]     (writes OUTDIR/nvtx_ncu.txt and logs)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-/tmp/napkin-nvtx}}
build=${2:-build/device}
mkdir -p "$out"
bin=$build/examples/nvtx/nvtx_kernels
[ -x "$bin" ] || { echo "missing $bin: run benchmarks/device/build.sh first" >&2; exit 1; }
summary=$out/nvtx_ncu.txt
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  ncu --version | tail -1
  echo
  echo "ncu --help, NVTX options:"
  ncu --help | grep -A4 -- '--nvtx' | sed 's/^/  /'
  echo
} > "$summary" 2>&1

n=0
profile() {  # profile <expected kernels> <ncu filter args...>
  local expected=$1; shift
  n=$((n + 1))
  local log=$out/nvtx_ncu_$n.log
  ncu --clock-control none --metrics gpu__time_duration.sum "$@" "$bin" > "$log" 2>&1
  local rc=$?
  local got
  got=$(grep -oE '^ +napkin_demo_[a-z_]+' "$log" | tr -d ' ' | tr '\n' ' ' | sed 's/ $//')
  local verdict=MATCH
  [ "$got" = "$expected" ] || verdict=DIFFERENT
  {
    printf '$ %sncu --clock-control none --metrics gpu__time_duration.sum' "${NAPKIN_NVTX:+NAPKIN_NVTX=$NAPKIN_NVTX }"
    printf ' %q' "$@"
    printf ' %s\n' "$bin"
    echo "  profiled: ${got:-<none>}"
    echo "  expected: ${expected:-<none>}   [$verdict, ncu rc=$rc, log $(basename "$log")]"
    echo
  } >> "$summary"
}

all="napkin_demo_fill napkin_demo_fill napkin_demo_scale napkin_demo_add napkin_demo_saxpy napkin_demo_saxpy napkin_demo_saxpy napkin_demo_reduce napkin_demo_tail"
profile "$all"
profile "napkin_demo_scale napkin_demo_add" --nvtx --nvtx-include "napkin@solve/"
profile "napkin_demo_saxpy" --nvtx --nvtx-include "demo@step 1/"
profile "napkin_demo_reduce" --nvtx --nvtx-include "napkin@demo::reduce_all/"
profile "napkin_demo_tail" --nvtx --nvtx-include "napkin@async job"
# The same name in the wrong domain selects nothing: napkin's ranges are not in the global domain.
profile "" --nvtx --nvtx-include "solve/"
# Everything except the "solve" range.
profile "napkin_demo_fill napkin_demo_fill napkin_demo_saxpy napkin_demo_saxpy napkin_demo_saxpy napkin_demo_reduce napkin_demo_tail" \
  --nvtx --nvtx-exclude "napkin@solve/"
# napkin switched off at run time: ncu sees no range, so the filter selects nothing.
NAPKIN_NVTX=0 profile "" --nvtx --nvtx-include "napkin@solve/"

cat "$summary"
