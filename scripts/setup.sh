#!/usr/bin/env bash
# Installs what cidsim needs on a fresh Debian 12 machine (only the missing
# packages) and builds it into build/. Safe to run again: it does nothing
# that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make pkg-config git libsystemc-dev libboost-program-options-dev
          nlohmann-json3-dev catch2 parallel python3 python3-matplotlib valgrind
          clang-14 libclang-rt-14-dev patch)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >&2
