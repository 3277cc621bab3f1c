#!/usr/bin/python3
"""Draws a cidsim Perfetto/Chrome trace-event JSON file as a timeline PNG,
offline: one lane per CPU with its complete ("X") events stacked by nesting
(notification > entry / harvest passes / handlers / EOI / exit), the IOMMU
lane with its posts (filled: notification sent, hollow: suppressed), the MSIs,
and each CPU's PIR population and ON counters.

usage: trace_timeline.py TRACE.json OUT.png [--from-us A] [--to-us B] [--title T]
Needs python3-matplotlib (Debian).
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"notification": "#4c72b0", "interrupt": "#4c72b0", "timer": "#c44e52",
          "entry": "#8172b2", "harvest": "#55a868", "final harvest": "#2e7d32",
          "handler": "#dd8452", "EOI": "#937860", "exit": "#8c8c8c"}


def color(name):
    for key, c in COLORS.items():
        if name.startswith(key):
            return c
    return "#999999"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from-us", type=float, default=None)
    ap.add_argument("--to-us", type=float, default=None)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    events = json.load(open(a.trace))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    t0 = a.from_us if a.from_us is not None else min(e["ts"] for e in events if "ts" in e)
    t1 = a.to_us if a.to_us is not None else max(e["ts"] + e.get("dur", 0) for e in events if "ts" in e)
    keep = [e for e in events if "ts" in e and t0 <= e["ts"] <= t1]

    cpu_tids = sorted(t for t, n in names.items() if n.startswith("CPU"))
    counters = sorted({e["name"] for e in keep if e["ph"] == "C"})
    lanes = len(cpu_tids) + 2 + len(counters)
    fig, axes = plt.subplots(lanes, 1, figsize=(12, 1.1 * lanes + 0.8), sharex=True,
                             gridspec_kw={"height_ratios": [2.2] * len(cpu_tids) + [1, 1] + [0.8] * len(counters)})
    ax_i = 0
    for tid in cpu_tids:
        ax = axes[ax_i]
        ax_i += 1
        spans = sorted((e for e in keep if e["ph"] == "X" and e["tid"] == tid),
                       key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in spans:
            while stack and stack[-1] <= e["ts"] + 1e-9:
                stack.pop()
            level = len(stack)
            stack.append(e["ts"] + e["dur"])
            ax.broken_barh([(e["ts"], e["dur"])], (-level - 0.9, 0.8), color=color(e["name"]))
            if e["dur"] > (t1 - t0) / 60:
                label = e["name"].replace("notification ", "notif ")
                ax.text(e["ts"] + e["dur"] / 2, -level - 0.5, label, ha="center", va="center",
                        fontsize=6.5, color="white", clip_on=True)
        for e in keep:
            if e["ph"] == "i" and e["tid"] == tid:
                ax.axvline(e["ts"], color="black", lw=0.8, ls=":")
                ax.text(e["ts"], 0.05, e["name"], fontsize=6, rotation=0, va="bottom")
        ax.set_ylim(-3.2, 0.6)
        ax.set_yticks([])
        ax.set_ylabel(names[tid], rotation=0, ha="right", va="center")
    for tid_name, marker in (("IOMMU", "o"), ("devices (MSIs)", "|")):
        ax = axes[ax_i]
        ax_i += 1
        tid = next(t for t, n in names.items() if n == tid_name)
        for e in keep:
            if e["ph"] != "i" or e["tid"] != tid:
                continue
            if tid_name == "IOMMU":
                if not e["name"].startswith("post"):
                    continue
                sent = e.get("args", {}).get("notify", False)
                ax.plot(e["ts"], 0, "o", ms=7, mfc="#4c72b0" if sent else "white", mec="#4c72b0")
            else:
                ax.plot(e["ts"], 0, marker, ms=14, color="black")
        ax.set_yticks([])
        ax.set_ylabel("IOMMU posts" if tid_name == "IOMMU" else "MSIs", rotation=0, ha="right",
                      va="center")
    for name in counters:
        ax = axes[ax_i]
        ax_i += 1
        pts = sorted((e["ts"], list(e["args"].values())[0]) for e in keep
                     if e["ph"] == "C" and e["name"] == name)
        xs = [t0] + [p[0] for p in pts] + [t1]
        ys = [0] + [p[1] for p in pts] + [pts[-1][1] if pts else 0]
        ax.step(xs, ys, where="post", color="#c44e52")
        ax.set_ylabel(name, rotation=0, ha="right", va="center")
        ax.set_ylim(-0.2, max(ys) + 0.5)
    axes[-1].set_xlim(t0, t1)
    axes[-1].set_xlabel("simulated time (us)")
    fig.suptitle(a.title or a.trace, fontsize=10)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
