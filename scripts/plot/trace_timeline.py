#!/usr/bin/python3
"""Draws cidsim Perfetto/Chrome trace-event JSON files as a timeline PNG,
offline, one panel per trace (stacked, same time axis):
 - one lane per CPU with its complete ("X") events stacked by nesting
   (notification > entry / harvest passes / handlers / EOI / exit);
 - with vCPUs (a run with "vcpus"): what the vCPU's pCPU runs (guest,
   root: vcpu, root: irq/36-vfio, idle) with KVM's steps marked (VM exit,
   kvm_exit, switches, kvm_entry, the guest handler), the vCPU's state
   (guest / root / preempted / blocked) and each IRQ thread (running,
   runnable); CPUs with nothing in the window are left out;
 - the IOMMU lane with its posts (filled: notification sent, hollow:
   suppressed; x: a remapped interrupt message), the MSIs, and each CPU's
   PIR population and ON counters.

usage: trace_timeline.py TRACE.json [TRACE2.json ...] OUT.png [--from-us A] [--to-us B]
                         [--title T] [--labels L1,L2,...]
Needs python3-matplotlib (Debian).
"""
import argparse
import json
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"notification": "#4c72b0", "interrupt": "#4c72b0", "timer": "#c44e52",
          "entry": "#8172b2", "harvest": "#55a868", "final harvest": "#2e7d32",
          "handler": "#dd8452", "EOI": "#937860", "exit": "#8c8c8c",
          # vCPU tracks: what the pCPU runs, the vCPU's state, an IRQ thread's
          "guest": "#55a868", "root: vcpu": "#dd8452", "root: irq": "#c44e52",
          "root: idle": "#bbbbbb", "idle": "#dddddd", "root": "#dd8452",
          "preempted": "#8172b2", "blocked": "#937860",
          "running": "#c44e52", "runnable": "#f2b6b6"}

# KVM's steps worth a mark on the pCPU lane, and their short labels.
KVM_MARKS = [("0xF2 arrives in guest mode", "0xF2 in guest: no exit"),
             ("VM exit", "VM exit"), ("kvm_exit tracepoint", "kvm_exit"),
             ("context switch", "switch"), ("kvm_entry tracepoint", "kvm_entry"),
             ("pi_wakeup_handler", "0xF1 wake-up"),
             ("guest: virtual interrupt", "guest handler")]

VCPU_LANE = re.compile(r"^vcpu\d+ (on CPU\d+|state)$")


def color(name):
    best = ""
    for key in COLORS:
        if name.startswith(key) and len(key) > len(best):
            best = key
    return COLORS.get(best, "#999999")


def kvm_label(name):
    for key, label in KVM_MARKS:
        if key in name:
            return label
    return None


def lanes_of(events, t0, t1):
    """The lanes of one trace: (kind, tid, label) in drawing order."""
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    # A span that began before the window and lasts into it is kept (clipped).
    keep = [e for e in events if "ts" in e and e["ts"] <= t1 and e["ts"] + e.get("dur", 0) >= t0
            and (e["ph"] == "X" or e["ts"] >= t0)]
    busy = {e["tid"] for e in keep if e["ph"] == "X"}
    vm = any(VCPU_LANE.match(n) for n in names.values())
    lanes = []
    for tid in sorted(t for t, n in names.items() if n.startswith("CPU")):
        if not vm or tid in busy:
            lanes.append(("cpu", tid, names[tid]))
    for tid in sorted(t for t in names if t >= 2000):
        n = names[tid]
        lanes.append(("pcpu" if n.endswith(tuple("0123456789")) and " on CPU" in n and
                      n.startswith("vcpu") else "state", tid, n))
    iommu = next((t for t, n in names.items() if n == "IOMMU"), None)
    if not vm or any(e["ph"] == "i" and e["tid"] == iommu and
                     e["name"].startswith(("post", "remapped")) for e in keep):
        lanes.append(("iommu", iommu, "IOMMU"))
    lanes.append(("msis", next(t for t, n in names.items() if n == "devices (MSIs)"), "MSIs"))
    for name in sorted({e["name"] for e in keep if e["ph"] == "C"}):
        lanes.append(("counter", name, name))
    return lanes, keep


HEIGHT = {"cpu": 2.2, "pcpu": 1.6, "state": 0.7, "iommu": 0.8, "msis": 0.7, "counter": 0.8}


