#!/usr/bin/python3
"""Plots experiment E2 like the per-node IPI series' tables: for each
machine, vmstat's Mint/s against the CPUs in ipistorm's cpulist, one line
per column (IPI/sys, IPI/chip, with and without irqdebug, Piggin's fast
path), error bars at the 95% half-width, the seven published calibration
figures as black marks. Reads the JSON of `cidsim reproduce ipistorm
--format json`; writes ipistorm.png and ipistorm.svg into --out. The
sensitivity rows (keys beyond machine, cpus, column) are left out, and
their number is said on stderr.

    build/cidsim reproduce ipistorm --format json --out runs/ipistorm.json
    scripts/plot/plot_ipistorm.py runs/ipistorm.json --out runs/plots/
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ["ipi_sys", "ipi_chip", "noirqdebug_ipi_sys", "noirqdebug_ipi_chip",
           "piggin_ipi_sys", "piggin_ipi_chip"]
LABELS = {"ipi_sys": "IPI/sys", "ipi_chip": "IPI/chip", "noirqdebug_ipi_sys": "noirqdebug IPI/sys",
          "noirqdebug_ipi_chip": "noirqdebug IPI/chip", "piggin_ipi_sys": "Piggin IPI/sys",
          "piggin_ipi_chip": "Piggin IPI/chip"}
MACHINES = {"p9": "POWER9, 2 chips x 64 threads", "p10": "POWER10, 4 chips of 12/10/10/12 SMT8 cores"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    doc = json.load(open(args.results))
    tables = doc if isinstance(doc, list) else [doc]
    table = next((t for t in tables if t.get("table") == "ipistorm"), None)
    if table is None:
        sys.exit(f"{args.results}: no ipistorm table")
    series, skipped = {}, 0
    for row in table["rows"]:
        key = row["key"]
        if row["metric"] != "mint_per_s":
            continue
        if set(key) != {"machine", "cpus", "column"}:
            skipped += 1
            continue
        series.setdefault((key["machine"], key["column"]), []).append(row)
    if skipped:
        print(f"plot_ipistorm: {skipped} sensitivity rows not drawn", file=sys.stderr)
    fig, axes = plt.subplots(1, len(MACHINES), figsize=(13, 5))
    for ax, (machine, title) in zip(axes, MACHINES.items()):
        for column in COLUMNS:
            rows = sorted(series.get((machine, column), []), key=lambda r: r["key"]["cpus"])
            if not rows:
                continue
            # null (a figure the run could not define, a half-width of one window): no point
            ax.errorbar([r["key"]["cpus"] for r in rows],
                        [r["simulated"] if r["simulated"] is not None else float("nan")
                         for r in rows],
                        yerr=[r["ci95"] or 0 for r in rows], marker="o", ms=3,
                        label=LABELS[column])
            pub = [(r["key"]["cpus"], r["published"]) for r in rows if isinstance(r.get("published"), (int, float))]
            if pub:
                ax.plot(*zip(*pub), "kx", ms=9, mew=2)
        ax.plot([], [], "kx", ms=9, mew=2, label="published (calibration)")
        ax.set_title(title)
        ax.set_xlabel("CPUs in ipistorm's cpulist (0 to N-1)")
        ax.set_ylabel("interrupts, vmstat (million/s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("ipistorm single=1 offset=8 wait=1: one IPI descriptor or one per chip (E2)")
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(args.out, f"ipistorm.{ext}"))


if __name__ == "__main__":
    main()
