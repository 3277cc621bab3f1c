#!/usr/bin/env python3
"""Writes cases.json, the hostile-input cases (issue 19) hostile_runner runs.

Each family below crosses one kind of hostile input with every command or
option it applies to. Run it after changing a family:
    python3 tests/hostile/gen_cases.py > tests/hostile/cases.json
"""
import json

cases = []


def case(name, args, status, message=None, files=(), group=None, names=None, **extra):
    """names: what a rejection must name in its message (the file or option,
    and the key); every case with status 2 gives them."""
    c = {"name": name, "args": list(args), "status": status}
    if message is not None:
        c["message"] = message
    if names:
        c["names"] = [n for n in names if n]
    if files:
        c["files"] = list(files)
    if group:
        c["group"] = group
    c.update(extra)
    cases.append(c)


def copy(path, fixture=None):
    return {"path": path, "copy": fixture or path}


def text(path, t):
    return {"path": path, "text": t}


def js(path, j):
    return {"path": path, "json": j}


TINY = copy("tiny.json")
SPEC = copy("spec.json")
TABLES = copy("tables.json")
SCEN = copy("scenario.json")
TINY_FILES = [TINY, text("plain.txt", "not a directory\n"), {"path": "d", "dir": True},
              {"path": "ff", "fifo": True}]


def sweep_dir(extra=()):
    """A sweep directory m/ with a manifest and no results."""
    return [copy("m/sweep.json", "manifest.json")] + list(extra)


# How each command is run with a good input, and which output options it has.
# cmd: (argv before the output option, setup files, input file it reads)
COMMANDS = {
    "run": (["run", "tiny.json", "-q"], [TINY], "tiny.json",
            ["--out", "--stats", "--trace-vcd", "--trace-perfetto"]),
    "collect": (["collect", "m"], sweep_dir([TINY]), "m/sweep.json", ["--csv", "--json"]),
    "reproduce": (["reproduce", "tiny", "--tables", "tables.json"], [TINY, TABLES], "tables.json",
                  ["--out"]),
    "explain": (["explain", "scenario.json"], [SCEN], "scenario.json", ["--out"]),
    "bench": (["bench", "--reps", "1", "--no-floor", "--config", "tiny.json"], [TINY], "tiny.json",
              ["--json"]),
}

# A full disk fails at the end of the work; what the command keeps on purpose.
FULL_EXTRA = {
    # Every row's result stays (hours of runs), in --keep or, here, $TMPDIR.
    "reproduce": {"env": {"TMPDIR": "{dir}/tmp"}, "kept": ["tmp"], "setup": [{"path": "tmp", "dir": True}],
                  "message": ["full/x.out", "No space left on device", "every row's result is kept in"]},
}

