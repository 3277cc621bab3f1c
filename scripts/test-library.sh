#!/usr/bin/env bash
# cidsim as a library: installs the build (cmake --install) into a temporary
# prefix, builds examples/tlm-bolt-in against it twice (its CMake project
# through find_package(cidsim), and by hand through pkg-config cidsim), runs
# both, and checks that the MSIs of the plain TLM-2.0 initiator were taken
# by a core, in remappable and in posted mode.
#   scripts/test-library.sh [BUILD_DIR]    (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cidsim-library.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/cidsim/model/x86/iommu.h"

cmake -S "$root/examples/tlm-bolt-in" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/cmake" >/dev/null

export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
g++ -O1 -o "$tmp/pkgconfig-bolt-in" "$root/examples/tlm-bolt-in/main.cpp" \
  $(pkg-config --cflags --libs cidsim)

export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
for bin in "$tmp/cmake/tlm_bolt_in" "$tmp/pkgconfig-bolt-in"; do
  for mode in remappable posted; do
    out=$("$bin" "$mode")
    echo "$out" | grep -q "MSI taken by core 1" || { echo "$bin $mode: no MSI taken:"; echo "$out"; exit 1; }
    echo "$out" | grep -q "$mode mode: 3 MSIs taken by core 1" || { echo "$bin $mode:"; echo "$out"; exit 1; }
  done
done
echo "library: installed, built with CMake and pkg-config, 3 MSIs taken by core 1 in both modes"
