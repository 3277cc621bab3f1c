#!/usr/bin/env python3
"""Pins every published figure of configs/rfc/tables.json and the model's
error on it (tests/golden/rfc_figures.json), which test_reproduce checks:
a change that moves a figure, or a published value, fails there until this
is rerun and the new errors are read and committed.

    scripts/pin_figures.py [--cidsim build/cidsim]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402  (ROOT, simulate)

TABLES = os.path.join(calibrate.ROOT, "configs", "rfc", "tables.json")
OUT = os.path.join(calibrate.ROOT, "tests", "golden", "rfc_figures.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cidsim", default=os.path.join(calibrate.ROOT, "build", "cidsim"))
    args = ap.parse_args()
    figures = []
    for table in calibrate.load(TABLES)["tables"]:
        for r in calibrate.simulate(args.cidsim, table["name"]):
            if r.get("published") is None:
                continue
            p, s = r["published"], r["simulated"]
            figures.append({"table": table["name"], "key": r["key"], "metric": r["metric"],
                            "published": p, "error": round((s - p) / p, 4)})
            print(f"{table['name']:16s} {json.dumps(r['key']):45s} {r['metric']:22s} "
                  f"{s:10.3f} vs {p:10.3f} ({(s - p) / p:+.1%})")
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"comment": "Written by scripts/pin_figures.py: each published figure and the "
                              "model's relative error on it (cidsim reproduce, default precision).",
                   "figures": figures}, f, indent=1)
        f.write("\n")
    os.replace(tmp, OUT)


if __name__ == "__main__":
    main()
