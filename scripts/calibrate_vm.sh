#!/usr/bin/env bash
# Fits vm.exit_dispatch_ns to E3's calibration figure (systems.md B): the
# non-threaded (IRQF_NO_THREAD) EXTERNAL_INTERRUPT exit handling time,
# kvm_exit -> kvm_entry with 4.x's placement, 2.2 us. With the dispatch at
# 0 the run measures everything else between the two tracepoints (the PIR
# sync and its PID line accesses); the dispatch is the rest. Nothing on the
# threaded path is fitted.
#   scripts/calibrate_vm.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/cidsim}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" run configs/vm/e3-vfio.json --set devices.0.host_handler=hard \
  --set vm.exit_dispatch_ns=0 --set run.duration_ns=1e8 --set run.batches=1 --out "$out" -q >/dev/null
python3 - "$out" <<'PY'
import json, sys
rest = json.load(open(sys.argv[1]))["per_vcpu"][0]["exit_handling_ns"]["mean"]
print(f"exit handling without the dispatch: {rest:.0f} ns; published 2200 ns")
print(f"vm.exit_dispatch_ns = {2200 - rest:.0f}")
PY
