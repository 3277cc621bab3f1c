#!/usr/bin/python3
"""Draws the tornado charts of `cidsim reproduce TABLE --sensitivity`: for
each figure of each table, its strongest dependences as bars from the figure
with that value at the low end of its plausible range to the figure with it
at the high end, in percent of the figure itself; the assumption interval
(the Latin-hypercube points, all values moved at once) is the shaded band.
Reads the JSON of `reproduce ... --sensitivity --format json` (one table or
a list); writes TABLE-tornado.png and .svg into --out. A table without a
sensitivity section is named in a warning and the exit status is 1.

    build/cidsim reproduce all --sensitivity --jobs 2 --format json --out runs/sens.json
    scripts/plot/plot_tornado.py runs/sens.json --out runs/plots/ [--top 5]
"""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def warn(msg):
    print(f"plot_tornado.py: warning: {msg}", file=sys.stderr)


def key_text(key):
    return " ".join(f"{k}={v}" for k, v in key.items()) or "(one row)"


def percent(x, base):
    if x is None or base is None:  # a figure the run could not define: no bar
        return float("nan")
    return 100.0 * (x - base) / abs(base) if base else 0.0


def draw_figure(ax, row, top):
    base = row["simulated"]
    bars = row["tornado"][:top][::-1]  # strongest on top
    for y, d in enumerate(bars):
        lo, hi = percent(d["at_low"], base), percent(d["at_high"], base)
        ax.barh(y, hi, color="tab:red", alpha=0.8, label="at the high end" if y == 0 else None)
        ax.barh(y, lo, color="tab:blue", alpha=0.8, label="at the low end" if y == 0 else None)
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels([f"{d['parameter']}\n[{d['low']:g}, {d['high']:g}] ({d['kind']})"
                        for d in bars], fontsize=7)
    if row.get("interval"):
        ax.axvspan(percent(row["interval"][0], base), percent(row["interval"][1], base),
                   color="0.85", zorder=0, label="assumption interval")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"change of the figure (%), from {'n/a' if base is None else f'{base:.4g}'}",
                  fontsize=8)
    ax.set_title(f"{key_text(row['key'])}: {row['metric']}", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)


def plot_table(t, out, top):
    s = t.get("sensitivity")
    if not s or not s.get("rows"):
        warn(f"table {t.get('table', '?')} has no sensitivity section; run reproduce with --sensitivity")
        return False
    rows = s["rows"]
    cols = min(3, len(rows))
    lines = math.ceil(len(rows) / cols)
    fig, axes = plt.subplots(lines, cols, figsize=(5.2 * cols, 0.5 * top * lines + 1.6 * lines),
                             squeeze=False)
    for i, row in enumerate(rows):
        draw_figure(axes[i // cols][i % cols], row, top)
    for j in range(len(rows), lines * cols):
        axes[j // cols][j % cols].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", fontsize=8)
    fig.suptitle(f"{s['table']}: each value at the ends of its plausible range, one at a time; "
                 f"shaded: {s['lhs_points']} Latin-hypercube points over all", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{s['table']}-tornado.{ext}"), dpi=110)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", type=int, default=5, help="bars per figure")
    args = ap.parse_args()
    with open(args.json) as f:
        doc = json.load(f)
    tables = doc if isinstance(doc, list) else [doc]
    os.makedirs(args.out, exist_ok=True)
    ok = all([plot_table(t, args.out, args.top) for t in tables])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
