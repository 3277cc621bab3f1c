#!/usr/bin/env bash
# Fits E1's two free parameters to its two calibration figures
# (systems.md C, experiment E1), in order:
#  1. workloads[].per_io_cpu_ns (the guest's CPU time per I/O, every drive
#     alike) so that variant=no_eoi_work gives 2.2 M IOPS;
#  2. xen.walk_entry_ns (per walked pirq) so that variant=lock_inline_walk
#     gives 1.1 M IOPS, with the first fit in place.
# Each by bisection on a fixed seed; prints the values for
# configs/vm/e1-xen-eoi.json. Nothing else is fitted.
#   scripts/calibrate_xen.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/cidsim}
python3 - "$bin" <<'PY'
import json, os, subprocess, sys, tempfile
binary, config = sys.argv[1], "configs/vm/e1-xen-eoi.json"
drives = len(json.load(open(config))["workloads"])

def iops(sets):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [binary, "run", config, "-q", "--out", out, "--set", "run.batches=1",
                "--set", "run.duration_ns=4e7"]
        for s in sets: args += ["--set", s]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        return sum(w["iops_m"] for w in json.load(open(out))["workloads"])

def bisect(make_sets, target, lo, hi, falling=True, steps=14):
    for _ in range(steps):
        mid = (lo + hi) / 2
        got = iops(make_sets(mid))
        if (got > target) == falling: lo = mid
        else: hi = mid
    return (lo + hi) / 2

per_io = lambda v: [f"workloads.{i}.per_io_cpu_ns={v:.1f}" for i in range(drives)]
pio = bisect(lambda v: ["xen.variant=no_eoi_work"] + per_io(v), 2.2, 0, 20000)
print(f"workloads[].per_io_cpu_ns = {pio:.0f}  (no_eoi_work: {iops(['xen.variant=no_eoi_work'] + per_io(round(pio))):.3f} M IOPS, published 2.2)")
walk = bisect(lambda v: ["xen.variant=lock_inline_walk", f"xen.walk_entry_ns={v:.2f}"] + per_io(round(pio)), 1.1, 0, 200)
print(f"xen.walk_entry_ns = {walk:.1f}  (lock_inline_walk: {iops(['xen.variant=lock_inline_walk', f'xen.walk_entry_ns={walk:.1f}'] + per_io(round(pio))):.3f} M IOPS, published 1.1)")
PY
