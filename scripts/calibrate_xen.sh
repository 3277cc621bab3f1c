#!/usr/bin/env bash
# Fits E1's two free parameters to its two calibration figures and prints
# the values for configs/vm/e1-xen-eoi.json (scripts/xen_fit.py says how).
#   scripts/calibrate_xen.sh [BINARY] [--set KEY=VALUE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/xen_fit.py "$@"
