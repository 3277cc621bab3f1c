#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs
# each for SECONDS (default 60) on a seed corpus from configs/ and
# tests/bad-inputs/. Fails on any crash, sanitizer report, leak or hang
# (an input taking more than 10 s); the reproducer is left in build-fuzz/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCIDSIM_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_targets >&2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in build-fuzz/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  name="$(basename "$target")"
  corpus="build-fuzz/corpus/$name"
  mkdir -p "$corpus"
  echo "fuzz: $name for ${seconds}s" >&2
  (cd build-fuzz && "../$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -max_len=16384 -print_final_stats=1 "../$corpus" ../configs ../tests/bad-inputs) \
     2> "build-fuzz/$name.log" || { tail -50 "build-fuzz/$name.log" >&2; exit 1; }
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "build-fuzz/$name.log" >&2 || true
done