# --- Outputs: every output option against every kind of bad target --------------
for cmd, (argv, files, inp, outs) in COMMANDS.items():
    base_files = files + [text("plain.txt", "a file\n"), {"path": "d", "dir": True},
                          {"path": "ff", "fifo": True}, text("other.txt", "keep me\n")]
    for opt in outs:
        o = opt.lstrip("-")
        bad = [
            ("empty", "", "expected a file name, found an empty string"),
            ("directory", "d", "is a directory"),
            ("dev-null", "/dev/null", "is a device"),
            ("fifo", "ff", "is a FIFO"),
            ("missing-parent", "nodir/x.out", "cannot write here"),
            ("parent-is-file", "plain.txt/x.out", "cannot write here"),
            ("proc", "/proc/cidsim-no-such/x", "cannot write here"),
            ("is-input", inp, "is an input of this command"),
            ("is-input-dotted", "./" + inp, "is an input of this command"),
            ("is-input-via-dotdot", "d/../" + inp, "is an input of this command"),
        ]
        for tag, target, msg in bad:
            case(f"{cmd}-{o}-{tag}", argv + [opt, target], 2, msg, base_files, names=[opt, target])
        case(f"{cmd}-{o}-symlink-to-input", argv + [opt, "link"], 2, "is an input of this command",
             base_files + [{"path": "link", "symlink": inp}], names=[opt + " link"])
        case(f"{cmd}-{o}-hardlink-to-input", argv + [opt, "hard"], 2, "is an input of this command",
             base_files + [{"path": "hard", "hardlink": inp}], names=[opt + " hard"])
        case(f"{cmd}-{o}-symlink-to-dev-null", argv + [opt, "nul"], 2, "is a device",
             base_files + [{"path": "nul", "symlink": "/dev/null"}], names=[opt + " nul"])
        case(f"{cmd}-{o}-symlink-to-dir", argv + [opt, "dl"], 2, "is a directory",
             base_files + [{"path": "dl", "symlink": "d"}], names=[opt + " dl"])
        case(f"{cmd}-{o}-symlink-loop", argv + [opt, "loop1"], 2, "cannot write here",
             base_files + [{"path": "loop1", "symlink": "loop2"}, {"path": "loop2", "symlink": "loop1"}],
             names=[opt + " loop1"])
        # Disk faults (a small tmpfs): a read-only place is refused before any
        # work (2); a full disk is found only when writing (1, with the
        # system's reason), and leaves no partial or temporary file.
        case(f"{cmd}-{o}-read-only-mount", argv + [opt, "ro/x.out"], 2, "Read-only file system",
             base_files + [{"path": "ro", "tmpfs": "ro"}], names=[opt + " ro/x.out"])
        full = dict(FULL_EXTRA.get(cmd, {}))
        case(f"{cmd}-{o}-disk-full", argv + [opt, "full/x.out"], 1,
             full.pop("message", ["full/x.out", "No space left on device"]),
             base_files + [{"path": "full", "tmpfs": "full"}] + full.pop("setup", []), **full)
    # Two outputs of one command naming the same file.
    for i, a in enumerate(outs):
        for b in outs[i + 1:]:
            case(f"{cmd}-{a.lstrip('-')}-same-as-{b.lstrip('-')}", argv + [a, "x.out", b, "x.out"], 2,
                 "this file is also written as", base_files, names=[b + " x.out", "written as " + a])
            case(f"{cmd}-{a.lstrip('-')}-link-to-{b.lstrip('-')}", argv + [a, "x.out", b, "lx"], 2,
                 "this file is also written as", base_files + [{"path": "lx", "symlink": "x.out"}],
                 names=[b + " lx", "written as " + a])

# Writes that succeed go through symlinks and leave the link a link.
for cmd, opt, extra in [("run", "--out", []), ("run", "--stats", []), ("run", "--trace-vcd", []),
                        ("run", "--trace-perfetto", []), ("explain", "--out", [])]:
    argv, files, inp, _ = COMMANDS[cmd]
    case(f"{cmd}-{opt.lstrip('-')}-through-symlink", argv + [opt, "link.out"], 0, None,
         files + [{"path": "link.out", "symlink": "target.out"}, text("target.out", "old\n")],
         changes=["target.out"])
    case(f"{cmd}-{opt.lstrip('-')}-through-dangling-symlink", argv + [opt, "link.out"], 0, None,
         files + [{"path": "link.out", "symlink": "sub/new.out"}, {"path": "sub", "dir": True}],
         creates=["sub/new.out"])
    case(f"{cmd}-{opt.lstrip('-')}-overwrites-plain-output", argv + [opt, "old.out"], 0, None,
         files + [text("old.out", "old\n")], changes=["old.out"])
case("collect-csv-and-json-ok", ["collect", "m", "--csv", "t.csv", "--json", "t.json"], 1,
     "point(s) have no result yet", sweep_dir(), creates=["t.csv", "t.json"])

