#!/usr/bin/python3
"""scripts/plot/plot_tornado.py draws a chart per table from reproduce's
--sensitivity JSON, and fails, naming it, on a table without that section.
    check_plot_tornado.py PLOT_TORNADO.py
"""
import json
import os
import subprocess
import sys
import tempfile

plot = sys.argv[1]


def row(key, base):
    return {"key": key, "metric": "irq_rate_M", "simulated": base, "ci95": 0.01,
            "interval": [0.8 * base, 1.1 * base], "interval_points": [0.8 * base, 1.1 * base],
            "tornado": [{"parameter": f"p{i}", "kind": "guess", "value": 1, "low": 0.5, "high": 2,
                         "at_low": base * (1 + 0.1 * i), "at_high": base * (1 - 0.05 * i),
                         "swing_pct": -15.0 * i} for i in range(4, 0, -1)]}


table = {"table": "small", "rows": [],
         "sensitivity": {"table": "small", "lhs_points": 2,
                         "rows": [row({"mode": "posted"}, 9.0), row({"mode": "remappable"}, 5.0)]}}
# A figure the run could not define is null, its swings too.
table["sensitivity"]["rows"][1]["simulated"] = None
table["sensitivity"]["rows"][1]["tornado"][0]["at_low"] = None
with tempfile.TemporaryDirectory() as d:
    good = os.path.join(d, "s.json")
    with open(good, "w") as f:
        json.dump([table], f)
    r = subprocess.run([sys.executable, plot, good, "--out", os.path.join(d, "p")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for ext in ("png", "svg"):
        assert os.path.getsize(os.path.join(d, "p", f"small-tornado.{ext}")) > 1000
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        json.dump([table, {"table": "plain", "rows": []}], f)
    r = subprocess.run([sys.executable, plot, bad, "--out", os.path.join(d, "q")],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.returncode
    assert "plain" in r.stderr, r.stderr
print("check_plot_tornado: ok")
