#!/bin/sh
# An installed cidsim is self-contained: installed into a temporary prefix,
# the prefix moved (so no path of the build or install is valid), and run
# from an unrelated folder, it finds its shipped tables and scenarios beside
# itself, not in the source tree.
#   check_install.sh BUILD_DIR
set -eu
unset CIDSIM_DATA_DIR CIDSIM_EXPLAIN_DIR
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/moved"
bin="$tmp/moved/bin/cidsim"
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
"$bin" --version | grep -qx "shipped tables, profiles and scenarios: $tmp/moved/share/cidsim/configs" || {
    echo "the installed binary does not name its own share/cidsim:"; "$bin" --version; exit 1; }
"$bin" explain burst > explain.txt
grep -q "^time (ns)" explain.txt || { echo "explain burst printed no timeline"; exit 1; }
"$bin" reproduce vfio-threading --format csv --out vfio.csv
grep -q "hard" vfio.csv || { echo "reproduce vfio-threading wrote no hard row"; exit 1; }
"$bin" bench --reps 1 --no-floor --duration-ns 20000 > bench.txt
echo "installed, moved and run from elsewhere: explain, reproduce and bench found their files"