# --- Inputs: every file argument against every kind of bad file -------------------
INPUTS = {
    "run-config": (lambda p: ["run", p], "a JSON config file"),
    "sweep-spec": (lambda p: ["sweep", p, "--out", "sw"], "a JSON config file"),
    "reproduce-tables": (lambda p: ["reproduce", "tiny", "--tables", p], "a JSON config file"),
    "explain-scenario": (lambda p: ["explain", p], "a JSON config file"),
    "bench-config": (lambda p: ["bench", "--reps", "1", "--no-floor", "--config", p],
                     "a JSON config file"),
}
for name, (mk, what) in INPUTS.items():
    files = [{"path": "d", "dir": True}, {"path": "ff", "fifo": True}, text("empty.json", ""),
             text("garbage.json", "\x00\x01\x02 not json"), text("trunc.json", '{"run": {'),
             {"path": "loop1", "symlink": "loop2"}, {"path": "loop2", "symlink": "loop1"},
             {"path": "flink", "symlink": "ff"}, js("array.json", [1, 2]),
             text("dup.json", '{"run": {}, "run": {}}')]
    for tag, path, status, msg in [
        ("missing", "nope.json", 2, "nope.json: no such file"),
        ("directory", "d", 2, "is a directory"),
        ("fifo", "ff", 2, "ff: is a FIFO, not a regular file"),
        ("symlink-to-fifo", "flink", 2, "is a FIFO, not a regular file"),
        ("dev-null", "/dev/null", 2, "is a device, not a regular file"),
        ("dev-zero", "/dev/zero", 2, "is a device, not a regular file"),
        ("empty-file", "empty.json", 2, "empty.json:1:1: not valid JSON"),
        ("binary", "garbage.json", 2, "not valid JSON"),
        ("truncated", "trunc.json", 2, "not valid JSON"),
        ("symlink-loop", "loop1", 2, "loop1"),
        ("empty-name", "", 2, "empty"),
        ("top-level-array", "array.json", 2, "array.json"),
        ("duplicate-key", "dup.json", 2, "duplicate key"),
    ]:
        case(f"{name}-{tag}", mk(path), status, msg, files)

