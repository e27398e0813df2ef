#!/bin/bash
# make demo: build the patched x86_64 kernel, boot it, and show what several
# function-graph users at once look like (guest/steps/demo.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
flavour=${FLAVOUR:-patched}
"$TOP/scripts/prepare-tree.sh"
"$TOP/scripts/build.sh" x86_64 "$flavour"
"$TOP/scripts/mkinitramfs.sh" x86_64 "$flavour"
obj=$(obj_dir x86_64 "$flavour")
log=$obj/demo.log
TIMEOUT=${TIMEOUT:-300} "$TOP/scripts/boot.sh" x86_64 "$flavour" demo all "$log" || true
echo
echo "=== demo on the $flavour kernel ($(grep -m1 '^HARNESS-BOOTED' "$log" | cut -d' ' -f2-)) ==="
sed -n '/^HARNESS-STEP-BEGIN demo/,/^HARNESS-STEP-END demo/p' "$log" | sed '1d;$d'
echo "(full serial log: $log)"
grep -q '^HARNESS-STEP-END demo rc=0' "$log"
