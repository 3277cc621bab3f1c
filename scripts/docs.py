#!/usr/bin/env python3
"""Keeps the outputs shown in README.md and docs/*.md equal to the binary's.

Every block of output in the docs that the binary printed carries a marker
on the line just before it, naming the command that prints it:

    <!-- output whole: build/cidsim reproduce vfio-threading -->
    <!-- output excerpt: build/cidsim explain burst -->
    <!-- output excerpt slow: build/cidsim reproduce xen-eoi-lock --jobs 2 -->

followed by a ``` fenced block (or a markdown table of `|` lines). The
command is a bash command line run from the repository root, `build/cidsim`
replaced by --bin; $DOCS_TMP is an empty temporary directory for files the
command writes (removed afterwards). Modes:
  whole    the block is the command's output (trailing blanks ignored);
  excerpt  the block's lines are a contiguous run of the output's lines; a
           line `...` stands for any lines, and a line ending in ` ...`
           for any line starting with the text before it.
`slow` marks commands of more than about 20 s: --skip-slow leaves them out.

  scripts/docs.sh --check [--bin PATH] [--skip-slow] [--root DIR] [FILE ...]
  scripts/docs.sh --write [--bin PATH] [--skip-slow] [--root DIR] [FILE ...]
  scripts/docs.sh --self-test [--bin PATH]
  scripts/docs.sh table CSV --row COL=LABEL --col LABEL=FILTERCOL=VALUE:METRIC ... [--only V,V]

--check exits 1 naming every block that differs (file:line, the command, a
diff); --write rewrites them with today's output (an excerpt with the
same-sized runs of the output that resemble it most). `table` prints a
markdown table from a `cidsim collect` CSV, for blocks that are tables.
Python 3 standard library only.
"""
import argparse
import csv
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = {"docs/parameters.md", "docs/metrics.md"}  # generated whole by `cidsim params`
MARKER = re.compile(r"^<!-- output((?: +(?:whole|excerpt|slow))*): (.+?) -->\s*$")
BINARY = re.compile(r"(?<![\w./-])build/cidsim(?![\w-])")
TIMEOUT = 900


class Block:
    def __init__(self, path, marker_line, flags, command, start, end, fence):
        self.path = path              # relative to the root
        self.marker_line = marker_line  # 1-based line of the marker
        self.flags = flags
        self.command = command
        self.start = start            # 0-based index of the first content line
        self.end = end                # 0-based index past the last content line
        self.fence = fence            # True: ``` block, False: markdown table
        self.lines = []

    @property
    def mode(self):
        return "excerpt" if "excerpt" in self.flags else "whole"

    @property
    def slow(self):
        return "slow" in self.flags

    def where(self):
        return f"{self.path}:{self.marker_line}"


def doc_files(root, only):
    if only:
        return only
    files = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    ddir = os.path.join(root, "docs")
    if os.path.isdir(ddir):
        files += sorted("docs/" + f for f in os.listdir(ddir) if f.endswith(".md"))
    return [f for f in files if f not in SKIP]


