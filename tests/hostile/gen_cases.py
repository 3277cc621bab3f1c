#!/usr/bin/env python3
"""Writes cases.json, the hostile-input cases (issue 19) hostile_runner runs.

Each family below crosses one kind of hostile input with every command or
option it applies to. Every rejection (status 2) lists what its message must
name (the file or option, and the key); the runner also checks of every case
that no input changed, no temporary file is left and that a failed command
left no file behind (hostile_runner.cpp). Run it after changing a family,
with the binary built (the machine families' keys are the binary's own,
from `cidsim params --format json`; CIDSIM=path names another binary):
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
NVME = copy("nvme.json")  # an NVMe job: what --fio-json reports on
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
            ["--out", "--stats", "--trace-vcd", "--trace-perfetto", "--fio-json"]),
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
def with_nvme(argv, files, inp, opts):
    """run's --fio-json needs an NVMe job, which tiny.json has not."""
    if "--fio-json" in opts:
        return [a if a != inp else "nvme.json" for a in argv], files + [NVME], "nvme.json"
    return argv, files, inp


for cmd, (cmd_argv, cmd_files, cmd_inp, outs) in COMMANDS.items():
    for opt in outs:
        argv, files, inp = with_nvme(cmd_argv, cmd_files, cmd_inp, [opt])
        base_files = files + [text("plain.txt", "a file\n"), {"path": "d", "dir": True},
                              {"path": "ff", "fifo": True}, text("other.txt", "keep me\n")]
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
            argv, files, inp = with_nvme(cmd_argv, cmd_files, cmd_inp, [a, b])
            base_files = files + [text("plain.txt", "a file\n")]
            case(f"{cmd}-{a.lstrip('-')}-same-as-{b.lstrip('-')}", argv + [a, "x.out", b, "x.out"], 2,
                 "this file is also written as", base_files, names=[b + " x.out", "written as " + a])
            case(f"{cmd}-{a.lstrip('-')}-link-to-{b.lstrip('-')}", argv + [a, "x.out", b, "lx"], 2,
                 "this file is also written as", base_files + [{"path": "lx", "symlink": "x.out"}],
                 names=[b + " lx", "written as " + a])

# Writes that succeed go through symlinks and leave the link a link.
for cmd, opt, extra in [("run", "--out", []), ("run", "--stats", []), ("run", "--trace-vcd", []),
                        ("run", "--fio-json", []),
                        ("run", "--trace-perfetto", []), ("explain", "--out", []),
                        ("reproduce", "--out", []), ("bench", "--json", [])]:
    argv, files, inp = with_nvme(*COMMANDS[cmd][:3], [opt])
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
    "sweep-spec": (lambda p: ["sweep", p, "--out", "sw"], "a JSON sweep spec"),
    "reproduce-tables": (lambda p: ["reproduce", "tiny", "--tables", p],
                         "a JSON tables file"),
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
        ("under-a-file", "empty.json/x.json", 2, "(empty.json is not a directory)"),
        ("trailing-slash", "empty.json/", 2, "(empty.json is not a directory)"),
        ("directory", "d", 2, "d: is a directory; expected " + what),
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
        option = ["--tables"] if name == "reproduce-tables" else []
        case(f"{name}-{tag}", mk(path), status, msg, files, names=[path or "empty"] + option)

# Includes, the sweep's base, a reproduce row's config, a collect manifest and
# result can be hostile files too.
for tag, entry, msg in [("fifo", {"path": "inc.json", "fifo": True}, "is a FIFO"),
                        ("directory", {"path": "inc.json", "dir": True}, "is a directory"),
                        ("missing", None, "inc.json: no such file")]:
    files = [js("c.json", {"include": "inc.json", "devices": [{"name": "d0"}]})]
    if entry:
        files.append(entry)
    case(f"run-include-{tag}", ["run", "c.json"], 2, msg, files, names=["c.json: include", "inc.json"])
    files2 = [js("s.json", {"base": "inc.json"})] + ([entry] if entry else [])
    case(f"sweep-base-{tag}", ["sweep", "s.json", "--out", "sw"], 2, ["base: ", msg], files2,
         names=["s.json: base", "inc.json"])
    files3 = [js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                        "metrics": ["irq_rate_M"],
                                        "rows": [{"key": {"a": 1}, "config": "inc.json"}]}]})]
    files3 += [entry] if entry else []
    case(f"reproduce-row-config-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg, files3,
         names=["t.json: tables[0].rows[0].config (table x, row a=1)", "inc.json"])
for tag, entry, msg in [("fifo", {"path": "m/sweep.json", "fifo": True}, "is a FIFO"),
                        ("directory", {"path": "m/sweep.json", "dir": True}, "is a directory"),
                        ("dev-null-link", {"path": "m/sweep.json", "symlink": "/dev/null"},
                         "is a device"),
                        ("empty", text("m/sweep.json", ""), "not valid JSON"),
                        ("not-json", text("m/sweep.json", "{points"), "not valid JSON")]:
    case(f"collect-manifest-{tag}", ["collect", "m"], 2, msg, [{"path": "m", "dir": True}, entry],
         names=["m/sweep.json"])
case("collect-no-dir", ["collect", "nodir"], 2, "nodir: no such directory", names=["nodir"])
case("collect-dir-is-file", ["collect", "plain.txt"], 2, "not a directory",
     [text("plain.txt", "x")], names=["plain.txt"])
case("collect-no-manifest", ["collect", "d"], 2, "no sweep manifest", [{"path": "d", "dir": True}],
     names=["d"])
case("collect-empty-dir-name", ["collect", ""], 2, "empty", names=["empty"])
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
    case(f"collect-result-{tag}", ["collect", "m"], 2, msg, sweep_dir([entry]),
         names=["m/points/p0.json"])

# --- The collect manifest, field by field -----------------------------------------
GOOD_POINT = {"name": "p0", "group": "g0", "params": {"handler.loop_limit": 1}, "seed": 1,
              "result": "points/p0.json"}
GOOD = {"parameters": ["handler.loop_limit"], "metrics": ["metrics.msi_rate_mps"],
        "points": [GOOD_POINT]}


def manifest_case(tag, m, msg):
    case(f"collect-manifest-{tag}", ["collect", "m"], 2, msg, [js("m/sweep.json", m)],
         names=["m/sweep.json"])


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
                                        "config": {"handler": {"loop_limit": 1}}})]),
     names=["--metric metrics.nope", "m/points/p0.json"])

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
        case(f"{cmd}-{opt}-bad{i}", argv + [f"--{opt}", b], 2, f"--{opt}: expected", files,
             names=[f"--{opt}"])
case("run-seed-max-ok", ["run", "tiny.json", "-q", "--seed", "18446744073709551615"], 0, None, [TINY])
case("reproduce-precision-reported-0", ["reproduce", "tiny", "--tables", "tables.json",
                                        "--precision", "0"], 2, "--precision: expected", [TINY, TABLES],
     names=["--precision"])
case("explain-variant-out-of-range", ["explain", "scenario.json", "--variant", "2"], 2,
     "--variant: expected an integer 0..1", [SCEN], names=["--variant"])
case("explain-variant-negative", ["explain", "scenario.json", "--variant", "-1"], 2,
     "--variant: expected", [SCEN], names=["--variant"])

# --- --set paths ---------------------------------------------------------------------
# (tag, --set, message, what it must name: the option and path, or the file and key)
SET_BAD = [("trailing-dot", "handler.loop_limit.=2", "empty key in the path", ["--set handler"]),
           ("double-dot", "devices..x=1", "empty key in the path", ["--set devices"]),
           ("leading-dot", ".handler.loop_limit=2", "empty key in the path", ["--set .handler"]),
           ("only-dot", ".=2", "empty key in the path", ["--set ."]),
           ("no-equals", "handler.loop_limit", "expected key.path=value", ["--set handler.loop_limit"]),
           ("no-key", "=5", "expected key.path=value", ["--set =5"]),
           ("into-number", "run.seed.x=1", "has no keys", ["--set run.seed"]),
           ("index-out-of-range", "devices.7.name=x", "no element 7", ["--set devices.7"]),
           ("index-not-number", "devices.x.name=y", "no element x", ["--set devices.x"]),
           ("index-with-space", "devices. 0.irq_cpus=[0]", "digits only", ["--set devices. 0"]),
           ("index-with-plus", "devices.+0.irq_cpus=[0]", "digits only", ["--set devices.+0"]),
           ("index-negative", "devices.-1.irq_cpus=[0]", "digits only", ["--set devices.-1"]),
           # A bad value a --set gave is reported against that --set, not the file.
           ("unknown-key", "handler.loop_limt=2", "unknown key",
            ["--set handler.loop_limt=2: handler.loop_limt"]),
           ("wrong-type", "handler.loop_limit=\"many\"", "handler.loop_limit",
            ["--set handler.loop_limit="]),
           ("negative", "handler.loop_limit=-1", "handler.loop_limit",
            ["--set handler.loop_limit=-1: "]),
           ("nan", "run.duration_ns=NaN", "run.duration_ns", ["--set run.duration_ns=NaN: "]),
           ("devices-empty", "devices=[]", "devices: expected at least one device",
            ["--set devices=[]: "]),
           ("comment-number", "comment=12345", "comment is free text for its reader, and "
            "changes no run", ["--set comment=12345: "]),
           ("irq-cpus-cpulist-past-cpus", "devices.0.irq_cpus=\"0-1\"", "CPU 1 does not exist",
            ["--set devices.0.irq_cpus="]),
           ("irq-cpus-bad-cpulist", "devices.0.irq_cpus=\"0-\"", "is not a cpulist",
            ["--set devices.0.irq_cpus="])]
for tag, s, msg, nm in SET_BAD:
    case(f"run-set-{tag}", ["run", "tiny.json", "--set", s], 2, msg, [TINY], names=nm)
    case(f"bench-set-{tag}", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json",
                              "--set", s], 2, msg, [TINY], names=nm)

# --- Configs the loader must refuse (reported) ------------------------------------
for tag, cfg, msg in [("empty-object", {}, "devices: expected at least one device, found none"),
                      ("devices-empty", {"devices": []}, "devices: expected at least one device"),
                      ("comment-number", {"comment": 12345, "devices": [{"name": "d"}]},
                       "comment: expected a string, found a number"),
                      ("comment-object", {"comment": {}, "devices": [{"name": "d"}]},
                       "comment: expected a string"),
                      ("comment-null", {"comment": None, "devices": [{"name": "d"}]},
                       "comment: expected a string")]:
    case(f"run-config-{tag}", ["run", "e.json"], 2, ["e.json", msg], [js("e.json", cfg)],
         names=["e.json: "])
    case(f"bench-config-{tag}", ["bench", "--reps", "1", "--no-floor", "--config", "e.json"], 2,
         ["e.json", msg], [js("e.json", cfg)], names=["e.json: "])
    case(f"sweep-inline-base-{tag}", ["sweep", "s.json", "--out", "sw"], 2, msg,
         [js("s.json", {"base": cfg})], names=["s.json"])
case("sweep-comment-number", ["sweep", "s.json", "--out", "sw"], 2,
     "s.json: comment: expected a string, found a number",
     [TINY, js("s.json", {"comment": 5, "base": "tiny.json"})], names=["s.json"])
# A name SystemC would rewrite (a space, a dot) or that names another module
# (cpu0): no SystemC warning, never into run -q's silence or --emit-commands'
# one command per line.
with open(__file__.replace("gen_cases.py", "fixtures/tiny.json")) as f:
    SPACED = json.load(f)
SPACED["devices"][0]["name"] = "my dev.0"
for e in SPACED["workloads"][0]["events"]:
    e[1] = "my dev.0"
case("run-systemc-warnings-not-on-stdout", ["run", "sp.json", "-q"], 0, None, [js("sp.json", SPACED)],
     stdout_lacks=["Warning", "W506", "In file", "my"], stderr_lacks=["Warning"])
CPU0 = json.loads(json.dumps(SPACED).replace("my dev.0", "cpu0"))
case("run-device-named-as-a-cpu", ["run", "c.json", "-q"], 0, None, [js("c.json", CPU0)],
     stderr_lacks=["Warning"])
case("sweep-systemc-warnings-not-in-commands", ["sweep", "s.json", "--out", "sw", "--emit-commands"],
     0, None, [js("sp.json", SPACED), js("s.json", {"base": "sp.json",
                                                      "vary": {"handler.loop_limit": [1, 2]}})],
     stdout_lacks=["Warning", "W506", "In file"], creates=["sw/sweep.json"])
# A control character in a varied value would split its point's command line.
for tag, spec, key in [
        ("vary-mode-newline", {"base": "tiny.json", "vary": {"mode": ["a\nb", "c"]}},
         "vary.mode[0]"),
        ("vary-name-newline", {"base": "tiny.json", "vary": {"devices.0.name": ["d", "e\rf"]}},
         "vary.devices.0.name[1]"),
        ("vary-nested-tab", {"base": "tiny.json", "vary": {"devices.0.irq_cpus": [[0], {"a\tb": 1}]}},
         "vary.devices.0.irq_cpus[1]"),
        ("zip-newline", {"base": "tiny.json", "zip": [{"mode": ["x\n", "y"],
                                                       "handler.loop_limit": [1, 2]}]},
         "zip[0].mode[0]")]:
    case(f"sweep-{tag}", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 2,
         "a control character", [TINY, js("s.json", spec)], names=["s.json: ", key])
# The sweep's own outputs on a faulty disk.
case("sweep-out-read-only-mount", ["sweep", "spec.json", "--out", "ro/sw"], 2, "Read-only file system",
     [TINY, SPEC, {"path": "ro", "tmpfs": "ro"}], names=["ro/sw"])
case("sweep-emit-slurm-read-only-mount", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", "ro/j.sh"],
     2, "Read-only file system", [TINY, SPEC, {"path": "ro", "tmpfs": "ro"}], names=["--emit-slurm ro/j.sh"])
case("sweep-out-disk-full", ["sweep", "spec.json", "--out", "full/sw"], 1,
     ["full/sw/sweep.json", "No space left on device"], [TINY, SPEC, {"path": "full", "tmpfs": "full"}])
case("sweep-emit-slurm-disk-full", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", "full/j.sh"], 1,
     ["full/j.commands", "No space left on device"], [TINY, SPEC, {"path": "full", "tmpfs": "full"}])
# Two outputs are placed together or not at all: the CSV stays as it was when the JSON fails.
case("collect-csv-and-json-disk-full",
     ["collect", "m", "--csv", "t.csv", "--json", "full/t.json"], 1,
     ["full/t.json", "No space left on device"],
     sweep_dir([text("t.csv", "old table\n"), {"path": "full", "tmpfs": "full"}]))
# sbatch reads the #SBATCH --output line itself: a path it would misread is refused.
for tag, out in [("space", "s p"), ("percent", "s%j"), ("hash", "s#1"), ("quote", "s'q")]:
    case(f"sweep-emit-slurm-out-{tag}",
         ["sweep", "spec.json", "--out", out, "--emit-slurm", "j.sh"], 2,
         "#SBATCH --output line cannot carry", [TINY, SPEC], names=["--out"])
case("sweep-emit-commands-and-slurm", ["sweep", "spec.json", "--out", "o", "--emit-commands",
                                       "--emit-slurm", "j.sh"], 2, "give one of them", [TINY, SPEC],
     names=["--emit-commands", "--emit-slurm"])
case("run-workload-type-missing",
     ["run", "tiny.json", "-q", "--set", 'workloads.0={"device":"dev0"}'], 2,
     "(it is required), found none", [TINY], names=["workloads[0].type"])

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
         [js("x.json", s)], names=["x.json: "])
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
    case(f"explain-{tag}", ["explain", "x.json"], 2, ["x.json", msg], [js("x.json", s)],
         names=["x.json: "])
case("explain-unknown-scenario", ["explain", "no-such-scenario"], 2, "no such scenario",
     names=["no-such-scenario"])

# --- sweep: outputs that are inputs or one another --------------------------------
SW = [TINY, SPEC, text("plain.txt", "x"), {"path": "ff", "fifo": True}]
case("sweep-reported-emit-slurm-is-spec", ["sweep", "spec.json", "--out", "sw", "--emit-slurm",
                                           "spec.json"], 2, "is an input of this command", SW, names=["--emit-slurm spec.json"])
case("sweep-reported-emit-slurm-is-manifest", ["sweep", "spec.json", "--out", "sw", "--emit-slurm",
                                               "sw/sweep.json"], 2,
     "this file is also written as the sweep manifest", SW, names=["--emit-slurm sw/sweep.json"])
case("sweep-emit-slurm-is-base", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", "tiny.json"],
     2, "is an input of this command", SW, names=["--emit-slurm tiny.json"])
case("sweep-emit-slurm-commands-is-spec", ["sweep", "spec.commands", "--out", "sw", "--emit-slurm",
                                           "spec.sh"], 2, "is an input of this command",
     [TINY, copy("spec.commands", "spec.json")], names=["spec.commands"])
case("sweep-emit-slurm-is-inline-base", ["sweep", "inline-spec.json", "--out", "sw",
                                         "--emit-slurm", "sw/base.json"], 2,
     "this file is also written as the sweep's base.json", [copy("inline-spec.json")], names=["--emit-slurm sw/base.json"])
case("sweep-spec-is-manifest", ["sweep", "sw/sweep.json", "--out", "sw"], 2,
     "is an input of this command", [TINY, copy("sw/sweep.json", "spec.json"),
                                     copy("sw/tiny.json", "tiny.json")], names=["sw/sweep.json"])
case("sweep-inline-base-written-over-spec", ["sweep", "sw/base.json", "--out", "sw"], 2,
     "is an input of this command", [copy("sw/base.json", "inline-spec.json")], names=["sw/base.json"])
for tag, target, msg in [("empty", "", "empty"), ("dev-null", "/dev/null", "is a device"),
                         ("fifo", "ff", "is a FIFO"), ("file", "plain.txt", "is a file"),
                         ("under-file", "plain.txt/x", "plain.txt/x")]:
    case(f"sweep-out-{tag}", ["sweep", "spec.json", "--out", target], 2, msg, SW,
         names=["--out " + target if target else "--out"])
for tag, target, msg in [("empty", "", "empty"), ("dev-null", "/dev/null", "is a device"),
                         ("fifo", "ff", "is a FIFO"), ("directory", "sw", "is a directory"),
                         ("missing-parent", "nodir/x.sh", "cannot write here")]:
    case(f"sweep-emit-slurm-{tag}", ["sweep", "spec.json", "--out", "sw", "--emit-slurm", target], 2,
         msg, SW, names=["--emit-slurm " + target if target else "--emit-slurm"])
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
    case(f"reproduce-keep-{tag}", RP + ["--keep", target], 2, msg, RPF,
         names=["--keep " + target if target else "--keep"])
case("reproduce-keep-read-only-mount", RP + ["--keep", "ro/k"], 2, "Read-only file system",
     RPF + [{"path": "ro", "tmpfs": "ro"}], names=["--keep ro/k"])
# $TMPDIR is the environment, not an argument: a scratch directory that cannot be made is a runtime failure.
case("reproduce-tmpdir-read-only-mount", RP, 1, ["cannot make a temporary directory", "Read-only file system"],
     RPF + [{"path": "ro", "tmpfs": "ro"}], env={"TMPDIR": "{dir}/ro"})
case("reproduce-reported-tables-is-out", RP + ["--out", "tables.json"], 2,
     "is an input of this command", RPF, names=["--out tables.json"])
case("reproduce-out-is-row-config", RP + ["--out", "tiny.json"], 2, "is an input of this command", RPF, names=["--out tiny.json"])
case("reproduce-reported-out-unwritable", RP + ["--out", "/proc/cidsim/x"], 2, "cannot write here", RPF, names=["--out /proc/cidsim/x"])
case("reproduce-format-bad", RP + ["--format", "xml"], 2, "--format must be", RPF, names=["--format"])
case("reproduce-unknown-table", ["reproduce", "nope", "--tables", "tables.json"], 2,
     "choose a table", RPF, names=["tiny"])
case("reproduce-ok", RP + ["--out", "r.txt", "--keep", "k"], 0, None, RPF, creates=["r.txt", "k"])
for tag, t, msg in [("tables-not-array", {"tables": 3}, "tables: expected an array"),
                    ("no-tables", {}, "tables: expected an array"),
                    ("row-config-nope",
                     {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                  "metrics": ["irq_rate_M"],
                                  "rows": [{"key": {"a": 1}, "config": "nope.json"}]}]},
                     "nope.json: no such file")]:
    case(f"reproduce-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg, [js("t.json", t)],
         names=(["t.json: tables[0].rows[0].config", "nope.json"] if "nope" in tag
                else ["t.json: "]))


# A table or row of the wrong shape: the file and the key are named, never
# the JSON library's own text.
def table_with(**fields):
    t = {"name": "x", "title": "t", "set": "prediction", "metrics": ["irq_rate_M"],
         "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}
    t.update(fields)
    return {"tables": [t]}


def row_with(**fields):
    r = {"key": {"a": 1}, "config": "tiny.json"}
    r.update(fields)
    return table_with(rows=[{k: v for k, v in r.items() if v is not None}])


for tag, t, msg, key in [
        ("rows-string", table_with(rows="abc"), "expected a non-empty array, got a string", "rows"),
        ("rows-empty", table_with(rows=[]), "got an empty one", "rows"),
        ("table-unknown-key", table_with(bogus=1), "unknown key", "bogus"),
        ("row-unknown-key", row_with(bogus=1), "unknown key", "rows[0].bogus"),
        ("set-nonsense", table_with(set="nonsense"), "expected calibration or prediction", "set"),
        ("published-not-shown", row_with(published={"iops_M": 1.0}), "not a metric the row shows",
         "rows[0].published.iops_M"),
        ("name-all", table_with(name="all"), "cannot name a table", "name"),
        ("name-empty", table_with(name=""), "cannot name a table", "name"),
        ("title-control", table_with(title="\u001b]0;pwn\u0007"), "control character", "title"),
        ("row-key-nested", row_with(key={"a": {"b": [1, 2]}}),
         "expected a string, number or boolean", "rows[0].key.a"),
        ("row-key-duplicate", table_with(rows=[{"key": {"a": 1}, "config": "tiny.json"},
                                               {"key": {"a": 1}, "config": "tiny.json"}]),
         "the key of rows[0] too", "rows[1].key"),
        ("rows-missing", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                      "metrics": ["irq_rate_M"]}]}, "missing", "rows"),
        ("row-no-key", row_with(key=None), "missing", "rows[0].key"),
        ("row-key-string", row_with(key="k"), "expected an object, got a string", "rows[0].key"),
        ("row-not-object", table_with(rows=[3]), "expected an object, got a number", "rows[0]"),
        ("row-config-number", row_with(config=5), "expected a string, got a number",
         "rows[0].config"),
        ("row-config-empty", row_with(config=""), "empty", "rows[0].config"),
        ("row-set-string", row_with(set="mode=posted"), "expected an array of strings",
         "rows[0].set"),
        ("row-published-string", row_with(published={"irq_rate_M": "9"}),
         "expected a number >= 0, got a string", "rows[0].published.irq_rate_M"),
        ("name-number", table_with(name=3), "expected a string, got a number", "name"),
        ("metrics-typo", table_with(metrics=["irq_rate_m"]), "did you mean 'irq_rate_M'",
         "metrics[0]"),
        ("table-not-object", {"tables": ["x"]}, "expected an object, got a string", "tables[0]")]:
    case(f"reproduce-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg,
         [js("t.json", t), TINY], names=["t.json: tables[0]" + ("." + key if key != "tables[0]" else "")])

case("reproduce-table-name-twice", ["reproduce", "x", "--tables", "t.json"], 2,
     "names an earlier table too",
     [js("t.json", {"tables": table_with()["tables"] * 2}), TINY], names=["t.json: tables[1].name"])

# --- every command: unknown options, missing arguments --------------------------
for cmd, argv, files in [("run", ["run", "tiny.json"], [TINY]),
                         ("sweep", ["sweep", "spec.json", "--out", "sw"], [TINY, SPEC]),
                         ("collect", ["collect", "m"], sweep_dir()),
                         ("reproduce", RP, [TINY, TABLES]),
                         ("explain", ["explain", "scenario.json"], [SCEN]),
                         ("bench", ["bench", "--no-floor", "--config", "tiny.json"], [TINY]),
                         ("params", ["params"], [])]:
    case(f"{cmd}-unknown-option", argv + ["--no-such-option"], 2, "unrecognised option", files,
         names=["--no-such-option"])
    case(f"{cmd}-option-missing-value", [argv[0], "--help", "--definitely-not"], 2,
         "unrecognised option", files, names=["--definitely-not"])
