#!/bin/bash
# check.sh: everything `make check` runs.
#   1. harness self-tests (no boot)
#   2. build x86_64 and arm64 (patched tree), kernel + modules
#   3. x86_64: boot, KUnit at boot, the whole ftracetest suite
#   4. arm64: boot, KUnit at boot, a smoke subset of ftracetest
#   5. one summary line: N passed, N failed, N skipped
# FLAVOUR=base runs the same on the unpatched base.  X86_FTRACE / ARM64_FTRACE
# choose ftracetest cases (comma separated, relative to test.d/, or "all").
set -uo pipefail
. "$(dirname "$0")/lib.sh"
flavour=${FLAVOUR:-patched}
x86_ftrace=${X86_FTRACE:-all}
arm64_ftrace=${ARM64_FTRACE:-00basic/basic1.tc,ftrace/fgraph-filter.tc,ftrace/func_set_ftrace_file.tc,ftrace/func_profiler.tc,kprobe/kprobe_args.tc,kprobe/kretprobe_args.tc,instances,ftrace/fgraph-multi-instance.tc,ftrace/fgraph-instance-graph-function.tc,ftrace/fgraph-instance-options.tc,ftrace/fgraph-latency-graph.tc}
archs=${ARCHS:-x86_64 arm64}
out=$BUILD/check-$flavour
rm -rf "$out"; mkdir -p "$out"
results=()
t0=$(date +%s)

# 1. harness self-tests
python3 "$TOP/tests/harness/run.py" > "$out/harness.jsonl" 2> "$out/harness.log"
results+=("$out/harness.jsonl")

"$TOP/scripts/prepare-tree.sh" || exit 1
if [ "$flavour" = patched ]; then
	"$TOP/scripts/series-status.sh" > "$out/series-status.log" 2>&1 ||
		warn "build/linux differs from patches/ (testing the tree as it is): $(head -3 "$out/series-status.log" | tr '\n' ' ')"
fi

for arch in $archs; do
	res=$out/$arch.jsonl
	results+=("$res")
	if ! "$TOP/scripts/build.sh" "$arch" "$flavour" 2> >(tee "$out/$arch-build.err" >&2); then
		printf '{"name": "%s build", "status": "fail", "detail": "%s"}\n' "$arch" \
			"$(grep -m1 -E 'error|fail' "$out/$arch-build.err" | tr -d '"\\' | head -c 300)" > "$res"
		continue
	fi
	echo "{\"name\": \"$arch build\", \"status\": \"pass\", \"detail\": \"\"}" > "$res"
	"$TOP/scripts/build-modules.sh" "$arch" "$flavour" || exit 1
	"$TOP/scripts/mkinitramfs.sh" "$arch" "$flavour" || exit 1
	obj=$(obj_dir "$arch" "$flavour")
	case "$arch" in
	x86_64) cases=$x86_ftrace; steps=${X86_STEPS:-ftracetest,modules,ipmodify,kretprobe};;
	*) cases=$arm64_ftrace; steps=${ARM64_STEPS:-ftracetest,kretprobe};;
	esac
	log=$out/$arch-boot.log
	TIMEOUT=${BOOT_TIMEOUT:-1800} "$TOP/scripts/boot.sh" "$arch" "$flavour" "${STEPS:-$steps}" "$cases" "$log" || true
	# The base has no KUnit suite of ours (they come with the series)
	expect=(--expect-ftrace)
	[ "$flavour" = patched ] && expect+=(--expect-kunit)
	python3 "$TOP/scripts/parse-log.py" "$log" "$arch" "${expect[@]}" >> "$res"
	# The series' boot parameter for the old kretprobe path, once
	if [ "$arch" = x86_64 ] && [ "$flavour" = patched ] && [ -z "${STEPS:-}" ]; then
		log=$out/$arch-kretprobe-old-boot.log
		TIMEOUT=600 APPEND="kunit.enable=0 kretprobe_fgraph=0" \
			"$TOP/scripts/boot.sh" "$arch" "$flavour" kretprobe none "$log" || true
		python3 "$TOP/scripts/parse-log.py" "$log" "$arch-kretprobe_fgraph=0" >> "$res"
		# Clean shutdown of graph users, judged by kmemleak
		log=$out/$arch-kmemleak-boot.log
		TIMEOUT=900 APPEND="kunit.enable=0 kmemleak=on" \
			"$TOP/scripts/boot.sh" "$arch" "$flavour" leaks none "$log" || true
		python3 "$TOP/scripts/parse-log.py" "$log" "$arch-kmemleak" >> "$res"
	fi
done

# The generic code on a 32-bit arch that takes the fallback path
if [ -z "${STEPS:-}" ] && [ "${ARCHS:-}" = "" ]; then
	res=$out/i386.jsonl
	results+=("$res")
	if "$TOP/scripts/build-i386-trace.sh" "$flavour" 2> "$out/i386-build.err"; then
		echo '{"name": "i386 kernel/trace build", "status": "pass", "detail": ""}' > "$res"
	else
		printf '{"name": "i386 kernel/trace build", "status": "fail", "detail": "%s"}\n' \
			"$(grep -m1 -E 'error' "$out/i386-build.err" | tr -d '"\\' | head -c 300)" > "$res"
	fi
fi

echo
echo "=== make check ($flavour; $(( $(date +%s) - t0 ))s) ==="
python3 "$TOP/scripts/report.py" "$out" "${results[@]}" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
