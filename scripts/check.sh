#!/bin/bash
# check.sh: everything `make check` runs.
#   1. harness self-tests (no boot)
#   2. x86_64 (patched tree) built, booted: the whole ftracetest suite, the
#      modules, IPMODIFY, kretprobe, fprobe and tracing-client steps; booted
#      again with kretprobe_fgraph=0 fprobe_fgraph=0 (the old paths, and
#      the fprobe KUnit suite on them) and with kmemleak
#   3. the x86_64 debug kernel (configs/debug.config: lockdep, KASAN, UBSAN,
#      list and RCU-head debugging) built and booted: the KUnit suites (on
#      x86_64 they run here only), the function-graph, instance and kprobe
#      parts of ftracetest, the kretprobe and fprobe steps; any report of theirs fails
#      the run (DEBUG=0: no debug kernel, KUnit on the plain one)
#   4. arm64 built and booted: KUnit at boot, a smoke subset of ftracetest,
#      the kretprobe and fprobe steps (with bpftrace: the initramfs
#      carries it)
#   5. kernel/trace compiled for i386
#   6. one summary line: N passed, N failed, N skipped
# x86_64 guests run single-threaded TCG, one host thread: while they boot
# (lane A), the next kernels build beside them at a lower priority (lane
# B), so that a cold run fits its time; arm64's guest (two threads) may
# boot while lane A's last guest still runs.  FLAVOUR=base runs the same
# on the unpatched base (no debug kernel).  X86_FTRACE / ARM64_FTRACE / DEBUG_FTRACE choose ftracetest
# cases (comma separated, relative to test.d/, globs allowed, or "all");
# DEBUG=0 leaves the debug kernel out; ARCHS picks arches; STEPS (all
# boots, no debug kernel), X86_STEPS or ARM64_STEPS pick guest steps.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
flavour=${FLAVOUR:-patched}
x86_ftrace=${X86_FTRACE:-all}
arm64_ftrace=${ARM64_FTRACE:-00basic/basic1.tc,ftrace/fgraph-filter.tc,ftrace/func_set_ftrace_file.tc,ftrace/func_profiler.tc,kprobe/kprobe_args.tc,kprobe/kretprobe_args.tc,instances,ftrace/fgraph-multi-instance.tc,ftrace/fgraph-instance-graph-function.tc,ftrace/fgraph-instance-options.tc,ftrace/fgraph-latency-graph.tc}
# The debug kernel: the function-graph cases, the instances and kprobes
debug_ftrace=${DEBUG_FTRACE:-ftrace/fgraph-*.tc,ftrace/func_profiler.tc,instances,kprobe/kprobe_ftrace.tc,kprobe/kprobe_args.tc,kprobe/kretprobe_*.tc,kprobe/profile.tc,kprobe/busy_check.tc}
archs=${ARCHS:-x86_64 arm64}
for a in $archs; do
	case "$a" in x86_64|arm64) ;; *) die "ARCHS: unknown arch '$a' (use x86_64, arm64 or both, space separated)";; esac
done
has_arch() { [[ " $archs " == *" $1 "* ]]; }
debug=${DEBUG:-1}
# The base has no debug kernel; STEPS picks the steps of the plain boots only
{ [ "$flavour" = base ] || [ -n "${STEPS:-}" ]; } && debug=0
out=$BUILD/check-$flavour
rm -rf "$out"; mkdir -p "$out"
results=()
t0=$(date +%s)
. "$TOP/scripts/lib-check.sh"

# 1. harness self-tests
python3 "$TOP/tests/harness/run.py" > "$out/harness.jsonl" 2> "$out/harness.log"
results+=("$out/harness.jsonl")

"$TOP/scripts/prepare-tree.sh" || exit 1
if [ "$flavour" = patched ]; then
	"$TOP/scripts/series-status.sh" > "$out/series-status.log" 2>&1 ||
		warn "build/linux differs from patches/ (testing the tree as it is): $(head -3 "$out/series-status.log" | tr '\n' ' ')"
fi

# The base has no KUnit suite of ours (they come with the series)
expect=(--expect-ftrace)
[ "$flavour" = patched ] && expect+=(--expect-kunit)

