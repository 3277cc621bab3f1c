#!/usr/bin/env python3
"""Where the instructions of one simulated MSI go, and what that means for
issue 6's targets (docs/performance.md, "What the targets ask").

For each bench config (posted, remappable) it runs `cidsim bench --child`
under callgrind (instruction counts repeat exactly here; wall times do not)
and splits the instructions spent in System::run() into:

  systemc   the SystemC library's own code (its scheduler, event heap and
            process dispatch: self cost of every function in libsystemc);
  run-ahead the queries that let blocks act ahead of the kernel's time
            exactly (the CPU's PID and interrupt horizons, the remapping
            unit's and the driver's may-act-early checks), inclusive,
            less any SystemC code under them;
  model     the rest: what the hardware and software blocks do per MSI.

It also measures the SystemC floor (`cidsim bench --floor-child N`) in
instructions per timed event, as the difference of two runs so start-up
cancels, and prints the model column in floor events: a lower bound on the
kernel-event-equivalents per MSI of any scheduler that ran the same model
work at the floor's rate of instructions per second.

    scripts/cost_split.py [--cidsim build/cidsim] [--duration-ns 200000]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Entry points of the run-ahead queries. None calls another (callgrind's
# toggle would stop collecting inside a nested one); each is a pure query.
RUN_AHEAD = [
    "cidsim::CpuCore::pid_horizon()",
    "cidsim::CpuCore::irq_quiet_until(*",
    "cidsim::Iommu::may_fetch_early(*",
    "cidsim::Iommu::may_post_early(*",
    "cidsim::Iommu::may_send_early(*",
    "cidsim::Device::may_handle_at(*",
]
FLOOR_EVENTS = (100000, 300000)


def callgrind(args, toggles, out):
    """Runs cidsim under callgrind; returns (stdout, instructions collected,
    instructions of those in the SystemC library's own code)."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
    cmd += ["--toggle-collect=" + t for t in toggles]
    if toggles:
        cmd.append("--collect-atstart=no")
    r = subprocess.run(cmd + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("cost_split: %s failed:\n%s" % (" ".join(cmd + args), r.stderr[-2000:]))
    collected = int(re.search(r"Collected : (\d+)", r.stderr).group(1))
    annotate = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", out],
                              capture_output=True, text=True, check=True).stdout
    systemc = 0
    for line in annotate.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+.*\[.*libsystemc[^\]]*\]\s*$", line)
        if m:
            systemc += int(m.group(1).replace(",", ""))
    return r.stdout, collected, systemc


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cidsim", default=os.path.join(ROOT, "build", "cidsim"))
    p.add_argument("--duration-ns", type=int, default=200000,
                   help="measured simulated time after the 1 ms warm-up")
    a = p.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        floor = []
        for n in FLOOR_EVENTS:
            _, collected, _ = callgrind([a.cidsim, "bench", "--floor-child", str(n)], [], out)
            floor.append(collected)
        per_event = (floor[1] - floor[0]) / (FLOOR_EVENTS[1] - FLOOR_EVENTS[0])
        print("SystemC floor: %.0f instructions per timed event" % per_event)
        print()
        print("| config | MSIs | timed events/MSI | instructions/MSI | systemc | run-ahead "
              "| model | model in floor events |")
        print("|---|---|---|---|---|---|---|---|")
        for config in ("posted", "remappable"):
            args = [a.cidsim, "bench", "--child",
                    os.path.join(ROOT, "configs", "bench", config + ".json"),
                    "--set", "run.duration_ns=%d" % a.duration_ns]
            stdout, total, systemc = callgrind(args, ["cidsim::System::run()"], out)
            _, ahead, ahead_systemc = callgrind(args, RUN_AHEAD, out)
            run = json.loads(stdout)
            msis = run["msis"]
            ahead -= ahead_systemc
            model = total - systemc - ahead
            print("| %s | %d | %.3f | %.0f | %.0f (%.0f %%) | %.0f (%.0f %%) | %.0f (%.0f %%) "
                  "| %.2f |" % (config, msis, run["timed_events"] / msis, total / msis,
                                 systemc / msis, 100.0 * systemc / total,
                                 ahead / msis, 100.0 * ahead / total,
                                 model / msis, 100.0 * model / total,
                                 model / msis / per_event))


if __name__ == "__main__":
    main()