case("run-no-config", ["run"], 2, "a config file is required", names=["config file"])
case("run-two-configs", ["run", "tiny.json", "tiny.json"], 2, "unexpected argument(s)", [TINY], names=["'tiny.json'"])
case("sweep-no-out", ["sweep", "spec.json"], 2, "--out DIR are required", [TINY, SPEC], names=["--out"])
case("sweep-no-spec", ["sweep", "--out", "sw"], 2, "are required", names=["sweep spec"])
case("collect-no-dir-arg", ["collect"], 2, "a sweep directory is required", names=["sweep directory"])
case("cli-unknown-command", ["frobnicate"], 2, "unknown command", group="cli", names=["frobnicate"])
case("cli-no-command", [], 2, "usage", group="cli", names=["usage"])
case("params-unknown-block", ["params", "no-such-block"], 2, "no-such-block", names=["no-such-block"])
case("params-bad-format", ["params", "--format", "xml"], 2, "--format must be", names=["--format"])

# --- explain: every check of the explain section names the scenario file and key ---
EXPLAIN_BAD = [
    ("columns-too-few", lambda s: s["explain"].update(columns=5), "explain.columns"),
    ("columns-huge", lambda s: s["explain"].update(columns=1e300), "explain.columns"),
    ("columns-fraction", lambda s: s["explain"].update(columns=50.5), "explain.columns"),
    ("columns-string", lambda s: s["explain"].update(columns="80"), "explain.columns"),
    ("narration-lines-negative", lambda s: s["explain"].update(narration_lines=-1),
     "explain.narration_lines"),
    ("narration-lines-huge", lambda s: s["explain"].update(narration_lines=1e300),
     "explain.narration_lines"),
    ("window-reversed", lambda s: s["explain"].update(window_ns=[5, 1]), "explain.window_ns"),
    ("window-string", lambda s: s["explain"].update(window_ns="0:10"), "explain.window_ns"),
    ("window-negative", lambda s: s["explain"].update(window_ns=[-5, 10]), "explain.window_ns"),
    ("window-one-number", lambda s: s["explain"].update(window_ns=[1]), "explain.window_ns"),
    ("window-huge", lambda s: s["explain"].update(window_ns=[0, 1e300]), "explain.window_ns"),
    ("window-within-a-ps", lambda s: s["explain"].update(window_ns=[7500, 7500.0004]),
     "explain.window_ns"),
    ("narration-window-within-a-ps",
     lambda s: s["explain"].update(narration_window_ns=[100, 100.0004]),
     "explain.narration_window_ns"),
    ("narration-window-null", lambda s: s["explain"].update(narration_window_ns=None),
     "explain.narration_window_ns"),
    ("unknown-key", lambda s: s["explain"].update(colums=80), "explain.colums"),
    ("affinity-not-object", lambda s: s["explain"].update(affinity_move=3), "explain.affinity_move"),
    ("affinity-unknown-key", lambda s: s["explain"].update(affinity_move={"at": 1}),
     "explain.affinity_move.at"),
    ("affinity-device-number", lambda s: s["explain"].update(affinity_move={"device": 1}),
     "explain.affinity_move.device"),
    ("affinity-device-missing", lambda s: s["explain"].update(affinity_move={"device": "nope"}),
     "explain.affinity_move.device"),
    ("affinity-cpu-missing", lambda s: s["explain"].update(affinity_move={"device": "dev0", "to_cpu": 9}),
     "explain.affinity_move.to_cpu"),
    ("affinity-cpu-negative", lambda s: s["explain"].update(affinity_move={"to_cpu": -1}),
     "explain.affinity_move.to_cpu"),
    ("affinity-queue-missing", lambda s: s["explain"].update(affinity_move={"device": "dev0", "queue": 4}),
     "explain.affinity_move.queue"),
    ("affinity-queue-huge", lambda s: s["explain"].update(affinity_move={"queue": 1e300}),
     "explain.affinity_move.queue"),
    ("affinity-at-negative", lambda s: s["explain"].update(affinity_move={"at_ns": -1}),
     "explain.affinity_move.at_ns"),
    ("affinity-at-huge", lambda s: s["explain"].update(affinity_move={"at_ns": 1e300}),
     "explain.affinity_move.at_ns"),
    ("affinity-retry-zero", lambda s: s["explain"].update(affinity_move={"cleanup_retry_ns": 0}),
     "explain.affinity_move.cleanup_retry_ns"),
    ("affinity-check-pir-number", lambda s: s["explain"].update(affinity_move={"check_pir": 1}),
     "explain.affinity_move.check_pir"),
    ("variant-not-object", lambda s: s["explain"]["variants"].__setitem__(0, 5), "explain.variants[0]"),
    ("variant-label-array", lambda s: s["explain"]["variants"][1].update(label=[]),
     "explain.variants[1].label"),
    ("variant-set-empty-key", lambda s: s["explain"]["variants"][0].update(set={"a..b": 1}),
     'explain.variants[0].set."a..b"'),
    ("variant-set-into-number", lambda s: s["explain"]["variants"][1].update(set={"run.duration_ns.x": 1}),
     'explain.variants[1].set."run.duration_ns.x"'),
    ("variant-set-unknown", lambda s: s["explain"]["variants"][0].update(set={"handler.nope": 1}),
     "handler.nope"),
    ("variant-set-wrong-type", lambda s: s["explain"]["variants"][1].update(set={"mode": 3}), "mode"),
    ("variant-set-columns", lambda s: s["explain"]["variants"][1].update(set={"explain.columns": 3}),
     "explain.columns"),
    ("title-object", lambda s: s["explain"].update(title={}), "explain.title"),
    ("top-unknown-key", lambda s: s.update(explian={}), "explian"),
    ("run-duration-negative", lambda s: s["run"].update(duration_ns=-1), "run.duration_ns"),
    ("device-vectors-exhausted", lambda s: s["devices"][0].update(vectors=250, irq_cpus=[0]),
     "devices[0]"),
    ("workload-unknown-device", lambda s: s["workloads"][0].update(events=[[0, "nope", 0]]),
     "workloads[0]"),
    ("top-array", None, "config: expected an object"),
]
for tag, mut, key in EXPLAIN_BAD:
    s = json.loads(json.dumps(SCENARIO))
    if mut:
        mut(s)
    else:
        s = [s]
    case(f"explain-scenario-{tag}", ["explain", "x.json"], 2, None, [js("x.json", s)],
         names=["x.json: ", key])
    # The same check must hold when --set brings the bad value in.
explain_set = [("columns", "explain.columns=5", "explain.columns"),
               ("empty-key", "explain..columns=5", "--set explain..columns"),
               ("unknown", "handler.loop_limt=2", "handler.loop_limt"),
               ("wrong-type", "run.duration_ns=\"x\"", "run.duration_ns"),
               ("vcpus-not-array", "vcpus=3", "vcpus"),
               ("platform-unknown", "platform=\"xyz\"", "platform")]
for tag, set_, key in explain_set:
    case(f"explain-set-{tag}", ["explain", "scenario.json", "--set", set_], 2, None, [SCEN],
         names=["--set", key] if tag == "empty-key" else ["scenario.json", "--set", key])
for tag, set_, key in [("vcpu-guest-idle", "vcpus.0.guest_idle=\"sleep\"", "vcpus[0].guest_idle"),
                       ("vcpu-index", "vcpus.3.apicv=true", "--set vcpus.3"),
                       ("assigned-missing-vcpu", "devices.0.assigned_to=\"vcpu4\"", "devices[0].assigned_to"),
                       ("host-handler", "devices.0.host_handler=\"soft\"", "devices[0].host_handler")]:
    case(f"explain-vm-delivery-set-{tag}", ["explain", "vm-delivery", "--set", set_], 2, None,
         names=[key])
VMSCEN = copy("vm-scenario.json")
case("explain-vm-scenario-out-is-input", ["explain", "vm-scenario.json", "--out", "vm-scenario.json"], 2,
     "is an input of this command", [VMSCEN], names=["--out vm-scenario.json"])
case("explain-vm-delivery-out-dev-null", ["explain", "vm-delivery", "--out", "/dev/null"], 2,
     "is a device", names=["--out /dev/null"])
case("explain-vm-delivery-out-read-only", ["explain", "vm-delivery", "--out", "ro/x.json"], 2,
     "Read-only file system", [{"path": "ro", "tmpfs": "ro"}], names=["--out ro/x.json"])
case("explain-vm-delivery-ok", ["explain", "vm-delivery", "--out", "r.json"], 0, None,
     creates=["r.json"])

# --- vcpus[] and platform: the sections added after the first campaign -----------
with open(__file__.replace("gen_cases.py", "fixtures/vm.json")) as f:
    VM = json.load(f)
VM_BAD = [
    ("vcpus-number", lambda c: c.update(vcpus=3), "vcpus"),
    ("vcpus-object", lambda c: c.update(vcpus={}), "vcpus"),
    ("vcpu-not-object", lambda c: c.update(vcpus=[1]), "vcpus[0]"),
    ("vcpu-unknown-key", lambda c: c["vcpus"][0].update(apicvv=True), "vcpus[0].apicvv"),
    ("vcpu-apicv-string", lambda c: c["vcpus"][0].update(apicv="yes"), "vcpus[0].apicv"),
    ("vcpu-vid-number", lambda c: c["vcpus"][0].update(vid=1), "vcpus[0].vid"),
    ("vcpu-guest-idle-unknown", lambda c: c["vcpus"][0].update(guest_idle="sleep"), "vcpus[0].guest_idle"),
    ("vcpu-guest-idle-null", lambda c: c["vcpus"][0].update(guest_idle=None), "vcpus[0].guest_idle"),
    ("vcpus-too-many", lambda c: c.update(vcpus=[{}] * 9), "vcpus"),
    ("vm-not-object", lambda c: c.update(vm=[]), "vm"),
    ("vm-unknown-key", lambda c: c["vm"].update(exit_ns=1), "vm.exit_ns"),
    ("vm-negative", lambda c: c["vm"].update(context_switch_ns=-1), "vm.context_switch_ns"),
    ("vm-above-range", lambda c: c["vm"].update(vmexit_hw_ns=1e9), "vm.vmexit_hw_ns"),
    ("vm-nan-string", lambda c: c["vm"].update(vmexit_hw_ns="NaN"), "vm.vmexit_hw_ns"),
    ("vm-irq-posting-string", lambda c: c["vm"].update(irq_posting="true"), "vm.irq_posting"),
    ("assigned-to-missing", lambda c: c["devices"][0].update(assigned_to="vcpu1"), "devices[0].assigned_to"),
    ("assigned-to-number", lambda c: c["devices"][0].update(assigned_to=0), "devices[0].assigned_to"),
    ("host-handler-unknown", lambda c: c["devices"][0].update(host_handler="soft"), "devices[0].host_handler"),
    ("host-handler-number", lambda c: c["devices"][0].update(host_handler=1), "devices[0].host_handler"),
    ("platform-unknown", lambda c: c.update(platform="xyz"), "platform"),
    ("platform-number", lambda c: c.update(platform=1), "platform"),
    ("platform-null", lambda c: c.update(platform=None), "platform"),
    ("platform-empty", lambda c: c.update(platform=""), "platform"),
]
for tag, mut, key in VM_BAD:
    c = json.loads(json.dumps(VM))
    mut(c)
    case(f"run-vm-{tag}", ["run", "v.json"], 2, None, [js("v.json", c)], names=["v.json: ", key])
    case(f"bench-vm-{tag}", ["bench", "--reps", "1", "--no-floor", "--config", "v.json"], 2, None,
         [js("v.json", c)], names=["v.json: ", key])
    case(f"sweep-vm-base-{tag}", ["sweep", "s.json", "--out", "sw"], 2, None,
         [js("s.json", {"base": c, "vary": {"vm.context_switch_ns": [500, 1000]}})],
         names=["s.json", key])
for tag, vary, key in [("vcpus-empty", {"vcpus": [[], [{}]]}, "vary.vcpus[0]"),
                       ("platform-unknown", {"platform": ["generic", "nope"]}, "vary.platform[1]"),
                       ("guest-idle-unknown", {"vcpus.0.guest_idle": ["run", "nap"]},
                        "vary.vcpus.0.guest_idle[1]"),
                       ("vcpu-index-missing", {"vcpus.1.apicv": [True, False]}, "vcpus")]:
    case(f"sweep-vm-vary-{tag}", ["sweep", "s.json", "--out", "sw"], 2, None,
         [copy("vm.json"), js("s.json", {"base": "vm.json", "vary": vary})], names=["s.json: ", key])
case("run-vm-platform-include-conflict", ["run", "v.json"], 2, None,
     [js("v.json", dict(VM, platform="generic", include="p.json")),
      js("p.json", {"platform": "spr"})], names=["v.json: ", "platform"])
case("run-vm-set-vcpus-wrong", ["run", "vm.json", "--set", "vcpus.0.apicv=2"], 2, None,
     [copy("vm.json")], names=["--set vcpus.0.apicv=2", "vcpus[0].apicv"])
case("run-vm-stats-is-input", ["run", "vm.json", "--stats", "vm.json"], 2,
     "is an input of this command", [copy("vm.json")], names=["--stats vm.json"])
case("run-vm-ok", ["run", "vm.json", "-q", "--stats", "s.txt", "--out", "r.json"], 0, None,
     [copy("vm.json")], creates=["s.txt", "r.json"])

# --- reproduce's systems tables (vfio-threading, systems): refused before any run --
RS = ["reproduce", "vfio-threading"]
for tag, extra, key in [("precision-zero", ["--precision", "0"], "--precision"),
                        ("precision-negative", ["--precision", "-1"], "--precision"),
                        ("precision-nan", ["--precision", "nan"], "--precision"),
                        ("jobs-negative", ["--jobs", "-1"], "--jobs"),
                        ("max-reruns-big", ["--max-reruns", "99"], "--max-reruns"),
                        ("format-bad", ["--format", "yaml"], "--format"),
                        ("out-empty", ["--out", ""], "--out"),
                        ("out-dev-null", ["--out", "/dev/null"], "--out /dev/null"),
                        ("out-fifo", ["--out", "ff"], "--out ff"),
                        ("out-directory", ["--out", "d"], "--out d"),
                        ("out-read-only", ["--out", "ro/t.txt"], "--out ro/t.txt"),
                        ("keep-file", ["--keep", "plain.txt"], "--keep plain.txt"),
                        ("keep-fifo", ["--keep", "ff"], "--keep ff"),
                        ("keep-under-file", ["--keep", "plain.txt/k"], "--keep plain.txt/k")]:
    for table in ["vfio-threading", "systems"]:
        case(f"reproduce-{table}-{tag}", ["reproduce", table] + extra, 2, None,
             [text("plain.txt", "x"), {"path": "ff", "fifo": True}, {"path": "d", "dir": True},
              {"path": "ro", "tmpfs": "ro"}], names=[key])
# The systems tables and their row config, copied: outputs onto them are refused.
VMT = [{"path": "vm/tables.json", "repo": "configs/vm/tables.json"},
       {"path": "vm/e3-vfio.json", "repo": "configs/vm/e3-vfio.json"}]
for tag, target in [("tables", "vm/tables.json"), ("row-config", "vm/e3-vfio.json"),
                    ("row-config-via-dotdot", "vm/../vm/e3-vfio.json")]:
    case(f"reproduce-vfio-threading-out-is-{tag}",
         ["reproduce", "vfio-threading", "--tables", "vm/tables.json", "--out", target], 2,
         "is an input of this command", VMT, names=["--out " + target])
case("reproduce-vfio-threading-keep-is-row-config",
     ["reproduce", "vfio-threading", "--tables", "vm/tables.json", "--keep", "vm/e3-vfio.json"], 2,
     "expected a directory", VMT, names=["--keep vm/e3-vfio.json"])
case("reproduce-systems-with-own-tables", ["reproduce", "systems", "--tables", "tables.json"], 2,
     "choose a table", [TINY, TABLES], names=["tiny"])

# --- bench checks every option and output before it runs the floor -----------------
# A floor of 10^12 events would run for a day: a check made after it hangs the case.
BF = ["bench", "--reps", "1", "--floor-events", "1000000000000", "--config", "tiny.json"]
for tag, extra, key in [("json-dev-null", ["--json", "/dev/null"], "--json /dev/null"),
                        ("json-is-config", ["--json", "tiny.json"], "--json tiny.json"),
                        ("json-read-only", ["--json", "ro/b.json"], "--json ro/b.json"),
                        ("set-bad", ["--set", "handler.loop_limit=-1"], "handler.loop_limit"),
                        ("duration-zero", ["--duration-ns", "0"], "--duration-ns"),
                        ("config-missing", ["--config", "nope.json"], "nope.json")]:
    case(f"bench-before-floor-{tag}", BF + extra, 2, None,
         [TINY, {"path": "ro", "tmpfs": "ro"}], names=[key])

# --- Runtime failures: a run that breaks an invariant writes nothing ---------------
with open(__file__.replace("gen_cases.py", "fixtures/tiny.json")) as f:
    BROKEN = json.load(f)
# Four completions within 3 ns on a queue bounded at one: bounded_queues fails at 1 ns.
BROKEN["devices"][0]["max_in_flight"] = 1
BROKEN["workloads"][0]["events"] = [[t, "dev0", 0] for t in range(4)]
BROKEN_SCEN = dict(json.loads(json.dumps(BROKEN)), explain=SCENARIO["explain"])
INV = ["invariant bounded_queues violated", "b.json"]
case("run-invariant-broken-writes-nothing",
     ["run", "b.json", "--out", "r.json", "--stats", "s.txt", "--trace-vcd", "v.vcd",
      "--trace-perfetto", "p.json"], 1, INV, [js("b.json", BROKEN)])
case("explain-invariant-broken-writes-nothing", ["explain", "b.json", "--out", "r.json"], 1, INV,
     [js("b.json", BROKEN_SCEN)])
case("reproduce-row-invariant-broken-writes-nothing",
     ["reproduce", "x", "--tables", "t.json", "--out", "r.txt"], 1, ["x row 0 failed"] + INV,
     [js("b.json", BROKEN), js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                                       "metrics": ["irq_rate_M"],
                                                       "rows": [{"key": {"a": 1}, "config": "b.json"}]}]}),
      {"path": "tmp", "dir": True}], env={"TMPDIR": "{dir}/tmp"})

# --- stdout on a full disk: printed results that are lost are a failed write ------
for cmd, argv, files, extra in [
        ("run", ["run", "tiny.json"], [TINY], {}),
        ("params", ["params"], [], {}),
        ("explain", ["explain", "scenario.json"], [SCEN], {}),
        ("reproduce", ["reproduce", "tiny", "--tables", "tables.json"], [TINY, TABLES], {}),
        ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json"], [TINY], {}),
        ("sweep", ["sweep", "spec.json", "--out", "sw", "--emit-commands"], [TINY, SPEC], {})]:
    case(f"{cmd}-stdout-disk-full", argv, 1, "writing to standard output failed: No space left on device",
         files, stdout_to="/dev/full", **extra)

# --- a sweep never writes through a link in its own directory -------------------
for tag, link in [("result", "sw/points/handler.loop_limit=1,seed=1.json"),
                  ("log", "sw/logs/handler.loop_limit=2,seed=1.stderr")]:
    case(f"sweep-{tag}-symlink-outside", ["sweep", "spec.json", "--out", "sw"], 2,
         "is a symbolic link", [TINY, SPEC, text("other.txt", "keep me\n"),
                                {"path": "sw/points", "dir": True}, {"path": "sw/logs", "dir": True},
                                {"path": link, "symlink": "../../other.txt"}],
         names=["--out sw", link[len("sw/"):]])

# --- the first round's last silent acceptances ------------------------------------
for tag, values in [("int-and-float", [2, 2.0]), ("float-and-int", [3.0, 3])]:
    case(f"sweep-vary-{tag}-one-point", ["sweep", "s.json", "--out", "sw"], 2, "appears twice",
         [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": values}})],
         names=["s.json", "vary.handler.loop_limit[1]"])
for tag, metric, msg in [("trailing-dot", "metrics.msis.", "an empty key in the path"),
                         ("leading-dot", ".metrics.msis", "an empty key in the path"),
                         ("index-past-devices", "per_device.7.msis", "no point's result has"),
                         ("index-past-cpus", "per_cpu.1.busy_fraction", "no point's result has")]:
    case(f"sweep-metric-{tag}", ["sweep", "s.json", "--out", "sw"], 2, msg,
         [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": [1, 2]},
                              "metrics": [metric]})], names=["s.json", "metrics[0]: " + metric])
case("sweep-metric-index-ok", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 0, None,
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": [1, 2]},
                          "metrics": ["per_device.0.msis", "per_cpu.0.busy_fraction"]})],
     creates=["sw", "sw/sweep.json", "sw/points", "sw/logs", "sw/.sweep.lock"])
for tag, mut, key in [
        ("window-past-run", lambda e: e.update(window_ns=[0, 1e9]), "explain.window_ns"),
        ("narration-window-past-run", lambda e: e.update(narration_window_ns=[100, 30000]),
         "explain.narration_window_ns"),
        ("affinity-move-after-run",
         lambda e: e.update(affinity_move={"at_ns": 1e9, "device": "dev0", "to_cpu": 0}),
         "explain.affinity_move.at_ns"),
        ("affinity-move-check-pir-string",
         lambda e: e.update(affinity_move={"at_ns": 100, "device": "dev0", "to_cpu": 0,
                                           "check_pir": "yes"}), "explain.affinity_move.check_pir"),
        ("retrigger-after-run", lambda e: e.update(retrigger={"at_ns": [100, 20000], "device": "dev0"}),
         "explain.retrigger.at_ns[1]")]:
    s = json.loads(json.dumps(SCENARIO))
    mut(s["explain"])
    case(f"explain-{tag}", ["explain", "x.json"], 2, None, [js("x.json", s)], names=["x.json", key])
with open(__file__.replace("gen_cases.py", "fixtures/tiny.json")) as f:
    MANY = json.load(f)
MANY["workloads"] = [{"type": "trace", "events": [[i, "dev0", 0]]} for i in range(2049)]
case("run-workloads-over-limit", ["run", "w.json"], 2, "expected at most 2048 workloads",
     [text("w.json", json.dumps(MANY))], names=["w.json", "workloads"])
for i, w in enumerate(["0:inf", "0:1e300", "1e9:2e9", "0x10:0x20", "0:nan", "-5:10", "10:5",
                       "30000:"]):
    case(f"run-window-ns-bad{i}", ["run", "tiny.json", "-q", "--timeline", "--window-ns", w], 2,
         None, [TINY], names=["--window-ns " + w])
for i, p in enumerate(["", "0", "101", "50:", ":50", "1e2", "nan", "50,99", "-1", "0x10"]):
    case(f"run-percentile-list-bad{i}", ["run", "nvme.json", "-q", "--fio-json", "f.json",
                                          "--percentile-list", p], 2, None, [NVME],
         names=["--percentile-list"])
case("run-percentile-list-without-fio-json", ["run", "tiny.json", "-q", "--percentile-list", "50"],
     2, "give --fio-json FILE too", [TINY], names=["--percentile-list"])
case("run-window-ns-whole-ok", ["run", "tiny.json", "-q", "--timeline", "--window-ns", "0:20000"], 0,
     None, [TINY])
case("run-out-probe-name-taken", ["run", "tiny.json", "-q", "--out", "r.json"], 0, None,
     [TINY, {"path": "r.json.cidsim-probe", "dir": True}], creates=["r.json"])
# A null (undefined) figure in every seed of a group: no mean, said, not refused.
case("collect-aggregate-seeds-null-metric", ["collect", "m", "--aggregate-seeds"], 0,
     "metrics.msi_rate_mps: undefined (null) in 1 point(s)' results (p0)",
     sweep_dir([js("m/points/p0.json", {"metrics": {"msi_rate_mps": None}, "seed": 1,
                                        "config": {"handler": {"loop_limit": 1}}})]),
     stdout_holds=["g0,1,1,,,"])
# --- the second round: includes, explain --set, the Xen domain, names ---------------
# A tree of includes with no cycle: each file names ten others, eight deep.
TREE = [js("c.json", {"include": "t1.json", "devices": [{"name": "d0"}]})]
TREE += [js(f"t{i}.json", {"include": [f"t{i + 1}.json"] * 10}) for i in range(1, 8)]
TREE += [js("t8.json", {"comment": "leaf"})]
case("run-include-tree-too-many-files", ["run", "c.json"], 2, "more than 64 included files",
     TREE, names=["c.json: include", "t1.json"])
case("run-include-name-with-nul", ["run", "c.json"], 2, "a control character in a file name",
     [js("c.json", {"include": "tiny.json\u0000x", "devices": [{"name": "d0"}]}), TINY],
     names=["c.json: include"])
for tag, s_, key in [("unknown-key", "explain.bogus=1", "explain.bogus"),
                     ("variants-number", "explain.variants=5", "explain.variants"),
                     ("variants-empty", "explain.variants=[]", "explain.variants"),
                     ("title-number", "explain.title=5", "explain.title"),
                     ("section-number", "explain=5", "explain")]:
    case(f"explain-set-{tag}", ["explain", "scenario.json", "--set", s_], 2, None, [SCEN],
         names=["scenario.json with --set", key])
