#!/usr/bin/env python3
"""Identifiability scan and leave-one-out cross-validation of the calibration
set (C1, C2, P3).

For each fitted parameter (scripts/calibrate.py's PARAMETERS) the scan moves
it over its plausible range (its file's provenance), the others held at
their fitted values, and runs every published calibration figure at each
point: each figure's relative error as a function of the parameter says
which figures pin it. The leave-one-out table then refits, for each figure
i, the parameter that figure i is fitted to against the other figures
alone (least mean squared relative error, linear between scan points) and
predicts figure i there. A figure fitted to nothing (a check) is predicted
by the fitted model itself.

Every run is `cidsim run CONFIG --set ROW_SETS --set PARAMETER_PATHS=X
--set run.duration_ns=D --seed S` on the row's generated config, with a
profile value set on every device or workload the profile made (as
`cidsim reproduce --sensitivity` does, src/report/sensitivity.cpp
assignments()). Nothing is written back: the files keep the fitted values.

    scripts/identify.py [--cidsim build/cidsim] [--points 9] [--duration 4e7]
                        [--jobs 2] [--threshold 0.01] [--noise-seeds 3]
                        [--format text|markdown] [--json FILE]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402  (PARAMETERS, METRIC, load, ROOT)

RFC = os.path.join(calibrate.ROOT, "configs", "rfc")
TABLES = ("nvme-disks", "dsa-2wq", "optane-iouring")
# P3's IOPS are published beside the interrupt rates the fit uses: checks.
CHECK_METRICS = {"optane-iouring": ["iops_M"]}


# --- the figures and the parameters -------------------------------------

def figures():
    """Every published calibration figure: (name, table, key, config, sets,
    published), in tables.json's order."""
    out = []
    for t in calibrate.load(os.path.join(RFC, "tables.json"))["tables"]:
        if t["name"] not in TABLES:
            continue
        for r in t["rows"]:
            for metric in CHECK_METRICS.get(t["name"], []) + [calibrate.METRIC[t["name"]]]:
                if metric not in r.get("published", {}):
                    continue
                out.append(dict(name=figure_name(t["name"], r["key"], metric), table=t["name"],
                                key=r["key"], metric=metric, config=r["config"],
                                sets=list(r.get("set", [])), published=r["published"][metric]))
    return out


def figure_name(table, key, metric):
    if table == "nvme-disks":
        return "C1 %d %s" % (key["disks"], key["mode"])
    if table == "dsa-2wq":
        return "C2 %s" % key["mode"]
    return "P3 %s %s" % (key["mode"], "IOPS" if metric == "iops_M" else "int/s")


def parameters():
    """calibrate.PARAMETERS with each one's fitted value, plausible range and
    the figures it is fitted to."""
    out = []
    for path, keys, targets, _why in calibrate.PARAMETERS:
        name = ".".join(keys)
        entry = calibrate.load(path)["provenance"][name]
        out.append(dict(name=name, path=path, keys=keys, value=calibrate.get(path, keys),
                        range=entry["range"], profile=path == calibrate.PROFILES,
                        targets=[(t, k) for t, k, _ in targets]))
    return out


def pins(param, fig):
    return (fig["metric"] == calibrate.METRIC[fig["table"]] and
            (fig["table"], fig["key"]) in [(t, k) for t, k in param["targets"]])


def has_all(obj, values):
    return all(k in obj and obj[k] == v for k, v in values.items())


def assignments(config, param, row_sets):
    """The --set paths that give `param` its value in `config` (a parsed
    experiment config), mirroring src/report/sensitivity.cpp assignments():
    a platform value is set by its own path; a profile value on every
    device the profile made (the device has all of the profile's device
    values) or on those devices' workloads. Empty when the config has no
    such device, or the row overrides the path itself."""
    if not param["profile"]:
        paths = [param["name"]]
    else:
        profile, part, key = param["keys"]
        prof = calibrate.load(calibrate.PROFILES)[profile]
        made, paths = [], []
        for i, d in enumerate(config.get("devices", [])):
            if has_all(d, prof["device"]):
                made.append(d.get("name", ""))
                if part == "device":
                    paths.append("devices.%d.%s" % (i, key))
        if part == "workload":
            for j, w in enumerate(config.get("workloads", [])):
                if w.get("device", "") in made and has_all(w, prof["workload"]):
                    paths.append("workloads.%d.%s" % (j, key))
    if any(s.startswith(p + "=") for s in row_sets for p in paths):
        return []
    return paths


# --- running ------------------------------------------------------------

