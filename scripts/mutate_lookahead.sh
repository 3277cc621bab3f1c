#!/usr/bin/env bash
# Makes each block's lookahead optimistic in turn (claims a sender stays
# quiet longer than it does) and checks that the tests catch it: the
# stepwise comparison and the lookahead check must fail for every mutation.
# Edits the working tree, rebuilds into BUILD (default build/), and restores
# every file it changed. A mutation the tests do not catch is printed as
# SURVIVED and makes the exit status 1.
#   scripts/mutate_lookahead.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tests='stepwise run gives the same result file|same picosecond come in one order|acting ahead of the kernel'

# file | what to replace (sed, exact text) | what with
mutations=(
  "src/model/x86/iommu_lookahead.cpp|return std::min(saturating_add(unannounced, fastest_fetch()), earliest_announced_post());|return never();"
  "src/model/x86/iommu_lookahead.cpp|if (!m_sources_known) return sim_now();|return never();"
  "src/model/x86/cpu_core_lookahead.cpp|if (m_in_interrupt) return std::max(m_clock.waiting_until(), now);|return never();"
  "src/model/x86/local_apic_lookahead.cpp|m_incoming.next_at_min(m_messages_in.earliest_next(needed))|m_incoming.next_at_min(never())"
  "src/model/x86/device_lookahead.cpp|    return m_schedule->earliest_completion();|    return never();"
  "src/model/x86/device_lookahead.cpp|return m_params.msi_until_doorbell && m_last_visible > sim_now();|return false;"
)

survived=0
for m in "${mutations[@]}"; do
  IFS='|' read -r file from to <<<"$m"
  cp "$file" "$file.orig"
  trap 'mv "$file.orig" "$file"; touch "$file"' EXIT
  python3 - "$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:]
s = open(path).read()
if old not in s:
    sys.exit("mutate_lookahead: '%s' not found in %s (the code moved: update the script)" % (old, path))
open(path, "w").write(s.replace(old, new, 1))
PY
  cmake --build "$build" -j"$(nproc)" --target cidsim test_system >/dev/null
  if ctest --test-dir "$build" -R "$tests" >/dev/null 2>&1; then
    echo "SURVIVED: $file: $from"
    survived=1
  else
    echo "caught:   $file: $from"
  fi
  mv "$file.orig" "$file"
  touch "$file"  # newer than the mutant's object, so the next build recompiles it
  trap - EXIT
done
cmake --build "$build" -j"$(nproc)" --target cidsim test_system >/dev/null
exit $survived