XEN = {"path": "x.json", "repo": "configs/vm/e1-xen-eoi.json"}
for tag, sets, msg, key in [
        ("mode-posted", ["mode=posted"], "a Xen domain's devices are remapped by Xen", "mode"),
        ("more-sockets-than-vcpus", ["xen.vcpus=1", "xen.sockets=8"], "a socket without",
         "xen.sockets"),
        ("no-device-assigned", [f"devices.{i}.assigned_to=\"\"" for i in range(4)],
         "beside a Xen domain, whose host CPU runs only its timer", "devices[0].assigned_to")]:
    argv = ["run", "x.json", "-q"]
    for s_ in sets:
        argv += ["--set", s_]
    case(f"run-xen-{tag}", argv, 2, msg, [XEN], names=[key])
case("run-xen-device-host-handler", ["run", "x.json", "-q", "--set", "devices.0.host_handler=threaded"],
     2, "a Xen domain's device interrupts go through Xen", [XEN], names=["devices[0].host_handler"])
case("run-vm-host-device-host-handler",
     ["run", "hg.json", "-q", "--set", "devices.0.host_handler=threaded"], 2,
     "only a device assigned to a vCPU", [{"path": "hg.json", "repo": "configs/vm/host-and-guest.json"}],
     names=["devices[0].host_handler"])
case("run-override-empty-cpu", ["run", "ov.json", "-q"], 2, "an empty section sets nothing",
     [TINY, text("ov.json", '{"include": "tiny.json", "overrides": [{"cpus": "0", "cpu": {}}]}')],
     names=["ov.json", "overrides[0].cpu"])
case("run-override-no-section", ["run", "ov.json", "-q"], 2, "an override needs the costs it sets",
     [TINY, text("ov.json", '{"include": "tiny.json", "overrides": [{"cpus": "0"}]}')],
     names=["ov.json", "overrides[0]"])
case("run-override-socket-twice", ["run", "ov.json", "-q"], 2, "0 is listed twice",
     [TINY, text("ov.json", '{"include": "tiny.json", "overrides": [{"sockets": [0, 0], "cpu": {"eoi_ns": 50}}]}')],
     names=["ov.json", "overrides[0].sockets"])
case("explain-run-too-long", ["explain", "scenario.json", "--set", "run.duration_ns=1e13"], 2,
     "explain records every step", [SCEN], names=["scenario.json with --set", "run.duration_ns"])
P9 = {"path": "p9.json", "repo": "configs/power/e2-p9.json"}
for tag, sets, msg, key in [
        ("seventeen-chips", ["power.cores_per_chip=[" + ",".join(["1"] * 17) + "]"], "found 17",
         "power.cores_per_chip"),
        ("too-many-cpus", ["power.cores_per_chip=[" + ",".join(["40"] * 16) + "]",
                           "power.threads_per_core=8"], "found 5120", "power.cores_per_chip"),
        ("cpulist-newline", ["ipistorm.cpulist=0-3\n4"], "\\x0A", "ipistorm.cpulist")]:
    argv = ["run", "p9.json", "-q"]
    for s_ in sets:
        argv += ["--set", s_]
    case(f"run-power-{tag}", argv, 2, msg, [P9], names=[key])
for tag, fname in [("posted", "posted-bursty.json")]:
    case(f"run-x86-config-with-power-{tag}", ["run", "x.json", "-q", "--set", "power.loop_ns=1"], 2,
         "a POWER partition (power) has none",
         [{"path": "x.json", "repo": "configs/examples/" + fname}],
         names=["--set power.loop_ns=1: mode"])
case("run-power-with-workloads", ["run", "w.json", "-q"], 2, "runs ipistorm, its own section",
     [P9, text("w.json", '{"include": "p9.json", "workloads": [{"type": "periodic", "device": "idle0", '
                         '"period_ns": 1000}]}')], names=["w.json", "workloads"])
case("run-override-cpus-first-missing", ["run", "ov.json", "-q"], 2, "CPU 1 is not in the host's 1 CPUs",
     [TINY, text("ov.json", '{"include": "tiny.json", "overrides": [{"cpus": "0-32", "cpu": {"eoi_ns": 50}}]}')],
     names=["ov.json", "overrides[0].cpus"])
for key in ["vm.host_tick_hz", "vm.guest_timer_hz"]:
    case(f"run-vm-{key.split('.')[1]}-below-1hz", ["run", "vm.json", "-q", "--set", f"{key}=1e-9"], 2,
         "expected 0 (off) or 1 to 10000 Hz", [copy("vm.json")], names=[f"--set {key}=1e-9", key])
for opt, val in [("--lhs", "3"), ("--top", "2"), ("--sensitivity-length", "0.2"), ("--devices", "x.json")]:
    case(f"reproduce{opt}-without-sensitivity", RP + [opt, val], 2, "shapes the sensitivity runs",
         RPF, names=[opt])
for tag, name in [("leading-zero", "vcpu00"), ("leading-zero-one", "vcpu01")]:
    case(f"run-vm-assigned-to-{tag}", ["run", "vm.json", "-q", "--set",
                                        f"devices.0.assigned_to={name}"], 2, "is not a vCPU",
         [copy("vm.json")], names=["devices[0].assigned_to"])
case("run-non-finite-names-key", ["run", "inf.json"], 2, "non-finite number",
     [text("inf.json", '{"run": {"duration_ns": 1e400}}')], names=["inf.json", "run.duration_ns"])
case("run-null-once", ["run", "tiny.json", "--set", "handler.loop_limit=null"], 2,
     "found null", [TINY], names=["--set handler.loop_limit=null"])

# --- every key of every machine family's section, with values of the wrong kind ----
# The keys, types and ranges are the binary's own (`cidsim params --format
# json`, as docs/parameters.md lists them): run this script with the binary
# built, or with CIDSIM=path/to/cidsim.
import os
import subprocess
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PARAMS = json.loads(subprocess.run(
    [os.environ.get("CIDSIM", os.path.join(ROOT, "build", "cidsim")), "params", "--format", "json"],
    check=True, capture_output=True, text=True).stdout)


def shipped(rel, **changes):
    with open(os.path.join(ROOT, rel)) as f:
        c = json.load(f)
    c["run"] = {"duration_ns": 20000, "warmup_ns": 0, "batches": 1}
    for words in ("comment", "provenance"):  # every case holds a copy: keep it small
        c.pop(words, None)
    c.update(changes)
    return c


with open(__file__.replace("gen_cases.py", "fixtures/vm.json")) as f:
    KVM = json.load(f)
FAMILIES = {  # section: (base config, how a key is written into it)
    "xen": shipped("configs/vm/e1-xen-eoi.json"), "xen_line": shipped("configs/vm/e1-xen-eoi.json"),
    "vm": KVM, "vcpus[]": KVM,
    "power": shipped("configs/explain/ipi-storm.json"), "xive": shipped("configs/explain/ipi-storm.json"),
    "power_line": shipped("configs/explain/ipi-storm.json"),
    "ipistorm": shipped("configs/explain/ipi-storm.json"),
    "topology": None,
}
with open(__file__.replace("gen_cases.py", "fixtures/tiny.json")) as f:
    FAMILIES["topology"] = json.load(f)
FAMILIES["power"].pop("explain", None)
for k in ("xive", "power_line", "ipistorm"):
    FAMILIES[k].pop("explain", None)


def bad_values(p):
    """(tag, value) pairs no key of this description takes."""
    t, lo, hi = p["type"], p.get("min"), p.get("max")
    out = [("wrong-type-string" if t != "string" else "wrong-type-number", "x" if t != "string" else 5),
           ("null", None), ("object", {"a": 1})]
    if t in ("number", "integer", "integer list"):
        out.append(("nan-text", "NaN"))
        if lo is not None:
            out.append(("below-min", lo - 1 if t != "number" else lo - 1e-3 * max(1, abs(lo)) - 1))
        if hi is not None:
            out.append(("above-max", hi * 2 + 1))
        out.append(("huge", 1e300))
    if t in ("integer",):
        out.append(("fraction", (lo or 0) + 0.5))
    if t == "integer list":
        out.append(("empty-list", []))
    if t == "choice":
        out.append(("unknown-choice", "nonsense"))
    if t == "boolean":
        out.append(("yes-text", "yes"))
    return out


for section, base in FAMILIES.items():
    name = section.rstrip("[]")
    for p in PARAMS[section]:
        for tag, value in bad_values(p):
            c = json.loads(json.dumps(base))
            if section == "vcpus[]":
                c["vcpus"][0][p["key"]] = value
                key = f"vcpus[0].{p['key']}"
            else:
                c.setdefault(name, {})[p["key"]] = value
                key = f"{name}.{p['key']}"
            case(f"run-key-{name}-{p['key']}-{tag}", ["run", "c.json", "-q"], 2, None,
                 [text("c.json", json.dumps(c, separators=(",", ":")))], names=["c.json", key])
    c = json.loads(json.dumps(base))
    if section == "vcpus[]":
        c["vcpus"][0]["bogus_key"] = 1
        key = "vcpus[0].bogus_key"
    else:
        c.setdefault(name, {})["bogus_key"] = 1
        key = f"{name}.bogus_key"
    case(f"run-key-{name}-unknown", ["run", "c.json", "-q"], 2, "unknown key",
         [text("c.json", json.dumps(c, separators=(",", ":")))], names=["c.json", key])
# A key of another family's section beside this one's.
for tag, base, other in [("kvm-with-xen", KVM, {"xen": {"vcpus": 2}}),
                         ("xen-with-vm", FAMILIES["xen"], {"vm": {}}),
                         ("xen-line-without-xen", FAMILIES["topology"], {"xen_line": {"miss_ns": 1}}),
                         ("xive-without-power", FAMILIES["topology"], {"xive": {"trigger_ns": 1}}),
                         ("power-line-without-power", FAMILIES["topology"],
                          {"power_line": {"miss_ns": 1}})]:
    c = json.loads(json.dumps(base))
    c.update(other)
    case(f"run-families-{tag}", ["run", "c.json", "-q"], 2, None, [text("c.json", json.dumps(c, separators=(",", ":")))],
         names=["c.json", list(other)[0]])

# One full disk among several outputs: none of them is written.
case("run-outputs-with-full-trace-write-nothing",
     ["run", "tiny.json", "-q", "--out", "r.json", "--stats", "s.txt", "--trace-vcd", "full/x.vcd"],
     1, ["full/x.vcd", "No space left on device"], [TINY, {"path": "full", "tmpfs": "full"}])
case("run-outputs-with-full-perfetto-write-nothing",
     ["run", "tiny.json", "-q", "--trace-vcd", "v.vcd", "--stats", "s.txt", "--trace-perfetto",
      "full/p.json"], 1, ["full/p.json", "No space left on device"],
     [TINY, {"path": "full", "tmpfs": "full"}])

# --- second hostile round: what a wider campaign found ----------------------------
# --out inside --keep could be one of the rows' files: refused before any run.
case("reproduce-out-inside-keep", RP + ["--keep", "k", "--out", "k/tiny-0.json"], 2,
     "inside the --keep directory", RPF, names=["--out k/tiny-0.json"])
case("reproduce-out-is-keep", RP + ["--keep", "k", "--out", "k"], 2,
     "is the --keep directory", RPF, names=["--out k"])
# [i], .i and [*] name one element: two axes on it would decide it by order.
for tag, vary in [("index-forms", {"devices[0].vectors": [1], "devices.0.vectors": [2]}),
                  ("wildcard-and-index", {"devices[*].vectors": [1, 2], "devices[0].vectors": [4]})]:
    case(f"sweep-vary-aliased-{tag}", ["sweep", "s.json", "--out", "sw"], 2,
         "already fixed or varied elsewhere",
         [TINY, js("s.json", {"base": "tiny.json", "vary": vary})], names=["s.json: vary."])
# A bracket holds an index or * after a key.
for tag, path in [("unclosed-wildcard", "devices[*.vectors"), ("unclosed-index", "devices[0.vectors"),
                  ("key-in-brackets", "run[duration_ns]"), ("stray-close", "devices0].vectors")]:
    case(f"run-set-malformed-brackets-{tag}", ["run", "tiny.json", "-q", "--set", path + "=2"], 2,
         None, [TINY], names=["--set " + path])
# Sockets split the cores evenly (README, Configs).
case("run-topology-sockets-uneven", ["run", "t.json", "-q"], 2, "do not split evenly",
     [js("t.json", dict(FAMILIES["topology"],
                        topology=dict(FAMILIES["topology"]["topology"], cpus=6, sockets=4)))],
     names=["t.json: ", "topology.sockets"])
# A count per chip keeps its order and repeats: a cpulist string would sort and merge them.
case("run-power-cores-per-chip-string", ["run", "p.json", "-q"], 2, "found a string",
     [js("p.json", dict(FAMILIES["power"], power=dict(FAMILIES["power"]["power"],
                                                      cores_per_chip="16,16")))],
     names=["p.json: ", "power.cores_per_chip"])
# A VM tick whose handler outlasts its period.
for tag, changes, key in [("host-tick", {"host_tick_hz": 10000, "host_tick_ns": 1000000},
                           "vm.host_tick_ns"),
                          ("guest-timer", {"guest_timer_hz": 10000, "guest_timer_ns": 200000},
                           "vm.guest_timer_ns")]:
    case(f"run-vm-{tag}-longer-than-period", ["run", "v.json", "-q"], 2, "not shorter than the period",
         [js("v.json", dict(KVM, vm=dict(KVM.get("vm", {}), **changes)))], names=["v.json: ", key])

# A folder the user runs in never replaces the shipped device profiles.
case("run-profile-not-from-working-directory", ["run", "c.json", "-q", "--out", "r.json"], 0, None,
     [js("c.json", dict(FAMILIES["topology"], run={"duration_ns": 20000, "warmup_ns": 0},
                        devices=[{"name": "dev0", "profile": "nvme_pm174x", "irq_cpus": [0]}])),
      text("configs/rfc/devices.json", "not the shipped profiles")], creates=["r.json"])

# --- issue 32's leftovers ------------------------------------------------------------
# A row's config and set are named by the tables file, the row and the table,
# never as a command-line --set the user did not give.
TWO_ROWS = [{"key": {"a": 1}, "config": "tiny.json"}]
for tag, row, msg, key in [
        ("set-unknown-key", {"set": ["handler.loop_limt=2"]}, "unknown key",
         "rows[0].set[0] (table x, row a=1): handler.loop_limt=2: handler.loop_limt"),
        ("set-bad-value", {"set": ["handler.loop_limit=-1"]}, "found -1",
         "rows[0].set[0] (table x, row a=1): handler.loop_limit=-1: handler.loop_limit"),
        ("set-empty-key", {"set": ["mode=posted", "handler..x=1"]}, "empty key in the path",
         "rows[0].set[1] (table x, row a=1): handler..x=1"),
        ("set-no-equals", {"set": ["handler.loop_limit"]}, "expected key.path=value",
         "rows[0].set[0] (table x, row a=1): handler.loop_limit"),
        ("set-no-element", {"set": ["devices.7.name=x"]}, "no element 7",
         "rows[0].set[0] (table x, row a=1): devices.7"),
        ("config-bad-value", {"config": "bad.json"}, "found -1",
         "rows[0].config (table x, row a=1): ./bad.json: handler.loop_limit"),
        ("second-row-set", None, "expected one of remappable, posted",
         "rows[1].set[0] (table x, row a=2): mode=3: mode")]:
    rows = [dict(TWO_ROWS[0], **row)] if row else \
        TWO_ROWS + [{"key": {"a": 2}, "config": "tiny.json", "set": ["mode=3"]}]
    case(f"reproduce-row-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg,
         [js("t.json", table_with(rows=rows)), TINY,
          js("bad.json", {"include": "tiny.json", "handler": {"loop_limit": -1}})],
         names=["t.json: tables[0]." + key])
# A list of metrics shows each once, and shows one at least.
for tag, t, msg, key in [
        ("metrics-empty", table_with(metrics=[]), "expected at least one metric", "metrics"),
        ("metrics-twice", table_with(metrics=["irq_rate_M", "iops_M", "irq_rate_M"]),
         "listed twice (first at [0])", "metrics[2]"),
        ("row-metrics-empty", row_with(metrics=[]), "expected at least one metric",
         "rows[0].metrics"),
        ("row-metrics-twice", row_with(metrics=["iops_M", "iops_M"]), "listed twice",
         "rows[0].metrics[1]"),
        ("row-metrics-unknown", row_with(metrics=["nope"]), "unknown metric",
         "rows[0].metrics[0]")]:
    case(f"reproduce-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg,
         [js("t.json", t), TINY], names=["t.json: tables[0]." + key])

# A collect manifest holds only what `cidsim sweep` writes: each point once, each
# result a path inside the sweep directory.
for tag, m, msg, key in [
        ("unknown-key", dict(GOOD, bogus=1), "unknown key", "bogus"),
        ("point-unknown-key", dict(GOOD, points=[dict(GOOD_POINT, bogus=1)]), "unknown key",
         "points[0].bogus"),
        ("points-empty", dict(GOOD, points=[]), "expected at least one point", "points"),
        ("point-twice", dict(GOOD, points=[GOOD_POINT, GOOD_POINT]), "names points[0] too",
         "points[1].name"),
        ("result-twice", dict(GOOD, points=[GOOD_POINT, dict(GOOD_POINT, name="p1",
                                                            result="points/./p0.json")]),
         "is the result of points[0] too", "points[1].result"),
        ("result-absolute", dict(GOOD, points=[dict(GOOD_POINT, result="/etc/hostname")]),
         "expected a path relative to the sweep directory", "points[0].result"),
        ("result-empty", dict(GOOD, points=[dict(GOOD_POINT, result="")]),
         "expected a path relative to the sweep directory", "points[0].result"),
        ("result-dotdot", dict(GOOD, points=[dict(GOOD_POINT, result="../tiny.json")]),
         "a path through \"..\"", "points[0].result"),
        ("result-dotdot-inside", dict(GOOD, points=[dict(GOOD_POINT,
                                                        result="points/../../tiny.json")]),
         "a path through \"..\"", "points[0].result"),
        ("result-through-link", dict(GOOD, points=[dict(GOOD_POINT, result="out/tiny.json")]),
         "leads outside the sweep directory", "points[0].result"),
        ("config-digest-number", dict(GOOD, points=[dict(GOOD_POINT, config_digest=5)]),
         "expected a string, found a number", "points[0].config_digest")]:
    case(f"collect-manifest-{tag}", ["collect", "m"], 2, msg,
         [js("m/sweep.json", m), TINY, {"path": "m/out", "symlink": ".."}],
         names=["m/sweep.json: " + key])

# An option that shapes an output is refused without that output, naming both.
for tag, args, names_ in [
        ("columns-without-timeline", ["--columns", "80"], ["--columns", "--timeline"]),
        ("trace-limit-without-perfetto", ["--trace-limit", "5"],
         ["--trace-limit", "--trace-perfetto"]),
        ("window-ns-without-output", ["--window-ns", "0:1000"],
         ["--window-ns", "--timeline, --trace-vcd and --trace-perfetto"]),
        ("window-ns-with-stats-only", ["--window-ns", "0:1000", "--stats", "s.txt"],
         ["--window-ns", "--timeline"])]:
    case(f"run-{tag}", ["run", "tiny.json", "-q"] + args, 2, "too", [TINY], names=names_)
for tag, args, made in [("columns-with-timeline", ["--columns", "80", "--timeline"], []),
                        ("trace-limit-with-perfetto", ["--trace-limit", "5", "--trace-perfetto",
                                                       "p.json"], ["p.json"]),
                        ("window-ns-with-vcd", ["--window-ns", "0:1000", "--trace-vcd", "v.vcd"],
                         ["v.vcd"])]:
    case(f"run-{tag}-ok", ["run", "tiny.json", "-q"] + args, 0, None, [TINY], creates=made)

# -q leaves out the summary only: an output the user asked for is still printed.
for tag, opt, shown in [("timeline", "--timeline", "timeline 0 .. 20000 ns"),
                        ("interrupts", "--interrupts", "LOC:")]:
    case(f"run-quiet-prints-{tag}", ["run", "tiny.json", "-q", opt], 0, None, [TINY],
         stdout_holds=[shown], stdout_lacks=["ms simulated", "handler calls"])

# A percentile list as fio takes it: at most 20, each once (to fio's 6 decimals),
# in any order (fio sorts it), 100 included.
TWENTY = ":".join(str(i) for i in range(1, 21))
for tag, p, msg in [("twice", "50:99:50", "'50' repeats '50'"),
                    ("twice-as-fio-key", "99.9999999:100", "one key, 100.000000"),
                    ("twenty-one", TWENTY + ":21", "more than 20 percentages"),
                    ("negative", "-50", "not a percentage"),
                    ("zero-point", "0.0", "not a percentage"),
                    ("above-100", "100.5", "not a percentage"),
                    ("word", "p99", "'p99' is not a decimal number"),
                    ("exponent", "1e-9", "'1e-9' is not a decimal number"),
                    ("below-fio-key", "0.0000001", "below 0.000001")]:
    case(f"run-percentile-list-{tag}", ["run", "nvme.json", "-q", "--fio-json", "f.json",
                                         "--percentile-list", p], 2, msg, [NVME],
         names=["--percentile-list"])
for tag, p in [("unsorted", "99:50:1"), ("hundred", "100"), ("twenty", TWENTY)]:
    case(f"run-percentile-list-{tag}-ok", ["run", "nvme.json", "-q", "--fio-json", "f.json",
                                            "--percentile-list", p], 0, None, [NVME],
         creates=["f.json"])

# A POWER core runs SMT1, SMT2, SMT4 or SMT8: no other power.threads_per_core.
for t in [3, 5, 6, 7]:
    case(f"run-power-threads-per-core-{t}", ["run", "p.json", "-q"], 2, "1, 2, 4 or 8",
         [js("p.json", dict(FAMILIES["power"], power=dict(FAMILIES["power"]["power"],
                                                          threads_per_core=t)))],
         names=["p.json: ", "power.threads_per_core"])
    case(f"run-power-set-threads-per-core-{t}", ["run", "p9.json", "-q", "--set",
                                                  f"power.threads_per_core={t}"], 2,
         "1, 2, 4 or 8", [P9], names=[f"--set power.threads_per_core={t}: power.threads_per_core"])
for t in [4, 8]:
    case(f"run-power-threads-per-core-{t}-ok", ["run", "p.json", "-q"], 0, None,
         [js("p.json", dict(FAMILIES["power"], power=dict(FAMILIES["power"]["power"],
                                                          threads_per_core=t)))])

# reproduce --format csv quotes as RFC 4180 does (report/csv.h, shared with collect):
# a key holding a comma and a double quote is one field, its quote doubled.
QUOTED_KEY = {"a,b": 'x,y"z'}
case("reproduce-csv-quotes-key", ["reproduce", "tiny", "--tables", "q.json", "--format", "csv",
                                  "--max-reruns", "0"], 0, None,
     [TINY, js("q.json", {"tables": [{"name": "tiny", "title": "t", "set": "prediction",
                                      "metrics": ["irq_rate_M"],
                                      "rows": [{"key": QUOTED_KEY, "config": "tiny.json"}]}]})],
     stdout_holds=['\ntiny,"a,b=x,y""z",irq_rate_M,'])

# The rows' result files in --keep (TABLE-ROW.json and its .stderr) must not be an
# input, such as a row's own config kept there: refused before any run, nothing written.
for tag, keep, config in [("dot", ".", "x-0.json"), ("dir", "k", "k/x-0.json"),
                          ("stderr", ".", "x-0.json.stderr")]:
    case(f"reproduce-keep-result-is-row-config-{tag}",
         ["reproduce", "x", "--tables", "t.json", "--keep", keep], 2,
         "is an input of this command",
         [{"path": "k", "dir": True}, copy(config, "tiny.json"),
          js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                    "metrics": ["irq_rate_M"],
                                    "rows": [{"key": {"a": 1}, "config": config}]}]})],
         names=[f"--keep {keep}", config.split("/")[-1], "row 0"])

# --sensitivity's --devices file: a message about it names the option too.
for tag, target, msg in [("missing", "nope.json", "no such file"),
                         ("dev-null", "/dev/null", "expected a JSON config file"),
                         ("dir", "d", "is a directory")]:
    case(f"reproduce-devices-{tag}", RP + ["--sensitivity", "--devices", target], 2, msg,
         RPF + [{"path": "d", "dir": True}], names=[f"--devices {target}: "])

# explain --list only prints the scenarios: anything given with it is refused by name.
for tag, args, named in [("scenario-after", ["--list", "extra"], "the scenario 'extra'"),
                         ("scenario-before", ["eoi-lock", "--list"], "the scenario 'eoi-lock'"),
                         ("set", ["--list", "--set", "x=1"], "--set x=1"),
                         ("out", ["--list", "--out", "f.json"], "--out f.json")]:
    case(f"explain-list-with-{tag}", ["explain"] + args, 2, "--list takes nothing else", [],
         names=["--list", named])
