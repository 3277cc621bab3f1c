#!/usr/bin/env bash
# Checks (--check) or regenerates (--write) every output block of README.md
# and docs/*.md that carries an `<!-- output ...: COMMAND -->` marker;
# scripts/docs.py says how.
exec /usr/bin/python3 "$(dirname "$0")/docs.py" "$@"
