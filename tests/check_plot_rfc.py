#!/usr/bin/python3
"""scripts/plot/plot_rfc.py draws every table of `reproduce all` and warns
about (and fails on) one it cannot draw, instead of leaving it out silently.
    check_plot_rfc.py PLOT_RFC.py TABLES.json
"""
import json
import os
import subprocess
import sys
import tempfile

plot, tables_path = sys.argv[1], sys.argv[2]
with open(tables_path) as f:
    spec = json.load(f)["tables"]
# One reproduce table per tables.json entry, every metric, two rows each.
tables = []
for t in spec:
    rows = []
    for i, key in enumerate(t["rows"][:2]):
        for m in t["metrics"]:
            rows.append({"key": key["key"], "metric": m, "simulated": 1.0 + i, "ci95": 0.01,
                         "published": key.get("published", {}).get(m)})
    if not tables:  # a figure the run could not define is null
        rows[-1]["simulated"] = rows[-1]["ci95"] = None
    tables.append({"table": t["name"], "rows": rows})
assert len(tables) == 7, len(tables)

with tempfile.TemporaryDirectory() as d:
    good = os.path.join(d, "all.json")
    with open(good, "w") as f:
        json.dump(tables, f)
    r = subprocess.run([sys.executable, plot, good, "--out", os.path.join(d, "p")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr, r.stderr  # every metric has axis words
    for t in tables:
        for ext in ("png", "svg"):
            p = os.path.join(d, "p", f"{t['table']}.{ext}")
            assert os.path.getsize(p) > 1000, p
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        json.dump(tables + [{"table": "broken", "rows": [{"key": {}}]}], f)
    r = subprocess.run([sys.executable, plot, bad, "--out", os.path.join(d, "q")],
                       capture_output=True, text=True)
    assert r.returncode == 1, r.returncode
    assert "table broken" in r.stderr and "not drawn" in r.stderr, r.stderr
    assert "7 of 8 tables drawn" in r.stdout, r.stdout
print("plot_rfc: ok")
