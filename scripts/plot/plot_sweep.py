#!/usr/bin/python3
"""Plot any metric of a collected sweep against any varied parameter.

Reads the CSV of `cidsim collect` (per seed, or --aggregate-seeds) and draws
METRIC against PARAM, one line per value of --series, written as PNG and SVG.

  scripts/plot/plot_sweep.py table.csv --x workloads.0.on_rate_mpps \\
      --y metrics.msi_to_handler_ns.p99 --series mode --out p99

Aggregated tables (columns METRIC.mean / .ci95_lo / .ci95_hi) are drawn with
their 95% intervals as error bars. Per-seed tables are averaged over seeds
per (x, series) and each seed is drawn as a faint dot. Every other varied
parameter (unless zipped with --x or --series) must be pinned with --where PARAM=VALUE, so no two different
configurations are silently averaged together.

Uses matplotlib from Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import csv
import math
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


# Unit suffixes of cidsim's keys (README, "Unit suffixes"), longest first.
UNITS = [("_gb_per_s", "GB/s"), ("_mb_per_s", "MB/s"), ("_mbit_per_s", "Mbit/s"),
         ("_per_s", "per s"), ("_mpps", "M/s"), ("_mps", "M/s"), ("_gbps", "GB/s"),
         ("_ns", "ns"), ("_us", "us"), ("_fraction", "fraction"), ("_mean", "mean")]
PERCENTILE = {"p50": "median", "p90": "p90", "p99": "p99", "p99_9": "p99.9",
              "p99_99": "p99.99", "max": "max", "mean": "mean", "min": "min"}
ABBREVIATIONS = {"msi": "MSI", "msis": "MSIs", "cpu": "CPU", "pid": "PID", "iec": "IEC",
                 "irq": "IRQ", "dma": "DMA", "ns": "ns", "on": "on", "mps": "M/s"}


def words(key):
    """A key path in words with its unit: metrics.msi_to_handler_ns.p99 ->
    'MSI to handler latency, p99 (ns)'; workloads.0.on_rate_mpps -> 'workload 0:
    on rate (M/s)'."""
    parts = [p for p in key.split(".") if p != "metrics"]
    unit, stat, where = "", "", []
    named = []
    for p in parts:
        if p in PERCENTILE and named:
            stat = PERCENTILE[p]
            continue
        if p.isdigit() and named:
            # An array element: "workloads 0" reads "workload 0".
            array = named.pop().replace("_", " ")
            where.append((array[:-1] if array.endswith("s") else array) + " " + p)
            continue
        for suffix, u in UNITS:
            if p.endswith(suffix) and len(p) > len(suffix):
                unit, p = u, p[: -len(suffix)]
                break
        named.append(p)
    text = " ".join(ABBREVIATIONS.get(w, w) for w in "_".join(named).split("_"))
    if unit in ("ns", "us") and "latency" not in text and "delay" not in text:
        text += " latency"
    if where:
        text = ", ".join(where) + ": " + text
    if stat:
        text += ", " + stat
    return text + (" (%s)" % unit if unit else "")


