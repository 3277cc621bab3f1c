#!/usr/bin/env bash
# Adds the toy family to a copy of the source tree as a new family would be
# added (its files in its own folders, and tables.patch: one line in each
# table, with its declaration), builds cidsim there and checks that the
# family works end to end: the config loads and echoes its section,
# `cidsim params` and `params --metrics` list it, and a run reports the
# controller's count (4 CPUs x 100 ticks in the measured 100 us).
#   examples/toy-family/check.sh [WORKDIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$work"' EXIT
rm -rf "$work/tree" && mkdir -p "$work/tree"
cp -r "$root/CMakeLists.txt" "$root/cmake" "$root/src" "$root/configs" "$work/tree/"

# What the patch touches is tables only: every hunk adds lines, or swaps
# one line for the same line with the family appended.
python3 - "$here/tables.patch" <<'PY'
import re, sys
files, added, removed = set(), 0, 0
for line in open(sys.argv[1]):
    if line.startswith("+++ "): files.add(line.split()[1].split("/", 1)[1])
    elif line.startswith("+") : added += 1
    elif line.startswith("-") and not line.startswith("---"): removed += 1
want = {"src/config/sim_config.h", "src/config/sections.h", "src/config/sections.cpp",
        "src/report/result_section.h", "src/report/result_sections.cpp",
        "src/sim/system.cpp", "cmake/check_layers.cmake"}
if files != want or removed > 2 or added > 12:
    sys.exit(f"tables.patch touches {sorted(files)}: +{added} -{removed} lines; "
             f"expected only the tables {sorted(want)}")
PY
(cd "$here" && find src -type f) | while read -r f; do
  [ ! -e "$work/tree/$f" ] || { echo "toy family: $f exists in the tree already" >&2; exit 1; }
  mkdir -p "$(dirname "$work/tree/$f")" && cp "$here/$f" "$work/tree/$f"
done
patch -s -d "$work/tree" -p1 < "$here/tables.patch"

if ! { cmake -S "$work/tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Debug -DBUILD_TESTING=OFF &&
       cmake --build "$work/build" -j"$(nproc)" --target cidsim; } > "$work/build.log" 2>&1; then
  tail -40 "$work/build.log" >&2
  echo "toy family: the tree with the toy family does not build ($work/build.log)" >&2
  exit 1
fi
bin="$work/build/cidsim"
"$bin" run "$here/toy.json" -q --out "$work/toy-result.json"
"$bin" params --format json > "$work/params.json"
"$bin" params --metrics --format json > "$work/metrics.json"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
r = json.load(open(w + "/toy-result.json"))
assert r["config"]["toy"] == {"cpus": 4, "tick_ns": 1000}, r["config"].get("toy")
assert r["toy"]["interrupts"] == 400, r["toy"]
assert abs(r["toy"]["interrupts_per_s"] - 4e9 / 1000) < 1, r["toy"]
assert [p["key"] for p in json.load(open(w + "/params.json"))["toy"]] == ["cpus", "tick_ns"]
assert {m["key"] for m in json.load(open(w + "/metrics.json"))["toy"]} == {"interrupts", "interrupts_per_s"}
print("toy family: loads, echoes, lists its parameters and metrics, reports 400 interrupts")
PY