def parse(root, path):
    """The marked blocks of one file; raises ValueError on a malformed marker."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read().split("\n")
    blocks = []
    i = 0
    while i < len(text):
        m = MARKER.match(text[i])
        if not m:
            if text[i].lstrip().startswith("<!-- output"):
                raise ValueError(f"{path}:{i + 1}: malformed marker (want "
                                 "'<!-- output whole|excerpt [slow]: COMMAND -->')")
            i += 1
            continue
        flags = set(m.group(1).split())
        if "whole" in flags and "excerpt" in flags:
            raise ValueError(f"{path}:{i + 1}: a marker is whole or excerpt, not both")
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if nxt.startswith("```"):
            j = i + 2
            while j < len(text) and not text[j].startswith("```"):
                j += 1
            if j == len(text):
                raise ValueError(f"{path}:{i + 2}: unclosed ``` block")
            b = Block(path, i + 1, flags, m.group(2), i + 2, j, True)
        elif nxt.startswith("|"):
            j = i + 1
            while j < len(text) and text[j].startswith("|"):
                j += 1
            b = Block(path, i + 1, flags, m.group(2), i + 1, j, False)
        else:
            raise ValueError(f"{path}:{i + 1}: a marker must be followed by a ``` block or a table")
        b.lines = text[b.start:b.end]
        blocks.append(b)
        i = b.end
    return blocks, text


def trim(lines):
    lines = [l.rstrip() for l in lines]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def run(command, root, binary):
    cmd = BINARY.sub(lambda _: shlex.quote(binary), command)
    tmp = tempfile.mkdtemp(prefix="cidsim-docs.")
    env = dict(os.environ, DOCS_TMP=tmp, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    try:
        p = subprocess.run(["bash", "-c", cmd], cwd=root, env=env, capture_output=True,
                           text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {TIMEOUT} s"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def truncated(line):
    return line != "..." and line.endswith(" ...")


def line_eq(want, got):
    if want == got:
        return True
    return truncated(want) and got.startswith(want[:-4].rstrip())


def segments(lines):
    segs, cur = [], []
    for l in lines:
        if l.strip() == "...":
            segs.append(cur)
            cur = []
        else:
            cur.append(l)
    segs.append(cur)
    return segs


def find(seg, out, frm):
    for i in range(frm, len(out) - len(seg) + 1):
        if all(line_eq(w, out[i + k]) for k, w in enumerate(seg)):
            return i
    return -1


def excerpt_matches(want, out):
    pos = 0
    for seg in segments(want):
        if not seg:
            continue
        i = find(seg, out, pos)
        if i < 0:
            return False
        pos = i + len(seg)
    return True


def similarity(want, got):
    if truncated(want):
        got = got[:len(want) - 4]
        want = want[:-4]
    return difflib.SequenceMatcher(None, want, got, autojunk=False).ratio()


def best_excerpt(want, out):
    """The output's runs that resemble each segment of the block most, in
    order: the block as it would read today (a truncated line stays cut
    where it was)."""
    result, pos = [], 0
    segs = segments(want)
    for n, seg in enumerate(segs):
        if seg:
            best, best_i = -1.0, pos
            for i in range(pos, max(pos, len(out) - len(seg)) + 1):
                window = out[i:i + len(seg)]
                score = sum(similarity(w, g) for w, g in zip(seg, window))
                if score > best:
                    best, best_i = score, i
            window = out[best_i:best_i + len(seg)]
            for w, g in zip(seg, window):
                if truncated(w) and len(g) > len(w) - 4:
                    g = g[:len(w) - 4].rstrip() + " ..."
                result.append(g)
            pos = best_i + len(window)
        if n < len(segs) - 1:
            result.append("...")
    return result


def check_block(b, out):
    """(ok, the block as today's output would have it)."""
    want = trim(b.lines)
    got = trim(out.split("\n"))
    if b.mode == "whole":
        return want == got, got
    if excerpt_matches(want, got):
        return True, want
    return False, best_excerpt(want, got)


def cmd_check(args, write):
    root = os.path.abspath(args.root)
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print(f"docs: {args.bin}: no such executable (give --bin)", file=sys.stderr)
        return 2
    parsed = {}
    try:
        for path in doc_files(root, args.files):
            parsed[path] = parse(root, path)
    except (OSError, ValueError) as e:
        print(f"docs: {e}", file=sys.stderr)
        return 2
    outputs, failures, checked, skipped = {}, 0, 0, 0
    for path, (blocks, text) in parsed.items():
        rewrites = []
        for b in blocks:
            if b.slow and args.skip_slow:
                skipped += 1
                continue
            if b.command not in outputs:
                outputs[b.command] = run(b.command, root, binary)
            rc, out, err = outputs[b.command]
            checked += 1
            if rc != 0:
                failures += 1
                tail = "\n".join(err.strip().split("\n")[-5:])
                print(f"{b.where()}: command failed (status {rc}): {b.command}\n{tail}\n")
                continue
            ok, today = check_block(b, out)
            if ok:
                continue
            if write:
                rewrites.append((b, today))
                print(f"{b.where()}: rewritten ({b.mode}): {b.command}")
                continue
            failures += 1
            print(f"{b.where()}: differs from today's output ({b.mode}): {b.command}")
            diff = difflib.unified_diff(trim(b.lines), today, f"{b.path} (documented)",
                                        "today's binary", lineterm="", n=2)
            print("\n".join(diff) + "\n")
        for b, today in reversed(rewrites):  # bottom-up: earlier indices stay valid
            text[b.start:b.end] = today
        if rewrites:
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write("\n".join(text))
    what = "rewritten where stale" if write else "checked"
    print(f"docs: {checked} block(s) {what}, {skipped} slow skipped, {failures} "
          f"{'failed' if write else 'differ'}", file=sys.stderr)
    return 1 if failures else 0


def cmd_self_test(args):
    """Proves the check can fail: copies the docs, changes one line of one
    fast block, and expects --check to fail on it and --write to mend it."""
    root = os.path.abspath(args.root)
    tmp = tempfile.mkdtemp(prefix="cidsim-docs-selftest.")
    try:
        for name in os.listdir(root):
            if name not in ("docs", "README.md", ".git"):
                os.symlink(os.path.join(root, name), os.path.join(tmp, name))
        os.mkdir(os.path.join(tmp, "docs"))
        path = "docs/teaching.md"
        shutil.copy(os.path.join(root, path), os.path.join(tmp, path))
        blocks, text = parse(tmp, path)
        target = next(b for b in blocks if not b.slow and b.mode == "excerpt")
        k = next(k for k, l in enumerate(target.lines) if re.search(r"\d", l) and l.strip() != "...")
        line = target.lines[k]
        m = re.search(r"\d", line)
        text[target.start + k] = line[:m.start()] + str((int(m.group()) + 1) % 10) + line[m.end():]
        with open(os.path.join(tmp, path), "w", encoding="utf-8") as f:
            f.write("\n".join(text))
        base = ["--bin", args.bin, "--root", tmp, "--skip-slow", path]
        steps = [("--check on a changed line", ["--check"], 1),
                 ("--write", ["--write"], 0),
                 ("--check after --write", ["--check"], 0)]
        for what, extra, want in steps:
            rc = main(extra + base)
            print(f"self-test: {what} ({target.where()} line {target.start + k + 1}): "
                  f"status {rc}, want {want}")
            if rc != want:
                return 1
        print("self-test: ok")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cmd_table(argv):
    p = argparse.ArgumentParser(prog="docs.py table",
                                description="a markdown table from a collect CSV")
    p.add_argument("csv")
    p.add_argument("--row", required=True, help="COL=LABEL: the column naming each row")
    p.add_argument("--col", action="append", required=True,
                   help="LABEL=FILTERCOL=VALUE:METRIC, one per table column")
    p.add_argument("--only", help="comma-separated values of the row column to show")
    p.add_argument("--digits", type=int, default=0)
    a = p.parse_args(argv)
    rows = list(csv.DictReader(open(a.csv, newline="")))
    rcol, rlabel = a.row.split("=", 1)
    keys = []
    for r in rows:
        if r[rcol] not in keys:
            keys.append(r[rcol])
    if a.only:
        keys = [k for k in a.only.split(",")]
    cols = []
    for c in a.col:
        label, rest = c.split("=", 1)
        filt, metric = rest.rsplit(":", 1)
        fcol, fval = filt.split("=", 1)
        cols.append((label, fcol, fval, metric))
    print("| " + " | ".join([rlabel] + [c[0] for c in cols]) + " |")
    print("|" + "---|" * (len(cols) + 1))
    for k in keys:
        cells = [k]
        for _, fcol, fval, metric in cols:
            v = [r[metric] for r in rows if r[rcol] == k and r[fcol] == fval]
            if len(v) != 1:
                print(f"docs table: {rcol}={k} {fcol}={fval}: {len(v)} rows", file=sys.stderr)
                return 2
            cells.append(f"{float(v[0]):.{a.digits}f}")
        print("| " + " | ".join(cells) + " |")
    return 0


def main(argv):
    if argv and argv[0] == "table":
        return cmd_table(argv[1:])
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(prog="scripts/docs.sh", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true", help="exit 1 when a block differs")
    g.add_argument("--write", action="store_true", help="rewrite every block that differs")
    g.add_argument("--self-test", action="store_true", help="show that --check catches a change")
    p.add_argument("--bin", default=None, help="the cidsim binary (default: ROOT/build/cidsim)")
    p.add_argument("--root", default=os.path.dirname(here), help="the repository root")
    p.add_argument("--skip-slow", action="store_true", help="leave out blocks marked slow")
    p.add_argument("files", nargs="*", help="docs to check, relative to the root (default: all)")
    a = p.parse_args(argv)
    if a.bin is None:
        a.bin = os.path.join(a.root, "build", "cidsim")
    if a.self_test:
        return cmd_self_test(a)
    return cmd_check(a, a.write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
