#!/usr/bin/env bash
# Fits E2's free parameters to its seven calibration figures (systems.md D,
# experiment E2), machine by machine, each by bisection on a fixed seed:
#  P9:  power.loop_ns (the iteration's base) to noirqdebug IPI/sys 0-63;
#       power_line.miss_ns (the in-chip hand-off) to IPI/sys 0-63;
#       power_line.hop_ns (the cross-chip hop) to IPI/sys 0-79;
#       two rounds, since the three interact; noirqdebug 0-15 is then a check.
#  P10: power.loop_ns to noirqdebug IPI/sys 0-79, power_line.hop_ns to
#       IPI/sys 0-111 (two rounds), its in-chip transfer taken from P9's fit;
#       noirqdebug 0-15 is then a check.
# Prints the values for configs/power/e2-p9.json and e2-p10.json and every
# calibration figure with them. Nothing else is fitted.
#   scripts/calibrate_ipistorm.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/cidsim}
python3 - "$bin" <<'PY'
import json, os, subprocess, sys, tempfile
binary = sys.argv[1]
COLUMNS = {"ipi_sys": ("system", "on"), "noirqdebug_ipi_sys": ("system", "off")}

def mint(machine, cpus, column, sets):
    descs, debug = COLUMNS[column]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [binary, "run", f"configs/power/e2-{machine}.json", "-q", "--out", out,
                "--set", "run.batches=1", "--set", "run.duration_ns=1e8",
                "--set", f"power.ipi_descs={descs}", "--set", f"power.irqdebug={debug}",
                "--set", f"ipistorm.cpulist=0-{cpus - 1}"]
        for k, v in sets.items(): args += ["--set", f"{k}={v:.2f}"]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        return json.load(open(out))["ipistorm"]["mint_per_s"]

def bisect(machine, cpus, column, target, key, sets, lo, hi, steps=13):
    for _ in range(steps):
        mid = (lo + hi) / 2
        if mint(machine, cpus, column, {**sets, key: mid}) > target: lo = mid
        else: hi = mid
    sets[key] = round((lo + hi) / 2, 1)

p9 = {}
for _ in range(2):
    bisect("p9", 64, "noirqdebug_ipi_sys", 17.874511, "power.loop_ns", p9, 0, 20000)
    bisect("p9", 64, "ipi_sys", 17.064907, "power_line.miss_ns", p9, 0, 1000)
    bisect("p9", 80, "ipi_sys", 11.768764, "power_line.hop_ns", p9, 0, 3000)
p10 = {"power_line.miss_ns": p9["power_line.miss_ns"]}
for _ in range(2):
    bisect("p10", 80, "noirqdebug_ipi_sys", 14.973073, "power.loop_ns", p10, 0, 40000)
    bisect("p10", 112, "ipi_sys", 9.767753, "power_line.hop_ns", p10, 0, 3000)
for machine, sets in (("p9", p9), ("p10", p10)):
    print(machine, " ".join(f"{k}={v}" for k, v in sets.items()))
figures = [("p9", 16, "noirqdebug_ipi_sys", 5.048892), ("p9", 64, "noirqdebug_ipi_sys", 17.874511),
           ("p9", 64, "ipi_sys", 17.064907), ("p9", 80, "ipi_sys", 11.768764),
           ("p10", 16, "noirqdebug_ipi_sys", 2.395091), ("p10", 80, "noirqdebug_ipi_sys", 14.973073),
           ("p10", 112, "ipi_sys", 9.767753)]
for machine, cpus, column, published in figures:
    got = mint(machine, cpus, column, p9 if machine == "p9" else p10)
    print(f"  {machine} cpus={cpus} {column}: {got:.3f} Mint/s, published {published} ({100 * (got / published - 1):+.1f} %)")
PY