def figure_of(result, metric):
    """A table metric of a whole run (src/report/tables.cpp)."""
    if metric in ("iops_per_disk_M", "iops_M"):
        w = [x["iops_m"] for x in result["workloads"] if x.get("type") == "nvme"]
        return sum(w) / len(w) if metric == "iops_per_disk_M" else sum(w)
    if metric == "device_irq_rate_M":
        return result["metrics"]["handler_invocation_rate_mps"]
    return result["metrics"]["msi_rate_mps"]


def command(args, fig, extra, seed=None):
    seed = args.seed if seed is None else seed
    return ([args.cidsim, "run", os.path.join(RFC, fig["config"]), "-q", "--seed", str(seed)]
            + [a for s in fig["sets"] + ["run.duration_ns=%g" % args.duration] + extra
               for a in ("--set", s)])


def run_all(args, jobs):
    """jobs: {id: (fig, [sets])} -> {id: figure}"""
    tmp = tempfile.mkdtemp(prefix="identify-")

    def one(item):
        jid, (fig, extra, *seed) = item
        out = os.path.join(tmp, "%d.json" % jid)
        subprocess.run(command(args, fig, extra, *seed) + ["--out", out], check=True)
        y = figure_of(calibrate.load(out), fig["metric"])
        os.remove(out)
        return jid, y

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        res = dict(pool.map(one, sorted(jobs.items())))
    os.rmdir(tmp)
    return res


def grid(param, points):
    lo, hi = param["range"]
    n = max(2, points - 1)
    xs = [lo + (hi - lo) * k / (n - 1) for k in range(n)]
    if not any(abs(x - param["value"]) < 1e-9 * max(1.0, abs(x)) for x in xs):
        xs.append(param["value"])
    return sorted(xs)


def scan(args, figs, params):
    """{param name: {"x": [...], "y": {fig name: [...]}}}, and the fitted
    model's own figures."""
    configs = {f["config"]: calibrate.load(os.path.join(RFC, f["config"])) for f in figs}
    jobs, where, base = {}, {}, {}
    for f in figs:
        base[f["name"]] = len(jobs)
        jobs[len(jobs)] = (f, [])
    for p in params:
        for f in figs:
            paths = assignments(configs[f["config"]], p, f["sets"])
            for k, x in enumerate(grid(p, args.points)):
                if not paths:  # the figure cannot depend on it: its base run
                    where[p["name"], f["name"], k] = base[f["name"]]
                    continue
                where[p["name"], f["name"], k] = len(jobs)
                jobs[len(jobs)] = (f, ["%s=%.10g" % (path, x) for path in paths])
    # The run-to-run noise of the fitted model: its figures at other seeds.
    noise = {}
    for f in figs:
        for s in range(1, args.noise_seeds):
            noise[f["name"], s] = len(jobs)
            jobs[len(jobs)] = (f, [], args.seed + s)
    res = run_all(args, jobs)
    spread = {}
    for f in figs:
        ys = [res[base[f["name"]]]] + [res[noise[f["name"], s]] for s in range(1, args.noise_seeds)]
        spread[f["name"]] = (max(ys) - min(ys)) / f["published"]
    out = {}
    for p in params:
        xs = grid(p, args.points)
        out[p["name"]] = {"x": xs, "y": {f["name"]: [res[where[p["name"], f["name"], k]]
                                                     for k in range(len(xs))] for f in figs}}
    return out, {f["name"]: res[base[f["name"]]] for f in figs}, spread, len(jobs)


# --- analysis -----------------------------------------------------------

def interp(xs, ys, x):
    for k in range(len(xs) - 1):
        if xs[k] <= x <= xs[k + 1]:
            t = (x - xs[k]) / (xs[k + 1] - xs[k])
            return ys[k] + t * (ys[k + 1] - ys[k])
    return ys[0] if x < xs[0] else ys[-1]


def errors(ys, published):
    return [(y - published) / published for y in ys]


def zero_crossings(xs, es):
    """Where the linearly interpolated error is zero."""
    out = []
    for k in range(len(xs) - 1):
        a, b = es[k], es[k + 1]
        if a == 0:
            out.append(xs[k])
        elif a * b < 0:
            out.append(xs[k] + (xs[k + 1] - xs[k]) * a / (a - b))
    if es[-1] == 0:
        out.append(xs[-1])
    return out