# Includes, the sweep's base, a reproduce row's config, a collect manifest and
# result can be hostile files too.
for tag, entry, msg in [("fifo", {"path": "inc.json", "fifo": True}, "is a FIFO"),
                        ("directory", {"path": "inc.json", "dir": True}, "is a directory"),
                        ("missing", None, "inc.json: no such file")]:
    files = [js("c.json", {"include": "inc.json", "devices": [{"name": "d0"}]})]
    if entry:
        files.append(entry)
    case(f"run-include-{tag}", ["run", "c.json"], 2, msg, files)
    files2 = [js("s.json", {"base": "inc.json"})] + ([entry] if entry else [])
    case(f"sweep-base-{tag}", ["sweep", "s.json", "--out", "sw"], 2, ["base: ", msg], files2)
    files3 = [js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                        "metrics": ["irq_rate_M"],
                                        "rows": [{"key": {"a": 1}, "config": "inc.json"}]}]})]
    files3 += [entry] if entry else []
    case(f"reproduce-row-config-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg, files3)
for tag, entry, msg in [("fifo", {"path": "m/sweep.json", "fifo": True}, "is a FIFO"),
                        ("directory", {"path": "m/sweep.json", "dir": True}, "is a directory"),
                        ("dev-null-link", {"path": "m/sweep.json", "symlink": "/dev/null"},
                         "is a device"),
                        ("empty", text("m/sweep.json", ""), "not valid JSON"),
                        ("not-json", text("m/sweep.json", "{points"), "not valid JSON")]:
    case(f"collect-manifest-{tag}", ["collect", "m"], 2, msg, [{"path": "m", "dir": True}, entry])
case("collect-no-dir", ["collect", "nodir"], 2, "nodir: no such directory")
case("collect-dir-is-file", ["collect", "plain.txt"], 2, "not a directory",
     [text("plain.txt", "x")])
case("collect-no-manifest", ["collect", "d"], 2, "no sweep manifest", [{"path": "d", "dir": True}])
case("collect-empty-dir-name", ["collect", ""], 2, "empty")
for tag, entry, msg in [("fifo", {"path": "m/points/p0.json", "fifo": True}, "not a cidsim result"),
                        ("directory", {"path": "m/points/p0.json", "dir": True}, "not a cidsim result"),
                        ("not-json", text("m/points/p0.json", "{"), "not a cidsim result"),
                        ("array", js("m/points/p0.json", [1]), "not a cidsim result"),
                        ("number", js("m/points/p0.json", 5), "not a cidsim result"),
                        ("no-config", js("m/points/p0.json", {"metrics": {}, "seed": 1}),
                         "is for another seed or config"),
                        ("config-not-object",
                         js("m/points/p0.json", {"metrics": {}, "seed": 1, "config": 3}),
                         "is for another seed or config"),
                        ("wrong-seed",
                         js("m/points/p0.json", {"metrics": {}, "seed": 2,
                                                 "config": {"handler": {"loop_limit": 1}}}),
                         "is for another seed or config")]:
    case(f"collect-result-{tag}", ["collect", "m"], 2, msg, sweep_dir([entry]))

# --- The collect manifest, field by field -----------------------------------------
GOOD_POINT = {"name": "p0", "group": "g0", "params": {"handler.loop_limit": 1}, "seed": 1,
              "result": "points/p0.json"}
GOOD = {"parameters": ["handler.loop_limit"], "metrics": ["metrics.msi_rate_mps"],
        "points": [GOOD_POINT]}


def manifest_case(tag, m, msg):
    case(f"collect-manifest-{tag}", ["collect", "m"], 2, msg, [js("m/sweep.json", m)])


manifest_case("reported-points-number", {"points": 5, "parameters": [], "metrics": []},
              "m/sweep.json: points: expected an array of points, found a number")
manifest_case("top-array", [GOOD], "(top level): expected an object, found an array")
manifest_case("top-string", "x", "(top level): expected an object")
for key in ["parameters", "metrics", "points"]:
    m = dict(GOOD)
    del m[key]
    manifest_case(f"no-{key}", m, f"{key}: missing")
    for tag, v in [("null", None), ("number", 3), ("string", "x"), ("object", {})]:
        m = dict(GOOD)
        m[key] = v
        manifest_case(f"{key}-{tag}", m, f"m/sweep.json: {key}: expected an array")
for key in ["parameters", "metrics"]:
    for tag, v in [("number", 1), ("null", None), ("array", ["a"]), ("object", {})]:
        m = dict(GOOD)
        m[key] = [v]
        manifest_case(f"{key}-element-{tag}", m, f"{key}[0]: expected a string")
for tag, v in [("number", 1), ("string", "p"), ("null", None), ("array", [])]:
    manifest_case(f"point-{tag}", dict(GOOD, points=[v]), "points[0]: expected an object")
for field, bad in [("name", [1, None, [], {}]), ("group", [1, None, []]), ("result", [1, None, {}]),
                   ("seed", [-1, "1", 1.5, None, []]), ("params", [1, "x", [], None])]:
    p = dict(GOOD_POINT)
    del p[field]
    manifest_case(f"point-no-{field}", dict(GOOD, points=[p]), f"points[0].{field}: missing")
    for i, v in enumerate(bad):
        p = dict(GOOD_POINT)
        p[field] = v
        manifest_case(f"point-{field}-bad{i}", dict(GOOD, points=[p]), f"points[0].{field}: expected")
manifest_case("reported-param-missing", dict(GOOD, parameters=["handler.loop_limit", "mode"]),
              'points[0].params: no value for "mode", which parameters lists')
manifest_case("param-missing-second-point",
              dict(GOOD, points=[GOOD_POINT, dict(GOOD_POINT, name="p1", params={})]),
              'points[1].params: no value for "handler.loop_limit"')
case("collect-metric-missing", ["collect", "m", "--metric", "metrics.nope"], 2, "metrics.nope",
     sweep_dir([js("m/points/p0.json", {"metrics": {}, "seed": 1,
                                        "config": {"handler": {"loop_limit": 1}}})]))

# --- Numeric options: no wrap-around, no NaN, ranges -------------------------------
NUMERIC = [
    ("run", ["run", "tiny.json", "-q"], [TINY], "seed", "0..18446744073709551615", []),
    ("run", ["run", "tiny.json", "-q"], [TINY], "columns", "10..1000", ["5", "1001"]),
    ("run", ["run", "tiny.json", "-q"], [TINY], "trace-limit", "0..1000000000", []),
    ("reproduce", ["reproduce", "tiny", "--tables", "tables.json"], [TINY, TABLES], "jobs", "1..4096",
     ["0", "4097"]),
    ("reproduce", ["reproduce", "tiny", "--tables", "tables.json"], [TINY, TABLES], "precision",
     "0.001..1", ["0", "-0.5", "2", "1e-9", "inf", "-inf"]),
    ("reproduce", ["reproduce", "tiny", "--tables", "tables.json"], [TINY, TABLES], "max-reruns",
     "0..16", ["17"]),
    ("sweep", ["sweep", "spec.json", "--out", "sw"], [TINY, SPEC], "jobs", "1..4096", ["0", "100000"]),
    ("bench", ["bench", "--no-floor", "--config", "tiny.json"], [TINY], "reps", "1..1000", ["0"]),
    ("bench", ["bench", "--no-floor", "--config", "tiny.json"], [TINY], "duration-ns", "1..1e+15",
     ["0", "inf", "1e300"]),
    ("bench", ["bench", "--config", "tiny.json"], [TINY], "floor-events", "1..1000000000000", ["0"]),
]
COMMON_BAD = ["-1", "-0", "abc", "", "nan", "12abc", "0x10", "99999999999999999999999", "1.5e",
              " 3", "+-1"]
for cmd, argv, files, opt, rng, extra_bad in NUMERIC:
    is_int = "." not in rng.split("..")[0] and opt not in ("precision", "duration-ns")
    bad = [b for b in COMMON_BAD if is_int or b not in ("-0", " 3")] + extra_bad
    if is_int:
        bad += ["1.5", "1e3"]
    for i, b in enumerate(bad):
        case(f"{cmd}-{opt}-bad{i}", argv + [f"--{opt}", b], 2, f"--{opt}: expected", files)
case("run-seed-max-ok", ["run", "tiny.json", "-q", "--seed", "18446744073709551615"], 0, None, [TINY])
case("reproduce-precision-reported-0", ["reproduce", "tiny", "--tables", "tables.json",
                                        "--precision", "0"], 2, "--precision: expected", [TINY, TABLES])
case("explain-variant-out-of-range", ["explain", "scenario.json", "--variant", "2"], 2,
     "--variant: expected an integer 0..1", [SCEN])
case("explain-variant-negative", ["explain", "scenario.json", "--variant", "-1"], 2,
     "--variant: expected", [SCEN])

# --- --set paths ---------------------------------------------------------------------
SET_BAD = [("trailing-dot", "handler.loop_limit.=2", "empty key in the path"),
           ("double-dot", "devices..x=1", "empty key in the path"),
           ("leading-dot", ".handler.loop_limit=2", "empty key in the path"),
           ("only-dot", ".=2", "empty key in the path"),
           ("no-equals", "handler.loop_limit", "expected key.path=value"),
           ("no-key", "=5", "expected key.path=value"),
           ("into-number", "run.seed.x=1", "has no keys"),
           ("index-out-of-range", "devices.7.name=x", "no element 7"),
           ("index-not-number", "devices.x.name=y", "no element x"),
           ("unknown-key", "handler.loop_limt=2", "unknown key"),
           ("wrong-type", "handler.loop_limit=\"many\"", "handler.loop_limit"),
           ("negative", "handler.loop_limit=-1", "handler.loop_limit"),
           ("nan", "run.duration_ns=NaN", "run.duration_ns"),
           ("devices-empty", "devices=[]", "devices: expected at least one device"),
           ("comment-number", "comment=12345", "comment: expected a string, found a number")]
for tag, s, msg in SET_BAD:
    case(f"run-set-{tag}", ["run", "tiny.json", "--set", s], 2, msg, [TINY])
    case(f"bench-set-{tag}", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json",
                              "--set", s], 2, msg, [TINY])

