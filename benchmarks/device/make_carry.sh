#!/usr/bin/env bash
# On the development machine: copy doctest and Google Benchmark (Debian packages) into .carry/prefix so that
# the lent GPU machine, which has no network, can build the tests and benchmarks.
set -euo pipefail
cd "$(dirname "$0")/../.."
p=.carry/prefix
rm -rf "$p"; mkdir -p "$p/include" "$p/lib/x86_64-linux-gnu/cmake"
cp -r /usr/include/doctest /usr/include/benchmark "$p/include/"
cp -r /usr/lib/x86_64-linux-gnu/cmake/benchmark "$p/lib/x86_64-linux-gnu/cmake/"
cp -a /usr/lib/x86_64-linux-gnu/libbenchmark* "$p/lib/x86_64-linux-gnu/"
