#!/usr/bin/env bash
# layers_check.py must fail on each planted defect: a header of 451 lines, a folder-level include cycle and an
# arrow up the layer table; and pass on a tree without them.
set -u
check="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
tree() {  # a small clean tree: math includes config
  rm -rf "$tmp/include"
  mkdir -p "$tmp/include/napkin/math" "$tmp/include/napkin/profiler" "$tmp/include/napkin/monitor"
  printf '#pragma once\n' > "$tmp/include/napkin/config.hpp"
  printf '#pragma once\n#include "napkin/config.hpp"\n' > "$tmp/include/napkin/math/a.hpp"
}
expect() {  # expect OK|FAIL "what"
  if python3 "$check" --include "$tmp/include" > "$tmp/out" 2>&1; then got=OK; else got=FAIL; fi
  if [ "$got" != "$1" ]; then
    echo "planted: $2: expected $1, got $got"; cat "$tmp/out"; fail=1
  else
    echo "planted: $2: $got as expected"
  fi
}
tree
expect OK "a clean tree"
tree
{ printf '#pragma once\n'; for i in $(seq 1 450); do printf '// line %s\n' "$i"; done; } > "$tmp/include/napkin/math/long.hpp"
expect FAIL "a header of 451 lines"
tree
{ printf '#pragma once\n'; for i in $(seq 1 449); do printf '// line %s\n' "$i"; done; } > "$tmp/include/napkin/math/long.hpp"
expect OK "a header of 450 lines"
tree
printf '#pragma once\n#include "napkin/monitor/b.hpp"\n' > "$tmp/include/napkin/profiler/a.hpp"
printf '#pragma once\n#include "napkin/profiler/a.hpp"\n' > "$tmp/include/napkin/monitor/b.hpp"
expect FAIL "a cycle between profiler and monitor"
tree
printf '#pragma once\n#include "napkin/profiler/a.hpp"\n' > "$tmp/include/napkin/math/b.hpp"
printf '#pragma once\n' > "$tmp/include/napkin/profiler/a.hpp"
expect FAIL "math including profiler, a layer above it"
exit $fail
