#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The CLI tests that need a shell (redirections, loops): tests/cli/CMakeLists.txt runs
# `sh shell_cases.sh CASE NAPKIN [ARGS...]` and checks the exit status and output.
case_name=$1
napkin=$2
shift 2
case $case_name in
  deep_power)  # a 80,001-character power: refused for its length, without recursion
    exec "$napkin" reduction "$(printf '2^%.0s' $(seq 40000))2" ;;
  write_error)  # the answer to /dev/full: exit 1 and a message on stderr, with the system's reason
    exec "$napkin" "$@" > /dev/full ;;
  help_same)  # `napkin help X` prints exactly `napkin X --help` and `napkin X -h`, for every command
    n=0
    for c in $("$napkin" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z0-9]*\) .*/\1/p'); do
      [ "$("$napkin" help "$c")" = "$("$napkin" "$c" --help)" ] || { echo "help $c differs"; exit 1; }
      [ "$("$napkin" "$c" -h)" = "$("$napkin" "$c" --help)" ] || { echo "$c -h differs"; exit 1; }
      n=$((n + 1))
    done
    echo "same help for $n commands" ;;
  csv_awk)  # docs/cli.md's recipe for the CRLF line ends of --format csv: tr -d '\r' before awk -F,
    "$napkin" gemm 64 64 64 --format csv | tr -d '\r' | awk -F, 'NR == 2 { printf "[%s]", $(NF - 3) }' ;;
  local_gpu)  # exit 0 with a GPU, else exit 2 and the reason
    "$napkin" gemm 64 64 64 --gpu local
    s=$?
    [ $s = 0 ] || [ $s = 2 ] ;;
  compare_all)  # --gpu all: one row per table entry; a GPU without the pipe says so
    out=$("$napkin" gemm 4096 4096 4096 --dtype bf16 --gpu all) || exit 1
    rows=$(printf '%s\n' "$out" | grep -cE '^[a-z0-9-]+ +([0-9.]+|-) +[0-9]+ ')
    none=$(printf '%s\n' "$out" | grep -c 'no bf16-tc peak')
    echo "$rows rows, $none without bf16-tc" ;;
  make_documents)  # the documents the diff and --gpu FILE tests read, written by napkin itself, into $1
    d=$1
    mkdir -p "$d" || exit 1
    "$napkin" gemm 4096 4096 4096 --gpu h100 --format json > "$d/a.json" &&
      "$napkin" gemm 8192 4096 4096 --gpu h100 --format json > "$d/b.json" &&
      "$napkin" gemm 4096 4096 4096 --gpu a100 --format json > "$d/c.json" &&
      "$napkin" gemm 1K,2K 1K 1K --gpu h100,a100 --format json > "$d/sweep.json" &&
      "$napkin" pipes --format json > "$d/pipes.json" &&
      "$napkin" gpus --format json > "$d/gpus.json" || exit 1
    sed 's/"schema_version": 1/"schema_version": 2/' "$d/a.json" > "$d/version2.json"
    # one entry edited: h100-sxm becomes my-h100 with 2 TB/s of DRAM (3350000000000 is its bandwidth alone)
    sed -e 's/"key": "h100-sxm"/"key": "my-h100"/' -e 's/3350000000000/2000000000000/' "$d/gpus.json" > "$d/edited.json"
    grep -c '"my-h100"' "$d/edited.json" ;;
  report_round_trip)  # napkin report monitor.json --format json writes the document it read: nothing lost
    out=$("$napkin" report "$1" --format json) || exit 1
    [ "$out" = "$(cat "$1")" ] && echo "the same document" ;;
  special_file)  # $1 of a fresh folder is a symlink to /dev/zero, a FIFO or a 65 MiB file: refused at once
    d=$(mktemp -d) || exit 1
    trap 'rm -rf "$d"' EXIT
    case $1 in
      dev_zero) ln -s /dev/zero "$d/rank0.json" ;;
      fifo) mkfifo "$d/rank1.json" ;;
      large) truncate -s 65M "$d/rank0.json" ;;
    esac
    shift
    # timeout: before the fix a FIFO waited for a writer forever and /dev/zero was read until memory ran out
    timeout 20 "$napkin" "$@" "$d"
    s=$?
    ls "$d"/* >/dev/null 2>&1 && exit $s ;;
  gpu_dev_zero)  # --gpu KEY@FILE.json where the file is /dev/zero
    d=$(mktemp -d) || exit 1
    trap 'rm -rf "$d"' EXIT
    ln -s /dev/zero "$d/zero.json"
    timeout 20 "$napkin" gemm 1 1 1 --gpu "k@$d/zero.json" ;;
  *)
    echo "shell_cases.sh: unknown case $case_name" >&2
    exit 64 ;;
esac
