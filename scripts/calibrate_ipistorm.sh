#!/usr/bin/env bash
# Fits E2's free parameters to its calibration figures and prints them with
# every figure (scripts/ipistorm_fit.py says which value each figure fits).
#   scripts/calibrate_ipistorm.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/ipistorm_fit.py "$@"