# --- Configs the loader must refuse (reported) ------------------------------------
for tag, cfg, msg in [("empty-object", {}, "devices: expected at least one device, found none"),
                      ("devices-empty", {"devices": []}, "devices: expected at least one device"),
                      ("comment-number", {"comment": 12345, "devices": [{"name": "d"}]},
                       "comment: expected a string, found a number"),
                      ("comment-object", {"comment": {}, "devices": [{"name": "d"}]},
                       "comment: expected a string"),
                      ("comment-null", {"comment": None, "devices": [{"name": "d"}]},
                       "comment: expected a string")]:
    case(f"run-config-{tag}", ["run", "e.json"], 2, ["e.json", msg], [js("e.json", cfg)])
    case(f"bench-config-{tag}", ["bench", "--reps", "1", "--no-floor", "--config", "e.json"], 2,
         ["e.json", msg], [js("e.json", cfg)])
    case(f"sweep-inline-base-{tag}", ["sweep", "s.json", "--out", "sw"], 2, msg,
         [js("s.json", {"base": cfg})])
case("sweep-comment-number", ["sweep", "s.json", "--out", "sw"], 2,
     "s.json: comment: expected a string, found a number",
     [TINY, js("s.json", {"comment": 5, "base": "tiny.json"})])
case("run-systemc-warnings-not-on-stdout", ["run", "tiny.json"], 0, None, [TINY],
     stdout_lacks=["Warning:", "Info:", "Error:"])

