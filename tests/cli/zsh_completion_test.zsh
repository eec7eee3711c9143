#!/usr/bin/env zsh
# The zsh completion (tools/napkin/_napkin) run as zsh's completion system would call it, with compadd and
# _files replaced by functions that record what it offers: commands, options and the values of --gpu,
# --pipe, --peak and --dtype.   usage: zsh_completion_test.zsh _NAPKIN NAPKIN_DIR
emulate -L zsh
export LC_ALL=C
script=$1
path=($2 $path)
offered=()
compadd() {  # records the words after --; -S '=' is kept as a suffix
  local suffix=
  while [[ $1 != -- && $# -gt 0 ]]; do
    [[ $1 == -S ]] && { suffix=$2; shift; }
    shift
  done
  shift
  local w
  for w in "$@"; do offered+=("$w$suffix"); done
}
_files() { offered+=("<files>") }
failed=0
expect() {  # expect PATTERN WORD...: the completion of the last WORD offers a word matching PATTERN
  local want=$1
  shift
  words=("$@")
  CURRENT=$#words
  PREFIX=${words[CURRENT]}
  offered=()
  source "$script"
  local matching=(${(M)offered:#$~want})
  if (( ${#matching} == 0 )); then
    print "FAIL: '$*' offers (${offered[1,12]} ...), nothing matching '$want'"
    failed=1
  else
    print "ok:   '$*' -> ${matching[1]} (of ${#offered})"
  fi
}
expect gemm napkin ''
expect roofline napkin ''
expect --version napkin ''
expect softmax napkin help ''
expect --format napkin gemm 1 1 1 --
expect --threads napkin occupancy --
expect h100-sxm napkin gemm 1 1 1 --gpu ''
expect local napkin gemm 1 1 1 --gpu ''
expect fp16-tc napkin gemm 1 1 1 --pipe ''
expect fp8-tc= napkin gemm 1 1 1 --peak ''
expect bf16 napkin gemm 1 1 1 --dtype ''
expect json napkin gemm 1 1 1 --format ''
expect '<files>' napkin diff ''
expect h100-sxm napkin gpus ''
exit $failed
