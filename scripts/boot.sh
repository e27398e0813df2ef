#!/bin/bash
# boot.sh ARCH FLAVOUR STEPS [FTRACE_CASES] [LOG]: boot the built kernel under
# QEMU with the test initramfs, run the guest steps, and save the serial log.
# Exit status: 0 when the guest reached HARNESS-DONE, 1 on timeout or crash
# (the log tail is printed).  TIMEOUT (seconds) bounds the whole run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: boot.sh ARCH FLAVOUR STEPS [FTRACE_CASES] [LOG]}
flavour=${2:-patched}; steps=${3:-none}; ftrace=${4:-all}
arch_vars "$arch"
obj=$(obj_dir "$arch" "$flavour")
log=${5:-$obj/boot-$steps.log}
timeout=${TIMEOUT:-900}
[ -f "$obj/$KIMAGE" ] || die "no kernel $obj/$KIMAGE: run 'make build'"
[ -f "$obj/initramfs.cpio.gz" ] || die "no initramfs: run scripts/mkinitramfs.sh $arch $flavour"
command -v "$QEMU" >/dev/null || die "$QEMU missing: run 'make setup' (apt-get install qemu-system-x86 qemu-system-arm)"

append="console=$CONSOLE panic=-1 oops=panic softlockup_panic=0 nokaslr harness.steps=$steps harness.ftrace=$ftrace harness.flavour=$flavour ${APPEND:-}"
case "$arch" in
# No MONITOR/MWAIT on x86: an mwait-idle vCPU was the first one seen not
# answering text_poke_bp()'s IPIs; the fix that holds is single-threaded
# TCG (below), this only keeps idle simple.
x86_64) machine=(-M q35 -cpu "${X86_CPU:-max,-monitor}");;
arm64) machine=(-M virt -cpu cortex-a57);;
esac

# KVM: these hosts have /dev/kvm but KVM guests hang, so it is probed once
# (a boot that must finish within 30 s) and the answer cached; TCG otherwise.
accel=${ACCEL:-auto}
if [ "$accel" = auto ]; then
	probe=$BUILD/.kvm-$arch
	if [ ! -f "$probe" ]; then
		echo tcg > "$probe"
		if [ "$arch" = x86_64 ] && [ -w /dev/kvm ]; then
			if timeout -k 2 30 "$QEMU" "${machine[@]}" -accel kvm -m 512 -smp 1 -nographic -no-reboot \
				-kernel "$obj/$KIMAGE" -initrd "$obj/initramfs.cpio.gz" \
				-append "console=$CONSOLE panic=-1 harness.steps=none" </dev/null 2>&1 |
				grep -q HARNESS-DONE; then
				echo kvm > "$probe"
			fi
		fi
		info "accelerator for $arch: $(cat "$probe") (probe cached in $probe)"
	fi
	accel=$(cat "$probe")
fi
# x86_64 runs single-threaded TCG: with MTTCG, a vCPU can miss the code
# another vCPU modifies (text_poke_bp) and stop answering its IPIs; switching
# tracers (00basic/basic2.tc) then stalls, on the unpatched base too.
if [ "$accel" = tcg ]; then
	[ "$arch" = x86_64 ] && thread=single || thread=multi
	accel=tcg,thread=${TCG_THREAD:-$thread}
fi

info "booting $arch/$flavour (steps: $steps; accel $accel; timeout ${timeout}s; log $log)"
set +e
timeout -k 5 "$timeout" "$QEMU" "${machine[@]}" -accel "$accel" -m "${MEM:-2048}" -smp "${SMP:-2}" \
	-nographic -no-reboot ${QEMU_EXTRA:-} \
	-kernel "$obj/$KIMAGE" -initrd "$obj/initramfs.cpio.gz" -append "$append" \
	</dev/null >"$log" 2>&1
rc=$?
set -e
# Serial output comes with CRLF.
sed -i 's/\r$//' "$log"
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "--- TIMEOUT after ${timeout}s; tail of $log ---" >&2; tail -40 "$log" >&2
	exit 1
fi
if ! grep -q '^HARNESS-DONE' "$log"; then
	echo "--- guest did not finish (qemu rc=$rc); tail of $log ---" >&2; tail -40 "$log" >&2
	exit 1
fi
exit 0
