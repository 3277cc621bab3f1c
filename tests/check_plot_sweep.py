#!/usr/bin/python3
"""scripts/plot/plot_sweep.py names its axes in words with their units
(issue 20: "plot axes are raw key paths"), and draws a collected table.
    check_plot_sweep.py PLOT_SWEEP.py
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
spec = importlib.util.spec_from_file_location("plot_sweep", script)
ps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ps)
expect = {
    "metrics.msi_to_handler_ns.p99": "MSI to handler latency, p99 (ns)",
    "workloads.0.on_rate_mpps": "workload 0: on rate (M/s)",
    "metrics.notification_rate_mps": "notification rate (M/s)",
    "root_ports.0.dma_gb_per_s": "root port 0: DMA (GB/s)",
    "handler.loop_limit": "handler loop limit",
}
for key, text in expect.items():
    assert ps.words(key) == text, (key, ps.words(key))

with tempfile.TemporaryDirectory() as d:
    table = os.path.join(d, "t.csv")
    with open(table, "w") as f:
        f.write("point,mode,workloads.0.on_rate_mpps,seed,metrics.msi_to_handler_ns.p99\n")
        for mode, base in (("remappable", 700), ("posted", 600)):
            for rate in (0.5, 1, 2):
                f.write("p,%s,%s,1,%d\n" % (mode, rate, base * rate))
    out = os.path.join(d, "p")
    subprocess.run([sys.executable, script, table, "--x", "workloads.0.on_rate_mpps",
                    "--y", "metrics.msi_to_handler_ns.p99", "--series", "mode", "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    assert os.path.getsize(out + ".png") > 5000
print("plot_sweep: axes in words")
