#!/usr/bin/env python3
"""Instructions per simulated MSI, split by block and by kind (issue 33's
profile, docs/performance.md "Where an MSI's instructions go").

For each case (posted and remappable, at 8 and 352 CPUs: the x86 scale
configs of scripts/gen_x86_scale.py, one bursty device per CPU, the same
total MSI rate at both sizes) it runs `cidsim run` twice under callgrind,
collecting inside System::advance, at two run lengths, and divides the
difference of each function's self cost by the difference of the MSIs
(warm-up and elaboration cancel). Each function is attributed, by the file
callgrind names for it, to
  block: the source file's stem (cpu_core, iommu, local_apic, ...; a
         block's *_lookahead.cpp counts as the block's), or the library;
  kind:  systemc   the SystemC library (scheduler, event queue, dispatch);
         runtime   libc, libstdc++, libm;
         schedule  src/kernel (links, tie order, local clocks, timed and
                   step queues, event counts) and every *_lookahead.cpp;
         stats     src/model/base/stats.* and functions of *Stats or
                   Histogram;
         model     the rest: what the blocks do.
Callgrind counts are exact and repeat here; wall time does not.
    scripts/profile_blocks.py [--cidsim build/cidsim] [--cpus 8 352] [--json FILE]"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import cost_split

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DURATIONS = ("4e5", "8e5")  # ns after the configs' 1 ms warm-up
# callgrind_annotate's line: cost, file:function, and the object file when
# the function is not inlined into another object's code.
LINE = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+(.*?):(.*?)(?: \[(/[^\[\]]*)\])?\s*$")
KERNEL = {os.path.splitext(f)[0] for f in os.listdir(os.path.join(ROOT, "src", "kernel"))}
LOOKAHEAD_QUERY = re.compile(r"::(may_\w+_early|earliest_\w+|lookahead_of|irq_quiet_until)\(")


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def classify(path, function, obj):
    """(kind, block) of one function's self cost; obj is None for code
    inlined into cidsim's own."""
    if obj and "libsystemc" in obj:
        return "systemc", "systemc"
    if obj and not obj.endswith("/cidsim"):
        return "runtime", os.path.basename(obj).split(".so")[0]
    if path.startswith("src/") or path.startswith(os.path.join(ROOT, "src") + "/"):
        stem = os.path.splitext(os.path.basename(path))[0]
    else:  # a library header inlined: the cidsim class it works for
        owner = re.search(r"cidsim::([A-Z]\w*)", function)
        stem = snake(owner.group(1)) if owner else "std"
    block = stem[:-len("_lookahead")] if stem.endswith("_lookahead") else stem
    if block in KERNEL or stem.endswith("_lookahead") or LOOKAHEAD_QUERY.search(function):
        return "schedule", block
    if "model/base/stats" in path or re.search(r"Stats::|Histogram::", function):
        return "stats", block
    return "model", block


def self_costs(binary, config, sets, duration, out):
    with tempfile.TemporaryDirectory() as d:
        result = os.path.join(d, "r.json")
        args = [binary, "run", config, "-q", "--out", result,
                "--set", "run.duration_ns=" + duration, "--set", "run.batches=1"]
        for s in sets:
            args += ["--set", s]
        _, collected, _, listing = cost_split.callgrind(args, ["cidsim::System::advance(*)"], out)
        with open(result) as f:
            msis = json.load(f)["metrics"]["msis"]
    costs = collections.Counter({"collected": collected})
    for line in listing.splitlines():
        m = LINE.match(line)
        if m:
            costs[classify(m.group(2), m.group(3), m.group(4))] += int(m.group(1).replace(",", ""))
    return costs, msis


def profile(binary, config, sets):
    with tempfile.TemporaryDirectory() as d:
        (c1, m1), (c2, m2) = (self_costs(binary, config, sets, t, os.path.join(d, "cg" + t))
                              for t in DURATIONS)
    per_msi = {k: (c2[k] - c1[k]) / (m2 - m1) for k in set(c1) | set(c2)}
    collected = per_msi.pop("collected")
    return per_msi, collected, m2 - m1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cidsim", default=os.path.join(ROOT, "build", "cidsim"))
    ap.add_argument("--cpus", type=int, nargs="+", default=[8, 352])
    ap.add_argument("--json", help="also write every (kind, block) cost here")
    a = ap.parse_args()
    report = {}
    with tempfile.TemporaryDirectory() as d:
        for n in a.cpus:
            config = os.path.join(d, f"x86-{n}.json")
            with open(config, "w") as f:
                subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_x86_scale.py"),
                                str(n)], stdout=f, check=True)
            for mode in ("posted", "remappable"):
                per_msi, collected, msis = profile(a.cidsim, config, ["mode=" + mode])
                report[f"{mode} {n}"] = {"msis": msis, "per_msi": per_msi, "collected": collected}
    kinds = ["model", "schedule", "stats", "systemc", "runtime"]
    cases = list(report)
    print("instructions per MSI by kind (the difference of %s and %s ns runs)" % DURATIONS)
    print("| kind | " + " | ".join(cases) + " |")
    print("|---|" + "---:|" * len(cases))
    print("| collected | " + " | ".join(f"{report[c]['collected']:,.0f}" for c in cases) + " |")
    for kind in kinds + ["total"]:
        cells = [sum(v for (k, _), v in report[c]["per_msi"].items() if kind in (k, "total"))
                 for c in cases]
        print(f"| {kind} | " + " | ".join(f"{x:,.0f}" for x in cells) + " |")
    blocks = collections.Counter()
    for c in cases:
        for (k, b), v in report[c]["per_msi"].items():
            blocks[(k, b)] += v
    print("\ninstructions per MSI by kind and block (those above 20 in any case)")
    print("| kind | block | " + " | ".join(cases) + " |")
    print("|---|---|" + "---:|" * len(cases))
    for (k, b) in sorted(blocks, key=lambda kb: (kinds.index(kb[0]), -blocks[kb])):
        cells = [report[c]["per_msi"].get((k, b), 0.0) for c in cases]
        if max(abs(x) for x in cells) >= 20:
            print(f"| {k} | {b} | " + " | ".join(f"{x:,.0f}" for x in cells) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({c: {"msis": r["msis"], "collected_per_msi": r["collected"],
                           "per_msi": [[k, b, v] for (k, b), v in
                                                          sorted(r["per_msi"].items())]}
                       for c, r in report.items()}, f, indent=1)


if __name__ == "__main__":
    main()
