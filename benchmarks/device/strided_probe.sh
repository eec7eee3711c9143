#!/usr/bin/env bash
# Probe behind docs/profiler.md "The strided read": napkin's per_kernel(fn, replay::application) reads the
# uncoalesced strided-read kernel ~1.6 % shorter than ncu (L2 % ~2 points higher). Is it the cache state
# each tool leaves before a pass? ncu with --cache-control all (its default) and none, napkin with its L2
# flush and without (--no-flush), three runs each; duration, L2 %, DRAM bytes read, SM and L2 clocks.
# Usage (GPU machine, after benchmarks/device/build.sh): bash benchmarks/device/strided_probe.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/device}/examples/profiler/profiler_kernels
m=gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,gpc__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second
for cc in all none; do
  for r in 1 2 3; do
    ncu --clock-control none --cache-control $cc --section SpeedOfLight --metrics $m --csv --print-units base \
      -k regex:strided_read_kernel "$bin" plain --only strided_read 2>/dev/null |
      python3 -c '
import csv, sys
rows = list(csv.reader(l for l in sys.stdin if l.startswith("\"")))
d = {r[rows[0].index("Metric Name")]: r[rows[0].index("Metric Value")] for r in rows[1:]}
keys = "gpu__time_duration.sum lts__throughput.avg.pct_of_peak_sustained_elapsed dram__bytes_read.sum gpc__cycles_elapsed.avg.per_second lts__cycles_elapsed.avg.per_second".split()
print("ncu --cache-control '"$cc"'  " + "  ".join(k.split(".")[0] + "=" + d.get(k, "?") for k in keys))'
  done
done
for flush in "" --no-flush; do
  for r in 1 2 3; do
    "$bin" napkin --only strided_read $flush 2>/dev/null | grep "mode=application" | tr ' ' '\n' |
      grep -E "^(gpu__time_duration.sum|lts__throughput.avg.pct_of_peak_sustained_elapsed|dram__bytes.sum|gpc__cycles_elapsed.avg.per_second)=" |
      tr '\n' ' ' | sed "s/^/napkin application ${flush:-flush}  /"; echo
  done
done