case("explain-list-ok", ["explain", "--list"], 0, None, [], stdout_holds=["burst"])

# A varied comment (or a key under one) changes no run, and a result's config does not
# echo it: collect could never match the points, so the spec is refused at load.
for tag, spec, key in [
        ("vary-comment", {"vary": {"comment": ["a", "b"]}}, "vary.comment"),
        ("vary-device-comment", {"vary": {"devices.0.comment": ["a", "b"]}},
         "vary.devices.0.comment"),
        ("zip-comment", {"zip": [{"comment": ["a", "b"], "handler.loop_limit": [1, 2]}]},
         "zip[0].comment")]:
    case(f"sweep-{tag}", ["sweep", "s.json", "--out", "sw"], 2,
         "a comment does not change the run", [TINY, js("s.json", dict(spec, base="tiny.json"))],
         names=["s.json: ", key])

# A table metric of another machine family is not shown as a measured 0: the row fails.
for m, why in [("mint_per_s", "no ipistorm"), ("eois_per_s", "no Xen domain"),
               ("exit_handling_us", "no vCPU")]:
    case(f"reproduce-metric-of-another-family-{m}",
         ["reproduce", "x", "--tables", "t.json", "--out", "r.txt", "--max-reruns", "0"], 1,
         [f"x row 0 (a=1): {m} is not measured by this row", why],
         [TINY, js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                          "metrics": [m],
                                          "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]})])

# A figure 0 in every window has a half-width of 0: said not to meet --precision.
case("reproduce-all-zero-metric-not-met", ["reproduce", "x", "--tables", "t.json"], 0,
     "x row 0 (a=1): pid_misses_per_notification 0 or undefined in every window: --precision "
     "not met",
     [js("per.json", {"platform": "generic", "run": {"duration_ns": 20000},
                      "topology": {"cpus": 1}, "devices": [{"name": "dev0", "irq_cpus": [0]}],
                      "workloads": [{"type": "periodic", "device": "dev0", "period_ns": 1000}]}),
      js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                "metrics": ["irq_rate_M", "pid_misses_per_notification"],
                                "rows": [{"key": {"a": 1}, "config": "per.json",
                                          "set": ["mode=remappable"]}]}]})])

# --- a POWER partition's idle x86 host: its costs are never spent ---------------------
POWER = shipped("configs/explain/ipi-storm.json")
POWER.pop("explain", None)
POWER.pop("platform", None)
for tag, changes, key in [
        ("cpu", {"cpu": {"eoi_ns": 10}}, "cpu"),
        ("handler", {"handler": {"loop_limit": 4}}, "handler"),
        ("iommu", {"iommu": {"iec_entries": 8}}, "iommu"),
        ("pid_line", {"pid_line": {"miss_ns": 50}}, "pid_line"),
        ("root_port", {"root_port": {"drain_ns": 10}}, "root_port"),
        ("topology-sockets", {"topology": {"cpus": 1, "sockets": 1}}, "topology.sockets"),
        ("topology-cpus", {"topology": {"cpus": 4}}, "topology.cpus"),
        ("lapic-tpr", {"lapic": {"timer_period_ns": 0, "tpr": 16}}, "lapic.tpr"),
        ("lapic-timer", {"lapic": {"timer_period_ns": 1000}}, "lapic.timer_period_ns"),
        ("platform-spr", {"platform": "spr"}, "platform")]:
    c = json.loads(json.dumps(POWER))
    c.update(changes)
    case(f"run-power-x86-{tag}", ["run", "c.json", "-q"], 2, "POWER partition",
         [js("c.json", c)], names=["c.json: " + key])
# The idle host's own layout may be stated, or left out (the partition runs the same).
case("run-power-idle-host-unstated", ["run", "c.json", "-q"], 0, None,
     [js("c.json", {k: v for k, v in POWER.items() if k not in ("topology", "lapic")})])
for flag in ["--trace-vcd=t.vcd", "--trace-perfetto=t.json", "--fio-json=f.json"]:
    option = flag.split("=")[0]
    case(f"run-power-output{option}", ["run", "c.json", "-q", flag], 2,
         "runs a POWER partition", [js("c.json", POWER)], names=[option, "c.json"])
case("run-power-timeline", ["run", "c.json", "-q", "--timeline", "--window-ns", "1000:2000",
                            "--columns", "40"], 0, None, [js("c.json", POWER)],
     stdout_holds=["power cpu0", "IPI"])
# A guest's rows: the host's alone would show an idle CPU0 as the whole run.
case("run-xen-timeline-and-interrupts", ["run", "c.json", "-q", "--timeline", "--interrupts"], 0,
     None, [js("c.json", FAMILIES["xen"])],
     stdout_holds=["xen vcpu0", "xen event_lock", "the Xen domain's counters"])
case("run-kvm-timeline", ["run", "c.json", "-q", "--timeline"], 0, None, [js("c.json", KVM)],
     stdout_holds=["vcpu0", "VM exit"])
# bench measures per MSI: a config no device sends one in is refused when it loads, before
# the floor runs.
NO_WORKLOAD = {k: v for k, v in FAMILIES["topology"].items() if k != "workloads"}
for tag, cfg, msg in [("power", POWER, "a POWER partition"), ("no-workload", NO_WORKLOAD,
                                                              "no workload")]:
    case(f"bench-{tag}-no-msi", ["bench", "--config", "c.json", "--reps", "1"], 2,
         [msg, "bench measures the simulator per MSI"], [js("c.json", cfg)], names=["c.json: "])
# A combination is told against the --set that made it.
case("run-power-set-xen", ["run", "c.json", "-q", "--set", "xen.vcpus=2"], 2,
     "not both", [js("c.json", POWER)], names=["--set xen.vcpus=2: power"])
case("run-x86-set-power", ["run", "tiny.json", "-q", "--set", "power.threads_per_core=2"], 2,
     "POWER partition", [TINY], names=["--set power.threads_per_core=2: mode"])
# An assigned device's queues go to their vCPUs: a host CPU list would be ignored.
for tag, base, at in [("kvm", KVM, 1), ("xen", FAMILIES["xen"], 0)]:
    c = json.loads(json.dumps(base))
    dev = [i for i, d in enumerate(c["devices"]) if d.get("assigned_to")][0] if tag == "kvm" else at
    c["devices"][dev]["irq_cpus"] = [0]
    case(f"run-{tag}-assigned-device-irq-cpus", ["run", "c.json", "-q"], 2, "assigned",
         [js("c.json", c)], names=["c.json", f"devices[{dev}].irq_cpus"])

# --- a third campaign: sweeps of guests, nulls under includes, --set blame -----------
# A guest's result config (assigned devices without irq_cpus) reads back: its sweep runs.
case("sweep-xen-shipped-emits", ["sweep", "sweeps/xen-pirqs-x-vcpus.json", "--out", "sw",
                                 "--emit-commands"], 0, None,
     [{"path": "sweeps", "dir": True},
      {"path": "sweeps/xen-pirqs-x-vcpus.json", "repo": "configs/sweeps/xen-pirqs-x-vcpus.json"},
      {"path": "vm", "dir": True}, {"path": "vm/e1-xen-eoi.json", "repo": "configs/vm/e1-xen-eoi.json"}],
     stdout_holds=["cidsim run"], creates=["sw"])
# An include merges as the loader reads: a null is refused, not a key deleted.
for tag, top in [("run-key", {"run": {"duration_ns": None}}), ("section", {"cpu": None}),
                 ("mode", {"mode": None})]:
    key = list(top)[0] + ("." + list(top[list(top)[0]])[0] if isinstance(top[list(top)[0]], dict)
                          else "")
    case(f"run-include-null-{tag}", ["run", "n.json", "-q"], 2, "found null",
         [TINY, js("n.json", dict(top, include="tiny.json"))], names=["n.json", key])
# A --set value is JSON read as a file is: a key twice is refused.
case("run-set-value-duplicate-key", ["run", "tiny.json", "-q", "--set",
                                     'run={"duration_ns":1,"duration_ns":20000}'], 2,
     "duplicate key", [TINY], names=["--set run: run: duplicate key", "duration_ns"])
case("run-set-value-nested-duplicate-key", ["run", "tiny.json", "-q", "--set",
                                            'workloads=[{"a":1,"a":2}]'], 2,
     "duplicate key", [TINY], names=["--set workloads: workloads[0]: duplicate key"],
     stderr_lacks=["(top level)"])
# A check of one key that a --set of another broke names that --set.
for tag, base, sets, named in [
        ("xen-vcpus-below-sockets", XEN, ["xen.vcpus=1"], "--set xen.vcpus=1: xen.sockets"),
        ("power-cpulist-offset", js("c.json", POWER), ['ipistorm.cpulist="0"'],
         '--set ipistorm.cpulist="0": ipistorm.offset'),
        ("first-of-two", TINY, ["handler.loop_limit=4", "topology.cpus=2", "topology.sockets=4"],
         "--set topology.sockets=4: topology.sockets")]:
    argv = ["run", base["path"], "-q"]
    for s_ in sets:
        argv += ["--set", s_]
    case(f"run-set-blame-{tag}", argv, 2, None, [base], names=[named])
case("explain-set-blame", ["explain", "scenario.json", "--set", "run.warmup_ns=0",
                           "--set", "run.duration_ns=1"], 2, None, [SCEN],
     names=["scenario.json with --set run.duration_ns=1"])
# A variant's label heads its rows: printable, its own.
for tag, label in [("empty", ""), ("newline", "a\nb"), ("duplicate", None)]:
    sc = json.loads(json.dumps(SCENARIO))
    sc["explain"]["variants"] = [{"label": "one"}, {"label": "one" if label is None else label}]
    case(f"explain-variant-label-{tag}", ["explain", "s.json"], 2, None, [js("s.json", sc)],
         names=["s.json", "explain.variants[1].label"])
# A cpulist naming a number twice hides a typo: refused as the array form is.
for tag, sel in [("chips", '"0,0"'), ("cores", '"0-1,1"')]:
    case(f"run-override-{tag}-cpulist-twice", ["run", "c.json", "-q", "--set",
         f'overrides=[{{"{tag}":{sel},"power":{{"loop_ns":5}}}}]'], 2, "is listed twice",
         [js("c.json", POWER)], names=["--set overrides", f"overrides[0].{tag}"])
# ipistorm's sleep alone advances the run: the costs may all be 0.
case("run-power-delay-only-advances", ["run", "c.json", "-q"] +
     sum([["--set", f"power.{k}=0"] for k in ("loop_ns", "usleep_enter_ns", "timer_delta_ns",
                                              "timer_handler_ns", "usleep_exit_ns")], []) +
     ["--set", "ipistorm.delay_us=1"], 0, None, [js("c.json", POWER)])

# Keys the machine never reads: an assigned device's host driver, the idle
# POWER host's device costs, posting with no APICv vCPU to post into.
HG = {"path": "hg.json", "repo": "configs/vm/host-and-guest.json"}
for tag, base, sets, named in [
        ("xen-assigned-threaded-irq", XEN, ["devices.0.threaded_irq=true"], "devices[0].threaded_irq"),
        ("kvm-assigned-threaded-irq", HG, ["devices.1.threaded_irq=true"], "devices[1].threaded_irq"),
        ("power-idle-device-cost", js("c.json", POWER), ["devices.0.handler_base_ns=5"],
         "devices[0].handler_base_ns"),
        ("kvm-posting-without-apicv", HG, ["vcpus.*.vid=false", "vcpus.*.apicv=false"],
         "vm.irq_posting")]:
    argv = ["run", base["path"], "-q"]
    for s_ in sets:
        argv += ["--set", s_]
    case(f"run-unread-{tag}", argv, 2, None, [base], names=["--set", named])

# fio's JSON holds NVMe jobs: a run with none would write a file of no job.
case("run-fio-json-without-nvme", ["run", "tiny.json", "-q", "--fio-json", "f.json"], 2,
     'has no workload of type "nvme"', [TINY], names=["--fio-json", "tiny.json"])
case("run-fio-json-kvm-without-nvme", ["run", "c.json", "-q", "--fio-json", "f.json"], 2,
     'has no workload of type "nvme"', [js("c.json", KVM)], names=["--fio-json", "c.json"])
case("run-fio-json-xen-guest-jobs", ["run", "c.json", "-q", "--fio-json", "f.json"], 0, None,
     [js("c.json", FAMILIES["xen"])], creates=["f.json"])
case("run-fio-json-nvme-set-away", ["run", "nvme.json", "-q", "--fio-json", "f.json",
                                    "--set", "workloads=[]"], 2,
     'has no workload of type "nvme"', [NVME], names=["--fio-json", "nvme.json"])

# A Xen domain's devices are never posted to the host: Linux's posted-MSI
# handler never runs, and its section is refused (and left out of the echo).
XEN_HANDLER = json.loads(json.dumps(FAMILIES["xen"]))
XEN_HANDLER["handler"] = {"loop_limit": 4}
case("run-xen-handler-section", ["run", "c.json", "-q"], 2, "never runs",
     [js("c.json", XEN_HANDLER)], names=["c.json", "handler"])
case("run-xen-handler-set", ["run", "c.json", "-q", "--set", "handler.harvest=\"xchg_all\""], 2,
     "never runs", [js("c.json", FAMILIES["xen"])], names=["--set handler.harvest", "handler"])

# A target a rename cannot replace: found before the work when it is
# read-only (2); a mount point is found only when renaming (1), and the
# outputs renamed before it are put back: all of a run's outputs, or none.
case("run-stats-read-only-mounted-file", ["run", "tiny.json", "-q", "--out", "a.json",
                                          "--stats", "mp"], 2, "Read-only file system",
     [TINY, {"path": "mp", "mounted_file": "ro"}], names=["--stats mp"])
case("run-stats-mount-point-puts-back-out", ["run", "tiny.json", "-q", "--out", "a.json",
                                             "--stats", "mp"], 1,
     ["mp: cannot rename the file into place", "Device or resource busy"],
     [TINY, text("a.json", "an earlier result\n"), {"path": "mp", "mounted_file": "rw"}])
case("run-trace-mount-point-removes-new-out", ["run", "tiny.json", "-q", "--out", "new.json",
                                               "--trace-vcd", "mp"], 1,
     "mp: cannot rename the file into place", [TINY, {"path": "mp", "mounted_file": "rw"}])

# An NVMe or DSA workload reaps its device's completions: it drives the
# device alone (two on one device crashed, or wrapped a counter).
NVME_CFG = json.load(open(__file__.replace("gen_cases.py", "fixtures/nvme.json")))
for tag, other in [("nvme", {"type": "nvme", "device": "nvme0", "jobs": 1}),
                   ("bursty", {"type": "bursty", "device": "nvme0"}),
                   ("dsa", {"type": "dsa", "device": "nvme0"}),
                   ("trace", {"type": "trace", "events": [[100, "nvme0", 0]]})]:
    c = json.loads(json.dumps(NVME_CFG))
    c["workloads"].append(other)
    case(f"run-nvme-device-shared-with-{tag}", ["run", "c.json", "-q"], 2,
         "is also driven by workloads[1]", [js("c.json", c)], names=["c.json", "workloads[0].device"])
c = json.loads(json.dumps(NVME_CFG))
c["workloads"] = [{"type": "dsa", "device": "nvme0"}, {"type": "dsa", "device": "nvme0"}]
case("run-dsa-device-shared-with-dsa", ["run", "c.json", "-q"], 2, "is also driven by workloads[1]",
     [js("c.json", c)], names=["c.json", "workloads[0].device"])
# A guest's host TPR masks its assigned devices' host vectors as a host's does.
for fam, base in [("kvm", js("c.json", KVM)), ("xen", js("c.json", FAMILIES["xen"]))]:
    case(f"run-{fam}-tpr-masks-assigned-device", ["run", "c.json", "-q", "--set", "lapic.tpr=32"],
         2, "its interrupts would never reach the guest", [base], names=["--set lapic.tpr=32", "lapic.tpr"])
    case(f"run-{fam}-tpr-below-device-class-ok", ["run", "c.json", "-q", "--set", "lapic.tpr=16",
                                                  "--set", "run.duration_ns=20000"], 0, None, [base])
# A Xen domain's tracks are not the host's: the host-only traces are refused.
for flag in ["--trace-vcd=t.vcd", "--trace-perfetto=t.json"]:
    option = flag.split("=")[0]
    case(f"run-xen-output{option}", ["run", "c.json", "-q", flag], 2, "runs a Xen domain",
         [js("c.json", FAMILIES["xen"])], names=[option, "c.json"])
# xen_line keys no agent of the domain's lines uses.
for key in ["same_core_ns", "device_rmw_ns"]:
    case(f"run-xen-line-{key}", ["run", "c.json", "-q", "--set", f"xen_line.{key}=3"], 2, "drop it",
         [js("c.json", FAMILIES["xen"])], names=[f"--set xen_line.{key}=3", f"xen_line.{key}"])
# ipistorm's target is (cpu + offset) % n: a list off 0 calls other CPUs at offset n.
case("run-ipistorm-offset-list-length-off-zero-ok",
     ["run", "c.json", "-q", "--set", "ipistorm.cpulist=4-7", "--set", "ipistorm.offset=4"], 0, None,
     [js("c.json", POWER)])
case("run-ipistorm-offset-list-length-from-zero",
     ["run", "c.json", "-q", "--set", "ipistorm.cpulist=0-3", "--set", "ipistorm.offset=4"], 2,
     "every kthread would call itself", [js("c.json", POWER)],
     names=["--set ipistorm.offset=4", "ipistorm.offset"])
# A name that breaks or reorders a line in any reader: C1 (NEL), separators, bidi.
for tag, ch in [("nel", "\u0085"), ("line-separator", "\u2028"), ("bidi-override", "\u202e"),
                ("bidi-isolate", "\u2066")]:
    c = json.load(open(__file__.replace("gen_cases.py", "fixtures/tiny.json")))
    c["devices"][0]["name"] = "a" + ch + "b"
    for e in c["workloads"][0]["events"]:
        e[1] = "a" + ch + "b"
    case(f"run-device-name-{tag}", ["run", "c.json", "-q"], 2, "a control character in device name",
         [js("c.json", c)], names=["c.json", "devices[0].name"])
c = json.load(open(__file__.replace("gen_cases.py", "fixtures/tiny.json")))
c["devices"][0]["name"] = "d\u00e9v\u00b5"  # printable beyond ASCII stays accepted
for e in c["workloads"][0]["events"]:
    e[1] = c["devices"][0]["name"]
case("run-device-name-latin1-ok", ["run", "c.json", "-q"], 0, None, [js("c.json", c)])
# A trace time is replayed at the kernel's picosecond: one that rounds onto
# the end of the run would never be replayed.
case("run-trace-event-rounds-to-end", ["run", "tiny.json", "-q", "--set",
                                       "workloads[0].events[3]=[19999.9996, \"dev0\", 0]"], 2,
     "it would never be replayed", [TINY], names=["--set workloads[0].events[3]", "events[3]"])

# An explain variant sets its run's config: the explain section is the
# scenario's, and an error its set causes names the variant.
SCEN_J = json.load(open(__file__.replace("gen_cases.py", "fixtures/scenario.json")))
for tag, sets, msg, named in [
        ("explain-key", {"explain.bogus": 1}, "is the scenario's, one for every variant",
         'explain.variants[1].set."explain.bogus"'),
        ("explain-columns", {"explain.columns": 50}, "is the scenario's, one for every variant",
         'explain.variants[1].set."explain.columns"'),
        ("affinity-move-unknown-key", {"explain.affinity_move.bogus": 1}, "bogus",
         "explain.variants[1].set (variant"),
        ("bad-value", {"handler.loop_limit": 99}, "expected an integer in [1, 64]",
         "explain.variants[1].set (variant"),
        ("warmup-past-limit", {"run.warmup_ns": 2e8}, "explain records every step",
         "explain.variants[1].set (variant")]:
    sc = json.loads(json.dumps(SCEN_J))
    sc["explain"]["variants"][1]["set"] = sets
    case(f"explain-variant-set-{tag}", ["explain", "x.json"], 2, msg, [js("x.json", sc)],
         names=["x.json", named])
# run reads neither explain nor provenance, but they are objects to whoever does.
case("run-set-provenance-not-object", ["run", "tiny.json", "-q", "--set", "provenance=5"], 2,
     "provenance documents its values, and changes no run", [TINY], names=["--set provenance=5"])
case("run-set-explain-not-object", ["run", "tiny.json", "-q", "--set", "explain=5"], 2,
     "the explain section is read by `cidsim explain` only", [TINY], names=["--set explain=5"])

# A bad key of an included file is that file's error, through every level.
INC_TOP = {"include": ["sub/mid.json"], "devices": [{"name": "d0"}],
           "workloads": [{"type": "bursty", "device": "d0"}]}
case("run-include-bad-value-named", ["run", "top.json", "-q"], 2, 'found a string "x"',
     [js("top.json", INC_TOP), js("sub/mid.json", {"include": "deep.json"}),
      js("sub/deep.json", {"handler": {"loop_limit": "x"}})],
     names=['top.json: include "sub/mid.json": ./sub/mid.json: include "deep.json": '
            './sub/deep.json: handler.loop_limit'])
case("run-include-unknown-key-named", ["run", "top.json", "-q"], 2, "unknown key",
     [js("top.json", INC_TOP), js("sub/mid.json", {"handler": {"loop_limt": 3}})],
     names=['include "sub/mid.json": ./sub/mid.json: handler.loop_limt'])
case("run-include-bad-value-set-over-ok", ["run", "top.json", "-q", "--set", "handler.loop_limit=4"],
     0, None, [js("top.json", INC_TOP), js("sub/mid.json", {"handler": {"loop_limit": "x"}})])

# A device key its profile brings is the profile's error (the config never wrote it).
case("run-profile-brings-refused-key", ["run", "c.json", "-q", "--set", "devices.0.profile=dsa"], 2,
     "name another profile, or none", [js("c.json", KVM)],
     names=["--set devices.0.profile=dsa", 'devices[0].profile: "dsa" (',
            'configs/rfc/devices.json) sets threaded_irq'])

# --- probe B: sweep, collect, reproduce, bench (findings 2, 3, 6, 7, 8, 9, 11, 12, 14) -------
# reproduce --keep never writes through a link, nor onto a directory, where a row's files go (7).
for tag, entry, msg, name in [
        ("result-symlink-outside", {"path": "kk/tiny-0.json", "symlink": "../victim.txt"},
         "is a symbolic link", "tiny-0.json"),
        ("stderr-symlink-outside", {"path": "kk/tiny-0.json.stderr", "symlink": "../victim.txt"},
         "is a symbolic link", "tiny-0.json.stderr"),
        ("result-is-directory", {"path": "kk/tiny-0.json", "dir": True},
         "is not a regular file (a directory)", "tiny-0.json"),
        ("stderr-hardlink-outside", {"path": "kk/tiny-0.json.stderr", "hardlink": "victim.txt"},
         "is a hard link", "tiny-0.json.stderr"),
        ("result-hardlink-outside", {"path": "kk/tiny-0.json", "hardlink": "victim.txt"},
         "is a hard link", "tiny-0.json")]:
    case(f"reproduce-keep-{tag}", ["reproduce", "tiny", "--tables", "tables.json", "--keep", "kk"],
         2, msg, [TINY, TABLES, text("victim.txt", "precious\n"), {"path": "kk", "dir": True},
                  entry], names=["--keep kk", name])

# A control character in a path that goes into the one-line commands or the Slurm script (2).
SW2 = [TINY, SPEC]
for tag, extra, named in [
        ("out-newline", ["--out", "sw\nx", "--emit-commands"], '--out "sw\\nx"'),
        ("out-newline-runs", ["--out", "sw\nx"], '--out "sw\\nx"'),
        ("out-shell-text-slurm", ["--out", "sw3\necho INJECTED; false #", "--emit-slurm", "job.sh"],
         '--out "sw3\\necho INJECTED; false #"'),
        ("emit-slurm-newline", ["--out", "sw", "--emit-slurm", "j\nk.sh"],
         '--emit-slurm "j\\nk.sh"'),
        ("out-tab", ["--out", "sw\tx", "--emit-commands"], '--out "sw\\tx"')]:
    case(f"sweep-{tag}", ["sweep", "spec.json"] + extra, 2, "a control character in the path",
         SW2, names=[named])
case("sweep-base-path-newline", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 2,
     "a control character in the base config's path",
     [copy("ti\nny.json", "tiny.json"),
      js("s.json", {"base": "ti\nny.json", "vary": {"handler.loop_limit": [1, 2]}})],
     names=["s.json: base"])
case("sweep-set-value-newline", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 2,
     "a control character in a value",
     [TINY, js("s.json", {"base": "tiny.json", "set": {"devices.0.name": "a\nb"},
                          "vary": {"handler.loop_limit": [1, 2]}})],
     names=["s.json: set.devices.0.name"])
case("sweep-vary-key-newline", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 2,
     "a control character in a key path",
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit\n": [1, 2]}})],
     names=["s.json: ", '"vary.handler.loop_limit\\n"'])

