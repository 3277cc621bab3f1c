#!/usr/bin/env python3
"""Where the instructions of one simulated MSI go, and what that means for
issue 6's targets (docs/performance-log.md, "What the targets ask").

For each bench config (posted, remappable) it runs `cidsim bench --child`
under callgrind (instruction counts repeat exactly here; wall times do not)
and splits the instructions spent in System::run() into:

  systemc   the SystemC library's own code (its scheduler, event heap and
            process dispatch: self cost of every function in libsystemc);
  run-ahead the queries that let blocks act ahead of the kernel's time
            exactly (the CPU's PID and interrupt horizons, the remapping
            unit's and the driver's may-act-early checks), inclusive,
            less any SystemC code under them;
  model     the rest: what the hardware and software blocks do per MSI
            (with the inline check, at each PID access, against the PID
            horizon the CPU keeps from its last ask).

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

# Entry points of the run-ahead queries, each a pure query. None may call
# another (callgrind's toggle would stop collecting inside it): checked.
RUN_AHEAD = [
    "cidsim::Iommu::Side<cidsim::Iommu::PidSide, cidsim::Poster>::earliest_next(*",
    "cidsim::CpuCore::irq_quiet_until(*",
    "cidsim::Iommu::may_fetch_early(*",
    "cidsim::Iommu::may_post_early(*",
    "cidsim::Iommu::may_send_early(*",
    "cidsim::Device::may_handle_at(*",
]
FLOOR_EVENTS = (100000, 300000)


def callgrind(args, toggles, out):
    """Runs cidsim under callgrind; returns (stdout, instructions collected,
    instructions of those in the SystemC library's own code, callgrind_annotate's
    listing)."""
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
    return r.stdout, collected, systemc, annotate


def check_entry_points(listings):
    """A renamed entry point would be toggled silently to nothing."""
    for name in RUN_AHEAD:
        pattern = re.escape(name.rstrip("*"))
        if not any(re.search(r"\b" + pattern, text) for text in listings):
            sys.exit("cost_split: run-ahead entry point %s ran in neither config: "
                     "renamed? (RUN_AHEAD in %s)" % (name, __file__))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cidsim", default=os.path.join(ROOT, "build", "cidsim"))
    p.add_argument("--duration-ns", type=int, default=200000,
                   help="measured simulated time after the 1 ms warm-up")
    p.add_argument("--json", action="store_true", help="one JSON object instead of tables")
    a = p.parse_args()
    result = {"floor_instructions_per_event": 0.0, "configs": {}}

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        floor = []
        for n in FLOOR_EVENTS:
            _, collected, _, _ = callgrind([a.cidsim, "bench", "--floor-child", str(n)], [], out)
            floor.append(collected)
        per_event = (floor[1] - floor[0]) / (FLOOR_EVENTS[1] - FLOOR_EVENTS[0])
        result["floor_instructions_per_event"] = per_event
        listings = []
        for config in ("posted", "remappable"):
            args = [a.cidsim, "bench", "--child",
                    os.path.join(ROOT, "configs", "bench", config + ".json"),
                    "--set", "run.duration_ns=%d" % a.duration_ns]
            stdout, total, systemc, listing = callgrind(args, ["cidsim::System::run()"], out)
            listings.append(listing)
            _, ahead, ahead_systemc, _ = callgrind(args, RUN_AHEAD, out)
            # Toggled together they count once; if one ran inside another,
            # its cost would be left out and the sum of single runs differ.
            alone = sum(callgrind(args, [entry], out)[1] for entry in RUN_AHEAD)
            if alone != ahead:
                sys.exit("cost_split: run-ahead entry points nest (%d instructions together, "
                         "%d one by one): list only the outermost" % (ahead, alone))
            run = json.loads(stdout)
            msis = run["msis"]
            ahead -= ahead_systemc
            result["configs"][config] = {
                "msis": msis, "timed_events_per_msi": run["timed_events"] / msis,
                "instructions_per_msi": total / msis, "systemc_per_msi": systemc / msis,
                "run_ahead_per_msi": ahead / msis,
                "model_per_msi": (total - systemc - ahead) / msis}
        check_entry_points(listings)

    if a.json:
        print(json.dumps(result))
        return
    print("SystemC floor: %.0f instructions per timed event" % per_event)
    print()
    print("| config | MSIs | timed events/MSI | instructions/MSI | systemc | run-ahead "
          "| model | model in floor events |")
    print("|---|---|---|---|---|---|---|---|")
    for config, c in result["configs"].items():
        total = c["instructions_per_msi"]
        print("| %s | %d | %.3f | %.0f | %.0f (%.0f %%) | %.0f (%.0f %%) | %.0f (%.0f %%) "
              "| %.2f |" % (config, c["msis"], c["timed_events_per_msi"], total,
                             c["systemc_per_msi"], 100.0 * c["systemc_per_msi"] / total,
                             c["run_ahead_per_msi"], 100.0 * c["run_ahead_per_msi"] / total,
                             c["model_per_msi"], 100.0 * c["model_per_msi"] / total,
                             c["model_per_msi"] / per_event))


if __name__ == "__main__":
    main()
