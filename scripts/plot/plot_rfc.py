#!/usr/bin/python3
"""Plots the regenerated RFC tables: per-disk IOPS before/after (simulated
next to published), IRQ rate against the loop limit, and the harvest
strategies. Reads the JSON of `cidsim reproduce all --format json`; writes
PNG and SVG files into --out.

    build/cidsim reproduce all --format json --out rfc.json
    scripts/plot/plot_rfc.py rfc.json --out plots/
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(tables, name, metric):
    for t in tables:
        if t["table"] == name:
            return [r for r in t["rows"] if r["metric"] == metric]
    return []


def save(fig, out, stem):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{stem}.{ext}"), dpi=120)
    plt.close(fig)


def nvme_disks(tables, out):
    rs = rows(tables, "nvme-disks", "iops_per_disk_M")
    if not rs:
        return
    disks = sorted({r["key"]["disks"] for r in rs})
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.2
    for i, (mode, colour) in enumerate((("remappable", "tab:red"), ("posted", "tab:blue"))):
        sim = {r["key"]["disks"]: r for r in rs if r["key"]["mode"] == mode}
        xs = [d + (i - 0.5) * 2 * width for d in range(len(disks))]
        ax.bar([x - width / 2 for x in xs], [sim[d]["simulated"] for d in disks], width,
               yerr=[sim[d]["ci95"] for d in disks], color=colour, label=f"{mode} simulated")
        pub = [sim[d]["published"] for d in disks]
        ax.bar([x + width / 2 for x in xs], [p if p is not None else 0 for p in pub], width,
               color=colour, alpha=0.35, hatch="//", label=f"{mode} published")
    ax.set_xticks(range(len(disks)))
    ax.set_xticklabels([f"{d} disks" for d in disks])
    ax.set_ylabel("IOPS per disk (M/s)")
    ax.set_title("C1 nvme-disks: per-disk IOPS, simulated vs published")
    ax.legend(fontsize=8, loc="lower left")
    save(fig, out, "nvme-disks")


def maxloop(tables, out):
    rs = sorted(rows(tables, "maxloop", "irq_rate_M"), key=lambda r: r["key"]["loop_limit"])
    if not rs:
        return
    ls = [r["key"]["loop_limit"] for r in rs]
    base = next((r["simulated"] for r in rs if r["key"]["loop_limit"] == 3), rs[0]["simulated"])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(ls, [r["simulated"] / base for r in rs], yerr=[r["ci95"] / base for r in rs],
                marker="o", capsize=3)
    ax.set_xlabel("loop limit")
    ax.set_ylabel("IRQ rate relative to loop limit 3")
    ax.set_title("P1 maxloop (prediction): DSA memfill, posted, RFC v1, xchg_all")
    save(fig, out, "maxloop")


def pir_copy(tables, out):
    irq = rows(tables, "pir-copy", "irq_rate_M")
    miss = {r["key"]["strategy"]: r for r in rows(tables, "pir-copy",
                                                   "pid_misses_per_notification")}
    if not irq:
        return
    names = [r["key"]["strategy"] for r in irq]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 4))
    a1.bar(names, [r["simulated"] for r in irq], yerr=[r["ci95"] for r in irq], color="tab:green")
    a1.set_ylabel("IRQ rate (M/s)")
    a2.bar(names, [miss[n]["simulated"] for n in names], yerr=[miss[n]["ci95"] for n in names],
           color="tab:purple")
    a2.set_ylabel("PID line misses per notification")
    fig.suptitle("P2 pir-copy (prediction): harvest strategies, one DSA queue")
    save(fig, out, "pir-copy")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables", help="output of cidsim reproduce all --format json")
    ap.add_argument("--out", default=".", help="directory for the PNG and SVG files")
    args = ap.parse_args()
    with open(args.tables) as f:
        tables = json.load(f)
    if isinstance(tables, dict):
        tables = [tables]
    os.makedirs(args.out, exist_ok=True)
    nvme_disks(tables, args.out)
    maxloop(tables, args.out)
    pir_copy(tables, args.out)


if __name__ == "__main__":
    main()
