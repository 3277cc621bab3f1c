#!/usr/bin/env python3
"""Writes the x86 scale config of docs/performance.md to stdout: N CPUs in 2
sockets, one NVMe-like device per CPU with bursty traffic (4 M/s bursts of
3 us), the bursts rarer with more devices so that the total MSI rate stays
that of 8 devices; posted MSI, generic platform.

    scripts/gen_x86_scale.py 352 > runs/x86-352.json
"""
import json
import sys


def config(cpus):
    return {
        "comment": f"x86 scale check: {cpus} CPUs in 2 sockets, one bursty device per CPU, "
                   "the total MSI rate that of 8 devices (scripts/gen_x86_scale.py)",
        "platform": "generic",
        "run": {"duration_ns": 400000, "warmup_ns": 1000000, "seed": 1},
        "mode": "posted",
        "topology": {"cpus": cpus, "sockets": 2},
        "lapic": {"timer_period_ns": 250000},
        "devices": [{"name": f"nvme{c}", "vectors": 1, "irq_cpus": [c]} for c in range(cpus)],
        "workloads": [{"type": "bursty", "device": f"nvme{c}", "on_rate_mpps": 4.0,
                       "on_mean_ns": 3000, "off_mean_ns": 9000 * cpus / 8 - 3000,
                       "dma_bytes": 4096} for c in range(cpus)],
    }


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or not 2 <= int(sys.argv[1]) <= 1024:
        sys.exit("usage: gen_x86_scale.py CPUS   (2 to 1024)")
    json.dump(config(int(sys.argv[1])), sys.stdout, indent=1)
    sys.stdout.write("\n")
