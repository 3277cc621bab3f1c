#!/usr/bin/env python3
"""Writes the timer rows of the vfio-threading table (experiment E3,
systems.md B) into configs/vm/tables.json: the hard and threaded handlers
with each assumption about the other EXTERNAL_INTERRUPT exits moved (the
host tick: nohz_full or HZ=250; the guest's timer: tickless or 1000 Hz;
the dispatch at either end of its range), each with vm.trace_overhead_ns
refitted under it so that the hard row still gives the calibration figure
(scripts/calibrate_vm.sh's rule: 2.2 us less everything else in the
exit). Rows of other keys are kept as they are.
    scripts/gen_vfio_rows.py [BINARY]"""
import json
import os
import subprocess
import sys
import tempfile

import systems_tables

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CONFIG = os.path.join(ROOT, "configs", "vm", "e3-vfio.json")
PUBLISHED_US = 2.2
ASSUMPTIONS = [("host_tick_hz", 0), ("host_tick_hz", 250), ("guest_timer_hz", 0),
               ("guest_timer_hz", 1000), ("exit_dispatch_ns", 200), ("exit_dispatch_ns", 800)]
METRICS = ["exit_handling_us", "timer_exit_share"]


def trace_overhead(binary, sets):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [binary, "run", CONFIG, "-q", "--out", out, "--set", "devices.0.host_handler=hard",
                "--set", "vm.trace_overhead_ns=0", "--set", "run.duration_ns=1e9", "--set",
                "run.batches=1"]
        for s in sets:
            args += ["--set", s]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        rest = json.load(open(out))["per_vcpu"][0]["exit_handling_ns"]["mean"]
        return round(PUBLISHED_US * 1000 - rest)


def main(argv):
    binary = argv[0] if argv else os.path.join(ROOT, "build", "cidsim")
    doc = systems_tables.load()
    table = next(t for t in doc["tables"] if t["name"] == "vfio-threading")
    names = {name for name, _ in ASSUMPTIONS}
    rows = [r for r in table["rows"] if not names & set(r["key"])]
    for name, value in ASSUMPTIONS:
        sets = [f"vm.{name}={value}"]
        fitted = sets + [f"vm.trace_overhead_ns={trace_overhead(binary, sets)}"]
        for handler in ("hard", "threaded"):
            rows.append({"key": {"handler": handler, name: value}, "config": "e3-vfio.json",
                         "set": [f"devices.0.host_handler={handler}"] + fitted, "metrics": METRICS})
    table["rows"] = rows
    systems_tables.save(doc)


if __name__ == "__main__":
    main(sys.argv[1:])