def draw_spans(ax, spans, t0, t1, nested):
    spans = sorted(spans, key=lambda e: (e["ts"], -e["dur"]))
    stack = []
    for e in spans:
        while nested and stack and stack[-1] <= e["ts"] + 1e-9:
            stack.pop()
        level = len(stack) if nested else 0
        if nested:
            stack.append(e["ts"] + e["dur"])
        ax.broken_barh([(e["ts"], e["dur"])], (-level - 0.9, 0.8), color=color(e["name"]))
        lo, hi = max(e["ts"], t0), min(e["ts"] + e["dur"], t1)
        if hi - lo > (t1 - t0) / 40:
            label = e["name"].replace("notification ", "notif ")
            ax.text((lo + hi) / 2, -level - 0.5, label, ha="center", va="center",
                    fontsize=6.5, color="black" if not nested else "white", clip_on=True)


def draw_lane(ax, kind, tid, label, keep, t0, t1):
    if kind in ("cpu", "pcpu", "state"):
        draw_spans(ax, [e for e in keep if e["ph"] == "X" and e["tid"] == tid], t0, t1,
                   nested=kind == "cpu")
        marks = [e for e in keep if e["ph"] == "i" and e["tid"] == tid]
        shown = 0
        for e in marks:
            text = kvm_label(e["name"]) if kind == "pcpu" else e["name"]
            if text is None:
                continue
            ax.axvline(e["ts"], color="black", lw=0.8, ls=":")
            # KVM's steps come in close pairs (kvm_entry, the guest handler):
            # alternate heights keeps their labels apart.
            y = 0.05 if kind == "cpu" else 0.1 + 0.6 * (shown % 2)
            ax.text(e["ts"], y, " " + text, fontsize=6.5, va="bottom", clip_on=True)
            shown += 1
        ax.set_ylim(-3.2 if kind == "cpu" else -1.0, 0.6 if kind == "state" else 1.4
                    if kind == "pcpu" else 0.6)
    elif kind in ("iommu", "msis"):
        for e in keep:
            if e["ph"] != "i" or e["tid"] != tid:
                continue
            if kind == "msis":
                ax.plot(e["ts"], 0, "|", ms=14, color="black")
            elif e["name"].startswith("post"):
                sent = e.get("args", {}).get("notify", False)
                ax.plot(e["ts"], 0, "o", ms=7, mfc="#4c72b0" if sent else "white", mec="#4c72b0")
            elif e["name"].startswith("remapped"):
                ax.plot(e["ts"], 0, "x", ms=7, color="#4c72b0")
        label = "IOMMU posts" if kind == "iommu" else "MSIs"
    else:
        pts = sorted((e["ts"], list(e["args"].values())[0]) for e in keep
                     if e["ph"] == "C" and e["name"] == tid)
        xs = [t0] + [p[0] for p in pts] + [t1]
        ys = [0] + [p[1] for p in pts] + [pts[-1][1] if pts else 0]
        ax.step(xs, ys, where="post", color="#c44e52")
        ax.set_ylim(-0.2, max(ys) + 0.5)
    ax.set_yticks([])
    ax.set_ylabel(label, rotation=0, ha="right", va="center", fontsize=8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", help="TRACE.json ... OUT.png")
    ap.add_argument("--from-us", type=float, default=None)
    ap.add_argument("--to-us", type=float, default=None)
    ap.add_argument("--title", default="")
    ap.add_argument("--labels", default="", help="one panel title per trace, comma-separated")
    a = ap.parse_args()
    if len(a.files) < 2:
        ap.error("expected one or more traces and the output PNG")
    traces, out = a.files[:-1], a.files[-1]
    labels = a.labels.split(",") if a.labels else traces
    if len(labels) != len(traces):
        ap.error("--labels: %d labels for %d traces" % (len(labels), len(traces)))
    docs = [json.load(open(t))["traceEvents"] for t in traces]
    stamped = [e for d in docs for e in d if "ts" in e]
    t0 = a.from_us if a.from_us is not None else min(e["ts"] for e in stamped)
    t1 = a.to_us if a.to_us is not None else max(e["ts"] + e.get("dur", 0) for e in stamped)
    panels = [lanes_of(d, t0, t1) for d in docs]
    heights = [HEIGHT[k] for lanes, _ in panels for k, _, _ in lanes]
    fig, axes = plt.subplots(len(heights), 1, figsize=(12, 0.9 * sum(heights) + 1.0),
                             sharex=True, gridspec_kw={"height_ratios": heights}, squeeze=False)
    axes = axes[:, 0]
    i = 0
    for (lanes, keep), label in zip(panels, labels):
        for n, (kind, tid, name) in enumerate(lanes):
            draw_lane(axes[i], kind, tid, name, keep, t0, t1)
            if n == 0 and len(traces) > 1:
                axes[i].set_title(label, fontsize=9, loc="left")
            i += 1
    axes[-1].set_xlim(t0, t1)
    axes[-1].set_xlabel("simulated time (us)")
    fig.suptitle(a.title or ", ".join(traces), fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