# With the debug kernel, the x86_64 KUnit suites run there (under
# lockdep, KASAN and UBSAN) and not again on the plain kernel
x86_expect=("${expect[@]}"); x86_append=${APPEND:-}
if [ "$debug" = 1 ]; then
	x86_expect=(--expect-ftrace); x86_append="kunit.enable=0 $x86_append"
fi

# Lane A, in the background: the x86_64 boots, one after the other on one
# host core (single-threaded TCG), then the debug kernel's once lane B has
# built it (it writes x86_64-debug-build.jsonl when done)
x86_boots() {
	APPEND=$x86_append boot x86_64 x86_64 "${STEPS:-${X86_STEPS:-ftracetest,modules,ipmodify,kretprobe,fprobe,clients}}" \
		"$x86_ftrace" "${BOOT_TIMEOUT:-1800}" "${x86_expect[@]}"
	if [ "$flavour" = patched ] && [ -z "${STEPS:-}" ]; then
		# The series' boot parameters for the old kretprobe and fprobe
		# paths, once, with the fprobe KUnit suite on the old path
		APPEND="kunit.filter_glob=fprobe_test kretprobe_fgraph=0 fprobe_fgraph=0" \
			boot x86_64 x86_64-old-paths kretprobe,fprobe none 600 --expect-kunit
		# Clean shutdown of graph users, judged by kmemleak
		APPEND="kunit.enable=0 kmemleak=on" boot x86_64 x86_64-kmemleak leaks none 900
	fi
	[ "$debug" = 1 ] || return 0
	# Lane B writes this file whole when the build ends, however it ends
	while [ ! -f "$out/x86_64-debug-build.jsonl" ]; do sleep 5; done
	grep -q '"pass"' "$out/x86_64-debug-build.jsonl" || return 0
	VARIANT=debug boot x86_64 x86_64-debug ftracetest,kretprobe,fprobe "$debug_ftrace" \
		"${DEBUG_TIMEOUT:-1800}" "${expect[@]}"
}

# Lane B, in the foreground: the builds, niced below the guest of lane A
# while it runs, then arm64's boot (multi-threaded TCG) and i386
kill_tree() {
	local p
	for p in $(pgrep -P "$1"); do kill_tree "$p"; done
	kill "$1" 2> /dev/null
}
lane_a=
if has_arch x86_64; then
	results_of x86_64-build
	if CLIENTS=1 build x86_64 x86_64; then
		x86_boots &
		lane_a=$!
		# Stop lane A and its guest too when make check is stopped
		trap 'kill_tree "$lane_a"; exit 130' INT TERM
		results_of x86_64
		[ "$flavour" = patched ] && [ -z "${STEPS:-}" ] &&
			results_of x86_64-old-paths x86_64-kmemleak
		if [ "$debug" = 1 ]; then
			results_of x86_64-debug-build
			(VARIANT=debug niced build x86_64 x86_64-debug) && results_of x86_64-debug
		fi
	fi
fi
if has_arch arm64; then
	results_of arm64-build
	if (CLIENTS=1 niced build arm64 arm64); then
		boot arm64 arm64 "${STEPS:-${ARM64_STEPS:-ftracetest,kretprobe,fprobe}}" "$arm64_ftrace" \
			"${BOOT_TIMEOUT:-1800}" "${expect[@]}"
		results_of arm64
	fi
fi

# The generic code on a 32-bit arch that takes the fallback path
if [ -z "${STEPS:-}" ] && [ "${ARCHS:-}" = "" ]; then
	res=$out/i386.jsonl
	results+=("$res")
	if nice -n 10 "$TOP/scripts/build-i386-trace.sh" "$flavour" 2> "$out/i386-build.err"; then
		echo '{"name": "i386 kernel/trace build", "status": "pass", "detail": ""}' > "$res"
	else
		printf '{"name": "i386 kernel/trace build", "status": "fail", "detail": "%s"}\n' \
			"$(grep -m1 -E 'error' "$out/i386-build.err" | tr -d '"\\' | head -c 300)" > "$res"
	fi
fi
[ -n "$lane_a" ] && wait "$lane_a"

echo
echo "=== make check ($flavour; $(( $(date +%s) - t0 ))s) ==="
python3 "$TOP/scripts/report.py" "$out" "${results[@]}" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