# --- explain: scenario fields -------------------------------------------------------
with open(__file__.replace("gen_cases.py", "fixtures/scenario.json")) as f:
    SCENARIO = json.load(f)
for where, tag, v in [("title", "number", 5), ("title", "null", None), ("title", "array", []),
                      ("comment", "number", 12345), ("comment", "object", {}),
                      ("label", "number", 7), ("label", "bool", True), ("mode", "number", 1)]:
    s = json.loads(json.dumps(SCENARIO))
    if where == "title":
        s["explain"]["title"] = v
        key = "explain.title"
    elif where == "comment":
        s["comment"] = v
        key = "comment"
    elif where == "label":
        s["explain"]["variants"][0]["label"] = v
        key = "explain.variants[0].label"
    else:
        del s["explain"]["variants"]
        s["mode"] = v
        key = "mode"
    case(f"explain-{where}-{tag}", ["explain", "x.json"], 2, ["x.json", f"{key}: expected"],
         [js("x.json", s)])
for tag, mut, msg in [("variants-empty", lambda s: s["explain"].update(variants=[]), "non-empty array"),
                      ("variants-number", lambda s: s["explain"].update(variants=3), "non-empty array"),
                      ("set-not-object", lambda s: s["explain"]["variants"][0].update(set=[1]),
                       "set: expected an object"),
                      ("variant-unknown-key", lambda s: s["explain"]["variants"][0].update(lbl="x"),
                       "unknown key"),
                      ("explain-not-object", lambda s: s.update(explain=[]), "expected an object"),
                      ("no-devices", lambda s: s.update(devices=[]), "at least one device"),
                      ("set-bad-path", lambda s: s["explain"]["variants"][0].update(set={"a..b": 1}),
                       "empty key in the path")]:
    s = json.loads(json.dumps(SCENARIO))
    mut(s)
    case(f"explain-{tag}", ["explain", "x.json"], 2, ["x.json", msg], [js("x.json", s)])
case("explain-unknown-scenario", ["explain", "no-such-scenario"], 2, "no such scenario")

# --- sweep: outputs that are inputs or one another --------------------------------
SW = [TINY, SPEC, text("plain.txt", "x"), {"path": "ff", "fifo": True}]
case("sweep-reported-emit-slurm-is-spec", ["sweep", "spec.json", "--out", "sw", "--emit-slurm",
                                           "spec.json"], 2, "is an input of this command", SW)
case("sweep-reported-emit-slurm-is-manifest", ["sweep", "spec.json", "--out", "sw", "--emit-slurm",
                                               "sw/sweep.json"], 2,
     "this file is also written as the sweep manifest", SW)
case("sweep-emit-slurm-is-base", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", "tiny.json"],
     2, "is an input of this command", SW)
case("sweep-emit-slurm-commands-is-spec", ["sweep", "spec.commands", "--out", "sw", "--emit-slurm",
                                           "spec.sh"], 2, "is an input of this command",
     [TINY, copy("spec.commands", "spec.json")])
case("sweep-emit-slurm-is-inline-base", ["sweep", "inline-spec.json", "--out", "sw",
                                         "--emit-slurm", "sw/base.json"], 2,
     "this file is also written as the sweep's base.json", [copy("inline-spec.json")])
case("sweep-spec-is-manifest", ["sweep", "sw/sweep.json", "--out", "sw"], 2,
     "is an input of this command", [TINY, copy("sw/sweep.json", "spec.json"),
                                     copy("sw/tiny.json", "tiny.json")])
case("sweep-inline-base-written-over-spec", ["sweep", "sw/base.json", "--out", "sw"], 2,
     "is an input of this command", [copy("sw/base.json", "inline-spec.json")])
for tag, target, msg in [("empty", "", "empty"), ("dev-null", "/dev/null", "is a device"),
                         ("fifo", "ff", "is a FIFO"), ("file", "plain.txt", "is a file"),
                         ("under-file", "plain.txt/x", "plain.txt/x")]:
    case(f"sweep-out-{tag}", ["sweep", "spec.json", "--out", target], 2, msg, SW)
