#!/usr/bin/env python3
"""Fits E2's free parameters to its calibration figures (systems.md D,
experiment E2; docs/calibration.md), machine by machine, each by bisection
on a fixed seed:
 P9:  power.loop_ns (the iteration's base) to noirqdebug IPI/sys 0-63;
      power_line.miss_ns (the in-chip hand-off) to IPI/sys 0-63;
      power_line.hop_ns (the cross-chip hop) to IPI/sys 0-79;
      two rounds, since they interact.
 P10: power.loop_ns to noirqdebug IPI/sys 0-79; power_line.miss_ns to
      IPI/sys 0-111 with power_line.hop_ns tied to it in P9's fitted ratio
      (one line figure cannot pin both; the ratio is the premise that P10's
      fabric is P9's scaled); two rounds.
Five values, five figures; the two 16-CPU figures (noirqdebug IPI/sys 0-15
of each machine) are predictions, and the XIVE router's occupancy is not
fitted (no figure of the five pins it below the bound P9 noirqdebug 0-63
sets; docs/calibration.md E2).
Prints the values for configs/power/e2-p9.json and e2-p10.json and every
calibration figure with them. scripts/gen_ipistorm_table.py refits P10's
line at other ratios through bisect(tied=...).
    scripts/ipistorm_fit.py [BINARY] [--machine p9|p10|both] [--set KEY=VALUE ...]
                            [--fixed KEY=VALUE ...]"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
COLUMNS = {  # column: (power.ipi_descs, power.irqdebug)
    "ipi_sys": ("system", "on"), "ipi_chip": ("chip", "on"),
    "noirqdebug_ipi_chip": ("chip", "off"), "noirqdebug_ipi_sys": ("system", "off"),
    "piggin_ipi_sys": ("system", "piggin"), "piggin_ipi_chip": ("chip", "piggin"),
}
FIGURES = [  # machine, CPUs (0-(N-1)), column, published Mint/s (systems.md D)
    ("p9", 16, "noirqdebug_ipi_sys", 5.048892), ("p9", 64, "noirqdebug_ipi_sys", 17.874511),
    ("p9", 64, "ipi_sys", 17.064907), ("p9", 80, "ipi_sys", 11.768764),
    ("p10", 16, "noirqdebug_ipi_sys", 2.395091), ("p10", 80, "noirqdebug_ipi_sys", 14.973073),
    ("p10", 112, "ipi_sys", 9.767753),
]
PUBLISHED = {(m, n, c): v for m, n, c, v in FIGURES}
STEPS = 13
FIXED = {}  # key: value held instead of fitted (--fixed)


def mint(binary, machine, cpus, column, sets):
    descs, debug = COLUMNS[column]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [binary, "run", os.path.join(ROOT, "configs", "power", f"e2-{machine}.json"),
                "-q", "--out", out, "--set", "run.batches=1", "--set", "run.duration_ns=1e8",
                "--set", f"power.ipi_descs={descs}", "--set", f"power.irqdebug={debug}",
                "--set", f"ipistorm.cpulist=0-{cpus - 1}"]
        for k, v in sets.items():
            args += ["--set", f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)["ipistorm"]["mint_per_s"]


def bisect(binary, machine, cpus, column, key, sets, lo, hi, tied=None):
    """Sets sets[key] so that the figure is met; every key lowers the rate.
    tied=(other, ratio) keeps sets[other] at ratio times sets[key]. A key in
    FIXED keeps its value (the figure is then left out of the fit)."""
    def at(v):
        return {**sets, key: v, **({tied[0]: round(tied[1] * v, 1)} if tied else {})}
    if key in FIXED:
        sets.update(at(FIXED[key]))
        return
    target = PUBLISHED[(machine, cpus, column)]
    ends = (lo, hi)
    for _ in range(STEPS):
        mid = (lo + hi) / 2
        if mint(binary, machine, cpus, column, at(mid)) > target:
            lo = mid
        else:
            hi = mid
    if hi == ends[1] or lo == ends[0]:  # never crossed the figure: it is outside the range
        raise SystemExit(f"ipistorm_fit: {machine} {cpus} CPUs {column}: {target} Mint/s is not "
                         f"reached with {key} in [{ends[0]}, {ends[1]}]")
    sets.update(at(round((lo + hi) / 2, 1)))


def fit_p9(binary, sets=None):
    p9 = dict(sets or {})
    for _ in range(2):
        bisect(binary, "p9", 64, "noirqdebug_ipi_sys", "power.loop_ns", p9, 0, 20000)
        bisect(binary, "p9", 64, "ipi_sys", "power_line.miss_ns", p9, 0, 1000)
        bisect(binary, "p9", 80, "ipi_sys", "power_line.hop_ns", p9, 0, 3000)
    return p9


def p9_hop_per_miss(p9):
    return round(p9["power_line.hop_ns"] / p9["power_line.miss_ns"], 3)


def fit_p10(binary, sets, hop_per_miss):
    """P10's in-chip transfer and its hop are fitted together, the hop
    hop_per_miss times the transfer."""
    p10 = dict(sets)
    for _ in range(2):
        bisect(binary, "p10", 80, "noirqdebug_ipi_sys", "power.loop_ns", p10, 0, 40000)
        bisect(binary, "p10", 112, "ipi_sys", "power_line.miss_ns", p10, 0, 1000,
               tied=("power_line.hop_ns", hop_per_miss))
    return p10


def p9_config():
    """The fitted values configs/power/e2-p9.json holds."""
    with open(os.path.join(ROOT, "configs", "power", "e2-p9.json")) as f:
        c = json.load(f)
    return {f"{section}.{key}": c[section][key] for section, key in
            (("power_line", "miss_ns"), ("power_line", "hop_ns"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary", nargs="?", default=os.path.join(ROOT, "build", "cidsim"))
    ap.add_argument("--machine", choices=["p9", "p10", "both"], default="both")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--fixed", action="append", default=[], metavar="KEY=VALUE",
                    help="hold a fitted key at VALUE, leaving its figure out (leave-one-out)")
    a = ap.parse_args()
    FIXED.update({k: float(v) for k, v in (s.split("=", 1) for s in a.fixed)})
    extra = dict(s.split("=", 1) for s in a.set)
    fitted = {}
    if a.machine != "p10":
        fitted["p9"] = fit_p9(a.binary, extra)
    if a.machine != "p9":
        p9 = fitted.get("p9") or p9_config()
        fitted["p10"] = fit_p10(a.binary, extra, p9_hop_per_miss(p9))
    for machine, sets in fitted.items():
        print(machine, " ".join(f"{k}={v}" for k, v in sets.items()))
    for machine, cpus, column, published in FIGURES:
        if machine in fitted:
            got = mint(a.binary, machine, cpus, column, fitted[machine])
            print(f"  {machine} cpus={cpus} {column}: {got:.3f} Mint/s, published {published} "
                  f"({100 * (got / published - 1):+.1f} %)")


if __name__ == "__main__":
    main()
