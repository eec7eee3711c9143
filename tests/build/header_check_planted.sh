#!/usr/bin/env bash
# header_check.py must fail on each planted defect in a small tree of plain headers: a header that leans on an
# include it lacks, one without an include guard and one that throws where -fno-exceptions units include it; and
# pass on the tree without them. Usage: header_check_planted.sh <header_check.py> <c++ compiler>...
set -u
check="$1"
shift
compilers=()
for c in "$@"; do compilers+=(--cxx "$c"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
tree() {  # a small clean tree: math/a.hpp includes config.hpp
  rm -rf "$tmp/include"
  mkdir -p "$tmp/include/napkin/math"
  printf '#pragma once\n#include <vector>\nnamespace napkin { inline std::vector<int> one() { return {1}; } }\n' \
    > "$tmp/include/napkin/config.hpp"
  printf '#pragma once\n#include "napkin/config.hpp"\nnamespace napkin { inline int two() { return 2; } }\n' \
    > "$tmp/include/napkin/math/a.hpp"
}
expect() {  # expect OK|FAIL "what" [a line the output must hold]
  if python3 "$check" --include "$tmp/include" "${compilers[@]}" > "$tmp/out" 2>&1; then got=OK; else got=FAIL; fi
  if [ "$got" != "$1" ] || { [ -n "${3:-}" ] && ! grep -qF "$3" "$tmp/out"; }; then
    echo "planted: $2: expected $1${3:+ with \"$3\"}, got $got"; cat "$tmp/out"; fail=1
  else
    echo "planted: $2: $got as expected"
  fi
}
tree
expect OK "a clean tree"
tree
printf '#pragma once\nnamespace napkin { inline std::size_t n(const std::map<int, int>& m) { return m.size(); } }\n' \
  > "$tmp/include/napkin/math/b.hpp"
expect FAIL "a header without the #include it needs" "failing header: napkin/math/b.hpp"
tree
printf 'namespace napkin { struct twice {}; }\n' > "$tmp/include/napkin/math/b.hpp"
expect FAIL "a header without an include guard" "failing header: napkin/math/b.hpp"
tree
printf '#pragma once\nnamespace napkin { inline void fail() { throw 1; } }\n' > "$tmp/include/napkin/math/b.hpp"
expect FAIL "a header that throws where exceptions are off" "fail only in their -fno-exceptions compiles: napkin/math/b.hpp"
exit $fail
