#!/usr/bin/env python3
"""Writes the ipistorm table (experiment E2, systems.md D and E in
docs/specification.md) into configs/vm/tables.json: both machines' rows
with systems.md E's keys (machine, cpus, column), the seven calibration
figures as the only published values, then sensitivity rows of P9 IPI/sys
0-127 over the line and XIVE costs' ranges (their sources: cidsim params
power_line, xive), the loop's noise and the descriptor line's order.
    scripts/gen_ipistorm_table.py"""

import systems_tables

COLUMNS = {  # column: (power.ipi_descs, power.irqdebug)
    "ipi_sys": ("system", "on"), "ipi_chip": ("chip", "on"),
    "noirqdebug_ipi_chip": ("chip", "off"), "noirqdebug_ipi_sys": ("system", "off"),
    "piggin_ipi_sys": ("system", "piggin"), "piggin_ipi_chip": ("chip", "piggin"),
}
MACHINES = {"p9": 128, "p10": 352}
CALIBRATION = {
    ("p9", 16, "noirqdebug_ipi_sys"): 5.048892, ("p9", 64, "noirqdebug_ipi_sys"): 17.874511,
    ("p9", 64, "ipi_sys"): 17.064907, ("p9", 80, "ipi_sys"): 11.768764,
    ("p10", 16, "noirqdebug_ipi_sys"): 2.395091, ("p10", 80, "noirqdebug_ipi_sys"): 14.973073,
    ("p10", 112, "ipi_sys"): 9.767753,
}
SENSITIVITY = [  # key, the ends of its range
    ("power_line.miss_ns", [27, 107]), ("power_line.hop_ns", [117, 467]),
    ("power_line.invalidate_per_sharer_ns", [0, 10]), ("power_line.home_occupancy_ns", [2, 30]),
    ("xive.cross_chip_ns", [100, 500]), ("xive.occupancy_ns", [5, 100]),
    ("power.loop_jitter_ns", [0, 1000]), ("power.desc_line_order", ["fifo"]),
]
METRICS = ["mint_per_s"]


def row(machine, cpus, column, extra=None):
    descs, debug = COLUMNS[column]
    key = {"machine": machine, "cpus": cpus, "column": column}
    sets = [f"power.ipi_descs={descs}", f"power.irqdebug={debug}", f"ipistorm.cpulist=0-{cpus - 1}"]
    if extra:
        key[extra[0].split(".")[-1]] = extra[1]
        sets.append(f"{extra[0]}={extra[1]}")
    r = {"key": key, "config": f"../power/e2-{machine}.json", "set": sets, "metrics": METRICS}
    if not extra and (machine, cpus, column) in CALIBRATION:
        r["published"] = {"mint_per_s": CALIBRATION[(machine, cpus, column)]}
    return r


rows = [row(m, n, c) for m, top in MACHINES.items() for n in range(16, top + 1, 16) for c in COLUMNS]
rows += [row("p9", 128, "ipi_sys", (k, v)) for k, ends in SENSITIVITY for v in ends]
table = {
    "name": "ipistorm",
    "title": "POWER XIVE IPI storms: vmstat Mint/s against CPUs, one IPI descriptor or one per chip (E2)",
    "set": "prediction",
    "metrics": ["mint_per_s"],
    "rows": rows,
    "note": "ipistorm single=1 offset=8 wait=1 delay=0 cpulist=0-(cpus-1), counted like vmstat "
            "(IPIs and timer interrupts), on a P9 partition (2 chips x 16 SMT4 cores) and a P10 "
            "partition (4 chips of 12/10/10/12 SMT8 cores): configs/power/e2-p9.json, e2-p10.json. "
            "Fitted (scripts/calibrate_ipistorm.sh): power.loop_ns per machine to its noirqdebug "
            "IPI/sys figure, power_line.miss_ns to P9 IPI/sys 0-63, power_line.hop_ns per machine "
            "to its cross-chip IPI/sys figure; every other cell is a prediction, the piggin columns "
            "Nick Piggin's fast path (7c07012eb1be). The rows after the two tables are "
            "sensitivities of P9 IPI/sys 0-127 to the line and XIVE costs over their ranges, the "
            "iteration's noise, and the line served in request order (fifo) instead of random. "
            "Written by scripts/gen_ipistorm_table.py.",
}
tables = systems_tables.load()
tables["tables"] = [t for t in tables["tables"] if t["name"] != "ipistorm"] + [table]
systems_tables.save(tables)