# collect: a group holds the seeds of one combination, each seed once (3).
P0 = {"name": "p0", "group": "g0", "params": {"handler.loop_limit": 1}, "seed": 1,
      "result": "points/p0.json"}
for tag, second, msg in [
        ("group-of-other-params", dict(P0, name="p1", params={"handler.loop_limit": 2}, seed=2,
                                       result="points/p1.json"), "whose params differ"),
        ("group-seed-twice", dict(P0, name="p1", result="points/p1.json"),
         "holds seed 1 of points[0] too"),
        ("params-in-two-groups", dict(P0, name="p1", group="g1", seed=2, result="points/p1.json"),
         "of the same params, is in group")]:
    case(f"collect-manifest-{tag}", ["collect", "m", "--aggregate-seeds"], 2, msg,
         [js("m/sweep.json", {"parameters": ["handler.loop_limit"],
                              "metrics": ["metrics.msi_rate_mps"], "points": [P0, second]})],
         names=["m/sweep.json: points[1].group"])

# --precision that shortens a row past its first periodic completion: refused before any
# run (6). A row of one window is never shortened (nothing would judge it): these rows have
# ten. A trace row keeps its length (its events are fixed in time).
PERIODIC = js("per.json", {"platform": "generic", "run": {"duration_ns": 20000},
                           "topology": {"cpus": 1},
                           "devices": [{"name": "dev0", "irq_cpus": [0]}],
                           "workloads": [{"type": "periodic", "device": "dev0",
                                          "period_ns": 1000, "phase_ns": 15000}]})
TABLES_10 = js("tables.json", {"tables": [{
    "name": "tiny", "title": "one short row", "set": "prediction", "metrics": ["irq_rate_M"],
    "rows": [{"key": {"mode": "posted"}, "config": "per.json",
              "set": ["mode=posted", "run.batches=10"]}]}]})
for tag, extra, named in [("precision-1", ["--precision", "1"], "--precision 1"),
                          ("precision-0.5-sensitivity", ["--precision", "0.5", "--sensitivity"],
                           "--precision 0.5")]:
    case(f"reproduce-{tag}-shortens-row-below-its-phase",
         ["reproduce", "tiny", "--tables", "tables.json"] + extra, 2,
         "there its run is shortened to", [PERIODIC, TABLES_10],
         names=[named, "tables.json: tables[0].rows[0] (table tiny, row mode=posted)",
                "beyond the end of the run"])
    case(f"reproduce-{tag}-trace-row-keeps-length",
         ["reproduce", "tiny", "--tables", "tables.json"] + extra, 0,
         "of a replayed trace, whose events are fixed in time",
         [TINY, js("tables.json", dict(TABLES_10["json"], tables=[dict(
             TABLES_10["json"]["tables"][0], rows=[dict(TABLES_10["json"]["tables"][0]["rows"][0],
                                                         config="tiny.json")])]))])

# A sweep varying what changes no run: the explain section, provenance (8).
for tag, spec, key in [
        ("vary-explain-title", {"vary": {"explain.title": ["a", "b"]}}, "vary.explain.title"),
        ("vary-explain-unknown", {"vary": {"explain.foo": [1, 2]}}, "vary.explain.foo"),
        ("vary-explain", {"vary": {"explain": [{}, {"title": "t"}]}}, "vary.explain"),
        ("zip-explain", {"zip": [{"explain.columns": [60, 80], "handler.loop_limit": [1, 2]}]},
         "zip[0].explain.columns"),
        ("vary-provenance", {"vary": {"provenance": [1, 2]}}, "vary.provenance")]:
    case(f"sweep-{tag}", ["sweep", "s.json", "--out", "sw"], 2, "changes no run",
         [TINY, js("s.json", dict(spec, base="tiny.json"))], names=["s.json: ", key])

# A cpulist string or an object varied: the loader's reading of it is one value (9).
for tag, values, key in [
        ("cpulist-and-array", [[0], "0"], "vary.devices.0.irq_cpus[1]"),
        ("array-and-cpulist", ["0", [0]], "vary.devices.0.irq_cpus[1]")]:
    case(f"sweep-vary-{tag}-one-point", ["sweep", "s.json", "--out", "sw"], 2, "appears twice",
         [TINY, js("s.json", {"base": "tiny.json", "vary": {"devices.0.irq_cpus": values}})],
         names=["s.json", key, "vary.devices.0.irq_cpus[0]"])
# collect reads a result made from a cpulist string or an object as the point's (9): the
# result's config is the loader's reading of tiny.json with that value, made now.
import os as _os
import subprocess as _sp
import tempfile as _tf


def _effective_config(sets):
    fixture = __file__.replace(_os.path.basename(__file__), "fixtures/tiny.json")
    with _tf.TemporaryDirectory() as d:
        args = [_os.environ.get("CIDSIM", _os.path.join(ROOT, "build", "cidsim")), "run", fixture,
                "-q", "--out", d + "/r.json"]
        for s in sets:
            args += ["--set", s]
        _sp.run(args, check=True, stdout=_sp.DEVNULL)
        with open(d + "/r.json") as f:
            return json.load(f)["config"]


for tag, path, value in [("cpulist-string", "devices.0.irq_cpus", "0"),
                         ("object", "lapic", {"timer_period_ns": 0})]:
    point = {"name": "p0", "group": "g0", "params": {path: value}, "seed": 1,
             "result": "points/p0.json"}
    case(f"collect-param-{tag}-ok", ["collect", "m"], 0, None,
         [js("m/sweep.json", {"parameters": [path], "metrics": ["metrics.msis"],
                              "points": [point]}),
          js("m/points/p0.json", {"metrics": {"msis": 4}, "seed": 1,
                                  "config": _effective_config([])})],
         stdout_holds=["p0,", ",1,4"])
# ... and still refuses a result whose config the value does not give.
case("collect-param-object-other-config", ["collect", "m"], 2, "is for another seed or config",
     [js("m/sweep.json", {"parameters": ["lapic"], "metrics": ["metrics.msis"],
                          "points": [{"name": "p0", "group": "g0",
                                      "params": {"lapic": {"timer_period_ns": 0}}, "seed": 1,
                                      "result": "points/p0.json"}]}),
      js("m/points/p0.json", {"metrics": {"msis": 4}, "seed": 1,
                              "config": _effective_config(["lapic.timer_period_ns=1000000"])})],
     names=["m/points/p0.json", "point p0"])

# A metric or config twice: two columns or rows no one can tell apart (11).
case("sweep-metric-twice", ["sweep", "s.json", "--out", "sw"], 2, "is listed twice (first at [0])",
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": [1, 2]},
                          "metrics": ["metrics.msis", "metrics.msis"]})],
     names=["s.json: metrics[1]: metrics.msis"])
case("collect-metric-option-twice", ["collect", "m", "--metric", "metrics.msi_rate_mps",
                                     "--metric", "metrics.msi_rate_mps"], 2, "given twice",
     sweep_dir(), names=["--metric metrics.msi_rate_mps"])
case("collect-manifest-metric-twice", ["collect", "m"], 2, "is listed twice (first at [0])",
     [js("m/sweep.json", {"parameters": ["handler.loop_limit"],
                          "metrics": ["metrics.msi_rate_mps", "metrics.msi_rate_mps"],
                          "points": [P0]})],
     names=["m/sweep.json: metrics[1]"])
case("bench-config-twice", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json",
                            "--config", "./tiny.json"], 2, "the same file as --config tiny.json",
     [TINY], names=["--config ./tiny.json", "given twice"])
case("bench-config-two-of-one-name", ["bench", "--reps", "1", "--no-floor", "--config",
                                      "tiny.json", "--config", "sub/tiny.json"], 2,
     "its row would be named tiny", [TINY, copy("sub/tiny.json", "tiny.json")],
     names=["--config sub/tiny.json", "--config tiny.json"])

# reproduce: rows whose keys print alike, a key with an empty name (12).
for tag, keys, row, msg in [
        ("number-and-string", [{"a": 1}, {"a": "1"}], 1, "prints as rows[0]'s key"),
        ("spaces-in-value", [{"a": 1, "b": 2}, {"a": "1 b=2"}], 1, "prints as rows[0]'s key"),
        ("empty-key-name", [{"": 1}], 0, "an empty key name")]:
    rows = [{"key": k, "config": "tiny.json", "set": [f"handler.loop_limit={i + 1}"]}
            for i, k in enumerate(keys)]
    case(f"reproduce-row-key-{tag}", ["reproduce", "x", "--tables", "t.json"], 2, msg,
         [TINY, js("t.json", {"tables": [{"name": "x", "title": "t", "set": "prediction",
                                          "metrics": ["irq_rate_M"], "rows": rows}]})],
         names=["t.json", f"tables[0].rows[{row}].key"])

# collect --metric errors name the option, not the manifest's metrics[N] (14).
R0 = js("m/points/p0.json", {"metrics": {"msi_rate_mps": 1.5}, "seed": 1,
                             "config": {"handler": {"loop_limit": 1}, "mode": "posted"}})
for tag, extra, msg, metric in [
        ("not-single-value", ["--metric", "config.handler"], "is not a single value",
         "config.handler"),
        ("not-number", ["--metric", "config.mode", "--aggregate-seeds"],
         "not a number, so it cannot be averaged", "config.mode")]:
    case(f"collect-metric-option-{tag}", ["collect", "m"] + extra, 2, msg, sweep_dir([R0]),
         names=[f"--metric {metric} is", "m/points/p0.json"])

# A count per chip is an array, one per chip: its message offers no cpulist.
for tag, v in [("number", "4"), ("object", "{}"), ("empty", "[]")]:
    case(f"run-power-cores-per-chip-{tag}", ["run", "c.json", "-q", "--set", f"power.cores_per_chip={v}"],
         2, "one per element", [js("c.json", POWER)],
         names=[f"--set power.cores_per_chip={v}", "power.cores_per_chip"])
# [*] over an array the config lacks says so (not "found null").
case("run-set-star-of-missing-array", ["run", "tiny.json", "-q", "--set", 'overrides[*].cpus="0"'], 2,
     "overrides is not in the config", [TINY], names=["--set overrides.*"])

# A sweep into another spec's directory would drop its results from the manifest.
case("sweep-over-another-sweeps-results", ["sweep", "spec.json", "--out", "m", "--emit-commands"], 2,
     "result(s) of another sweep (point p0", sweep_dir([TINY, SPEC, text("m/points/p0.json", "{}")]),
     names=["--out m", "m/sweep.json"])
case("sweep-over-another-sweep-without-results-ok", ["sweep", "spec.json", "--out", "m",
                                                     "--emit-commands"], 0, None,
     sweep_dir([TINY, SPEC]), changes=["m/sweep.json"])

# Points whose arrays differ in length (a probe per shape, each its own process).
for tag, spec in [("irq-cpus", {"base": "tiny.json", "vary": {"devices.0.irq_cpus": [[0], [0, 1]]},
                                "set": {"topology.cpus": 2, "devices.0.vectors": 2}}),
                  ("irq-cpus-indexed-metric", {"base": "tiny.json",
                                               "vary": {"devices.0.irq_cpus": [[0], [0, 1]]},
                                               "set": {"topology.cpus": 2, "devices.0.vectors": 2},
                                               "metrics": ["per_cpu.1.busy_fraction"]}),
                  ("overrides-on-off", {"base": "tiny.json", "vary": {"overrides": [
                      [], [{"cpus": "0", "cpu": {"eoi_ns": 1}}]]}})]:
    case(f"sweep-array-shapes-{tag}", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 0, None,
         [TINY, js("s.json", spec)], creates=["sw/sweep.json"], stdout_lacks=["E529"])
# Sensitivity runs shorter than a row's first periodic completion: refused before any run.
case("reproduce-sensitivity-length-shortens-row-below-its-phase",
     ["reproduce", "tiny", "--tables", "tables.json", "--sensitivity", "--precision", "0.01",
      "--sensitivity-length", "0.01"], 2, "there its run is shortened to",
     [PERIODIC, js("tables.json", {"tables": [dict(TABLES_10["json"]["tables"][0], rows=[{
         "key": {"mode": "posted"}, "config": "per.json", "set": ["mode=posted"]}])]})],
     names=["--sensitivity-length 0.01", "tables.json: tables[0].rows[0]"])

# No value --sensitivity varies reaches a POWER row (no x86 platform): refused.
case("reproduce-sensitivity-power-nothing-varied",
     ["reproduce", "p", "--tables", "t.json", "--sensitivity"], 2, "nothing would be varied",
     [js("c.json", POWER),
      js("t.json", {"tables": [{"name": "p", "title": "a POWER row", "set": "prediction",
                                "metrics": ["mint_per_s"],
                                "rows": [{"key": {"cpus": 8}, "config": "c.json"}]}]})],
     names=["--sensitivity", "table p"])

# explain's host-side actions: none on a guest's assigned device, none beside POWER.
for scen, action, value, msg in [
        ("eoi-lock", "retrigger", '{"device":"nvme0","queue":0,"at_ns":[100]}', "has no host vector"),
        ("vm-delivery", "affinity_move", '{"device":"vf0","queue":0,"at_ns":100,"to_cpu":0}',
         "has no host vector"),
        ("ipi-storm", "retrigger", '{"device":"idle0","queue":0,"at_ns":[100]}', "that host is idle"),
        ("ipi-storm", "affinity_move", '{"device":"idle0","queue":0,"at_ns":100,"to_cpu":0}',
         "that host is idle")]:
    case(f"explain-{scen}-{action}-host-action", ["explain", scen, "--set", f"explain.{action}={value}"],
         2, msg, [], names=[f"--set explain.{action}=", f"explain.{action}"])
# A queue without a free vector is told against the --set that caused it.
case("run-kvm-no-free-guest-vector-set", ["run", "c.json", "-q", "--set", "devices.0.vectors=300"], 2,
     "finds no free guest vector on vcpu0", [js("c.json", KVM)],
     names=["--set devices.0.vectors=300: devices[0].vectors"])
case("explain-vm-delivery-no-free-guest-vector-set",
     ["explain", "vm-delivery", "--set", "devices.0.vectors=300"], 2, "finds no free guest vector",
     [], names=["with --set devices.0.vectors=300: devices[0].vectors"])
case("explain-eoi-lock-pirqs-set", ["explain", "eoi-lock", "--set", "xen.pirqs=3"], 2,
     "pirqs are fewer than", [], names=["with --set xen.pirqs=3: xen.pirqs"])

# --- third round ---------------------------------------------------------------------
# A Xen domain's vCPUs spend the xen section's costs: Linux's host CPU costs are refused.
for tag, sets in [("cpu", ["cpu.eoi_ns=5"]),
                  ("overrides", ['overrides=[{"cpus": "0", "cpu": {"eoi_ns": 5}}]'])]:
    case(f"run-xen-host-{tag}-set", ["run", "c.json", "-q", "--set", sets[0]], 2,
         "only runs its timer", [js("c.json", FAMILIES["xen"])], names=["--set " + tag, tag])
c = json.loads(json.dumps(FAMILIES["xen"]))
c["cpu"] = {"irq_entry_ns": 100}
case("run-xen-host-cpu-file", ["run", "c.json", "-q"], 2, "only runs its timer",
     [js("c.json", c)], names=["c.json", "cpu"])

# A --set that breaks the Xen pirq count is the --set's error.
case("run-xen-set-vectors-past-pirqs", ["run", "c.json", "-q", "--set", "devices.0.vectors=17"], 2,
     "pirqs are fewer", [js("c.json", FAMILIES["xen"])], names=["--set devices.0.vectors=17", "xen.pirqs"])
# A platform an include brings cannot be renamed: its values would run under the other name.
SPR_INC = text("plat.json", '{"platform": "spr", "cpu": {"eoi_ns": 40}}')
INCLUDING = js("c.json", dict(json.loads(json.dumps(FAMILIES["topology"])), include="plat.json"))
for tag, args in [("run", ["run", "c.json", "-q", "--set", "platform=generic"]),
                  ("bench", ["bench", "--config", "c.json", "--reps", "1", "--no-floor",
                             "--duration-ns", "20000", "--set", "platform=generic"])]:
    case(f"{tag}-set-platform-over-included-one", args, 2, "an include brings platform",
         [SPR_INC, INCLUDING], names=["--set platform=generic"])
case("sweep-vary-platform-over-included-one", ["sweep", "s.json", "--out", "o"], 2,
     "an include brings platform",
     [SPR_INC, INCLUDING, js("s.json", {"base": "c.json", "vary": {"platform": ["generic", "spr"]},
                                        "metrics": ["metrics.msis"]})], names=["s.json", "platform"])
# Include cycles are named as cycles.
case("run-include-self", ["run", "self.json"], 2, "a cycle of includes",
     [text("self.json", '{"include": "self.json"}')], names=["self.json"])
case("run-include-two-cycle", ["run", "a.json"], 2, "a cycle of includes",
     [text("a.json", '{"include": "b.json"}'), text("b.json", '{"include": "a.json"}')],
     names=["a.json", "b.json"])
# A config key holding "[", "]" or "." is the file's, quoted: never a --set, never an include's.
for tag, key in [("close-bracket", "zz]"), ("brackets", "dur[x]"), ("dotted", "run.seed")]:
    c = json.loads(json.dumps(FAMILIES["topology"]))
    c["include"] = "inc.json"
    c[key] = 1
    case(f"run-key-with-{tag}", ["run", "c.json", "-q"], 2, "unknown key",
         [js("c.json", c), text("inc.json", '{"run": {"seed": 1}}')],
         names=["c.json", json.dumps(key)], stderr_lacks=["--set", "inc.json"])
    c = json.loads(json.dumps(FAMILIES["topology"]))
    c["run"][key] = 1
    case(f"run-section-key-with-{tag}", ["run", "c.json", "-q"], 2, "unknown key",
         [js("c.json", c)], names=["c.json", "run." + json.dumps(key)], stderr_lacks=["--set"])
# A user's string is shown escaped: no raw line break, escape or bidirectional control.
for tag, value in [("esc", "\x1b[2J"), ("newline", "a\nb"), ("bidi", "a\u202eb")]:
    c = json.loads(json.dumps(FAMILIES["topology"]))
    c["workloads"] = [{"type": "bursty", "device": value}]
    case(f"run-workload-device-{tag}", ["run", "c.json", "-q"], 2, None, [js("c.json", c)],
         names=["c.json", "workloads[0].device"], stderr_lacks=[value])
    c = json.loads(json.dumps(FAMILIES["topology"]))
    c["platform"] = value
    case(f"run-platform-{tag}", ["run", "c.json", "-q"], 2, None, [js("c.json", c)],
         names=["c.json", "platform"], stderr_lacks=[value])
    c = json.loads(json.dumps(FAMILIES["topology"]))
    c["include"] = value
    case(f"run-include-{tag}", ["run", "c.json", "-q"], 2, None, [js("c.json", c)],
         names=["c.json", "include"], stderr_lacks=[value])
# A device's guest keys on a host without guests: named as such, not as unknown.
for key, value in [("assigned_to", '""'), ("host_handler", '"hard"')]:
    case(f"run-host-device-{key}", ["run", "tiny.json", "-q", "--set", f"devices.0.{key}={value}"], 2,
         "this config runs none", [TINY], names=[f"--set devices.0.{key}", f"devices[0].{key}"])

# A key path deeper than any config nests: refused, never a stack overflow.
DEEP = ".".join(["a"] * 22000)
case("run-set-deep-key-path", ["run", "tiny.json", "-q", "--set", DEEP + "=1"], 2,
     "a key path deeper than 32 keys", [TINY], names=["--set"])
case("sweep-vary-deep-key-path", ["sweep", "s.json", "--out", "o"], 2,
     "a key path deeper than 32 keys", [TINY, js("s.json", {"base": "tiny.json", "vary": {DEEP: [1, 2]}})],
     names=["s.json", "vary"])
# Where a point's result or log goes: no FIFO (it would block), no directory, no linked folder.
PT = "handler.loop_limit=1,seed=1"
for tag, where, made in [("result-dir", f"o/points/{PT}.json", {"dir": True}),
                         ("result-fifo", f"o/points/{PT}.json", {"fifo": True}),
                         ("log-fifo", f"o/logs/{PT}.stderr", {"fifo": True}),
                         ("log-dir", f"o/logs/{PT}.stderr", {"dir": True})]:
    case(f"sweep-{tag}", ["sweep", "spec.json", "--out", "o"], 2, "is not a regular file",
         [TINY, SPEC, dict(made, path=where)], names=["--out o", where[2:]])
# The sweep's own folders and lock: a file, a directory or a read-only place is refused
# before any run.
for tag, entry, msg, named in [
        ("points-is-file", text("o/points", "x\n"), "points is not a directory", "points"),
        ("logs-is-file", text("o/logs", "x\n"), "logs is not a directory", "logs"),
        ("lock-is-directory", {"path": "o/.sweep.lock", "dir": True},
         ".sweep.lock is not a regular file",
         ".sweep.lock"),
        ("lock-is-symlink", {"path": "o/.sweep.lock", "symlink": "../elsewhere"},
         ".sweep.lock is a symbolic link", ".sweep.lock"),
        ("points-read-only", {"path": "o/points", "tmpfs": "ro"}, "points: cannot write here",
         "points")]:
    case(f"sweep-{tag}", ["sweep", "spec.json", "--out", "o"], 2, msg,
         [TINY, SPEC, {"path": "o", "dir": True}, entry], names=["--out o", named])
# A hard link to any file (the spec itself here) is never written through.
for tag, where in [("log", f"o/logs/{PT}.stderr"), ("result", f"o/points/{PT}.json")]:
    case(f"sweep-{tag}-hardlink-to-spec", ["sweep", "spec.json", "--out", "o"], 2, "is a hard link",
         [TINY, SPEC, {"path": "o/logs", "dir": True}, {"path": "o/points", "dir": True},
          {"path": where, "hardlink": "spec.json"}], names=["--out o", where[2:]])
for sub in ("points", "logs"):
    case(f"sweep-{sub}-folder-linked", ["sweep", "spec.json", "--out", "o"], 2, "is a symbolic link",
         [TINY, SPEC, {"path": "elsewhere", "dir": True}, {"path": "o", "dir": True},
          {"path": f"o/{sub}", "symlink": "../elsewhere"}], names=["--out o", sub])
# collect and --emit-slurm never write over the sweep's own files.
for target in ("m/.sweep.lock", "m/logs/x.stderr"):
    case(f"collect-csv-onto-{target.replace('/', '-')}", ["collect", "m", "--csv", target], 2,
         "one of the sweep's own files",
         sweep_dir([text("m/.sweep.lock", ""), {"path": "m/logs", "dir": True}]), names=["--csv"])
case("sweep-slurm-onto-lock", ["sweep", "spec.json", "--out", "o", "--emit-slurm", "o/.sweep.lock"], 2,
     "one of the sweep's own files", [TINY, SPEC], names=["--emit-slurm"])
# A path that starts with "-" reaches the child runs as a path, not an option.
case("explain-scenario-dash-path", ["explain", "--", "-sc.json"], 0, None,
     [copy("-sc.json", "scenario.json")])
case("reproduce-tables-dash-path", ["reproduce", "tiny", "--tables", "-t/tables.json"], 0, None,
     [copy("-t/tables.json", "tables.json"), copy("-t/tiny.json", "tiny.json")])

# A periodic source whose first completion is past the end never fires: refused.
case("run-periodic-phase-after-end", ["run", "tiny.json", "-q", "--set",
     'workloads=[{"type": "periodic", "device": "dev0", "period_ns": 1000, "phase_ns": 200000}]'],
     2, "it would never fire", [TINY], names=["--set workloads", "workloads[0].phase_ns"])
# bench's --duration-ns is the run's length: a --set of it, or of the run, is refused.
for sets in ("run.duration_ns=1000", 'run={"duration_ns": 1000}'):
    case(f"bench-set-{sets.split('=')[0]}", ["bench", "--config", "tiny.json", "--reps", "1",
         "--no-floor", "--set", sets], 2, "use that", [TINY], names=["--set " + sets.split("=")[0]])
case("bench-duration-past-run-limit", ["bench", "--config", "tiny.json", "--reps", "1", "--no-floor",
     "--duration-ns", "1e14"], 2, None, [TINY], names=["--duration-ns"])
# Xen's vCPUs split evenly across its sockets, as a host's cores do.
case("run-xen-sockets-not-dividing", ["run", "c.json", "-q", "--set", "xen.sockets=3"], 2,
     "do not split evenly", [js("c.json", FAMILIES["xen"])], names=["--set xen.sockets=3", "xen.sockets"])
# An NVMe job past its device's queues is the --set's error.
case("run-nvme-jobs-past-queues-set", ["run", "nvme.json", "-q", "--set", "workloads[*].first_queue=2047"],
     2, "jobs from queue 2047", [NVME], names=["--set workloads[*].first_queue=2047", "workloads[0].jobs"])

