#!/usr/bin/env bash
# Makes runs/gtkwave-race.png, or the path given (the docs' picture, on
# purpose only: `scripts/plot/gtkwave_screenshot.sh docs/gtkwave-race.png`):
# the race-final-harvest scenario without the
# final harvest, as a VCD opened in GTKWave under a virtual X server (Xvfb),
# captured with ImageMagick's `import`. Needs: gtkwave xvfb imagemagick
# (for the docs only; no test needs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-runs/gtkwave-race.png}
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'kill $xvfb_pid 2>/dev/null || true; rm -rf "$tmp"' EXIT

build/cidsim run configs/explain/race-final-harvest.json --set handler.final_harvest=false \
  -q --window-ns 0:10000 --trace-vcd "$tmp/race.vcd"
cat > "$tmp/view.tcl" <<'TCL'
set sigs [list cidsim.devices.dev0_msi cidsim.cpu0.notify cidsim.cpu0.on \
  {cidsim.cpu0.pir[255:0]} cidsim.cpu0.irr_nv cidsim.cpu0.isr_nv cidsim.cpu0.irq_off \
  cidsim.cpu0.in_handler]
gtkwave::addSignalsFromList $sigs
gtkwave::highlightSignalsFromList [list {cidsim.cpu0.pir[255:0]}]
gtkwave::/Edit/Data_Format/Hex
gtkwave::/Edit/UnHighlight_All
gtkwave::/Time/Zoom/Zoom_Full
TCL
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x440x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
DISPLAY=$display gtkwave --rcvar 'initial_window_x 1280' --rcvar 'initial_window_y 440' \
  --rcvar 'hide_sst 1' -S "$tmp/view.tcl" "$tmp/race.vcd" >/dev/null 2>&1 &
gtk_pid=$!
sleep 4
DISPLAY=$display import -window root "$out"
kill $gtk_pid 2>/dev/null || true
echo "wrote $out"