def refit(xs, err_curves):
    """The x minimising the mean squared error of the curves, each linear
    between scan points (so the objective is quadratic on each segment)."""
    best = None
    m = len(err_curves)
    for k in range(len(xs) - 1):
        x0, x1 = xs[k], xs[k + 1]
        # e_j(x0 + t (x1 - x0)) = a_j + b_j t, t in [0, 1]
        a = [e[k] for e in err_curves]
        b = [e[k + 1] - e[k] for e in err_curves]
        sbb, sab = sum(v * v for v in b), sum(u * v for u, v in zip(a, b))
        cands = [0.0, 1.0] + ([min(1.0, max(0.0, -sab / sbb))] if sbb > 0 else [])
        for t in cands:
            j = sum((u + v * t) ** 2 for u, v in zip(a, b)) / m
            if best is None or j < best[1] - 1e-15:
                best = (x0 + t * (x1 - x0), j)
    return best


def rms_at(xs, err_curves, x):
    return (sum(interp(xs, e, x) ** 2 for e in err_curves) / len(err_curves)) ** 0.5


def refit_range(xs, err_curves, x_best, tol):
    """The interval of x (on a fine grid) whose RMS error of the curves is
    within tol of the RMS at x_best: how tightly the curves pin the value."""
    rms0 = rms_at(xs, err_curves, x_best)
    fine = [xs[0] + (xs[-1] - xs[0]) * k / 400 for k in range(401)]
    ok = [x for x in fine if rms_at(xs, err_curves, x) <= rms0 + tol] + [x_best]
    return min(ok), max(ok)


def loo(figs, params, sc, fitted, threshold):
    rows = []
    for f in figs:
        ps = [p for p in params if pins(p, f)]
        pub = f["published"]
        if not ps:
            y = fitted[f["name"]]
            rows.append(dict(figure=f["name"], published=pub, kind="check", prediction=y,
                             error=(y - pub) / pub))
            continue
        for p in ps:  # one here: each figure is fitted by one parameter
            s = sc[p["name"]]
            xs = s["x"]
            rest = [g for g in figs if g["name"] != f["name"]]
            curves = [errors(s["y"][g["name"]], g["published"]) for g in rest]
            spans = {g["name"]: max(c) - min(c) for g, c in zip(rest, curves)}
            constraining = [n for n, v in spans.items() if v >= threshold]
            # Two-sided: the figure's error runs from at least +threshold
            # to at most -threshold, so it pins the value from both sides;
            # the others only bound it (or step without crossing).
            two_sided = [g["name"] for g, c in zip(rest, curves)
                         if g["name"] in constraining and max(c) >= threshold
                         and min(c) <= -threshold]
            own = s["y"][f["name"]]
            row = dict(figure=f["name"], published=pub, parameter=p["name"], fitted=p["value"],
                       constrained_by=constraining, two_sided=two_sided)
            if not constraining:
                lo, hi = min(own), max(own)
                row.update(kind="not identified", interval=[lo, hi],
                           error_interval=[(lo - pub) / pub, (hi - pub) / pub])
            else:
                x, _ = refit(xs, curves)
                # The range counts only the figures that move: the others
                # add a constant and would only dilute the RMS.
                moving = [c for g, c in zip(rest, curves) if g["name"] in constraining]
                r0, r1 = refit_range(xs, moving, x, threshold)
                ys = [interp(xs, own, xx) for xx in
                      [r0 + (r1 - r0) * k / 50 for k in range(51)]]
                y = interp(xs, own, x)
                row.update(kind="refit", refit=x, refit_range=[r0, r1], prediction=y,
                           error=(y - pub) / pub, interval=[min(ys), max(ys)])
            rows.append(row)
    return rows


# --- printing -----------------------------------------------------------

def pct(e):
    return "%+.1f%%" % (100 * e)


def g4(x):
    return "%.4g" % x