for tag, target, msg in [("empty", "", "empty"), ("dev-null", "/dev/null", "is a device"),
                         ("fifo", "ff", "is a FIFO"), ("directory", "sw", "is a directory"),
                         ("missing-parent", "nodir/x.sh", "cannot write here")]:
    case(f"sweep-emit-slurm-{tag}", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", target], 2,
         msg, SW)
case("sweep-emit-slurm-ok", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", "job.sh"], 0, None,
     SW, creates=["job.sh", "job.commands", "sw/sweep.json"])
case("sweep-runs-ok", ["sweep", "spec.json", "--out", "sw", "--jobs", "1"], 0, None, SW,
     creates=["sw/sweep.json"])

# --- reproduce: --keep, --tables, --format ----------------------------------------
RP = ["reproduce", "tiny", "--tables", "tables.json"]
RPF = [TINY, TABLES, text("plain.txt", "x"), {"path": "ff", "fifo": True}]
for tag, target, msg in [("reported-etc-hostname", "/etc/hostname", "is a file; expected a directory"),
                         ("file", "plain.txt", "is a file; expected a directory"),
                         ("dev-null", "/dev/null", "is a device"),
                         ("fifo", "ff", "is a FIFO"),
                         ("empty", "", "empty"),
                         ("under-file", "plain.txt/k", "--keep plain.txt/k")]:
    case(f"reproduce-keep-{tag}", RP + ["--keep", target], 2, msg, RPF)
case("reproduce-reported-tables-is-out", RP + ["--out", "tables.json"], 2,
     "is an input of this command", RPF)
case("reproduce-out-is-row-config", RP + ["--out", "tiny.json"], 2, "is an input of this command", RPF)
case("reproduce-reported-out-unwritable", RP + ["--out", "/proc/cidsim/x"], 2, "cannot write here", RPF)
case("reproduce-format-bad", RP + ["--format", "xml"], 2, "--format must be", RPF)
case("reproduce-unknown-table", ["reproduce", "nope", "--tables", "tables.json"], 2,
     "choose a table", RPF)
case("reproduce-ok", RP + ["--out", "r.txt", "--keep", "k"], 0, None, RPF, creates=["r.txt", "k"])
for tag, t, msg in [("tables-not-array", {"tables": 3}, "tables: expected an array"),
                    ("no-tables", {}, "tables: expected an array"),
                    ("row-config-nope",
                     {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                  "metrics": ["irq_rate_M"],
                                  "rows": [{"key": {"a": 1}, "config": "nope.json"}]}]},
                     "nope.json: no such file")]:
    case(f"reproduce-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg, [js("t.json", t)])

# --- every command: unknown options, missing arguments --------------------------
for cmd, argv, files in [("run", ["run", "tiny.json"], [TINY]),
                         ("sweep", ["sweep", "spec.json", "--out", "sw"], [TINY, SPEC]),
                         ("collect", ["collect", "m"], sweep_dir()),
                         ("reproduce", RP, [TINY, TABLES]),
                         ("explain", ["explain", "scenario.json"], [SCEN]),
                         ("bench", ["bench", "--no-floor", "--config", "tiny.json"], [TINY]),
                         ("params", ["params"], [])]:
    case(f"{cmd}-unknown-option", argv + ["--no-such-option"], 2, "unrecognised option", files)
    case(f"{cmd}-option-missing-value", [argv[0], "--help", "--definitely-not"], 2,
         "unrecognised option", files)
case("run-no-config", ["run"], 2, "a config file is required")
case("run-two-configs", ["run", "tiny.json", "tiny.json"], 2, "", [TINY])
case("sweep-no-out", ["sweep", "spec.json"], 2, "--out DIR are required", [TINY, SPEC])
case("sweep-no-spec", ["sweep", "--out", "sw"], 2, "are required")
case("collect-no-dir-arg", ["collect"], 2, "a sweep directory is required")
case("cli-unknown-command", ["frobnicate"], 2, "unknown command", group="cli")
case("cli-no-command", [], 2, "usage", group="cli")
case("params-unknown-block", ["params", "no-such-block"], 2, "no-such-block")
case("params-bad-format", ["params", "--format", "xml"], 2, "--format must be")

names = [c["name"] for c in cases]
dups = {n for n in names if names.count(n) > 1}
assert not dups, dups
print(json.dumps(cases, indent=1))
