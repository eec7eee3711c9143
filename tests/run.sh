#!/usr/bin/env bash
# napkin's test command (README; .ci/run calls exactly this). On a fresh Debian machine as root it first
# installs what the tests need from Debian's packages; then it runs four lanes, one after the other:
#
#   normal  NAPKIN_BUILD_DIR (build/test): configure, build everything (tests, examples, benchmarks) and
#           run every test with CTest. No GPU needed: GPU tests report "Skipped" without one.
#   asan    <build>-asan, g++ -fsanitize=address,undefined -fno-sanitize-recover=all: every host test that
#           runs napkin's code (doctest programs, the CLI's tests, the fuzz replays, CUPTI's host API: see
#           tests/sanitizers/no_deepbind.cpp). Left out there: nvcc-compiled GPU tests, tests that only
#           run a compiler (CTest label `compile`) and packaging tests (cmake/napkin_sanitizers.cmake,
#           tests/CMakeLists.txt).
#   tsan    <build>-tsan, clang -fsanitize=thread: the NVTX tests (CTest label nvtx, not `compile`), with
#           the suppressions of tests/sanitizers/tsan.supp.
#   fuzz    <build>-fuzz, clang libFuzzer (-fsanitize=fuzzer,address,undefined): each target of tests/fuzz
#           (NAPKIN_JOBS of them at a time) first runs every input that once crashed it
#           (tests/fuzz/regressions/<target>/), then fuzzes for NAPKIN_FUZZ_SECONDS from its seed corpus (tests/fuzz/corpus/<target>/), with a 1 MiB stack so
#           that unbounded recursion shows at the input sizes the fuzzer reaches. A crash is written to
#           <build>-fuzz/artifacts/: add it to tests/fuzz/regressions/<target>/ (a CTest test replays it).
#
# Each lane ends with one line "tests/run.sh: <lane> lane: PASSED|FAILED|SKIPPED ..." (repeated at the
# end); a lane that cannot run here (no clang, no sanitizer runtime, NAPKIN_NO_INSTALL) says why. The exit
# status is non-zero when any lane fails. About 55 minutes on the 2-core development machine
# (docs/CONTRIBUTING.md, "The test command's time"); CI allows 90.
#
# Environment: NAPKIN_BUILD_DIR (default build/test), NAPKIN_NO_INSTALL=1 (never call apt-get),
#              NAPKIN_CMAKE_ARGS (extra configure arguments, every lane), NAPKIN_JOBS (default: all cores),
#              NAPKIN_LANES (default "normal asan tsan fuzz"), NAPKIN_FUZZ_SECONDS (default 30 per target).
set -euo pipefail
cd "$(dirname "$0")/.."

# clang's sanitizer and libFuzzer runtimes: Debian ships them apart from clang (libclang-rt-dev, only
# recommended by clang, and this script installs without recommends).
clang_runtimes_present() {
  command -v clang++ >/dev/null || return 1
  local dir
  dir=$(clang++ --print-runtime-dir 2>/dev/null) || return 1
  [ -f "$dir/libclang_rt.fuzzer-$(uname -m).a" ] && [ -f "$dir/libclang_rt.tsan-$(uname -m).a" ]
}

