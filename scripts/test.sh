#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
