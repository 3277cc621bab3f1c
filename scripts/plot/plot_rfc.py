#!/usr/bin/python3
"""Plots every regenerated RFC table: one figure per table, one panel per
metric, each row's simulated figure (error bar: its 95% half-width) next to
the published one where there is one, axes in words with their units.
Reads the JSON of `cidsim reproduce all --format json` (or of one table);
writes TABLE.png and TABLE.svg into --out. A table or metric it cannot draw
is named in a warning on stderr, never skipped silently; the exit status is
1 when anything was left out.

    build/cidsim reproduce all --format json --out runs/rfc.json
    scripts/plot/plot_rfc.py runs/rfc.json --out runs/plots/
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Each metric of configs/rfc/tables.json in words, with its unit.
METRIC_LABELS = {
    "iops_per_disk_M": "IOPS per disk (million/s)",
    "irq_rate_M": "interrupts (million/s)",
    "bandwidth_mbps": "fill bandwidth (Mbit/s)",
    "pid_misses_per_notification": "PID cache-line misses per notification",
    "iops_M": "IOPS (million/s)",
    "device_irq_rate_M": "device interrupts (million/s)",
    "throughput_M": "completions (million/s)",
    "latency_p50_ns": "MSI-to-handler latency, median (ns)",
    "latency_p99_ns": "MSI-to-handler latency, 99th percentile (ns)",
}

# Row keys in words, for the category axis.
KEY_WORDS = {"disks": "disks", "mode": "", "loop_limit": "loop limit", "strategy": "",
             "offered_irq_rate_M": "offered (M IRQ/s)"}


def warn(msg):
    print(f"plot_rfc.py: warning: {msg}", file=sys.stderr)


def key_label(key):
    parts = []
    for k, v in key.items():
        word = KEY_WORDS.get(k, k.replace("_", " "))
        parts.append(f"{word} {v}".strip() if word else str(v))
    return "\n".join(parts) if parts else "(one row)"


def titles(path):
    try:
        with open(path) as f:
            return {t["name"]: t.get("title", t["name"]) for t in json.load(f)["tables"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def draw_metric(ax, rows, metric):
    xs = range(len(rows))
    width = 0.38
    # A figure the run could not define (null: no sample) has no bar but an "n/a".
    sim = [r["simulated"] if r["simulated"] is not None else float("nan") for r in rows]
    err = [r.get("ci95") or 0 for r in rows]
    ax.bar([x - width / 2 for x in xs], sim, width, yerr=err, capsize=3, color="tab:blue",
           label="simulated (95% half-width)")
    for x, r in zip(xs, rows):
        if r["simulated"] is None:
            ax.text(x - width / 2, 0, "n/a", ha="center", va="bottom", fontsize=7)
    if any(r.get("published") is not None for r in rows):
        pub = [r["published"] if r.get("published") is not None else 0 for r in rows]
        ax.bar([x + width / 2 for x in xs], pub, width, color="tab:orange", alpha=0.6,
               hatch="//", label="published")
        for x, r in zip(xs, rows):
            if r.get("published") is None:
                ax.text(x + width / 2, 0, "n/a", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([key_label(r["key"]) for r in rows], fontsize=8)
    if metric not in METRIC_LABELS:
        warn(f"metric {metric}: no words for its axis; labelled with its key")
    ax.set_ylabel(METRIC_LABELS.get(metric, metric))
    ax.legend(fontsize=7)


def plot_table(table, names, out):
    """Draws one table; returns False when it could not."""
    name = table.get("table", "?") if isinstance(table, dict) else "?"
    rows = table.get("rows") if isinstance(table, dict) else None
    if not isinstance(rows, list) or not rows:
        warn(f"table {name}: no rows; not drawn")
        return False
    metrics = []
    for r in rows:
        if not isinstance(r, dict) or not {"key", "metric", "simulated"} <= set(r):
            warn(f"table {name}: a row without key, metric and simulated; not drawn")
            return False
        if r["metric"] not in metrics:
            metrics.append(r["metric"])
    per_metric = len(rows) / len(metrics)
    fig, axes = plt.subplots(len(metrics), 1, squeeze=False,
                             figsize=(min(14, max(6, 1.1 * per_metric + 2)), 3.6 * len(metrics)))
    for ax, metric in zip(axes[:, 0], metrics):
        draw_metric(ax, [r for r in rows if r["metric"] == metric], metric)
    fig.suptitle(names.get(name, name), fontsize=10)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=120)
    plt.close(fig)
    return True


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables", help="output of cidsim reproduce all --format json")
    ap.add_argument("--out", default="runs/plots", help="directory for the PNG and SVG files")
    ap.add_argument("--titles", default=os.path.join(here, "../../configs/rfc/tables.json"),
                    help="tables.json, for the figure titles")
    args = ap.parse_args()
    with open(args.tables) as f:
        tables = json.load(f)
    if isinstance(tables, dict):
        tables = [tables]
    os.makedirs(args.out, exist_ok=True)
    names = titles(args.titles)
    drawn = sum(plot_table(t, names, args.out) for t in tables)
    print(f"plot_rfc.py: {drawn} of {len(tables)} tables drawn into {args.out}")
    return 0 if drawn == len(tables) else 1


if __name__ == "__main__":
    sys.exit(main())
