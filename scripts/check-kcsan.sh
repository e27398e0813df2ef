#!/bin/bash
# check-kcsan.sh: `make check-kcsan`, the race detector on the series'
# lockless code.  Builds the arm64 patched kernel (KCSAN_ARCH=x86_64 for
# the other) with configs/kcsan.config (KCSAN with weak-memory modelling,
# so that a missing barrier shows up although TCG on an x86 host orders
# every access) and boots it once: the fgraph and kretprobe_fgraph KUnit
# suites (their churn and parked cases register and unregister users while
# other CPUs call traced functions), the instance churn cases of
# ftracetest, and the kretprobe step (200 threads asleep in a kretprobed
# function).  A data race KCSAN reports fails the run, with the report.
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
results_of "$arch-kcsan-build"
if (VARIANT=kcsan build "$arch" "$arch-kcsan"); then
	VARIANT=kcsan APPEND="kunit.filter_glob=${KCSAN_KUNIT:-*fgraph*}" \
		boot "$arch" "$arch-kcsan" ftracetest,kretprobe "$cases" \
		"${KCSAN_TIMEOUT:-1800}" --expect-kunit --expect-ftrace
	results_of "$arch-kcsan"
fi

echo
echo "=== make check-kcsan ($(( $(date +%s) - t0 ))s) ==="
python3 "$TOP/scripts/report.py" "$out" "${results[@]}" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
