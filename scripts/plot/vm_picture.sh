#!/usr/bin/env bash
# Makes runs/vm/vm-delivery.png, or the path given (the docs' picture, on
# purpose only: `scripts/plot/vm_picture.sh docs/vm-delivery.png`): the
# vm-delivery scenario's three variants (threaded, hard, VT-d posted) as
# Perfetto traces under runs/vm/, drawn one panel each by trace_timeline.py
# with the vCPU's pCPU, the vCPU's state and the IRQ thread.
# Needs python3-matplotlib.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-runs/vm/vm-delivery.png}
mkdir -p runs/vm "$(dirname "$out")"
scenario=configs/explain/vm-delivery.json
for v in threaded:devices.0.host_handler=threaded hard:devices.0.host_handler=hard \
         posted:vm.irq_posting=true; do
  build/cidsim run "$scenario" -q --set "${v#*:}" --window-ns 0:9000 \
    --trace-perfetto "runs/vm/${v%%:*}.json"
done
/usr/bin/python3 scripts/plot/trace_timeline.py runs/vm/threaded.json runs/vm/hard.json \
  runs/vm/posted.json "$out" --from-us 0.5 --to-us 8 \
  --labels "threaded (forced-threaded VFIO handler),hard (IRQF_NO_THREAD),VT-d posted into the vCPU's PID" \
  --title "one assigned device's MSI into a KVM guest ($scenario, platform generic)"
