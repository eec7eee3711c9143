#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the `napkin` tool needs beyond a C++17 compiler and CMake: CLI11 and nlohmann/json, both
# header-only (Debian/Ubuntu: libcli11-dev, nlohmann-json3-dev). Does nothing when it is there; installs it with apt-get when run as root; otherwise says
# what to install and fails. The README's main command runs this first; tests/run.sh installs it too.
set -euo pipefail
missing=()
[ -f /usr/include/CLI/CLI.hpp ] || missing+=(libcli11-dev)
[ -f /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
command -v cmake >/dev/null || missing+=(cmake)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "tools/napkin/deps.sh: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "tools/napkin/deps.sh: the napkin tool needs ${missing[*]} (Debian/Ubuntu: sudo apt-get install ${missing[*]};" \
       "or give CMake -DNAPKIN_CLI11_INCLUDE_DIR=<folder with CLI/CLI.hpp> and" \
       "-DNAPKIN_CLI_NLOHMANN_INCLUDE_DIR=<folder with nlohmann/json.hpp>)" >&2
  exit 1
fi
