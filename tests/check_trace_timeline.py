#!/usr/bin/python3
"""scripts/plot/trace_timeline.py draws a VM run's tracks: the vCPU's pCPU,
the vCPU's state and the IRQ thread (issue 17), leaves out the idle host
CPU, and writes the picture where it is told (never into docs/ by itself).
    check_trace_timeline.py CIDSIM TRACE_TIMELINE.py SCENARIO.json
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

cidsim, script, scenario = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("trace_timeline", script)
tt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tt)

with tempfile.TemporaryDirectory() as d:
    trace = os.path.join(d, "t.json")
    subprocess.run([cidsim, "run", scenario, "-q", "--trace-perfetto", trace], check=True)
    events = json.load(open(trace))["traceEvents"]
    lanes, keep = tt.lanes_of(events, 0.5, 8.0)
    names = [(kind, label) for kind, _, label in lanes]
    assert ("pcpu", "vcpu0 on CPU1") in names, names
    assert ("state", "vcpu0 state") in names, names
    assert ("state", "irq/36-vfio on CPU1") in names, names
    assert not any(label == "CPU0" for _, label in names), names
    # The guest span that began before the window is kept (drawn clipped).
    assert any(e["ph"] == "X" and e["name"] == "guest" and e["ts"] < 0.5 for e in keep)
    assert tt.kvm_label("0xF2 arrives in guest mode: ... no VM exit") == "0xF2 in guest: no exit"
    out = os.path.join(d, "p.png")
    subprocess.run([sys.executable, script, trace, trace, out, "--labels", "a,b",
                    "--from-us", "0.5", "--to-us", "8"], check=True, stdout=subprocess.DEVNULL)
    assert os.path.getsize(out) > 10000
print("trace_timeline: VM lanes drawn")
