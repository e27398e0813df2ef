#!/bin/bash
# bench.sh: `make bench`.  Builds the unpatched base and the patched kernel
# (x86_64, then arm64 when BENCH_ARCHS includes it), builds the benchmark
# module (modules/fgraph-bench) against each, boots each twice - once under
# QEMU -icount (instruction-counted guest time, deterministic) and once in
# plain TCG (wall time) - and prints one table per kernel.
#   BENCH_ARCHS   default "x86_64 arm64"
#   BENCH_CALLS   calls per round (default 1000000)
#   BENCH_ROUNDS  rounds per case, the median is kept (default 5)
#   ICOUNT_SHIFT  -icount shift: one guest instruction = 2^shift ns (0)
#   BENCH_SMP     guest CPUs (1: the loop runs on one CPU, and an -icount
#                 guest with two CPUs hangs bringing up the second one)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
archs=${BENCH_ARCHS:-x86_64 arm64}
calls=${BENCH_CALLS:-1000000}; rounds=${BENCH_ROUNDS:-5}
shift_=${ICOUNT_SHIFT:-0}
out=$BUILD/bench; mkdir -p "$out"
logs=()
for arch in $archs; do
	for flavour in base patched; do
		"$TOP/scripts/prepare-tree.sh" >/dev/null
		"$TOP/scripts/build.sh" "$arch" "$flavour"
		"$TOP/scripts/build-modules.sh" "$arch" "$flavour"
		"$TOP/scripts/mkinitramfs.sh" "$arch" "$flavour"
		for mode in icount wall; do
			log=$out/$arch-$flavour-$mode.log
			extra=
			thread=
			if [ $mode = icount ]; then
				extra="-icount shift=$shift_,sleep=off"
				thread=single
			fi
			QEMU_EXTRA="$extra" TCG_THREAD=$thread TIMEOUT=${BENCH_TIMEOUT:-1500} SMP=${BENCH_SMP:-1} \
				APPEND="kunit.enable=0 harness.bench_calls=$calls harness.bench_rounds=$rounds" \
				"$TOP/scripts/boot.sh" "$arch" "$flavour" bench all "$log" ||
				warn "the $arch/$flavour $mode boot did not finish; its rows are missing"
			logs+=("$arch:$flavour:$mode:$log")
		done
	done
done
qemu=$(qemu-system-x86_64 --version | head -1)
python3 "$TOP/scripts/bench-report.py" --qemu "$qemu" --shift "$shift_" \
	--config "configs/common.config + configs/ARCH.config (+ patched.config)" "${logs[@]}" |
	tee "$out/report.txt"
