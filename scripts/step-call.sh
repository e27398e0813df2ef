#!/bin/bash
# step-call.sh FLAVOUR [CASE]: where the instructions of one traced call
# go, on x86_64 (or on arm64 with STEP_ARCH=arm64).  Boots the FLAVOUR
# (base or patched) kernel with the benchmark (guest/steps/bench.sh)
# stopped under QEMU's gdbstub, runs only the benchmark's CASE (default
# k1, one fgraph user; k2, k4 ... on the patched kernel), single-steps one
# call of fgraph_bench_target after 50 warm-up entries and prints the
# instructions run per function, the call's own included (STEP_ORDER=1:
# also each run of a function in the order they ran).  Module text (the
# ftrace trampoline, the benchmark's callbacks) is counted as "module".
# Build the kernel, the modules and the initramfs first (make bench does).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
flavour=${1:?usage: step-call.sh base|patched [CASE]}
case_=${2:-k1}
arch=${STEP_ARCH:-x86_64}
case $arch in
x86_64) gdb=gdb;;
arm64) gdb=gdb-multiarch;;
*) die "STEP_ARCH=$arch: x86_64 or arm64";;
esac
command -v $gdb >/dev/null || die "$gdb is missing: apt-get install $gdb"
obj=$BUILD/obj-$arch-$flavour
[ -f "$obj/vmlinux" ] && [ -f "$obj/initramfs.cpio.gz" ] ||
	die "no $flavour kernel or initramfs in $obj: run make bench (or scripts/build.sh, build-modules.sh and mkinitramfs.sh) first"
# Where the benchmark's calls enter fgraph (STEP_SYM= overrides)
case $flavour in
base) sym=function_graph_enter;;
*) sym=fgraph_hook;;
esac
sym=${STEP_SYM:-$sym}
# Which of its arguments is the traced function: the first of the core's
# hook (fgraph_hook()), the second of the entries
case $sym in
*fgraph_hook*|fprobe_handler) farg=1;;
*) farg=2;;
esac
sfx=$flavour-$case_
[ "$arch" = x86_64 ] || sfx=$arch-$sfx
out=$BUILD/step-call-$sfx.pcs
rm -f "$out"
QEMU_EXTRA="-s -S" TCG_THREAD=single SMP=1 ACCEL=tcg TIMEOUT=300 \
	APPEND="kunit.enable=0 harness.bench_calls=20000 harness.bench_rounds=1 harness.bench_cases=$case_" \
	"$TOP/scripts/boot.sh" "$arch" "$flavour" bench all "$BUILD/step-call-$sfx.log" \
	>/dev/null 2>&1 &
sleep 2
STEP_OUT=$out STEP_SYM=$sym STEP_FUNC_ARG=$farg STEP_ARCH=$arch timeout 600 $gdb -q -batch \
	-x "$TOP/scripts/step-call.py" "$obj/vmlinux" \
	>"$BUILD/step-call-$sfx.gdb.log" 2>&1 || true
wait || true
[ -s "$out" ] || die "no call was stepped; see $BUILD/step-call-$sfx.gdb.log"
python3 - "$obj/vmlinux" "$out" "${STEP_ORDER:-0}" <<'PY'
import bisect, collections, subprocess, sys
syms = []
text = {}
for line in subprocess.run(["nm", "-n", sys.argv[1]], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    p = line.split()
    if len(p) >= 3 and p[1] in "tTwW":
        syms.append((int(p[0], 16), p[2]))
    if len(p) >= 3 and p[2] in ("_stext", "_etext"):
        text[p[2]] = int(p[0], 16)
addrs = [a for a, _ in syms]
# Module text lies outside the image: above it on x86_64, below on arm64
seq = []
for w in open(sys.argv[2]).read().split():
    pc = int(w, 16)
    if not text["_stext"] <= pc < text["_etext"]:
        seq.append("module")
    else:
        seq.append(syms[bisect.bisect_right(addrs, pc) - 1][1])
count = collections.Counter(seq)
print("%5d instructions in all" % len(seq))
for name in dict.fromkeys(seq):
    print("%5d %s" % (count[name], name))
if sys.argv[3] == "1":
    # In the order they ran: one line per run of a function
    print("in order:")
    runs = []
    for name in seq:
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    for name, n in runs:
        print("%5d %s" % (n, name))
PY
