#!/usr/bin/env python3
"""Writes the ipistorm table (experiment E2, systems.md D and E in
docs/specification.md) into configs/vm/tables.json: both machines' rows
with systems.md E's keys (machine, cpus, column), systems.md D's seven
calibration figures as the only published values (five fitted, the two
16-CPU ones predictions), then sensitivity rows of P9 IPI/sys
0-127 over the line and XIVE costs' ranges (their sources: cidsim params
power_line, xive), the loop's noise and the descriptor line's order, and
P10's line band: P10 IPI/sys in one chip and in all four with P10's hop per
in-chip transfer at half and twice P9's fitted ratio, both refitted to P10
IPI/sys 0-111 each time (about a minute).
    scripts/gen_ipistorm_table.py [BINARY]"""
import json
import os
import sys

import ipistorm_fit
import systems_tables

COLUMNS = ipistorm_fit.COLUMNS
MACHINES = {"p9": 128, "p10": 352}
CALIBRATION = ipistorm_fit.PUBLISHED  # the seven figures of systems.md D
P9_LINE = ipistorm_fit.p9_config()
SENSITIVITY = [  # key, the ends of its range (a fitted cost: half and twice P9's fit)
    *((k, [round(P9_LINE[k] / 2), round(P9_LINE[k] * 2)])
      for k in ("power_line.miss_ns", "power_line.hop_ns")),
    ("power_line.invalidate_per_sharer_ns", [0, 10]), ("power_line.home_occupancy_ns", [2, 30]),
    ("xive.cross_chip_ns", [100, 500]), ("xive.occupancy_ns", [5, 112]),
    ("power.loop_jitter_ns", [0, 1000]), ("power.desc_line_order", ["fifo"]),
]
METRICS = ["mint_per_s"]
P10_BAND_CPUS = [96, 352]  # P10 IPI/sys rows of the line band: one chip full, all four


def row(machine, cpus, column, key_extra=None, sets_extra=()):
    descs, debug = COLUMNS[column]
    key = {"machine": machine, "cpus": cpus, "column": column, **(key_extra or {})}
    sets = [f"power.ipi_descs={descs}", f"power.irqdebug={debug}", f"ipistorm.cpulist=0-{cpus - 1}"]
    sets += list(sets_extra)
    r = {"key": key, "config": f"../power/e2-{machine}.json", "set": sets, "metrics": METRICS}
    if not key_extra and (machine, cpus, column) in CALIBRATION:
        r["published"] = {"mint_per_s": CALIBRATION[(machine, cpus, column)]}
    return r


rows = [row(m, n, c) for m, top in MACHINES.items() for n in range(16, top + 1, 16) for c in COLUMNS]
rows += [row("p9", 128, "ipi_sys", {k.split(".")[-1]: v}, [f"{k}={v}"])
         for k, ends in SENSITIVITY for v in ends]

BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ipistorm_fit.ROOT, "build", "cidsim")
P9_RATIO = ipistorm_fit.p9_hop_per_miss(P9_LINE)
for ratio in (round(P9_RATIO / 2, 3), round(P9_RATIO * 2, 3)):
    # P10's line refitted to IPI/sys 0-111 at this hop per in-chip transfer;
    # its loop stays (the noirqdebug figure it fits barely moves with them).
    line = {}
    ipistorm_fit.bisect(BINARY, "p10", 112, "ipi_sys", "power_line.miss_ns", line, 0, 1000,
                        tied=("power_line.hop_ns", ratio))
    rows += [row("p10", n, "ipi_sys", {"hop_per_miss": ratio},
                 [f"{k}={v}" for k, v in sorted(line.items())]) for n in P10_BAND_CPUS]
table = {
    "name": "ipistorm",
    "title": "POWER XIVE IPI storms: vmstat Mint/s against CPUs, one IPI descriptor or one per chip (E2)",
    "set": "prediction",
    "metrics": ["mint_per_s"],
    "rows": rows,
    "note": "ipistorm single=1 offset=8 wait=1 delay=0 cpulist=0-(cpus-1), counted like vmstat "
            "(IPIs and timer interrupts), on a P9 partition (2 chips x 16 SMT4 cores) and a P10 "
            "partition (4 chips of 12/10/10/12 SMT8 cores): configs/power/e2-p9.json, e2-p10.json. "
            "Fitted (scripts/ipistorm_fit.py): power.loop_ns per machine to its noirqdebug "
            "IPI/sys figure (P9 0-63, P10 0-79), power_line.miss_ns to P9 IPI/sys 0-63, "
            "power_line.hop_ns per machine to its cross-chip IPI/sys figure (P10's in-chip "
            "transfer with it, its hop in P9's ratio to it); the XIVE router's occupancy is a "
            "guess. The two 16-CPU noirqdebug IPI/sys figures and every other cell are "
            "predictions, the piggin columns Nick Piggin's fast path (7c07012eb1be). The "
            "rows after the two tables are sensitivities of P9 IPI/sys 0-127 to the line and XIVE "
            "costs over their ranges, the iteration's noise, and the line served in request order "
            "(fifo) instead of random; then P10 IPI/sys at 96 and 352 CPUs with its hop per "
            "in-chip transfer at half and twice P9's and both refitted to P10 IPI/sys 0-111 (the "
            "set names them). Written by scripts/gen_ipistorm_table.py.",
}
tables = systems_tables.load()
tables["tables"] = [t for t in tables["tables"] if t["name"] != "ipistorm"] + [table]
systems_tables.save(tables)
