#!/usr/bin/env python3
"""Writes the dependence sections of docs/predictions.md (the prediction
set) and docs/calibration.md (the calibration set) from the JSON of
`cidsim reproduce all --sensitivity --format json`: for every figure, the
figure with its 95% half-width, its assumption interval (the
Latin-hypercube points) and the assumptions that move it most (one at a
time over their plausible ranges). Each section sits between two marker
lines in its doc and is replaced in place.

    build/cidsim reproduce all --sensitivity --jobs 2 --format json --out runs/sens.json
    scripts/sensitivity_doc.py runs/sens.json [--top 3]

or from one file per table (`reproduce TABLE --sensitivity ... --out
runs/sens-TABLE.json`, the same runs when a whole run does not fit):

    scripts/sensitivity_doc.py runs/sens-*.json
"""
import argparse
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BEGIN = "<!-- begin: scripts/sensitivity_doc.py writes this section -->"
END = "<!-- end: scripts/sensitivity_doc.py -->"
COMMAND = "build/cidsim reproduce all --sensitivity --jobs 2 --format json --out runs/sens.json"


def key_text(key):
    return " ".join(f"{k}={v}" for k, v in key.items())


def g(x):
    return f"{x:.4g}"


def section(tables, sets, which, top, files):
    if len(files) == 1:
        made = [f"    {COMMAND}", "    scripts/sensitivity_doc.py runs/sens.json"]
    else:  # one reproduce TABLE --sensitivity per file
        made = [f"    {COMMAND.replace(' all ', ' TABLE ').replace('sens.json', 'sens-TABLE.json')}",
                "    scripts/sensitivity_doc.py " + " ".join(os.path.relpath(f) for f in files)]
    out = [BEGIN, "",
           "Generated from the output of", ""] + made + [
           "",
           "Each figure is the row's own run (± its 95% half-width at the 2% target); the "
           "assumption interval is the lowest and highest figure over the Latin-hypercube "
           "points, each moving every fitted, assumed and guessed value of "
           "`configs/platform/spr.json` and `configs/rfc/devices.json` within its plausible "
           "range at once (`cidsim params` gives each range and its source). The assumptions "
           f"listed are the {top} with the largest swing when moved alone from the low to the "
           "high end of their range (figure at low → at high, swing in percent of the figure). "
           "The tornado charts: `scripts/plot/plot_tornado.py runs/sens.json --out runs/plots/`.",
           ""]
    for t in tables:
        s = t.get("sensitivity")
        if sets.get(t["table"]) != which or not s:
            continue
        out += [f"### {t['table']}", "",
                "| figure | simulated ± ci95 | assumption interval | decided by (at low → at high, swing) |",
                "|---|---|---|---|"]
        for r in s["rows"]:
            iv = "-" if not r["interval"] else f"[{g(r['interval'][0])}, {g(r['interval'][1])}]"
            deps = "; ".join(
                f"`{d['parameter']}` ({d['kind']}, [{g(d['low'])}, {g(d['high'])}]): "
                f"{g(d['at_low'])} → {g(d['at_high'])}, {d['swing_pct']:+.0f}%"
                for d in r["tornado"][:top])
            out.append(f"| {key_text(r['key'])} {r['metric']} | {g(r['simulated'])} ± {g(r['ci95'])} "
                       f"| {iv} | {deps} |")
        out.append("")
    out.append(END)
    return "\n".join(out)


def rewrite(path, text):
    with open(path) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"sensitivity_doc.py: {path} has no marker lines {BEGIN!r} ... {END!r}")
    head, rest = doc.split(BEGIN, 1)
    with open(path, "w") as f:
        f.write(head + text + rest.split(END, 1)[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+", help="reproduce --sensitivity --format json output(s)")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--tables", default=os.path.join(ROOT, "configs", "rfc", "tables.json"))
    ap.add_argument("--top", type=int, default=3)
    args = ap.parse_args()
    tables = []
    for path in args.json:
        with open(path) as f:
            doc = json.load(f)
        tables += doc if isinstance(doc, list) else [doc]
    with open(args.tables) as f:
        sets = {t["name"]: t["set"] for t in json.load(f)["tables"]}
    for which, name in (("prediction", "predictions.md"), ("calibration", "calibration.md")):
        rewrite(os.path.join(args.docs, name), section(tables, sets, which, args.top, args.json))


if __name__ == "__main__":
    main()
