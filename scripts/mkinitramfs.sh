#!/bin/bash
# mkinitramfs.sh ARCH FLAVOUR: build obj-ARCH-FLAVOUR/initramfs.cpio.gz with
# busybox, the guest runner, the kernel's modules and the ftrace kselftests
# of the same tree (plus any extra guest files in guest/ and the built test
# modules under obj/extra-modules).
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
cp -r "$src/tools/testing/selftests/ftrace/." "$root/ftrace/"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo '127.0.0.1 localhost' > "$root/etc/hosts"
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$obj/initramfs.cpio.gz"
info "initramfs: $obj/initramfs.cpio.gz ($(du -h "$obj/initramfs.cpio.gz" | cut -f1))"
