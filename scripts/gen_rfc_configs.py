#!/usr/bin/env python3
"""Writes the experiment configs under configs/rfc/ from the device profiles
in configs/rfc/devices.json and the setups of experiments.md (restated in
docs/specification.md). The generated files are committed; rerun this after
changing a profile (the calibration script does)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RFC = os.path.join(HERE, "..", "configs", "rfc")
PROFILES = json.load(open(os.path.join(RFC, "devices.json")))
PLATFORM = "../platform/spr.json"


# 20 windows: reproduce merges neighbours while their means look serially
# correlated and needs 10 batches at least (docs/predictions.md, precision).
def base(comment, cpus, root_ports, duration_ns, warmup_ns, mode="posted", batches=20):
    return {"comment": comment, "include": PLATFORM,
            "run": {"duration_ns": duration_ns, "warmup_ns": warmup_ns, "batches": batches},
            "mode": mode, "topology": {"cpus": cpus, "root_ports": root_ports},
            "devices": [], "workloads": []}


def add_nvme(cfg, profile, name, root_port, cpus, vector_cpus=None, **workload):
    # Linux's NVMe driver (managed affinity) gives every CPU of `vector_cpus`
    # one queue and vector of the disk; the jobs run on `cpus`, a contiguous
    # part of them, each on its CPU's queue.
    p = PROFILES[profile]
    vector_cpus = vector_cpus or cpus
    cfg["devices"].append(dict(name=name, root_port=root_port, vectors=len(vector_cpus),
                               irq_cpus=vector_cpus, **p["device"]))
    w = dict(type="nvme", device=name, jobs=len(cpus), **p["workload"])
    if vector_cpus != cpus:
        w["first_queue"] = vector_cpus.index(cpus[0])
    w.update(workload)
    cfg["workloads"].append(w)


def add_dsa(cfg, name, root_port, irq_cpu, submitter_cpu):
    p = PROFILES["dsa"]
    cfg["devices"].append(dict(name=name, root_port=root_port, vectors=1, irq_cpus=[irq_cpu],
                               **p["device"]))
    cfg["workloads"].append(dict(type="dsa", device=name, submitter_cpu=submitter_cpu,
                                 **p["workload"]))


def c1(disks, jobs=4):
    # One fio job per CPU, `jobs` per disk; a Gen5 x16 stack holds 4 x4 disks.
    # Every CPU has one vector of every disk (Linux's managed affinity); a
    # disk's jobs use the queues of their own CPUs.
    cfg = base(f"C1 nvme-disks: {disks} PM174x-like disks, FIO libaio, {jobs} jobs each on "
               "dedicated CPUs, one vector per CPU per disk, 4 disks per x16 root port. " +
               topology_c1(disks),
               disks * jobs, (disks + 3) // 4, 4e6, 1e6)
    every = list(range(disks * jobs))
    for d in range(disks):
        add_nvme(cfg, "nvme_pm174x", f"nvme{d}", d // 4, list(range(d * jobs, (d + 1) * jobs)),
                 vector_cpus=every)
    return cfg


def dsa(wqs, comment, setup):
    # CPU 0 takes every interrupt; each work queue's submitter has its own CPU.
    # Each DSA device sits in its own IIO stack, behind its own root port, as
    # on Sapphire Rapids (one DSA per accelerator stack, four per socket:
    # Intel DSA Architecture Specification and the 4th Gen Xeon product
    # brief), so two devices share no root port.
    cfg = base(comment + " " + topology_dsa(wqs, setup), 1 + wqs, wqs, 1e6, 1e5)
    for d in range(wqs):
        add_dsa(cfg, f"dsa{d}", d, 0, 1 + d)
    return cfg


def p3():
    cfg = base("P3 optane-iouring: 4 Optane gen2 drives, one io_uring submitter per drive on its "
               "own CPU, batches of 32. " + TOPOLOGY["p3"], 4, 1, 4e6, 4e6)
    for d in range(4):
        add_nvme(cfg, "optane_gen2", f"optane{d}", 0, [d])
    return cfg


def p4():
    cfg = base("P4 low-rate: one NVMe-like device and one CPU, Poisson completions at the "
               "offered rate (workloads.0.on_rate_mpps). " + TOPOLOGY["p4"], 1, 1, 5e7, 1e5)
    p = PROFILES["nvme_pm174x"]
    cfg["devices"].append(dict(name="nvme0", root_port=0, vectors=1, irq_cpus=[0], **p["device"]))
    cfg["workloads"].append({"type": "bursty", "device": "nvme0", "on_rate_mpps": 0.1,
                             "on_mean_ns": 1e9, "off_mean_ns": 0, "dma_bytes": 4096})
    return cfg


# The 512 jobs start with empty queues and settle slowly: PID misses per
# notification fall from 1.28 in the first 20 ms to within 0.1% of their
# level by about 150 ms (docs/predictions.md, precision), so that much is
# warm-up, not measurement.
P5_WARMUP_NS = 2e8


def p5(cpus=32, jobs_per_queue=4, iodepth=16):
    # 512 jobs = 4 disks x 32 CPUs x 4 jobs; the 4 jobs of a CPU share that
    # CPU's queue pair of the disk, so one queue carries 4 x iodepth I/Os.
    cfg = base(f"P5 nvme-pircopy: 4 PM174x-like disks behind one x16 root port, 512 libaio "
               f"jobs ({cpus} CPUs x 4 disks x {jobs_per_queue} jobs, iodepth {iodepth}). " +
               TOPOLOGY["p5"],
               cpus, 1, 4e6, P5_WARMUP_NS)
    for d in range(4):
        add_nvme(cfg, "nvme_pm174x", f"nvme{d}", 0, list(range(cpus)),
                 iodepth=jobs_per_queue * iodepth)
    return cfg


# Where each config's topology comes from (issue 22 item 5): the published
# setup (experiments.md, docs/specification.md) where it says so, a named
# real server's layout where the setup is silent, else "unknown" with the
# assumption made. In the model a root port is one IIO stack: the write
# path that inbound DMA and interrupt messages share. On Sapphire Rapids every PCIe Gen5 x16 slot is
# its own IIO stack, which a bifurcated x4x4x4x4 slot splits into four PCIe
# root ports that still share the stack; each DSA instance sits in an
# accelerator stack of its own (four per socket). docs/predictions.md
# (Topology) measures the figures under the alternatives.
SPR_STACKS = ("Sapphire Rapids: each PCIe Gen5 x16 slot is its own IIO stack (the model's root "
              "port); a slot bifurcated x4x4x4x4 gives four PCIe root ports inside that one stack")
SPR_DSA = ("Sapphire Rapids: each DSA instance sits in its own accelerator IIO stack, four per "
           "socket (Intel DSA Architecture Specification; 4th Gen Xeon product brief)")
LINUX_NVME = ("Linux's NVMe driver gives every CPU one queue and vector of every disk (managed "
              "affinity, blk-mq), so that mapping comes from the kernel")


def topology_c1(disks):
    return (f"Topology: one socket (docs/specification.md, experiments.md C1); {(disks + 3) // 4} root port(s). "
            "Which disk sits on which slot is not published: assumed 4 x4 PM174x disks per Gen5 "
            f"x16 slot ({SPR_STACKS}), filled in order. Unknown; docs/predictions.md (Topology) "
            "gives C1 with one stack per disk or per pair. CPUs: 4 fio jobs per disk on "
            f"dedicated CPUs (assumed: jobs and CPUs are not published). Vectors: {LINUX_NVME}.")


def topology_dsa(wqs, setup):
    return (f"Topology: {setup} (docs/specification.md, experiments.md); {wqs} root port(s), one per DSA device "
            f"({SPR_DSA}). Submitters on CPUs 1..{wqs}, one each: assumed (not published). "
            "One socket: assumed.")


TOPOLOGY = {
    "p3": ("Topology: 4 drives and one submitting thread per drive on 4 CPUs (docs/specification.md, experiments.md "
           "P3: 'a different Intel server'). Unknown: the server, its sockets and which drive sits "
           "on which root port are not published; assumed all four behind one root port of one "
           "socket. Optane gen2 (P5800X) drives are PCIe 4.0 x4 each (Intel's product brief), so a "
           "four-drive server may as well give each its own root port: docs/predictions.md "
           "(Topology) gives P3 with 1, 2 and 4 root ports. Vectors: one per drive, on its "
           "submitter's CPU (assumed: Linux gives the submitting CPU its own queue and vector)."),
    "p4": ("Topology: one device and one CPU (docs/specification.md, experiments.md P4); one root port follows."),
    "p5": ("Topology: 4 PM174x drives behind one x16 slot (docs/specification.md, experiments.md P5), one IIO "
           f"stack and so one root port ({SPR_STACKS}). 512 jobs on 32 CPUs of one socket, 4 per "
           "CPU and disk: assumed (the CPU count is not published). Vectors: " + LINUX_NVME + "."),
}


def write(name, cfg):
    path = os.path.join(RFC, name)
    with open(path, "w") as f:
        json.dump(cfg, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    for disks in (2, 4, 8):
        write(f"c1-nvme-{disks}disks.json", c1(disks))
    write("c2-dsa-2wq.json", dsa(2, "C2 dsa-2wq: two DSA devices, one dedicated WQ each, both "
                                   "interrupts pinned to CPU 0, submitters on CPUs 1 and 2, 512-byte fills.",
                                   "two DSA devices with one dedicated WQ each, both interrupts "
                                   "pinned to one CPU (C2)"))
    write("p2-dsa-1wq.json", dsa(1, "P2 pir-copy: one DSA work queue, one MSI vector on CPU 0, "
                                    "the submitter on CPU 1, 512-byte fills.",
                                    "one DSA work queue, one MSI vector on one CPU (P2)"))
    write("p3-optane-iouring.json", p3())
    write("p4-low-rate.json", p4())
    write("p5-nvme-pircopy.json", p5())