def fail(message):
    print("plot_sweep: " + message, file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="table written by `cidsim collect --csv`")
    ap.add_argument("--x", required=True, help="varied parameter on the x axis")
    ap.add_argument("--y", required=True, help="metric on the y axis (as given to collect)")
    ap.add_argument("--series", help="varied parameter: one line per value")
    ap.add_argument("--where", action="append", default=[], metavar="PARAM=VALUE",
                    help="keep only rows where PARAM equals VALUE (repeatable)")
    ap.add_argument("--out", help="output path without extension (default: derived from --y)")
    ap.add_argument("--logx", action="store_true", help="logarithmic x axis")
    ap.add_argument("--logy", action="store_true", help="logarithmic y axis")
    ap.add_argument("--title", help="plot title")
    ap.add_argument("--xlabel", help="x axis label (default: --x in words, with its unit)")
    ap.add_argument("--ylabel", help="y axis label (default: --y in words, with its unit)")
    args = ap.parse_args()

    with open(args.csv, newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames or []
        rows = list(reader)
    if not rows:
        fail(args.csv + ": no rows")

    aggregated = "seeds" in columns
    if aggregated:
        y_col = args.y + ".mean"
        lo_col, hi_col = args.y + ".ci95_lo", args.y + ".ci95_hi"
    else:
        y_col = args.y
    for name, col in (("--x", args.x), ("--y", y_col)) + ((("--series", args.series),) if args.series else ()):
        if col not in columns:
            fail("%s: no column %s in %s; columns: %s" % (name, col, args.csv, ", ".join(columns)))

    for cond in args.where:
        if "=" not in cond:
            fail("--where %s: expected PARAM=VALUE" % cond)
        key, value = cond.split("=", 1)
        if key not in columns:
            fail("--where %s: no column %s" % (cond, key))
        rows = [r for r in rows if r[key] == value or (number(r[key]) is not None and
                                                       number(r[key]) == number(value))]
    if not rows:
        fail("no rows left after --where")

    # Parameters are the columns between `point` and `seed`/`seeds`.
    end = columns.index("seeds" if aggregated else "seed")
    params = columns[1:end]
    # Every other parameter must be fixed within one point of one line
    # (parameters zipped with --x or --series move with them and pass).
    cells = {}
    for r in rows:
        cells.setdefault((r[args.series] if args.series else "", r[args.x]), []).append(r)
    for p in params:
        if p in (args.x, args.series):
            continue
        for members in cells.values():
            values = sorted({m[p] for m in members})
            if len(values) > 1:
                fail("parameter %s also varies (%s): pin it with --where %s=VALUE or use it as --series"
                     % (p, ", ".join(values), p))

    # series value -> x -> list of rows
    series = OrderedDict()
    for r in rows:
        s = r[args.series] if args.series else ""
        series.setdefault(s, OrderedDict()).setdefault(r[args.x], []).append(r)

    x_numeric = all(number(r[args.x]) is not None for r in rows)
    categories = list(OrderedDict.fromkeys(r[args.x] for r in rows))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s, by_x in series.items():
        xs, ys, lo, hi = [], [], [], []
        for xv, members in by_x.items():
            vals = [number(m[y_col]) for m in members if number(m[y_col]) is not None]
            if not vals:
                continue
            x = number(xv) if x_numeric else categories.index(xv)
            mean = sum(vals) / len(vals)
            xs.append(x)
            ys.append(mean)
            if aggregated:
                l, h = number(members[0][lo_col]), number(members[0][hi_col])
                lo.append(mean - l if l is not None else 0.0)
                hi.append(h - mean if h is not None else 0.0)
            elif len(vals) > 1:
                ax.scatter([x] * len(vals), vals, s=8, alpha=0.3, color="gray", zorder=1)
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        xs = [xs[i] for i in order]
        ys = [ys[i] for i in order]
        label = ("%s = %s" % (args.series.split(".")[-1], s)) if args.series else None
        if aggregated:
            err = [[lo[i] for i in order], [hi[i] for i in order]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label, zorder=2)
        else:
            ax.plot(xs, ys, marker="o", label=label, zorder=2)

    if not x_numeric:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories)
    if args.logx:
        ax.set_xscale("log")
    if args.logy:
        ax.set_yscale("log")
    ax.set_xlabel(args.xlabel or words(args.x))
    ax.set_ylabel((args.ylabel or words(args.y)) +
                  (", mean of seeds with 95% CI" if aggregated else ""))
    if args.title:
        ax.set_title(args.title)
    ax.grid(True, alpha=0.3)
    if args.series:
        ax.legend(fontsize="small")
    fig.tight_layout()

    out = args.out or args.y.replace("metrics.", "").replace(".", "_")
    for ext in ("png", "svg"):
        fig.savefig("%s.%s" % (out, ext), dpi=120 if ext == "png" else None)
    print("wrote %s.png and %s.svg" % (out, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
