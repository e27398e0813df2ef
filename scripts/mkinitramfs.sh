#!/bin/bash
# mkinitramfs.sh ARCH FLAVOUR: build obj-ARCH-FLAVOUR/initramfs.cpio.gz with
# busybox, the guest runner, the kernel's modules and the ftrace kselftests
# of the same tree (plus any extra guest files in guest/ and the built test
# modules under obj/extra-modules; with CLIENTS=1, the tracing
# clients of scripts/mkclients.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: mkinitramfs.sh ARCH FLAVOUR}; flavour=${2:-patched}
arch_vars "$arch"
src=$(src_dir "$flavour"); obj=$(obj_dir "$arch" "$flavour")
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing: run 'make setup'"
[ -d "$obj/mods/lib/modules" ] || die "no modules in $obj/mods: run 'make build' first"
root=$obj/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,lib,harness,usr/bin,usr/sbin}
install -m 755 "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 755 "$TOP/guest/init" "$root/init"
cp -r "$TOP/guest/steps" "$root/harness/steps"
[ -d "$TOP/guest/files" ] && cp -r "$TOP/guest/files" "$root/harness/files"
[ -d "$obj/extra-modules" ] && cp -r "$obj/extra-modules" "$root/harness/modules"
cp -a "$obj/mods/lib/modules" "$root/lib/"
mkdir -p "$root/ftrace"
# FTRACE_SRC=DIR takes the ftrace selftests of another tree (to run the
# series' new cases on the unpatched base, say).
cp -r "${FTRACE_SRC:-$src}/tools/testing/selftests/ftrace/." "$root/ftrace/"
# Commands ftracetest needs that busybox-static lacks (guest/tools): chrt
# (built static here), nice, and checkbashisms, whose verdicts come from
# the host's checkbashisms run now on the very scripts packed.
cc=${CROSS}gcc
"$cc" -static -O2 -o "$obj/chrt" "$TOP/guest/tools/chrt.c" ||
	die "cannot build guest chrt with $cc -static (needs libc6-dev${CROSS:+-arm64-cross}: run 'make setup')"
install -m 755 "$obj/chrt" "$root/usr/bin/chrt"
install -m 755 "$TOP/guest/tools/nice" "$TOP/guest/tools/checkbashisms" "$root/usr/bin/"
command -v checkbashisms >/dev/null || die "checkbashisms missing: run 'make setup' (apt-get install devscripts)"
db=$root/harness/bashisms; mkdir -p "$db"
(cd "$root/ftrace" && find ftracetest test.d -name ftracetest -o -name functions -o -name '*.tc') |
while read -r f; do
	key=$(echo "$f" | tr / _)
	rc=0; checkbashisms "$root/ftrace/$f" > "$db/$key.out" 2>&1 || rc=$?
	sed -i "s|$root||g" "$db/$key.out"
	echo $rc > "$db/$key.rc"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo '127.0.0.1 localhost' > "$root/etc/hosts"
# CLIENTS=1: the tracing clients with their libraries (scripts/mkclients.sh;
# x86_64: trace-cmd, perf and bpftrace; arm64: bpftrace), an uncompressed
# cpio placed first, so that the kernel finds it at offset 0 and then the
# gzip archive after it.
rm -f "$obj/initramfs.cpio.gz"
if [ "${CLIENTS:-0}" = 1 ]; then
	"$TOP/scripts/mkclients.sh" "$arch"
	cp "$BUILD/tools/clients-$arch.cpio" "$obj/initramfs.cpio.gz"
fi
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -1 >> "$obj/initramfs.cpio.gz"
info "initramfs: $obj/initramfs.cpio.gz ($(du -h "$obj/initramfs.cpio.gz" | cut -f1))"
