#!/usr/bin/env bash
# The bash completion (tools/napkin/napkin.bash-completion), sourced as bash-completion would, completes
# commands, options and the values of --gpu, --pipe and --dtype.   usage: completion_test.sh SCRIPT NAPKIN_DIR
set -u
export LC_ALL=C  # the option list is sorted
# shellcheck source=/dev/null
source "$1"
PATH="$2:$PATH"
failed=0
expect() {  # expect "<completions>" word...
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _napkin
  local got="${COMPREPLY[*]}"
  if [[ "$got" != "$want" ]]; then
    echo "FAIL: '$*' completes to '$got', expected '$want'"
    failed=1
  else
    echo "ok:   '$*' -> '$got'"
  fi
}
expect "gemm" napkin ge
expect "reduction report rmsnorm roofline" napkin r
expect "json" napkin gemm 1 1 1 --format j
expect "markdown" napkin diff a.json b.json --format m
expect "sm_pct" napkin diff a.json b.json --gate sm
expect "--version" napkin --ver
expect "softmax" napkin help so
expect "--dtype" napkin gemm 4096 --dt
expect "h100-sxm h100-pcie h100-nvl" napkin gpus h100-
expect "--sources" napkin gpus --s
expect "--sms --sparse" napkin gemm 1 1 1 --s
expect "--keys" napkin gpus --k
expect "h100-sxm h100-pcie h100-nvl h100" napkin gemm 1 1 1 --gpu h1
expect "rtx-4090" napkin softmax 8 8 --gpu rtx-4
expect "fp16-tc fp16-tc-f16acc" napkin gemm --pipe fp16-
expect "bf16" napkin gemm --dtype b
expect "macs" napkin gemm --counting m
exit $failed