missing=()
[ -f /usr/include/doctest/doctest.h ] || missing+=(doctest-dev)
[ -f /usr/include/benchmark/benchmark.h ] || missing+=(libbenchmark-dev)
command -v clang++ >/dev/null || missing+=(clang)
command -v cmake >/dev/null || missing+=(cmake)
command -v python3 >/dev/null || missing+=(python3)
# build_cmake_3_22 installs CMake 3.22 from PyPI into a virtual environment (Debian's python3 needs python3-venv).
/usr/bin/python3 -c "import ensurepip, venv" 2>/dev/null || missing+=(python3-venv)
pkg-config --version >/dev/null 2>&1 || missing+=(pkgconf)
# The CLI's argument parser, JSON reading for `napkin diff`/`napkin report` and the tests, the JSON Schema
# validator, and a real browser for the SVG/HTML tests (Debian's chromium driven through Selenium).
[ -f /usr/include/CLI/CLI.hpp ] || missing+=(libcli11-dev)
[ -f /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
/usr/bin/python3 -c "import jsonschema" 2>/dev/null || missing+=(python3-jsonschema)
/usr/bin/python3 -c "import selenium" 2>/dev/null || missing+=(python3-selenium)
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
# The MPI layer's test (tests/mpi: napkin::mpi run by `mpiexec -n 4`): Debian's Open MPI.
command -v mpiexec >/dev/null && command -v mpicxx >/dev/null || missing+=(libopenmpi-dev openmpi-bin)
optional=()
clang_runtimes_present || optional+=(libclang-rt-dev)
command -v zsh >/dev/null || optional+=(zsh)  # cli_zsh_completion (skipped without it)
if [ $((${#missing[@]} + ${#optional[@]})) -gt 0 ] && [ -z "${NAPKIN_NO_INSTALL:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tests/run.sh: installing ${missing[*]} ${optional[*]}"
    apt-get update -qq
    if [ ${#missing[@]} -gt 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    if [ ${#optional[@]} -gt 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${optional[@]}" >/dev/null ||
        echo "tests/run.sh: could not install ${optional[*]}: the lanes that need them will say SKIPPED"
    fi
  else
    echo "tests/run.sh: missing ${missing[*]} ${optional[*]} (install them, or point CMake at them with NAPKIN_CMAKE_ARGS)"
  fi
fi

build=${NAPKIN_BUILD_DIR:-build/test}
jobs=${NAPKIN_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
lanes=${NAPKIN_LANES:-normal asan tsan fuzz}
fuzz_seconds=${NAPKIN_FUZZ_SECONDS:-30}
# CI is strict: warnings are errors in napkin's own builds (NAPKIN_WARNINGS_AS_ERRORS, OFF for users).
# shellcheck disable=SC2206  # NAPKIN_CMAKE_ARGS is a list of arguments
extra_args=(-DNAPKIN_WARNINGS_AS_ERRORS=ON ${NAPKIN_CMAKE_ARGS:-})
# Sanitizer builds: assertions kept, every frame named in reports. The ASan lane compiles at -O0: with
# -fsanitize=address,undefined, -O1 costs g++ 2.4 times the compile time of -O0 on napkin's heavier test
# units (85 s against 36 s for tests/report/documents_test.cpp), and its tests run briefly either way. The
# fuzz and TSan lanes keep -O1, where the fuzzer's speed (and TSan's) is worth it.
sanitizer_build_args=(-DCMAKE_BUILD_TYPE=Debug -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_BUILD_BENCHMARKS=OFF)
sanitizer_o0=("-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g")
sanitizer_o1=("-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g")
probe_dir=$(mktemp -d)
# On any exit, also the fuzz lane's targets still running in the background (a signal exits through here).
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$probe_dir"' EXIT
trap 'exit 130' INT TERM
summary=()
status=0
runner=()

say() { echo "tests/run.sh: $*"; }

# can_run <compiler> <flags...>: the compiler builds a program with these flags and the program runs here.
# Sets $why when it cannot, and $runner to what the lane's programs must run under: nothing, or
# `setarch -R` (no address randomization) on kernels whose randomization the sanitizer's fixed memory
# layout cannot live with ("unexpected memory mapping", vm.mmap_rnd_bits above 28).
can_run() {
  runner=()
  local cxx=$1
  shift
  if ! command -v "$cxx" >/dev/null; then
    why="$cxx is not installed"
    return 1
  fi
  local src=$probe_dir/probe.cpp
  if [[ " $* " == *fuzzer* ]]; then
    printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n' >"$src"
  else
    printf 'int main() { return 0; }\n' >"$src"
  fi
  if ! "$cxx" "$@" "$src" -o "$probe_dir/probe" >"$probe_dir/log" 2>&1; then
    why="$cxx cannot build with $* ($(head -c 300 "$probe_dir/log" | tr '\n' ' '))"
    return 1
  fi
  local run=("$probe_dir/probe")
  [[ " $* " == *fuzzer* ]] && run+=(-runs=1)
  if "${run[@]}" >"$probe_dir/log" 2>&1; then
    return 0
  fi
  if command -v setarch >/dev/null && setarch "$(uname -m)" -R "${run[@]}" >/dev/null 2>&1; then
    runner=(setarch "$(uname -m)" -R)
    say "programs built with $cxx $* run here only without address randomization: using ${runner[*]}"
    return 0
  fi
  why="a program built with $cxx $* does not run here ($(head -c 300 "$probe_dir/log" | tr '\n' ' '))"
  return 1
}

# finish <lane> <start seconds> <rc> <detail>
finish() {
  local line
  if [ "$3" = 0 ]; then
    line="$1 lane: PASSED ($4, $((SECONDS - $2)) s)"
  else
    line="$1 lane: FAILED ($4, $((SECONDS - $2)) s)"
    status=1
  fi
  say "$line"
  summary+=("$line")
}
skip() {
  local line="$1 lane: SKIPPED: $2"
  say "$line"
  summary+=("$line")
}
# The "N% tests passed, ..." line of a CTest log.
ctest_result() { grep -a -E "tests passed|No tests were found" "$1" | tail -n 1 || echo "CTest did not finish"; }

lane_normal() {
  local start=$SECONDS rc=0
  # -O1 without debug information: the warnings only the optimizer finds (uninitialized use, array bounds) are
  # on from -O1 and errors here too. On napkin's heavier test units g++ takes 1.7 times as long at -O2 and 2.4
  # times at -O2 -g (tests/report/documents_test.cpp: 19.5, 33.3 and 46.0 s).
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    "-DCMAKE_CUDA_FLAGS_RELEASE=-O1 -DNDEBUG" -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_BUILD_EXAMPLES=ON -DNAPKIN_BUILD_TOOLS=ON \
    -DNAPKIN_BUILD_BENCHMARKS=ON "${extra_args[@]}" || rc=$?
  [ "$rc" = 0 ] && { cmake --build "$build" -j "$jobs" || rc=$?; }
  if [ "$rc" = 0 ]; then
    ctest --test-dir "$build" --output-on-failure -j "$jobs" 2>&1 | tee "$build/ctest.log" || rc=$?
    # CTest shows a skipped test's name, not its reason: print the reasons the GPU tests gave.
    grep -h "^SKIPPED:" "$build/Testing/Temporary/LastTest.log" 2>/dev/null | sort | uniq -c | sed 's/^/tests\/run.sh: /' || true
    finish normal "$start" "$rc" "$(ctest_result "$build/ctest.log")"
  else
    finish normal "$start" "$rc" "configure or build failed"
  fi
}

lane_asan() {
  local start=$SECONDS rc=0 dir=$build-asan why=''
  if ! can_run g++ -fsanitize=address,undefined; then
    skip asan "because $why"
    return
  fi
  cmake -S . -B "$dir" "${extra_args[@]}" -DCMAKE_CXX_COMPILER=g++ "${sanitizer_build_args[@]}" "${sanitizer_o0[@]}" \
    -DNAPKIN_BUILD_EXAMPLES=ON -DNAPKIN_BUILD_TOOLS=ON -DNAPKIN_SANITIZE=address,undefined || rc=$?
  [ "$rc" = 0 ] && { cmake --build "$dir" -j "$jobs" --target napkin_tests || rc=$?; }
  if [ "$rc" != 0 ]; then
    finish asan "$start" "$rc" "configure or build failed"
    return
  fi
  # protect_shadow_gap=0: CUDA's driver maps memory where ASan's shadow gap is (needed only where a driver
  # exists; the tests load the CUDA runtime and libraries). Leaks are findings (LeakSanitizer is on).
  ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:protect_shadow_gap=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "${runner[@]}" ctest --test-dir "$dir" -LE '^compile$' --output-on-failure -j "$jobs" 2>&1 | tee "$dir/ctest.log" || rc=$?
  finish asan "$start" "$rc" "$(ctest_result "$dir/ctest.log")"
}

lane_tsan() {
  local start=$SECONDS rc=0 dir=$build-tsan why=''
  if ! can_run clang++ -fsanitize=thread; then
    skip tsan "because $why"
    return
  fi
  cmake -S . -B "$dir" "${extra_args[@]}" -DCMAKE_CXX_COMPILER=clang++ "${sanitizer_build_args[@]}" "${sanitizer_o1[@]}" \
    -DNAPKIN_BUILD_EXAMPLES=OFF -DNAPKIN_BUILD_TOOLS=OFF -DNAPKIN_SANITIZE=thread || rc=$?
  [ "$rc" = 0 ] && { cmake --build "$dir" -j "$jobs" --target napkin_tests_nvtx napkin_tests_sanitizers || rc=$?; }
  if [ "$rc" != 0 ]; then
    finish tsan "$start" "$rc" "configure or build failed"
    return
  fi
  TSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/tsan.supp:second_deadlock_stack=1" \
    "${runner[@]}" ctest --test-dir "$dir" -L '^nvtx$' -LE '^compile$' --output-on-failure -j "$jobs" 2>&1 | tee "$dir/ctest.log" || rc=$?
  finish tsan "$start" "$rc" "$(ctest_result "$dir/ctest.log")"
}

# fuzz_target <dir> <name> <corpus>: one target of the fuzz lane; writes <dir>/work/<name>.result (ok or
# crashed) and <dir>/work/<name>.summary (the lines to print).
fuzz_target() {
  local dir=$1 name=$2 corpus=$3 bin log regressions
  bin=$dir/tests/fuzz/fuzz_$name
  log=$dir/fuzz_$name.log
  regressions=(tests/fuzz/regressions/"$name"/*)
  [ -e "${regressions[0]}" ] || regressions=()
  # A subshell, for the stack limit. First every input that once crashed the target, then fuzzing: new
  # inputs go to $dir/work/<target> (the committed corpus is only read).
  if (
    ulimit -s 1024
    if [ ${#regressions[@]} -gt 0 ]; then
      "${runner[@]}" "$bin" -artifact_prefix="$dir/artifacts/$name-" "${regressions[@]}" || exit 1
    fi
    "${runner[@]}" "$bin" -max_total_time="$fuzz_seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$dir/artifacts/$name-" "$dir/work/$name" "$corpus"
  ) >"$log" 2>&1; then
    echo "${#regressions[@]} regression inputs and $(grep -a -o 'Done [0-9]* runs' "$log" | tail -n 1 |
      tr -dc '0-9') fuzzing runs, no crash (log: $log)" >"$dir/work/$name.summary"
    echo ok >"$dir/work/$name.result"
  else
    {
      # The finding, the top of its stack, and (below) the input itself: CI keeps this output, not the artifact.
      grep -a -E '^(Running:|==[0-9]+==ERROR|SUMMARY|fuzz_|fuzz finding)|^ *#[0-9]+ .* in (napkin::|fuzz::|LLVMFuzzer)|Test unit written' \
        "$log" | head -n 30 || true
      local written
      written=$(grep -a -o 'Test unit written to .*' "$log" | tail -n 1 | sed 's/Test unit written to //') || true
      if [ -n "$written" ]; then
        say "fuzz lane: fuzz_$name crashed on a new input: $written (add it to tests/fuzz/regressions/$name/; full log: $log)"
        if [ -f "$written" ] && [ "$(wc -c <"$written")" -le 4096 ]; then
          say "fuzz lane: the input, $(wc -c <"$written") bytes, as base64 (base64 -d > tests/fuzz/regressions/$name/<name>):"
          base64 -w 76 "$written"
        fi
      else
        say "fuzz lane: fuzz_$name crashed on a committed input: $(grep -a '^Running:' "$log" | tail -n 1) (full log: $log)"
      fi
    } >"$dir/work/$name.summary"
    echo crashed >"$dir/work/$name.result"
  fi
}

lane_fuzz() {
  local start=$SECONDS rc=0 dir=$build-fuzz why='' ran=0 crashed=()
  if ! can_run clang++ -fsanitize=fuzzer,address,undefined; then
    skip fuzz "because $why"
    return
  fi
  cmake -S . -B "$dir" "${extra_args[@]}" -DCMAKE_CXX_COMPILER=clang++ "${sanitizer_build_args[@]}" "${sanitizer_o1[@]}" \
    -DNAPKIN_BUILD_EXAMPLES=OFF -DNAPKIN_BUILD_TOOLS=OFF -DNAPKIN_BUILD_FUZZERS=ON || rc=$?
  [ "$rc" = 0 ] && { cmake --build "$dir" -j "$jobs" --target napkin_fuzzers || rc=$?; }
  if [ "$rc" != 0 ]; then
    finish fuzz "$start" "$rc" "configure or build failed"
    return
  fi
  mkdir -p "$dir/artifacts"
  # The targets run $jobs at a time (libFuzzer uses one core each), each for NAPKIN_FUZZ_SECONDS; each writes
  # its result to $dir/work/<target>.result, read back in the corpus order once all have ended.
  local corpus name names=()
  for corpus in tests/fuzz/corpus/*/; do
    name=$(basename "$corpus")
    if [ ! -x "$dir/tests/fuzz/fuzz_$name" ]; then
      say "fuzz lane: SKIPPED: fuzz_$name because it was not built (it needs the CUDA toolkit or nlohmann/json)"
      continue
    fi
    names+=("$name")
    mkdir -p "$dir/work/$name"
    rm -f "$dir/work/$name.result" "$dir/work/$name.summary"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_target "$dir" "$name" "$corpus" &
  done
  wait || true
  local result
  for name in "${names[@]}"; do
    result=$(cat "$dir/work/$name.result" 2>/dev/null || echo "crashed")
    if [ "$result" = ok ]; then
      say "fuzz lane: fuzz_$name: $(cat "$dir/work/$name.summary")"
    else
      crashed+=("fuzz_$name")
      cat "$dir/work/$name.summary" 2>/dev/null || say "fuzz lane: fuzz_$name ended without a result"
    fi
    ran=$((ran + 1))
  done
  [ ${#crashed[@]} -eq 0 ] || rc=1
  finish fuzz "$start" "$rc" "$ran targets, ${fuzz_seconds} s each$([ "$rc" = 0 ] || echo ", crashed: ${crashed[*]}")"
}

for lane in $lanes; do
  case $lane in
    normal) say "---- normal lane"; lane_normal ;;
    asan) say "---- asan lane"; lane_asan ;;
    tsan) say "---- tsan lane"; lane_tsan ;;
    fuzz) say "---- fuzz lane"; lane_fuzz ;;
    *) say "unknown lane '$lane' in NAPKIN_LANES (normal asan tsan fuzz)"; status=1 ;;
  esac
done
echo
for line in "${summary[@]}"; do say "$line"; done
exit "$status"