def render(args, figs, params, sc, fitted, rows, meta, markdown):
    out = []

    def table(header, body):
        if markdown:
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "---|" * len(header))
            out.extend("| " + " | ".join(r) + " |" for r in body)
        else:
            w = [max(len(str(c)) for c in col) for col in zip(header, *body)]
            for r in [header] + body:
                out.append("  ".join(str(c).rjust(n) for c, n in zip(r, w)))
        out.append("")

    names = [f["name"] for f in figs]
    out.append("%s%d runs of %g ns each (seed %d), %d points per parameter, %.0f s wall time"
               % ("" if markdown else "# ", meta["runs"], args.duration, args.seed, args.points,
                  meta["wall_s"]))
    out.append("")
    out.append(("Fitted model at this duration: " if markdown else "# fitted model: ")
               + ", ".join("%s %s (%s)" % (f["name"], g4(fitted[f["name"]]),
                                          pct((fitted[f["name"]] - f["published"]) / f["published"]))
                           for f in figs))
    out.append("")
    if args.noise_seeds > 1:
        out.append(("Run-to-run noise (largest minus smallest figure over seeds %d-%d, in percent of "
                    "the published figure; the threshold is %.0f pp): " if markdown else
                    "# noise over seeds %d-%d (pp of the published figure; threshold %.0f pp): ")
                   % (args.seed, args.seed + args.noise_seeds - 1, 100 * args.threshold)
                   + ", ".join("%s %.2f" % (n, 100 * meta["seed_spread"][n]) for n in names))
        out.append("")
    for p in params:
        s = sc[p["name"]]
        lo, hi = p["range"]
        title = "%s (fitted %s, range [%s, %s]): relative error of each figure" % (
            p["name"], g4(p["value"]), g4(lo), g4(hi))
        out.append(("#### `%s`" % p["name"] + title[len(p["name"]):]) if markdown else "# " + title)
        out.append("")
        body = []
        for k, x in enumerate(s["x"]):
            mark = " (fitted)" if abs(x - p["value"]) < 1e-9 * max(1, abs(x)) else ""
            body.append([g4(x) + mark] + [pct((s["y"][n][k] - f["published"]) / f["published"])
                                          for n, f in zip(names, figs)])
        spans, zeros = [], []
        for n, f in zip(names, figs):
            e = errors(s["y"][n], f["published"])
            span = max(e) - min(e)
            spans.append(("%.1f pp" % (100 * span)) + (" *" if pins(p, f) else ""))
            z = zero_crossings(s["x"], e) if span >= args.threshold else []
            zeros.append("flat" if span < args.threshold else
                         (", ".join(g4(v) for v in z) if z else "none"))
        body.append(["span"] + spans)
        body.append(["error 0 at"] + zeros)
        table([p["name"].split(".")[-1]] + names, body)
    out.append(("#### Leave-one-out" if markdown else "# leave-one-out"))
    out.append("")
    body = []
    for r in rows:
        if r["kind"] == "check":
            body.append([r["figure"], g4(r["published"]), g4(r["prediction"]), pct(r["error"]),
                         "none (a check: the fitted model)", "-", "-"])
        elif r["kind"] == "not identified":
            body.append([r["figure"], g4(r["published"]),
                         "not identified without it: [%s, %s]" % (g4(r["interval"][0]),
                                                                  g4(r["interval"][1])),
                         "[%s, %s]" % (pct(r["error_interval"][0]), pct(r["error_interval"][1])),
                         "`%s`: no other figure moves %.0f pp over its range" %
                         (r["parameter"], 100 * args.threshold), "-", "-"])
        else:
            body.append([r["figure"], g4(r["published"]),
                         "%s [%s, %s]" % (g4(r["prediction"]), g4(r["interval"][0]),
                                          g4(r["interval"][1])),
                         pct(r["error"]),
                         "`%s` %s -> %s [%s, %s]" % (r["parameter"], g4(r["fitted"]), g4(r["refit"]),
                                                     g4(r["refit_range"][0]), g4(r["refit_range"][1])),
                         ", ".join(r["two_sided"]) or "none",
                         ", ".join(n for n in r["constrained_by"] if n not in r["two_sided"])
                         or "none"])
    table(["figure", "published", "LOO prediction [over refit range]", "error",
           "refitted: fitted -> refit [range]",
           "pinned by (error from >= +%.0f pp to <= -%.0f pp)" % (100 * args.threshold,
                                                                 100 * args.threshold),
           "only bounded or stepped by (moving >= %.0f pp)" % (100 * args.threshold)], body)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cidsim", default=os.path.join(calibrate.ROOT, "build", "cidsim"))
    ap.add_argument("--points", type=int, default=9,
                    help="scan points per parameter, the fitted value included")
    ap.add_argument("--noise-seeds", type=int, default=3,
                    help="run the fitted model at this many seeds to show the run-to-run noise")
    ap.add_argument("--duration", type=float, default=4e7,
                    help="simulated ns per run (run.duration_ns), the warm-up as configured")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threshold", type=float, default=0.01,
                    help="a figure constrains a parameter when its relative error moves by at "
                         "least this much over the parameter's range")
    ap.add_argument("--format", choices=["text", "markdown"], default="text")
    ap.add_argument("--json", help="also write the scan and the LOO rows here")
    args = ap.parse_args()
    t0 = time.time()
    figs, params = figures(), parameters()
    sc, fitted, spread, runs = scan(args, figs, params)
    rows = loo(figs, params, sc, fitted, args.threshold)
    meta = {"runs": runs, "wall_s": time.time() - t0, "seed_spread": spread}
    print(render(args, figs, params, sc, fitted, rows, meta, args.format == "markdown"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "meta": meta, "fitted": fitted,
                       "parameters": params, "scan": sc, "loo": rows}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
