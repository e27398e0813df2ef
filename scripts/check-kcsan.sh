#!/bin/bash
# check-kcsan.sh: `make check-kcsan`, the race detector on the series'
# lockless code.  Builds the arm64 patched kernel (KCSAN_ARCH=x86_64 for
# the other) with configs/kcsan.config (KCSAN with weak-memory modelling,
# so that a missing barrier shows up although TCG on an x86 host orders
# every access) and boots it once: the fgraph and kretprobe_fgraph KUnit
# suites (their churn and parked cases register and unregister users while
# other CPUs call traced functions), the instance churn cases of
# ftracetest, and the kretprobe step (200 threads asleep in a kretprobed
# function).  A data race KCSAN reports in the functions of the files the
# series changes (or of the test modules) fails the run, with the report.
# arm64 is the default: it is the weakly ordered arch of the two, and its
# guest runs multi-threaded TCG, so that both vCPUs really run at once
# while KCSAN holds a watchpoint (x86_64 guests are single-threaded TCG).
# Not part of make check (a build of its own, about 12 minutes cold).
# KCSAN_FTRACE and KCSAN_KUNIT (a kunit.filter_glob) choose what runs.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
flavour=patched
out=$BUILD/check-kcsan
rm -rf "$out"; mkdir -p "$out"
results=()
t0=$(date +%s)
. "$TOP/scripts/lib-check.sh"
cases=${KCSAN_FTRACE:-ftrace/fgraph-instance-churn.tc,ftrace/fgraph-instance-remove.tc,ftrace/fgraph-multi-instance.tc,instances}

"$TOP/scripts/prepare-tree.sh" || exit 1
arch=${KCSAN_ARCH:-arm64}
# KCSAN_APPEND adds boot parameters (kcsan.skip_watch=N to watch more
# often than one access in 4000: 100 makes the instance cases crawl)
arch_vars "$arch"
results_of "$arch-kcsan-build"
if (VARIANT=kcsan build "$arch" "$arch-kcsan"); then
	# The functions a report must name for it to fail the run: those
	# defined in the C files the series changes, and in the test modules.
	# KCSAN_STRICT also reports races of the base kernel alone (hrtimer
	# wake-ups, arm64's page fault path); those are listed, not failed.
	obj=$(VARIANT=kcsan obj_dir "$arch" "$flavour")
	scope=$out/series-functions.txt
	git -C "$TREE" diff --name-only base..HEAD -- '*.c' | sed -n 's/\.c$/.o/p' |
		while read -r o; do [ -f "$obj/$o" ] && echo "$obj/$o"; done |
		{ xargs -r "${CROSS}nm" --defined-only; "${CROSS}nm" --defined-only "$obj"/extra-modules/*.ko; } 2> /dev/null |
		awk '$2 ~ /^[tTwW]$/ {sub(/\..*/, "", $3); print $3}' | sort -u > "$scope"
	[ -s "$scope" ] || die "no function of the series found in $obj (is the tree built?)"
	VARIANT=kcsan APPEND="kunit.filter_glob=${KCSAN_KUNIT:-*fgraph*} ${KCSAN_APPEND:-}" \
		boot "$arch" "$arch-kcsan" ftracetest,kretprobe "$cases" \
		"${KCSAN_TIMEOUT:-1800}" --expect-kunit --expect-ftrace --kcsan-scope "$scope"
	results_of "$arch-kcsan"
fi

echo
echo "=== make check-kcsan ($(( $(date +%s) - t0 ))s) ==="
python3 "$TOP/scripts/report.py" "$out" "${results[@]}" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
