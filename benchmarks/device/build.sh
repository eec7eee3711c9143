#!/usr/bin/env bash
# On the lent GPU machine (no network): configure and build everything, tests and benchmarks included,
# with doctest and Google Benchmark taken from the carried prefix (.carry/prefix, see docs/device.md).
# Usage: bash benchmarks/device/build.sh   (then run things from build/device)
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$PWD/.carry/prefix
export LD_LIBRARY_PATH=$prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B build/device "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_BUILD_EXAMPLES=ON -DNAPKIN_BUILD_BENCHMARKS=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DNAPKIN_WARNINGS_AS_ERRORS=ON ${NAPKIN_CMAKE_ARGS:-}
cmake --build build/device -j "$(nproc)"
