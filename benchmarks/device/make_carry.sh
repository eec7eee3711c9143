#!/usr/bin/env bash
# On the development machine: copy doctest, Google Benchmark, CLI11 and nlohmann-json (Debian packages) into
# .carry/prefix so that the lent GPU machine, which has no network, can build the tests, the CLI and the
# benchmarks.
set -euo pipefail
cd "$(dirname "$0")/../.."
p=.carry/prefix
rm -rf "$p"; mkdir -p "$p/include" "$p/lib/x86_64-linux-gnu/cmake"
cp -r /usr/include/doctest /usr/include/benchmark /usr/include/CLI /usr/include/nlohmann "$p/include/"
for d in CLI11 nlohmann_json; do
  for root in /usr/share/cmake /usr/lib/x86_64-linux-gnu/cmake /usr/share; do
    [ -d "$root/$d" ] && { mkdir -p "$p/share/cmake"; cp -r "$root/$d" "$p/share/cmake/"; }
  done
done
cp -r /usr/lib/x86_64-linux-gnu/cmake/benchmark "$p/lib/x86_64-linux-gnu/cmake/"
cp -a /usr/lib/x86_64-linux-gnu/libbenchmark* "$p/lib/x86_64-linux-gnu/"