# An output naming this process's stream would replace the file behind it.
for target in ("/dev/stdout", "/dev/stderr", "/proc/self/fd/1"):
    case(f"run-out-stream-{target.replace('/', '-')}", ["run", "tiny.json", "-q", "--out", target], 2,
         "a stream of this process", [TINY], names=["--out " + target])
# The longest file name an output may have is written: its temporary name is cut to fit.
LONG = "z" * 250 + ".json"
case("run-out-longest-name", ["run", "tiny.json", "-q", "--out", LONG], 0, None, [TINY], creates=[LONG])

# An integer written as a float is exact only below 2^53: larger ones are refused, not rounded.
for tag, value in [("float-past-2-53", "9007199254740993.0"), ("exponent", "1.8446744073709550e19")]:
    case(f"run-seed-{tag}", ["run", "tiny.json", "-q", "--set", "run.seed=" + value], 2,
         "exact only below 2^53", [TINY], names=["--set run.seed", "run.seed"])

# A sweep directory of any length is printed whole, with its counts.
DEEP_DIR = "/".join(["h" * 100] * 5)
case("sweep-long-out-path-summary", ["sweep", "spec.json", "--out", DEEP_DIR + "/s"], 0, None,
     [TINY, SPEC, {"path": DEEP_DIR, "dir": True}], stdout_holds=["/s: 2 points: 2 ran"])

# The child runs' options (explain --variant, bench --child, --floor-child) take nothing they would ignore.
case("explain-variant-with-out", ["explain", "scenario.json", "--variant", "0", "--out", "o.json"], 2,
     "writes no --out", [SCEN], names=["--variant", "--out"])
for child, extra in [(["--child", "tiny.json"], ["--json", "j.json"]),
                     (["--child", "tiny.json"], ["--reps", "5"]),
                     (["--floor-child", "1000"], ["--config", "tiny.json"])]:
    case(f"bench-{child[0][2:]}-with-{extra[0][2:]}", ["bench"] + child + extra, 2,
         "is not an option of a child run", [TINY], names=[extra[0]])

# A --keep or sweep --out directory no run could write into is refused before any run.
case("reproduce-keep-read-only", ["reproduce", "tiny", "--tables", "tables.json", "--keep", "ro"], 2,
     "cannot write here", [TINY, TABLES, {"path": "ro", "tmpfs": "ro"}], names=["--keep ro"])
case("sweep-out-read-only-dir", ["sweep", "spec.json", "--out", "ro"], 2, "cannot write here",
     [TINY, SPEC, {"path": "ro", "tmpfs": "ro"}], names=["--out ro"])

# A row whose run could not even write its message (a full --keep) says so.
case("reproduce-keep-full", ["reproduce", "tiny", "--tables", "tables.json", "--keep", "full"], 1,
     "could not write it to", [TINY, TABLES, {"path": "full", "tmpfs": "full"}], kept=["full"])

# Options that would shape nothing with the others given are refused.
case("run-window-empty", ["run", "tiny.json", "-q", "--timeline", "--window-ns", ""], 2,
     "found an empty string", [TINY], names=["--window-ns"])
case("run-stepwise-with-set-run-ahead", ["run", "tiny.json", "-q", "--stepwise", "--set",
     "run.run_ahead=true"], 2, "--stepwise sets run.run_ahead", [TINY], names=["--set run.run_ahead"])
case("run-stepwise-with-set-run-section", ["run", "tiny.json", "-q", "--stepwise", "--set",
     'run={"run_ahead": true}'], 2, "--stepwise sets run.run_ahead", [TINY], names=["--set run="])
for emit in (["--emit-commands"], ["--emit-slurm", "j.sh"]):
    case(f"sweep-jobs-with-{emit[0][2:]}", ["sweep", "spec.json", "--out", "o", "--jobs", "3"] + emit,
         2, "runs none here", [TINY, SPEC], names=["--jobs"])
case("bench-floor-events-without-floor", ["bench", "--config", "tiny.json", "--reps", "1", "--no-floor",
     "--floor-events", "1000"], 2, "which --no-floor skips", [TINY], names=["--floor-events"])
for flag in ("--help", "--version"):
    case(f"top-{flag[2:]}-stray-argument", [flag, "junk"], 2, "takes nothing after it", [],
         names=[flag, "junk"], group="cli")
case("top-help-on-stdout", ["--help"], 0, None, [], stdout_holds=["usage: cidsim COMMAND"], group="cli")

# Messages that say what is wrong: a tables file that is no object, an empty base, a NUL in a result path.
case("reproduce-tables-top-array", ["reproduce", "tiny", "--tables", "t.json"], 2,
     "expected an object", [TINY, text("t.json", "[]")], names=["t.json"])
case("sweep-base-empty", ["sweep", "s.json", "--out", "o"], 2, "found an empty string",
     [js("s.json", {"base": "", "vary": {"handler.loop_limit": [1, 2]}})], names=["s.json", "base"])
with open(__file__.replace("gen_cases.py", "fixtures/manifest.json")) as f:
    NUL_MANIFEST = json.load(f)
NUL_MANIFEST["points"][0]["result"] = "points/x\u0000.json"
case("collect-result-path-nul", ["collect", "m"], 2, "a control character in the path",
     [js("m/sweep.json", NUL_MANIFEST)], names=["m/sweep.json", "points[0].result"])

# Required keys say they are missing; a name's limit counts characters, not bytes.
case("run-workload-device-missing", ["run", "tiny.json", "-q", "--set",
     'workloads.0={"type": "bursty"}'], 2, "it is required, found none", [TINY],
     names=["workloads[0].device"])
for n, status in ((64, 0), (65, 2)):
    case(f"run-device-name-{n}-two-byte-characters", ["run", "tiny.json", "-q", "--set",
         "devices.0.name=" + "\u00e9" * n, "--set",
         'workloads.0={"type": "trace", "events": [[0, "%s", 0]]}' % ("\u00e9" * n)],
         status, None if status == 0 else f"expected at most 64 characters, found {n}", [TINY],
         names=["devices[0].name"] if status else None)
case("params-devices-profile", ["params", "devices[]"], 0, None, [],
     stdout_holds=['profile', '["dsa","nvme_pm174x","optane_gen2"]'])
case("params-workload-type-required", ["params", "workloads[] (type bursty)"], 0, None, [],
     stdout_holds=['default required'], stdout_lacks=['default "bursty"'])

# A sweep that fails writing its manifest removes every directory it made (mkdir -p), as a
# refused one does.
case("sweep-out-deep-disk-full", ["sweep", "spec.json", "--out", "full/new/deep"], 1,
     ["full/new/deep/sweep.json", "No space left on device"],
     [TINY, SPEC, {"path": "full", "tmpfs": "full"}])
# Of several --sets, the first after which the config no longer loads is blamed, not a later
# one that only moved the key the message names (32 vCPUs + 994 CPUs, then 31 + 994 > 1024);
# the message is the final config's.
case("run-set-blame-first-that-breaks",
     ["run", "x.json", "-q", "--set", "topology.cpus=994", "--set", "xen.vcpus=31"], 2,
     "31 vCPUs", [js("x.json", FAMILIES["xen"])], names=["--set topology.cpus=994: xen.vcpus"],
     stderr_lacks=["--set xen.vcpus=31"])
# explain's limit names the run's exact length, not one rounded to the limit.
case("explain-run-just-past-limit",
     ["explain", "scenario.json", "--set", "run.warmup_ns=0", "--set", "run.duration_ns=100000001"],
     2, "100000001 ns, but explain", [SCEN], names=["run.duration_ns"])
# --seed and a --set of run.seed contradict each other.
for tag, s in [("key", "run.seed=5"), ("section", 'run={"seed": 5}')]:
    case(f"run-seed-and-set-{tag}",
         ["run", "tiny.json", "-q", "--seed", "6", "--set", s], 2, "--seed sets run.seed", [TINY],
         names=["--set " + s])
case("reproduce-unknown-table-named", ["reproduce", "bogus", "--tables", "tables.json"], 2,
     "choose a table", [TINY, TABLES], names=['no table "bogus"'])
# A sweep's seeds are integers by the loader's rule, as run.seed: 2.0 is 2, 2.5 no seed.
case("sweep-seeds-whole-float-ok", ["sweep", "s.json", "--out", "o", "--emit-commands"], 0, None,
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": [1]},
                          "seeds": [1, 2.0]})], creates=["o/sweep.json"],
     stdout_holds=["seed=2"])
case("sweep-seeds-fraction", ["sweep", "s.json", "--out", "o"], 2, "expected a whole number",
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"handler.loop_limit": [1]},
                          "seeds": [1, 2.5]})], names=["s.json", "seeds[1]"])
case("run-help-columns-range", ["run", "--help"], 0, None, [],
     stdout_holds=["timeline width in columns, 10..1000", "0..1000000000"])

# An undefined figure (null: a ratio of nothing) is left out of a seed mean, not refused
# nor averaged as 0: the group's mean is the other seed's 2.5, with no interval from one.
UNDEF = {"parameters": ["handler.loop_limit"],
         "metrics": ["metrics.pid_line.cpu_misses_per_notification"],
         "points": [{"name": f"p{i}", "group": "g0", "params": {"handler.loop_limit": 1},
                     "seed": i + 1, "result": f"points/p{i}.json"} for i in range(2)]}
case("collect-aggregate-seeds-skips-null", ["collect", "m", "--aggregate-seeds"], 0,
     "undefined (null) in 1 point(s)' results (p1): left out of their group's mean",
     [js("m/sweep.json", UNDEF)] +
     [js(f"m/points/p{i}.json", {"metrics": {"pid_line": {"cpu_misses_per_notification": v}},
                                 "seed": i + 1,
                                 "config": {"handler": {"loop_limit": 1}, "mode": "posted"}})
      for i, v in enumerate([2.5, None])],
     stdout_holds=["g0,1,2,2.5,,"])

# --- fifth round ---------------------------------------------------------------------
# A --set value meant as JSON (an array or object, a number) that does not parse is told
# as such, never taken as a string ("expected an array of overrides, found a string").
for tag, s_, msg, named in [
        ("array-syntax", 'overrides=[{"cpus":"0",}]', "not valid JSON", "--set overrides:1:"),
        ("cpulist-array-open", "devices.0.irq_cpus=[0,", "not valid JSON",
         "--set devices.0.irq_cpus"),
        ("number-overflow", "run.duration_ns=1e400", "non-finite number", "run.duration_ns"),
        ("nested-overflow", 'overrides=[{"cpus":"0","cpu":{"eoi_ns":1e400}}]', "non-finite number",
         "overrides[0].cpu.eoi_ns")]:
    case(f"run-set-meant-as-json-{tag}", ["run", "tiny.json", "-q", "--set", s_], 2, msg, [TINY],
         names=[named], stderr_lacks=["found a string"])
case("run-set-name-with-brace-ok", ["run", "tiny.json", "-q", "--set", "devices.0.name=x{", "--set",
                                    "workloads.0.events=[[0, \"x{\", 0]]"], 0, None, [TINY])
# A POWER section beside a guest on a platform: the contradiction is the two machines, not
# the guest's (calibrated) platform.
for tag, repo in [("xen", "configs/vm/e1-xen-eoi.json"), ("kvm", "configs/vm/e3-vfio.json")]:
    case(f"run-{tag}-spr-set-power", ["run", "c.json", "-q", "--set", "power.loop_ns=1"], 2,
         "not both", [{"path": "c.json", "repo": repo}], names=["--set power.loop_ns=1: power"],
         stderr_lacks=["holds an x86 host's costs"])
# A config's includes are merged when it is read: one set later is named, not "unknown key".
for tag, args in [("run", ["run", "tiny.json", "-q"]), ("explain", ["explain", "scenario.json"]),
                  ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json"])]:
    case(f"{tag}-set-include", args + ["--set", 'include="tiny.json"'], 2,
         "merged when the file is read",
         [TINY, SCEN], names=['--set include="tiny.json": include'], stderr_lacks=["unknown key"])
case("sweep-vary-include", ["sweep", "s.json", "--out", "o"], 2, "merged when the file is read",
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"include": ["tiny.json"]}})],
     names=["s.json: vary.include[0]"], stderr_lacks=["unknown key"])

# --- sixth round ---------------------------------------------------------------------
# A path through a file ("x.json/", "x.json/y.json") says which part is not a directory.
case("run-include-through-a-file", ["run", "c.json", "-q"], 2,
     "no such file (./tiny.json is not a directory)",
     [TINY, js("c.json", {"include": "tiny.json/", "devices": [{"name": "d0"}]})],
     names=["c.json: include", "tiny.json/"])
# A published figure of 0 (or a huge one) leaves no error to give: "n/a", not +inf% or
# -nan%, and no 300-digit column.
for tag, pub, held in [("zero", 0, "n/a"), ("huge", 1e308, "1.000e+308")]:
    case(f"reproduce-published-{tag}", ["reproduce", "tiny", "--tables", "t.json"], 0, None,
         [TINY, js("t.json", {"tables": [{"name": "tiny", "title": "t", "set": "prediction",
                                          "metrics": ["irq_rate_M"],
                                          "rows": [{"key": {"mode": "posted"}, "config": "tiny.json",
                                                    "set": ["mode=posted"],
                                                    "published": {"irq_rate_M": pub}}]}]})],
         stdout_holds=[held], stdout_lacks=["inf%", "nan%", "000000000000"])
# The DSA submitter may be any CPU a machine can have; the topology says which it has.
DSA_C2 = [{"path": "rfc/c.json", "repo": "configs/rfc/c2-dsa-2wq.json"},
          {"path": "platform/spr.json", "repo": "configs/platform/spr.json"}]
case("run-dsa-submitter-cpu-100-of-128", ["run", "rfc/c.json", "-q", "--set", "topology.cpus=128",
                                          "--set", "run.duration_ns=20000",
                                          "--set", "workloads[0].submitter_cpu=100"], 0, None,
     DSA_C2)
case("run-dsa-submitter-cpu-absent", ["run", "rfc/c.json", "-q", "--set", "run.duration_ns=20000",
                                      "--set", "workloads[0].submitter_cpu=1023"], 2,
     "does not exist", DSA_C2, names=["--set workloads[0].submitter_cpu=1023: workloads[0]"])
# Two ticks that together fill a pCPU are refused, as one that does alone is.
case("run-kvm-ticks-fill-the-pcpu", ["run", "c.json", "-q", "--set", "vm.host_tick_hz=10000",
                                     "--set", "vm.guest_timer_hz=10000",
                                     "--set", "vm.host_tick_ns=60000",
                                     "--set", "vm.guest_timer_ns=60000"], 2,
     "would do nothing else", [{"path": "c.json", "repo": "configs/vm/e3-vfio.json"}],
     names=["vm.guest_timer_ns", "vm.host_tick_ns"])
# A seed mean past a double's range is said, not printed as a bare null.
HUGE = {"parameters": ["handler.loop_limit"], "metrics": ["metrics.msis"],
        "points": [{"name": f"p{i}", "group": "g0", "params": {"handler.loop_limit": 1},
                    "seed": i + 1, "result": f"points/p{i}.json"} for i in range(2)]}
case("collect-aggregate-seeds-beyond-double", ["collect", "m", "--aggregate-seeds"], 0,
     "beyond a double's range",
     [js("m/sweep.json", HUGE)] +
     [js(f"m/points/p{i}.json", {"metrics": {"msis": 1.7e308}, "seed": i + 1,
                                 "config": {"handler": {"loop_limit": 1}, "mode": "posted"}})
      for i in range(2)],
     stdout_holds=["g0,1,2,,,"])
# --- seventh round -------------------------------------------------------------------
# A queue with no free vector is found when the config is loaded: of several --sets, the
# one after which it no longer loads is named, not the last that touches the device.
case("run-no-free-vector-blames-the-set-that-broke-it",
     ["run", "tiny.json", "-q", "--set", "devices.0.first_vector=234", "--set",
      "devices.0.vectors=2", "--set", "run.seed=2", "--set", "devices.0.name=d1",
      "--set", "workloads.0.events=[[0,\"d1\",0]]"], 2,
     "queue 1 finds no free device vector on CPU 0 from first_vector 0xEA", [TINY],
     names=["--set devices.0.vectors=2: devices[0].vectors"])
# A device profile's values lie under the config's: a null the config gives is the config's
# (an error), not a key the profile's values fill back in.
def profile_config(device, workload):
    return {"platform": "generic", "run": {"duration_ns": 30000}, "topology": {"cpus": 2},
            "devices": [device], "workloads": [workload]}
case("run-profile-device-null", ["run", "c.json", "-q"], 2, "expected a number, found null",
     [js("c.json", profile_config({"name": "x", "profile": "dsa", "handler_base_ns": None,
                                   "irq_cpus": [0]},
                                  {"type": "dsa", "device": "x", "submitter_cpu": 1}))],
     names=["c.json: devices[0].handler_base_ns"])
case("run-profile-workload-null-set", ["run", "c.json", "-q", "--set", "workloads[0].wq_depth=null"],
     2, "expected an integer", [js("c.json", profile_config(
         {"name": "x", "profile": "dsa", "irq_cpus": [0]},
         {"type": "dsa", "device": "x", "submitter_cpu": 1}))],
     names=["--set workloads[0].wq_depth=null: workloads[0].wq_depth"])
# A profile drives the workload type its values are for; a name twice is that error first.
case("run-profile-workload-type-mismatch", ["run", "c.json", "-q"], 2,
     'whose profile "dsa" is for a "dsa" workload',
     [js("c.json", profile_config({"name": "x", "profile": "dsa"}, {"type": "nvme", "device": "x"}))],
     names=["c.json: workloads[0].type"])
case("run-profile-duplicate-name", ["run", "c.json", "-q"], 2, "duplicate device name",
     [js("c.json", {"platform": "generic", "run": {"duration_ns": 30000}, "topology": {"cpus": 1},
                    "devices": [{"name": "x", "profile": "dsa"},
                                {"name": "x", "profile": "nvme_pm174x"}],
                    "workloads": [{"type": "nvme", "device": "x"}]})],
     names=["c.json: devices[1].name"])
# A time that rounds to 0 ps is not 0 (a timer period would turn the timer off); a period
# below Linux's closest LAPIC deadline, or an ipistorm iteration below a timebase tick,
# would hardly let the run end.
for tag, sets, msg, key in [
        ("sub-ps", ["lapic.timer_period_ns=0.0004"], "rounds to 1 ps at least",
         "--set lapic.timer_period_ns=0.0004: lapic.timer_period_ns"),
        ("sub-ps-override", ['overrides=[{"cpus":"0","lapic":{"timer_period_ns":1e-300}}]'],
         "rounds to 1 ps at least", "overrides[0].lapic.timer_period_ns"),
        ("1ps", ["lapic.timer_period_ns=0.001", "cpu.irq_entry_ns=0", "cpu.timer_handler_ns=0",
                 "cpu.eoi_ns=0", "cpu.irq_exit_ns=0"], "at least 1000 ns",
         "--set lapic.timer_period_ns=0.001: lapic.timer_period_ns")]:
    case(f"run-lapic-timer-period-{tag}",
         ["run", "tiny.json", "-q"] + [a for x in sets for a in ("--set", x)], 2, msg, [TINY],
         names=[key])
POWER_ZERO = [f"power.{k}=0" for k in ("usleep_enter_ns", "timer_delta_ns", "timer_handler_ns",
                                       "usleep_exit_ns")] + ["power.loop_ns=0.001"]
case("run-ipistorm-iteration-1ps",
     ["run", "p.json", "-q"] + [a for x in POWER_ZERO for a in ("--set", x)], 2,
     "less than one 512 MHz timebase tick", [{"path": "p.json", "repo": "configs/power/e2-p9.json"}],
     names=["--set power.loop_ns=0.001: power"])
# A window's end past the run is told with the digits given, not rounded onto the end.
case("explain-window-past-the-run-digits",
     ["explain", "eoi-lock", "--set", "run.duration_ns=50000", "--set", "run.warmup_ns=0",
      "--set", "explain.window_ns=[0,50000.0006]"], 2, "[0, 50000.0006] ends after the run (50000 ns",
     [], names=["explain.window_ns"])
# A metric named as one of the table's own columns would be a second column of that name.
for metric in ["seed", "point", "handler.loop_limit"]:
    case(f"collect-metric-named-as-column-{metric}", ["collect", "m", "-m", metric], 2,
         "the table has a column of that name already", sweep_dir([TINY]),
         names=[f"--metric {metric}"])
# Beside a Xen domain the host CPU runs only its timer: a host device has no costs to run on.
case("run-xen-host-device", ["run", "x.json", "-q", "--set", "devices[0].assigned_to="], 2,
     "beside a Xen domain", [XEN],
     names=["--set devices[0].assigned_to=: devices[0].assigned_to"])
# A POWER partition takes no platform: its summary does not suggest one.
case("run-power-summary-suggests-no-platform",
     ["run", "p.json", "--set", "run.duration_ns=200000", "--set", "run.warmup_ns=0"], 0, None,
     [{"path": "p.json", "repo": "configs/power/e2-p9.json"}],
     stdout_holds=["a POWER partition takes no platform"],
     stdout_lacks=['"platform": "spr"'])

# --- eighth round --------------------------------------------------------------------
# A row of one window runs whole at any --precision: a shortened run would print its
# figure unjudged (4 MSIs in 20 us: 0.2 M/s, not the 500 of its first 2 ns).
case("reproduce-precision-1-one-window-row-runs-whole",
     ["reproduce", "tiny", "--tables", "tables.json", "--precision", "1"], 0, None,
     [TINY, TABLES], stdout_holds=["0.200"])
