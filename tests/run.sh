#!/usr/bin/env bash
# napkin's test command (README; .ci/run calls exactly this). On a fresh Debian machine as root it first
# installs what the tests need from Debian's packages; then it configures, builds and runs every test
# with CTest. No GPU needed: GPU tests report "Skipped" without one and run with one.
#
# Environment: NAPKIN_BUILD_DIR (default build/test), NAPKIN_NO_INSTALL=1 (never call apt-get),
#              NAPKIN_CMAKE_ARGS (extra configure arguments), NAPKIN_JOBS (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -f /usr/include/doctest/doctest.h ] || missing+=(doctest-dev)
[ -f /usr/include/benchmark/benchmark.h ] || missing+=(libbenchmark-dev)
command -v clang++ >/dev/null || missing+=(clang)
command -v cmake >/dev/null || missing+=(cmake)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ] && [ -z "${NAPKIN_NO_INSTALL:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "tests/run.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "tests/run.sh: missing ${missing[*]} (install them, or point CMake at them with NAPKIN_CMAKE_ARGS)"
  fi
fi

build=${NAPKIN_BUILD_DIR:-build/test}
jobs=${NAPKIN_JOBS:-$(nproc)}
# shellcheck disable=SC2086  # NAPKIN_CMAKE_ARGS is a list of arguments
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_BUILD_EXAMPLES=ON \
  -DNAPKIN_BUILD_BENCHMARKS=ON ${NAPKIN_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" || status=$?
# CTest shows a skipped test's name, not its reason: print the reasons the GPU tests gave (from CTest's log).
grep -h "^SKIPPED:" "$build/Testing/Temporary/LastTest.log" 2>/dev/null | sort | uniq -c | sed 's/^/tests\/run.sh: /' || true
exit "$status"
