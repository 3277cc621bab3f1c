#!/usr/bin/env bash
# Builds cidsim with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan/ (CIDSIM_SANITIZE=ON) and runs the whole test suite there.
# SystemC's own allocations that live until exit are suppressed in
# tests/lsan.supp; nothing of ours is.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCIDSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)" >&2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" "$@"
