#!/usr/bin/env bash
# Writes the golden set of a cidsim binary into OUTDIR: the result file of
# every runnable config under configs/ (examples, bench, explain, rfc, vm,
# power), as it is and in each remapping mode, and every row of `reproduce
# all` (the RFC tables and configs/vm/tables.json's) as JSON. Two golden
# sets are compared with `diff -r`: a change that must not move a result
# leaves them identical.
#   scripts/golden.sh [BINARY] OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 2 ]; then bin=$1; out=$2; else bin=build/cidsim; out=$1; fi
mkdir -p "$out"
configs=(configs/examples/*.json configs/bench/*.json configs/explain/*.json)
for c in configs/rfc/*.json configs/vm/*.json configs/power/*.json; do
  case $(basename "$c") in devices.json|tables.json) ;; *) configs+=("$c") ;; esac
done
for c in "${configs[@]}"; do
  name=$(echo "$c" | tr / _)
  "$bin" run "$c" --out "$out/$name" -q >/dev/null
  for mode in remappable posted; do
    "$bin" run "$c" --set mode=$mode --out "$out/$mode-$name" -q >/dev/null
  done
done
"$bin" reproduce all --format json --jobs "$(nproc)" --out "$out/reproduce-all.json" 2>/dev/null
"$bin" reproduce all --tables configs/vm/tables.json --format json --jobs "$(nproc)" \
  --out "$out/reproduce-all-vm.json" 2>/dev/null
echo "golden: ${#configs[@]} configs and reproduce all in $out" >&2