# A table metric of a workload the row's run lacks is not a measured 0.
for metric, kind in [("iops_per_disk_M", "nvme"), ("iops_M", "nvme"), ("bandwidth_mbps", "dsa")]:
    case(f"reproduce-{metric}-without-{kind}-workload",
         ["reproduce", "t", "--tables", "t.json"], 1,
         f"{metric} is not measured by this row: its run has no {kind} workload",
         [TINY, js("t.json", {"tables": [{"name": "t", "title": "t", "set": "prediction",
                                          "metrics": [metric],
                                          "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]})])
# A whole run section beside --seed: refused only when it states the seed.
case("run-set-run-section-beside-seed", ["run", "tiny.json", "-q", "--set",
     'run={"duration_ns":20000}', "--seed", "3"], 0, None, [TINY])
case("run-set-run-section-with-seed-beside-seed", ["run", "tiny.json", "-q", "--set",
     'run={"duration_ns":20000,"seed":2}', "--seed", "3"], 2,
     "--seed sets run.seed after every --set", [TINY], names=['--set run={"duration_ns"'])
case("run-set-run-section-with-run-ahead-beside-stepwise", ["run", "tiny.json", "-q", "--set",
     'run={"duration_ns":20000,"run_ahead":true}', "--stepwise"], 2,
     "--stepwise sets run.run_ahead", [TINY], names=['--set run={"duration_ns"'])
for tag, spec, key in [
        ("set-run-section-with-seed", {"set": {"run": {"seed": 5}}}, "set.run"),
        ("vary-run-section-with-seed", {"vary": {"run": [{"seed": 5}, {"seed": 6}]}},
         "vary.run[0]"),
        ("zip-run-section-with-seed",
         {"zip": [{"run": [{"seed": 5}, {"seed": 6}], "mode": ["posted", "remappable"]}]},
         "zip[0].run[0]")]:
    case(f"sweep-{tag}", ["sweep", "s.json", "--out", "o"], 2, "holds run.seed",
         [TINY, js("s.json", {"base": "tiny.json", **spec})], names=["s.json", key])
case("sweep-set-run-section-runs", ["sweep", "s.json", "--out", "o", "-j", "1"], 0, None,
     [TINY, js("s.json", {"base": "tiny.json", "set": {"run": {"duration_ns": 10000}},
                          "vary": {"mode": ["posted", "remappable"]}, "seeds": 1})])
# An index with a leading zero is a second spelling of one element.
for tag, args, key in [
        ("run-set", ["run", "tiny.json", "-q", "--set", "devices.00.vectors=1"],
         "--set devices.00.vectors"),
        ("run-set-bracket", ["run", "tiny.json", "-q", "--set", "devices[01].vectors=1"],
         "--set devices[01].vectors"),
        ("collect-metric", ["collect", "m", "-m", "per_cpu.00.busy_fraction"],
         "--metric per_cpu.00.busy_fraction")]:
    case(f"{tag}-index-leading-zero", args, 2, "has a leading zero",
         [TINY] + (sweep_dir() if tag.startswith("collect") else []), names=[key])
for tag, spec, key in [
        ("vary", {"vary": {"devices.00.vectors": [1]}}, "vary.devices.00.vectors"),
        ("set", {"set": {"devices.00.vectors": 1}}, "set.devices.00.vectors"),
        ("metric", {"vary": {"mode": ["posted"]}, "metrics": ["per_cpu.01.busy_fraction"]},
         "metrics[0]: per_cpu.01.busy_fraction")]:
    case(f"sweep-{tag}-index-leading-zero", ["sweep", "s.json", "--out", "o"], 2,
         "has a leading zero", [TINY, js("s.json", {"base": "tiny.json", **spec})],
         names=["s.json", key])
# One metric in two spellings is one column twice.
case("collect-metric-two-spellings",
     ["collect", "m", "-m", "per_cpu.0.busy_fraction", "-m", "per_cpu[0].busy_fraction"], 2,
     "given twice (as per_cpu.0.busy_fraction)", sweep_dir([TINY]),
     names=["--metric per_cpu[0].busy_fraction"])
case("sweep-metric-two-spellings", ["sweep", "s.json", "--out", "o"], 2, "is listed twice",
     [TINY, js("s.json", {"base": "tiny.json", "vary": {"mode": ["posted"]},
                          "metrics": ["per_cpu.0.busy_fraction", "per_cpu[0].busy_fraction"]})],
     names=["s.json: metrics[1]: per_cpu[0].busy_fraction"])
# bench's --duration-ns, not the config's key, is what leaves a trace event past the run.
case("bench-duration-shorter-than-trace",
     ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json", "--duration-ns", "100"], 2,
     "beyond the end of the run", [TINY], names=["--duration-ns 100", "tiny.json"])
# A window within one picosecond, or an end below one.
for tag, window, msg in [("same-picosecond", "19999.9999:20000", "is no window"),
                         ("below-picosecond", "0.0001:0.0002", "below one picosecond"),
                         ("end-below-picosecond", "0:0.0004", "below one picosecond")]:
    case(f"run-window-ns-{tag}", ["run", "tiny.json", "-q", "--timeline", "--window-ns", window],
         2, msg, [TINY], names=[f"--window-ns {window}"])
# The explain section changes no run: run and bench refuse a --set of it.
for tag, args in [("run", ["run", "tiny.json", "-q"]),
                  ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json",
                             "--duration-ns", "20000"])]:
    for s in ["explain.foo=1", 'explain={"garbage":true}']:
        case(f"{tag}-set-explain-{s.split('=')[0].replace('.', '-')}", args + ["--set", s], 2,
             "the explain section is read by `cidsim explain` only", [TINY],
             names=[f"--set {s}"])
# A number below a double's range reads as 0: not what the user gave.
case("run-set-number-underflows", ["run", "tiny.json", "-q", "--set", "run.seed=1e-400"], 2,
     "nearer 0 than a double can hold", [TINY], names=["--set run.seed=1e-400"])
case("run-set-object-number-underflows",
     ["run", "tiny.json", "-q", "--set", 'run={"duration_ns":20000,"warmup_ns":1e-400}'], 2,
     "nearer 0 than a double can hold", [TINY], names=["run.warmup_ns", "1e-400"])
case("run-file-number-underflows", ["run", "u.json", "-q"], 2,
     "nearer 0 than a double can hold",
     [text("u.json", '{"platform": "generic", "run": {"duration_ns": 20000, "seed": 5e-330},'
                     ' "topology": {"cpus": 1}, "devices": [{"name": "d", "irq_cpus": [0]}],'
                     ' "workloads": [{"type": "bursty", "device": "d", "comment": "1e-999"}]}')],
     names=["u.json: run.seed: 5e-330"])
# "-" is a file of that name here, not standard output.
for opt in ["--out", "--stats"]:
    case(f"run{opt}-dash", ["run", "tiny.json", "-q", opt, "-"], 2, "not to standard output",
         [TINY], names=[f"{opt} -"])
# A data folder that is not one would be passed over without a word.
for tag, value in [("missing", "{dir}/nowhere"), ("file", "{dir}/tiny.json")]:
    case(f"data-dir-{tag}", ["explain", "burst"], 2, "not a directory", [TINY],
         env={"CIDSIM_DATA_DIR": value}, names=["CIDSIM_DATA_DIR="])
# An empty section of an override sets nothing, as an override of no section.
case("run-override-empty-section", ["run", "tiny.json", "-q", "--set",
     'overrides=[{"cpus":"0","cpu":{"irq_entry_ns":5},"lapic":{}}]'], 2,
     "an empty section sets nothing", [TINY], names=["overrides[0].lapic"])
case("run-power-override-empty-section", ["run", "p.json", "-q", "--set",
     'overrides=[{"chips":[0],"power":{}}]'], 2, "an empty section sets nothing",
     [{"path": "p.json", "repo": "configs/power/e2-p9.json"}], names=["overrides[0].power"])
case("run-include-empty-list", ["run", "i.json", "-q"], 2, "an empty list includes nothing",
     [text("i.json", '{"include": [], "platform": "generic", "run": {"duration_ns": 1000},'
                     ' "topology": {"cpus": 1}, "devices": [{"name": "d", "irq_cpus": [0]}],'
                     ' "workloads": [{"type": "bursty", "device": "d"}]}')],
     names=["i.json: include"])
# A vm section beside a Xen domain or a POWER partition is that clash, not a missing vcpus.
for tag, cfg in [("xen", "configs/vm/e1-xen-eoi.json"), ("power", "configs/power/e2-p9.json")]:
    case(f"run-vm-section-beside-{tag}", ["run", "c.json", "-q", "--set", "vm={}"], 2,
         "not both", [{"path": "c.json", "repo": cfg}], names=["--set vm={}"])
case("explain-affinity-move-queue-past-device",
     ["explain", "affinity-move", "--set", "explain.affinity_move.queue=1"], 2,
     'is no queue of device "dev0", whose queues are 0..0', [],
     names=["explain.affinity_move.queue"])
def tiny_row_tables(**row):
    """t.json: table t of one row {"a": 1} on tiny.json showing irq_rate_M, with `row`'s keys."""
    return js("t.json", {"tables": [{"name": "t", "title": "t", "set": "prediction",
                                     "metrics": ["irq_rate_M"],
                                     "rows": [dict({"key": {"a": 1}, "config": "tiny.json"},
                                                   **row)]}]})


case("reproduce-published-negative", ["reproduce", "t", "--tables", "t.json"], 2,
     "expected a number >= 0, got -1", [TINY, tiny_row_tables(published={"irq_rate_M": -1})],
     names=["t.json", "rows[0].published.irq_rate_M"])
# A POWER row's platform line says a partition takes none, as run's summary does.
case("reproduce-power-row-platform-line", ["reproduce", "t", "--tables", "t.json", "-j", "1"], 0,
     None, [{"path": "p.json", "repo": "configs/power/e2-p9.json"},
            js("t.json", {"tables": [{"name": "t", "title": "t", "set": "prediction",
                                      "metrics": ["mint_per_s"],
                                      "rows": [{"key": {"c": 1}, "config": "p.json",
                                                "set": ["ipistorm.cpulist=0-15",
                                                        "run.duration_ns=100000",
                                                        "run.warmup_ns=0"]}]}]})],
     stdout_holds=["a POWER partition takes no platform"], stdout_lacks=['"platform": "spr"'])
# --- tenth round ---------------------------------------------------------------------
# Two includes of two platforms: one's values would run under the other's name.
GENERIC_TINY = text("g.json", '{"platform": "generic", "run": {"duration_ns": 20000},'
                              ' "topology": {"cpus": 1}, "devices": [{"name": "d",'
                              ' "irq_cpus": [0]}], "workloads": [{"type": "bursty",'
                              ' "device": "d"}]}')
for tag, order in [("spr-then-generic", ["spr.json", "g.json"]),
                   ("generic-then-spr", ["g.json", "spr.json"])]:
    case(f"run-include-two-platforms-{tag}", ["run", "c.json", "-q"], 2,
         "a config runs on one platform",
         [{"path": "spr.json", "repo": "configs/platform/spr.json"}, GENERIC_TINY,
          js("c.json", {"include": order})], names=["c.json: include", "spr.json", "g.json"])
# What no run reads, set in a reproduce row or a sweep's set: refused before any run.
for tag, value, msg in [("explain", "explain.title=x", "read by `cidsim explain` only"),
                        ("explain-whole", "explain={}", "read by `cidsim explain` only"),
                        ("provenance", "provenance.x=1", "provenance documents its values")]:
    case(f"reproduce-row-set-{tag}", ["reproduce", "t", "--tables", "t.json"], 2, msg,
         [TINY, tiny_row_tables(set=[value])],
         names=["t.json: tables[0].rows[0].set[0]", value.split("=")[0]])
    key, raw = value.split("=")
    case(f"sweep-set-{tag}", ["sweep", "s.json", "--out", "sw"], 2, msg,
         [TINY, js("s.json", {"base": "tiny.json", "set": {key: json.loads(raw) if raw != "x"
                                                            else raw},
                              "vary": {"mode": ["posted", "remappable"]}})],
         names=["s.json", "set." + key])
for tag, args in [("run", ["run", "tiny.json", "-q"]),
                  ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json",
                             "--duration-ns", "20000"])]:
    case(f"{tag}-set-provenance", args + ["--set", "provenance.x=1"], 2,
         "provenance documents its values, and changes no run", [TINY],
         names=["--set provenance.x=1"])
# A key twice in one row's set: the earlier value would be lost.
case("reproduce-row-set-key-twice", ["reproduce", "t", "--tables", "t.json"], 2,
     "replaces what [0] gave", [TINY, tiny_row_tables(set=["run.seed=2", "run.seed=3"])],
     names=["t.json: tables[0].rows[0].set[1]", "run.seed"])
# A trace's queue is an integer by the loader's rule (1.0 is 1), its time at least 1 ps.
case("run-trace-queue-whole-float", ["run", "tiny.json", "-q", "--set",
     'workloads.0.events=[[0,"dev0",0.0]]'], 0, None, [TINY])
for tag, q, msg in [("fraction", "0.5", "queue: expected a whole number"),
                    ("huge", "1e30", "queue 1e+30 does not exist"),
                    ("negative", "-1", "queue -1 does not exist")]:
    case(f"run-trace-queue-{tag}", ["run", "tiny.json", "-q", "--set",
         f'workloads.0.events=[[0,"dev0",{q}]]'], 2, msg, [TINY],
         names=["workloads[0].events[0]"])
case("run-trace-time-below-ps", ["run", "tiny.json", "-q", "--set",
     'workloads.0.events=[[0.0001,"dev0",0]]'], 2, "rounds to 1 ps at least", [TINY],
     names=["workloads[0].events[0]", "0.0001"])
case("explain-affinity-move-queue-whole-float",
     ["explain", "affinity-move", "--set", "explain.affinity_move.queue=0.0"], 0, None, [])
case("explain-affinity-move-to-cpu-fraction",
     ["explain", "affinity-move", "--set", "explain.affinity_move.to_cpu=1.5"], 2,
     "expected a whole number", [], names=["explain.affinity_move.to_cpu"])
# collect's metric paths: an empty key is a typo, as a sweep's metrics say.
for tag, metric in [("trailing-dot", "metrics.msi_rate_mps."), ("leading-dot", ".metrics"),
                    ("double-dot", "metrics..msi_rate_mps"), ("empty", "")]:
    case(f"collect-metric-empty-key-{tag}", ["collect", "m", "--metric", metric], 2,
         "an empty key in the path", sweep_dir([R0]), names=[f"--metric {metric}"])
# A sweep metric named as one of collect's own columns would be a second column of that name.
for tag, metric in [("seed", "seed"), ("point", "point"), ("parameter", "mode")]:
    case(f"sweep-metric-is-column-{tag}", ["sweep", "s.json", "--out", "sw"], 2,
         "collect's table has a column of that name already",
         [TINY, js("s.json", {"base": "tiny.json", "vary": {"mode": ["posted", "remappable"]},
                              "metrics": [metric]})], names=["s.json", f"metrics[0]: {metric}"])
# A Xen domain's host CPUs only keep time: sockets or SMT threads of theirs change nothing.
for key in ["sockets=2", "threads_per_core=2"]:
    case(f"run-xen-topology-{key.split('=')[0]}", ["run", "x.json", "-q", "--set",
         "topology.cpus=4", "--set", f"topology.{key}"], 2, "beside a Xen domain the host's CPUs",
         [js("x.json", FAMILIES["xen"])], names=[f"--set topology.{key}"])
# Beside a Xen domain the host CPU's costs are the platform's: only the period can move.
case("run-xen-timer-period-within-one-tick", ["run", "x.json", "-q", "--set",
     "lapic.timer_period_ns=1000"], 2, "lengthen the period", [js("x.json", FAMILIES["xen"])],
     names=["lapic.timer_period_ns"])
case("explain-set-provenance", ["explain", "burst", "--set", "provenance.x=1"], 2,
     "provenance documents its values, and changes no run", [], names=["--set provenance.x=1"])
# --- eleventh round --------------------------------------------------------------------
# A closed standard output is no file to write into: cidsim's next file (a sweep's lock)
# would take its descriptor and receive what was meant for it.
for tag, argv, files in [
        ("run", ["run", "tiny.json"], [TINY]), ("params", ["params"], []),
        ("explain", ["explain", "scenario.json"], [SCEN]),
        ("sweep", ["sweep", "spec.json", "--out", "sw", "--emit-commands"], [TINY, SPEC]),
        ("version", ["--version"], []), ("help", ["--help"], [])]:
    case(f"{tag}-stdout-closed", argv, 1, "writing to standard output failed: Bad file descriptor",
         files, stdout_to="closed")
for tag, argv in [("version", ["--version"]), ("help", ["--help"])]:
    case(f"{tag}-stdout-disk-full", argv, 1,
         "writing to standard output failed: No space left on device", [], stdout_to="/dev/full")
# The JSON parser ends a text at a NUL byte: the zeros after a crash would pass for whole.
TINY_TEXT = open(__file__.replace("gen_cases.py", "fixtures/tiny.json")).read()
NUL_TAIL = "\u0000garbage {{{"
case("run-config-nul-after-document", ["run", "c.json", "-q"], 2, "not valid JSON: a NUL byte",
     [text("c.json", TINY_TEXT + NUL_TAIL)], names=["c.json:"])
case("run-include-nul-after-document", ["run", "c.json", "-q"], 2, "not valid JSON: a NUL byte",
     [text("inc.json", TINY_TEXT + NUL_TAIL), js("c.json", {"include": "inc.json"})],
     names=["inc.json:"])
case("sweep-spec-nul-after-document", ["sweep", "s.json", "--out", "sw"], 2,
     "not valid JSON: a NUL byte",
     [TINY, text("s.json", json.dumps({"base": "tiny.json", "vary": {"mode": ["posted"]}}) +
                 NUL_TAIL)], names=["s.json:"])
case("reproduce-tables-nul-after-document", ["reproduce", "t", "--tables", "t.json"], 2,
     "not valid JSON: a NUL byte", [TINY, text("t.json", '{"tables": []}' + NUL_TAIL)],
     names=["t.json:"])
case("explain-scenario-nul-after-document", ["explain", "e.json"], 2,
     "not valid JSON: a NUL byte",
     [text("e.json", open(__file__.replace("gen_cases.py", "fixtures/scenario.json")).read() +
           NUL_TAIL)], names=["e.json:"])
case("collect-result-nul-after-document", ["collect", "m"], 2, "not a cidsim result",
     sweep_dir([text("m/points/p0.json", json.dumps(R0["json"]) + NUL_TAIL)]),
     names=["m/points/p0.json"])
# Bytes that are not UTF-8 are shown by value, and a UTF-16 file is called so.
WIDE = "(UTF-16 or UTF-32? cidsim reads UTF-8)"
case("run-config-utf16", ["run", "c.json", "-q"], 2, WIDE,
     [{"path": "c.json", "hex": "fffe7b000a007d00"}], names=["c.json:1:4"])
case("run-config-utf16-bom-only", ["run", "c.json", "-q"], 2,
     "last read: '<0xFF>' " + WIDE, [{"path": "c.json", "hex": "fffe"}],
     names=["c.json:1:1"])
for tag, hexed, at in [("utf16le-no-bom", "7b000a007d00", "c.json:1:2"),
                      ("utf16be-no-bom", "007b000a007d", "c.json:1:1")]:
    case(f"run-config-{tag}", ["run", "c.json", "-q"], 2, "a NUL byte " + WIDE,
         [{"path": "c.json", "hex": hexed}], names=[at])
# A file of zeros (a crash's) is no UTF-16.
case("run-config-zeros", ["run", "c.json", "-q"], 2, "not valid JSON: a NUL byte",
     [{"path": "c.json", "hex": "00000000"}], names=["c.json:1:1"], stderr_lacks=["UTF"])
case("run-config-invalid-utf8-byte", ["run", "c.json", "-q"], 2, "last read: '\"<0xE9>\"'",
     [{"path": "c.json", "hex": "7b226d6f6465223a2022e9227d"}], names=["c.json:1:"])
# The emitted commands read the shipped files from where the sweep's came from.
case("sweep-emit-commands-data-dir", ["sweep", "spec.json", "--out", "sw", "--emit-commands"], 0,
     None, [TINY, SPEC, {"path": "data/configs", "dir": True}],
     env={"CIDSIM_DATA_DIR": "{dir}/data"},
     stdout_holds=["env CIDSIM_DATA_DIR=/", "/data /"])
case("data-dir-no-configs", ["explain", "burst"], 2, "holds no configs/ folder", TINY_FILES,
     env={"CIDSIM_DATA_DIR": "{dir}/d"}, names=["CIDSIM_DATA_DIR="])
# Empty is unset: `CIDSIM_DATA_DIR= cidsim ...` switches it off.
case("data-dir-empty", ["explain", "burst"], 0, None, [], env={"CIDSIM_DATA_DIR": ""})
# A result that names no cidsim version is of an unknown one, not of the others'.
TWO = {"parameters": ["handler.loop_limit"], "metrics": ["metrics.msis"],
       "points": [{"name": f"p{i}", "group": "g0", "params": {"handler.loop_limit": 1},
                   "seed": i + 1, "result": f"points/p{i}.json"} for i in range(2)]}
for tag, version in [("missing", None), ("number", 5)]:
    r1 = {"metrics": {"msis": 4}, "seed": 2, "config": {"handler": {"loop_limit": 1}}}
    if version is not None:
        r1["cidsim_version"] = version
    case(f"collect-result-version-{tag}", ["collect", "m"], 0,
         "made by 2 cidsim versions", [js("m/sweep.json", TWO),
         js("m/points/p0.json", {"metrics": {"msis": 4}, "seed": 1, "cidsim_version": "v1",
                                 "config": {"handler": {"loop_limit": 1}}}),
         js("m/points/p1.json", r1)])
# A finite mean is kept when only its interval is beyond a double's range.
case("collect-aggregate-seeds-interval-beyond-double", ["collect", "m", "--aggregate-seeds"], 0,
     "metrics.msis's interval in group g0: beyond a double's range",
     [js("m/sweep.json", TWO)] +
     [js(f"m/points/p{i}.json", {"metrics": {"msis": v}, "seed": i + 1,
                                 "config": {"handler": {"loop_limit": 1}}})
      for i, v in enumerate([1e308, 4])],
     stdout_holds=["g0,1,2,5e+307,,"])
# Values holding "," or "=" are quoted in point names: no two points' names read alike.
case("sweep-zip-values-with-separators", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 0,
     None, [js("s.json", {"base": {"platform": "generic", "run": {"duration_ns": 2000},
                                   "topology": {"cpus": 1},
                                   "devices": [{"name": "d0", "irq_cpus": [0]},
                                               {"name": "d1", "irq_cpus": [0]},
                                               {"name": "w", "irq_cpus": [0]}],
                                   "workloads": [{"type": "bursty", "device": "w"}]},
                          "zip": [{"devices.0.name": ["a,devices.1.name=b", "a"],
                                   "devices.1.name": ["c", "b,devices.1.name=c"]}]})],
     stdout_holds=['devices.0.name=_a,devices.1.name=b_,devices.1.name=c,seed=1~'])
case("run-trace-empty", ["run", "tiny.json", "-q", "--set", "workloads.0.events=[]"], 2,
     "an empty trace sends no MSI", [TINY], names=["workloads[0].events"])
case("params-block-as-listed", ["params", "workloads[]"], 0, None, [],
     stdout_holds=["workloads[] (type nvme)"])
# --- twelfth round ---------------------------------------------------------------------
# A sweep replaces only its own sweep.json and base.json.
case("sweep-foreign-manifest", ["sweep", "spec.json", "--out", "sw", "--emit-commands"], 2,
     "sweep.json is not a manifest written by cidsim sweep",
     [TINY, SPEC, text("sw/sweep.json", "my precious notes\n")], names=["--out sw"],
     changes=[])
case("sweep-foreign-base", ["sweep", "s.json", "--out", "sw", "--emit-commands"], 2,
     "base.json is not of a sweep",
     [js("s.json", {"base": json.load(open(__file__.replace("gen_cases.py", "fixtures/tiny.json"))),
                    "vary": {"mode": ["posted", "remappable"]}}),
      text("sw/base.json", "my notes\n")], names=["--out sw"])
# What goes into each emitted command line holds no control character.
case("sweep-emit-data-dir-newline", ["sweep", "spec.json", "--out", "sw", "--emit-commands"], 2,
     "a control character in the path", [TINY, SPEC, {"path": "n\nl/configs", "dir": True}],
     env={"CIDSIM_DATA_DIR": "{dir}/n\nl"}, names=["CIDSIM_DATA_DIR"])
# Text explain prints on a line of its own is printable.
SCEN_TEXT = json.load(open(__file__.replace("gen_cases.py", "fixtures/scenario.json")))
for tag, key, value in [("title", "title", "ti\u001b[31mRED"),
                        ("comment", "comment", "line1\u001b[2J cleared")]:
    sc = json.loads(json.dumps(SCEN_TEXT))
    if key == "title":
        sc["explain"]["title"] = value
    else:
        sc["comment"] = value
    case(f"explain-{tag}-control-character", ["explain", "e.json"], 2,
         "a control character in text explain prints", [js("e.json", sc)],
         names=["explain.title" if key == "title" else "comment"])
case("explain-file-name-control-character", ["explain", "e\u001bx.json"], 2,
     "the scenario's file name", [copy("e\u001bx.json", "scenario.json")],
     names=["the scenario's file name"])
case("bench-config-name-control-character",
     ["bench", "--reps", "1", "--no-floor", "--config", "a\nb.json"], 2,
     "a control character in the file's name", [copy("a\nb.json", "tiny.json")],
     names=["--config"])
# One key given twice: the earlier value would be lost without a word.
for tag, args, files in [
        ("run", ["run", "tiny.json", "-q"], [TINY]),
        ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json"], [TINY]),
        ("explain", ["explain", "scenario.json"], [SCEN])]:
    case(f"{tag}-set-key-twice", args + ["--set", "mode=posted", "--set", "mode=remappable"], 2,
         "whose value would be lost", files, names=["--set mode=remappable", "--set mode=posted"])
case("run-set-key-twice-spelled-apart", ["run", "tiny.json", "-q", "--set",
     "devices[0].vectors=2", "--set", "devices.0.vectors=1"], 2, "whose value would be lost",
     [TINY], names=["--set devices.0.vectors=1"])
case("run-set-layered", ["run", "tiny.json", "-q", "--set", 'run={"duration_ns": 20000}',
     "--set", "run.seed=3"], 0, None, [TINY])
# A bare name is the built-in scenario's, whatever the folder run in holds.
case("explain-builtin-beside-dir-of-its-name", ["explain", "burst"], 0, None,
     [{"path": "burst", "dir": True}], stdout_holds=["== burst: "])
case("explain-list-data-dir-partial", ["explain", "--list"], 0, None,
     [{"path": "data/configs/explain", "dir": True},
      {"path": "data/configs/explain/burst.json", "repo": "configs/explain/burst.json"}],
     env={"CIDSIM_DATA_DIR": "{dir}/data"}, stdout_holds=["burst", "vm-delivery", "ipi-storm"])
# Advice that works when followed: a single value's path, a table metric's names.
case("collect-metric-container-advice-reaches-a-value", ["collect", "m", "--metric", "config"], 2,
     "e.g. config.handler.loop_limit)", sweep_dir([R0]), names=["--metric config"])
case("sweep-metric-indexed-container", ["sweep", "spec.json", "--out", "sw"], 2,
     "is not a single value (name a field inside it, e.g. per_cpu.0.",
     [TINY, js("spec.json", {"base": "tiny.json", "vary": {"mode": ["posted", "remappable"]},
                             "metrics": ["per_cpu.0"]})], names=["metrics[0]: per_cpu.0"])
case("reproduce-tables-unknown-metric-lists", ["reproduce", "t", "--tables", "t.json"], 2,
     "; a table's metrics: ", [TINY, js("t.json", {"tables": [{
         "name": "t", "title": "t", "set": "prediction", "metrics": ["msis_per_irq"],
         "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]})],
     names=["t.json", "tables[0].metrics[0]"])
case("run-trace-event-at-end", ["run", "tiny.json", "-q", "--set", "run.duration_ns=900"], 2,
     "at 900 ns, at the end of the run", [TINY], names=["workloads[0].events[3]"])
# A trace's events are fixed in time: its row and its sensitivity runs keep their length,
# so the assumption interval holds the row's own figure.
case("reproduce-sensitivity-trace-row-keeps-length",
     ["reproduce", "tiny", "--tables", "tables.json", "--sensitivity"], 0,
     "of a replayed trace, whose events are fixed in time", [TINY, TABLES],
     stdout_holds=["irq_rate_M: 0.2 +-n/a (ci95), assumption interval [0.2, 0.2]"])
# A comment of paragraphs is printed as they are.
case("explain-comment-paragraphs", ["explain", "e.json"], 0, None,
     [js("e.json", dict(SCEN_TEXT, comment="First paragraph.\n\nSecond,\tafter a tab."))],
     stdout_holds=["First paragraph.\n\nSecond,"])
# A later --set of a section above an earlier one's key replaces it (and "*" every element).
for tag, first, later in [("section-after-key", "run.seed=7", 'run={"duration_ns": 20000}'),
                          ("star-after-index", "devices[0].vectors=2", "devices.*.vectors=1")]:
    case(f"run-set-{tag}", ["run", "tiny.json", "-q", "--set", first, "--set", later], 2,
         "whose value would be lost", [TINY], names=[f"--set {later}", f"--set {first}"])
# What is no key=value is said as such, not as given twice.
case("run-set-no-equals-twice", ["run", "tiny.json", "-q", "--set", "foo", "--set", "foo"], 2,
     "expected key.path=value", [TINY], names=["--set foo"])
# A sweep's directory whose manifest was removed, as advised: its base.json is its own.
case("sweep-inline-base-manifest-removed", ["sweep", "s.json", "--out", "sw", "--emit-commands"],
     0, None,
     [js("s.json", {"base": json.load(open(__file__.replace("gen_cases.py", "fixtures/tiny.json"))),
                    "vary": {"mode": ["posted", "remappable"]}}),
      text("sw/base.json", "{}\n"), text("sw/.sweep.lock", "")], creates=["sw/sweep.json"],
     changes=["sw/base.json"])
# What the user gave reaches the terminal as text: an escape sequence or a
# bidirectional override in a file name, a --set or a value is shown, not obeyed.
for tag, args, files, shown in [
        ("file-name", ["run", "x\x1b[31mred.json", "-q"], [TINY], "x<U+001B>[31mred.json"),
        ("set-key", ["run", "tiny.json", "-q", "--set", "ru\u202en.seed=1"], [TINY],
         "ru<U+202E>n.seed"),
        ("out-option", ["run", "tiny.json", "-q", "--out", "d/\x9b2J"], [TINY], "<U+009B>2J")]:
    case(f"terminal-escape-{tag}", args, 2, shown, files, names=[shown],
         stderr_lacks=["\x1b", "\u202e", "\x9b"])
# A second byte order mark is shown: the first is read past, the second is not JSON.
case("run-config-two-byte-order-marks", ["run", "c.json", "-q"], 2, "<U+FEFF>",
     [{"path": "c.json", "hex": "efbbbfefbbbf7b7d"}], names=["c.json:1:4", "second byte order mark"])
# --- thirteenth round -------------------------------------------------------------
# A name longer than a file name may be is found before the run, not at its rename.
LONG = "b" * 300
for tag, argv, files in [
        ("run", ["run", "tiny.json", "-q", "--out", LONG + ".json"], [TINY]),
        ("run-stats", ["run", "tiny.json", "-q", "--stats", LONG + ".txt"], [TINY]),
        ("explain", ["explain", "scenario.json", "--out", LONG + ".json"], [SCEN])]:
    case(f"{tag}-output-name-too-long", argv, 2, "File name too long", files,
         names=[LONG + (".txt" if tag == "run-stats" else ".json")])
case("reproduce-table-name-too-long", ["reproduce", "n" * 65, "--tables", "t.json"], 2,
     "expected at most 64 bytes", [TINY, js("t.json", {"tables": [
         {"name": "n" * 65, "title": "t", "set": "prediction", "metrics": ["irq_rate_M"],
          "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]})],
     names=["t.json", "tables[0].name"])
# A row's key of any length keeps its line, and the next row its own.
case("reproduce-long-key-own-line", ["reproduce", "t", "--tables", "t.json", "--max-reruns", "0"],
     0, None, [TINY, js("t.json", {"tables": [
         {"name": "t", "title": "t", "set": "prediction", "metrics": ["irq_rate_M"],
          "rows": [{"key": {"a": "x" * 500}, "config": "tiny.json"},
                   {"key": {"a": 2}, "config": "tiny.json", "set": ["mode=remappable"]}]}]})],
     stdout_holds=["x" * 500 + " irq_rate_M ", "\n  a=2 "])
# Text a table prints holds no control character of any kind (C1, separators, bidi).
for tag, field, value in [("c1-title", "title", "T \u009b31mRED"),
                          ("bidi-note", "note", "n \u202eevil"),
                          ("bidi-name", "name", "t\u202e")]:
    case(f"reproduce-tables-{tag}", ["reproduce", "all", "--tables", "t.json"], 2,
         "a control character in a string that is printed", [TINY, js("t.json", {"tables": [
             dict({"name": "t", "title": "t", "set": "prediction", "metrics": ["irq_rate_M"],
                   "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}, **{field: value})]})],
         names=["t.json", f"tables[0].{field}"])
case("reproduce-tables-line-separator-key", ["reproduce", "t", "--tables", "t.json"], 2,
     "a control character in a string that is printed",
     [TINY, tiny_row_tables(key={"a": "v\u2028w"})], names=["t.json", "rows[0].key.a"])
# Posted MSI is the host's: on a guest that owns every device it would change nothing.
case("run-kvm-posted-all-assigned", ["run", "vm/e3-vfio.json", "-q", "--set", "mode=posted"], 2,
     "every device is the KVM guest's", VMT, names=["--set mode=posted", "mode"])
case("explain-vm-delivery-posted", ["explain", "vm-delivery", "--set", "mode=posted"], 2,
     "every device is the KVM guest's", [], names=["--set mode=posted", "mode"])
# A figure defined in one window of many is too rare for the run, not a run of one window.
case("reproduce-rare-figure-rerun", ["reproduce", "x", "--tables", "t.json", "--precision", "1",
                                    "--verbose"],
     0, "(defined in 1 of 20 windows) too rare in a shortened run", [XEN, js("t.json", {"tables": [
         {"name": "x", "title": "X", "set": "prediction", "metrics": ["lock_wait_us_mean"],
          "rows": [{"key": {"variant": "full"}, "config": "x.json",
                    "set": ["xen.variant=full"]}]}]})],
     stderr_lacks=["run.batches 1"], stdout_holds=["variant=full "])
# With several --sets the error is the final config's: one a later --set fixed is none.
case("run-set-later-fixes-earlier", ["run", "p.json", "-q", "--set", "power.cores_per_chip=[1]",
                                     "--set", "ipistorm.cpulist=0-1"], 2, "would call itself",
     [{"path": "p.json", "repo": "configs/explain/ipi-storm.json"}],
     names=["--set power.cores_per_chip=[1]", "ipistorm.offset"], stderr_lacks=["CPU 7"])
case("run-set-later-fixes-mode", ["run", "tiny.json", "-q", "--set", 'xen={"vcpus":2,"sockets":1}',
                                  "--set", "mode=remappable", "--set",
                                  "devices.0.assigned_to=guest"], 2, "a host device's setting",
     [TINY], names=['--set xen={"vcpus":2,"sockets":1}', "devices[0].irq_cpus"],
     stderr_lacks=["drop mode"])
# An assigned device's vector lands on its vCPU's pCPU, whose LAPIC is the base section's.
case("run-vm-tpr-base-masks-assigned", ["run", "vm.json", "-q", "--set", "lapic.tpr=32", "--set",
                                        'overrides=[{"cpus": "0", "lapic": {"tpr": 0}}]'], 2,
     "would never reach the guest", [copy("vm.json")], names=["--set lapic.tpr=32", "lapic.tpr"])
case("run-vm-tpr-host-override-ok", ["run", "vm.json", "-q", "--set",
                                     'overrides=[{"cpus": "0", "lapic": {"tpr": 32}}]'], 0, None,
     [copy("vm.json")])
# The host's posted-MSI handler never runs when the guest owns every device.
case("run-kvm-handler-all-assigned", ["run", "vm.json", "-q", "--set", "handler.loop_limit=1"], 2,
     "so it never runs: drop it", [copy("vm.json")], names=["--set handler.loop_limit=1", "handler"])
case("run-kvm-all-assigned-effective-reads-back", ["run", "e.json", "-q"], 0, None,
     [js("e.json", {k: v for k, v in json.load(open(__file__.replace(
         "gen_cases.py", "fixtures/vm.json"))).items() if k != "mode"})])
# A POWER partition's lines are the CPUs': no device writes them.
case("run-power-line-device-rmw", ["run", "p9.json", "-q", "--set",
                                   "power_line.device_rmw_ns=1000"], 2, "drop it", [P9],
     names=["--set power_line.device_rmw_ns=1000", "power_line.device_rmw_ns"])
# Two overrides that clash on one CPU's timer are both named.
case("run-overrides-timer-clash-both-named",
     ["run", "tiny.json", "-q", "--set", "topology.cpus=2", "--set",
      'overrides=[{"cpus": "0-1", "lapic": {"timer_period_ns": 1000000}}, '
      '{"cpus": "1", "cpu": {"timer_handler_ns": 2000000}}]'], 2,
     "not longer than one timer interrupt", [TINY],
     names=["overrides[0].lapic.timer_period_ns", "with overrides[1].cpu.timer_handler_ns"])
# A profile the profiles file holds without a workload part is named, not a crash.
PROFILES = json.load(open(__file__.replace("tests/hostile/gen_cases.py", "configs/rfc/devices.json")))
for tag, change in [("no-workload", lambda p: p.pop("workload")),
                    ("device-number", lambda p: p.__setitem__("device", 5))]:
    data = json.loads(json.dumps(PROFILES))
    change(data["nvme_pm174x"])
    case(f"run-profile-{tag}", ["run", "c.json", "-q"], 2, "expected an object of the profile's",
         [js("data/configs/rfc/devices.json", data),
          js("c.json", {"platform": "generic", "run": {"duration_ns": 20000},
                        "devices": [{"name": "d0", "profile": "nvme_pm174x"}],
                        "workloads": [{"type": "trace", "events": [[100, "d0", 0]]}]})],
         names=["c.json", "devices[0].profile", "nvme_pm174x."], env={"CIDSIM_DATA_DIR": "{dir}/data"})
# The windows of run.batches keep records that must fit the memory a run promises.
BIG = {"platform": "generic", "run": {"duration_ns": 100, "batches": 2},
       "topology": {"cpus": 1024, "sockets": 2}, "lapic": {"timer_period_ns": 0},
       "iommu": {"irte_entries": 65536},
       "devices": [{"name": f"d{i}", "vectors": 64, "irq_cpus": f"{64 * i % 1024}-{64 * i % 1024 + 63}"}
                   for i in range(1024)],
       "workloads": [{"type": "nvme", "device": f"d{i}", "jobs": 64, "iodepth": 64} for i in range(1024)]}
case("run-batches-window-records-over-budget", ["run", "big.json", "-q"], 2,
     "MB of window records, over the 400 MB allowed", [js("big.json", BIG)],
     names=["big.json", "run.batches"])
# What an including file adds that clashes with its include is not the include's error.
case("run-include-clash-named-against-includer", ["run", "mine.json", "-q"], 2,
     "which loads alone",
     [js("base4.json", {"platform": "generic", "topology": {"cpus": 4},
                        "devices": [{"name": "d", "irq_cpus": [3]}],
                        "workloads": [{"type": "periodic", "device": "d", "period_ns": 1000}]}),
      js("mine.json", {"include": "base4.json", "topology": {"cpus": 2}})],
     names=["mine.json: devices[0].irq_cpus[0]", "with what is added"])
# explain records every step of every CPU: the more CPUs, the shorter the run it takes.
BIG_STORM = json.load(open(__file__.replace("tests/hostile/gen_cases.py",
                                            "configs/explain/ipi-storm.json")))
BIG_STORM["power"]["cores_per_chip"] = [32] * 16
BIG_STORM["power"]["threads_per_core"] = 8
BIG_STORM["ipistorm"]["cpulist"] = "0-4095"
BIG_STORM["run"] = {"warmup_ns": 0, "duration_ns": 1000000}
BIG_STORM["explain"]["window_ns"] = [0, 100000]
BIG_STORM["explain"].pop("narration_window_ns", None)
case("explain-many-cpus-run-too-long", ["explain", "big.json"], 2,
     "at most 195312 ns on 4096 CPUs", [js("big.json", BIG_STORM)],
     names=["big.json", "run.warmup_ns + run.duration_ns"])
# A trace workload's keys are described as every other type's are.
case("params-trace-workload-block", ["params", "workloads[] (type trace)"], 0, None, [],
     stdout_holds=["events", "[[t_ns, \"device\", queue], ...]"])
# The --set blamed is the one that broke the key the final error names.
case("run-set-blame-the-key-giver", ["run", "tiny.json", "-q", "--set", "devices.0.irq_cpus=[1]",
                                     "--set", "run.seed=-5"], 2, "run.seed", [TINY],
     names=["--set run.seed=-5"], stderr_lacks=["--set devices.0.irq_cpus"])
for tag, sets, blamed in [
        ("loop-limit", ["devices.0.irq_cpus=[5]", "handler.loop_limit=99", "topology.cpus=6"],
         "handler.loop_limit=99"),
        ("second-device", ["devices.0.irq_cpus=[5]", "devices.1.irq_cpus=[6]", "topology.cpus=6"],
         "devices.1.irq_cpus=[6]")]:
    argv = ["run", "pb.json", "-q"]
    for x in sets:
        argv += ["--set", x]
    case(f"run-set-later-fixes-{tag}", argv, 2, None,
         [{"path": "pb.json", "repo": "configs/examples/posted-bursty.json"}],
         names=[f"--set {blamed}"], stderr_lacks=["--set devices.0.irq_cpus"])
case("explain-set-later-fixes-earlier",
     ["explain", "burst", "--set", "devices.0.irq_cpus=[5]", "--set", "topology.cpus=6",
      "--set", "handler.loop_limit=99"], 2, "expected an integer in [1, 64]", [],
     names=["--set handler.loop_limit=99", "handler.loop_limit"], stderr_lacks=["CPU 5"])
# A clash an include has alone is told as that include tells it, at every level.
B4 = js("inc/b.json", {"platform": "generic", "topology": {"cpus": 4}, "lapic": {"timer_period_ns": 0},
                       "run": {"duration_ns": 20000}, "devices": [{"name": "d", "irq_cpus": [3]}],
                       "workloads": [{"type": "periodic", "device": "d", "period_ns": 1000}]})
case("run-include-clash-one-level-deeper", ["run", "inc/top3.json", "-q"], 2, "which loads alone",
     [B4, js("inc/a2.json", {"include": "b.json", "topology": {"cpus": 2}}),
      js("inc/top3.json", {"include": ["a2.json"]})],
     names=['inc/top3.json: include "a2.json": inc/a2.json: devices[0].irq_cpus[0]',
            "with what is added"])
# A sweep whose point files would lie past PATH_MAX is refused before any run.
DEEP = "/".join(["d" * 200] * 20)
case("sweep-out-points-past-path-max", ["sweep", "spec.json", "--out", DEEP + "/sw"], 2,
     "too long a path", [TINY, SPEC, {"path": DEEP, "dir": True}],
     names=["--out " + DEEP + "/sw", "points/"])
# A sweep's base file is named in its error, and so is the include that states the key.
BAD_TINY = json.load(open(__file__.replace("gen_cases.py", "fixtures/tiny.json")))
BAD_TINY["handler"] = {"loop_limit": -1}
SWEEP_OF = lambda base: {"base": base, "vary": {"mode": ["posted", "remappable"]}, "metrics": ["metrics.msis"]}
case("sweep-base-file-error-names-the-file", ["sweep", "sw.json", "--out", "o"], 2,
     "expected a non-negative integer in [1, 64]",
     [js("bad.json", BAD_TINY), js("sw.json", SWEEP_OF("bad.json"))],
     names=["sw.json: base: ", "bad.json: handler.loop_limit"])
case("sweep-base-file-error-names-the-include", ["sweep", "sw.json", "--out", "o"], 2,
     "expected a non-negative integer in [1, 64]",
     [js("bad.json", BAD_TINY), js("inc.json", {"include": "bad.json"}),
      js("sw.json", SWEEP_OF("inc.json"))],
     names=["sw.json: base: ", 'inc.json: include "bad.json"', "bad.json: handler.loop_limit"])
# A platform an include brings is advised by its name: only spr has a file.
SPR_TINY = {k: v for k, v in BAD_TINY.items() if k != "handler"}
SPR_TINY["include"] = "spr.json"
case("run-set-platform-against-an-include", ["run", "p.json", "-q", "--set", "platform=generic"],
     2, 'name platform "spr" or none',
     [{"path": "spr.json", "repo": "configs/platform/spr.json"}, js("p.json", SPR_TINY)],
     names=["--set platform=generic", "platform"], stderr_lacks=["other platform's file"])
# With several configs, bench says whose config a --set broke.
case("bench-set-names-the-config",
     ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json", "--config", "xen.json",
      "--set", "mode=posted"], 2, "a Xen domain's devices are remapped by Xen",
     [TINY, {"path": "xen.json", "repo": "configs/vm/e1-xen-eoi.json"}],
     names=["xen.json: --set mode=posted", "mode"])
# The explain section's keys are described as a config section's are.
case("params-explain-block", ["params", "explain"], 0, None, [],
     stdout_holds=["affinity_move.check_pir", "[10, 400]", "retrigger.at_ns"])
# The metric probe's short run starts a periodic workload at once: a base whose
# first completion is at 1 us (the default phase) is no error.
case("sweep-periodic-base-past-the-probe", ["sweep", "sw.json", "--out", "o"], 0, None,
     [js("per.json", {"run": {"duration_ns": 30000}, "topology": {"cpus": 1},
                      "lapic": {"timer_period_ns": 0}, "devices": [{"name": "dev0"}],
                      "workloads": [{"type": "periodic", "device": "dev0",
                                     "period_ns": 10000}]}),
      js("sw.json", {"base": "per.json", "vary": {"handler.loop_limit": [1, 2]}})],
     stdout_holds=["2 points: 2 ran"])
# What a command prints comes before its files: printed into a full disk, it
# leaves none of them.
for cmd, argv, files, told in [
        ("run", ["run", "tiny.json", "--out", "o.json", "--stats", "s.txt"], [TINY],
         "no output file was written"),
        ("explain", ["explain", "scenario.json", "--out", "o.json"], [SCEN],
         "no output file was written"),
        ("bench", ["bench", "--reps", "1", "--no-floor", "--config", "tiny.json", "--json",
                   "o.json"], [TINY], "--json was not written")]:
    case(f"{cmd}-stdout-disk-full-writes-no-output", argv, 1, told, files,
         stdout_to="/dev/full")
# An output that is the file a redirection of this command writes to.
case("run-out-is-the-stdout-file", ["run", "tiny.json", "--out", "o.txt"], 2,
     "is the file standard output goes to", [TINY, text("o.txt", "kept\n")],
     names=["--out o.txt"], stdout_to="o.txt")
# Round 15: an affinity move whose cleanup checks after the run, or that moves a
# queue to the CPU it is on; explain's integers by the loader's rule.
AM = {"path": "am.json", "repo": "configs/explain/affinity-move.json"}
case("explain-affinity-cleanup-after-the-run",
     ["explain", "am.json", "--set", "explain.affinity_move.cleanup_after_ns=100000"], 2,
     "is not before the run's end", [AM],
     names=["--set explain.affinity_move.cleanup_after_ns=100000",
            "explain.affinity_move.cleanup_after_ns"])
case("explain-affinity-move-to-its-own-cpu",
     ["explain", "am.json", "--set", "explain.affinity_move.to_cpu=0"], 2,
     "Linux would not move it", [AM], names=["explain.affinity_move.to_cpu"])
case("explain-columns-a-whole-double", ["explain", "am.json", "--set", "explain.columns=80.0"],
     0, None, [AM])
# Tables: an empty list, a comment that is no text.
case("reproduce-tables-empty-list", ["reproduce", "all", "--tables", "t.json"], 2,
     "tables: empty", [js("t.json", {"tables": []})], names=["t.json: tables"])
for level, doc in [
        ("file", {"comment": {"x": 1}, "tables": [{"name": "tiny", "title": "t", "set": "prediction",
                  "metrics": ["irq_rate_M"], "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]}),
        ("table", {"tables": [{"name": "tiny", "title": "t", "set": "prediction", "comment": [1],
                   "metrics": ["irq_rate_M"], "rows": [{"key": {"a": 1}, "config": "tiny.json"}]}]}),
        ("row", {"tables": [{"name": "tiny", "title": "t", "set": "prediction", "metrics": ["irq_rate_M"],
                 "rows": [{"key": {"a": 1}, "config": "tiny.json", "comment": None}]}]})]:
    case(f"reproduce-tables-comment-not-text-{level}", ["reproduce", "tiny", "--tables", "t.json"],
         2, "comment: expected a string", [TINY, js("t.json", doc)], names=["t.json", "comment"])
# A comment changes no run: a --set of it is refused as explain's and provenance's are.
case("run-set-comment", ["run", "tiny.json", "-q", "--set", "comment=hello"], 2,
     "changes no run", [TINY], names=["--set comment=hello"])
case("sweep-set-comment", ["sweep", "sw.json", "--out", "o"], 2, "changes no run",
     [TINY, js("sw.json", {"base": "tiny.json", "set": {"comment": "x"},
                           "vary": {"mode": ["posted", "remappable"]}})],
     names=["sw.json", "set.comment"])
# A cpulist of one CPU given as a number is told how to write it.
case("run-set-cpulist-a-number", ["run", "ipi.json", "-q", "--set", "ipistorm.cpulist=5"], 2,
     '--set \'ipistorm.cpulist="5"\'',
     [{"path": "ipi.json", "repo": "configs/explain/ipi-storm.json"}],
     names=["--set ipistorm.cpulist=5", "ipistorm.cpulist"])
case("run-set-irq-cpus-a-number", ["run", "tiny.json", "-q", "--set", "devices.0.irq_cpus=0"],
     2, '(one CPU is "0" or [0]', [TINY], names=["devices[0].irq_cpus"])
# A timeline column below a picosecond shows nothing of its own.
case("run-timeline-columns-below-a-picosecond",
     ["run", "tiny.json", "-q", "--timeline", "--window-ns", "0:0.002", "--columns", "1000"], 2,
     "below a picosecond", [TINY], names=["--window-ns 0:0.002", "--columns"])
# A metric's index is digits: +0, -0 and " 0" are no second name of element 0.
for tag, idx in [("plus", "+0"), ("minus", "-0"), ("space", " 0")]:
    case(f"sweep-metric-index-{tag}-zero", ["sweep", "sw.json", "--out", "o"], 2,
         "not in a cidsim result",
         [TINY, js("sw.json", {"base": "tiny.json", "vary": {"mode": ["posted", "remappable"]},
                               "metrics": ["per_cpu.0.busy_fraction",
                                           f"per_cpu.{idx}.busy_fraction"]})],
         names=["sw.json: metrics[1]"])
# Empty vary and zip are lists lost on their way; two values no result tells apart are one run.
for key, val in [("vary", {}), ("zip", [])]:
    case(f"sweep-empty-{key}", ["sweep", "sw.json", "--out", "o"], 2, f"{key}: empty",
         [TINY, js("sw.json", {"base": "tiny.json", key: val, "seeds": 2})],
         names=["sw.json", key])
case("sweep-vary-key-no-result-depends-on", ["sweep", "sw.json", "--out", "o"], 2,
     "or the key changes no result",
     [TINY, js("sw.json", {"base": "tiny.json", "vary": {"run.run_ahead": [True, False]}})],
     names=["sw.json", "vary.run.run_ahead[1]"], stderr_lacks=["reads it as"])
# A scenario in the data folder that is no file is refused, not passed over for the shipped one.
for tag, entry in [("fifo", {"fifo": True}), ("dir", {"dir": True}),
                   ("dangling", {"symlink": "nowhere.json"})]:
    case(f"explain-data-dir-scenario-{tag}", ["explain", "burst"], 2, None,
         [dict({"path": "dd/configs/explain/burst.json"}, **entry)],
         names=["dd/configs/explain/burst.json"], env={"CIDSIM_DATA_DIR": "{dir}/dd"})
case("explain-window-columns-below-a-picosecond",
     ["explain", "am.json", "--set", "explain.window_ns=[0,0.05]"], 2, "below a picosecond",
     [AM], names=["explain.window_ns"])
names = [c["name"] for c in cases]
dups = {n for n in names if names.count(n) > 1}
assert not dups, dups
# A rejection names what was wrong: the file or option, and the key.
unnamed = [c["name"] for c in cases if c["status"] == 2 and not c.get("names")]
assert not unnamed, unnamed

print(json.dumps(cases, indent=1))
