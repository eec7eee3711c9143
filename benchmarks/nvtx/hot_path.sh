#!/usr/bin/env bash
# Compares the -O3 code of an empty napkin range (benchmarks/nvtx/hot_path.cpp) built with this tree's
# headers and with those of git revision REV, NVTX on and compiled out, with g++ and clang++. Prints
# "identical" or the diff (addresses masked). Needs the CUDA headers (CUDA_INCLUDE, default
# /usr/local/cuda/include). Usage: bash benchmarks/nvtx/hot_path.sh REV
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:?usage: hot_path.sh REV}
cuda=${CUDA_INCLUDE:-/usr/local/cuda/include}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old"
git archive "$rev" include | tar -x -C "$work/old"
functions="empty_range empty_range_attr empty_formatted empty_func empty_literal empty_unique empty_mark"

disassemble() {  # disassemble CXX INCLUDE_DIR FLAGS...
  local cxx=$1 inc=$2
  shift 2
  "$cxx" -std=c++17 -O3 -c "$@" -I "$inc" -isystem "$cuda" benchmarks/nvtx/hot_path.cpp -o "$work/o.o"
  for f in $functions; do  # the function and its .cold part, addresses masked
    objdump -d --no-show-raw-insn -C "$work/o.o" | awk -v f="$f" '$0 ~ "<"f"\\(" && /:$/ {p=1} p && /^$/ {p=0} p'
  done | sed -E 's/^ +[0-9a-f]+:\s*//; s/[0-9a-f]+ <[^>]*>/ADDR/g; s/# .*$//; s/^[0-9a-f]{16} //'
}

status=0
for cxx in g++ clang++; do
  command -v "$cxx" > /dev/null || continue
  for flags in "" "-DNAPKIN_NVTX_DISABLE"; do
    disassemble "$cxx" "$work/old/include" $flags > "$work/old.s"
    disassemble "$cxx" include $flags > "$work/new.s"
    what="$cxx ${flags:-(NVTX on)}: $(wc -l < "$work/new.s") lines"
    if diff "$work/old.s" "$work/new.s" > "$work/diff.txt"; then
      echo "$what, identical to $rev"
    else
      echo "$what, DIFFERENT from $rev:"; cat "$work/diff.txt"; status=1
    fi
  done
done
exit $status
