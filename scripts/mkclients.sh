#!/bin/bash
# mkclients.sh [ARCH]: pack the tracing clients people use into
# build/tools/clients-ARCH.cpio, an uncompressed cpio that mkinitramfs.sh
# places first in the initramfs when CLIENTS=1.  The guest stays busybox
# (static): the clients bring their dynamic loader and libraries.
#   x86_64 (default): trace-cmd, perf and bpftrace, Debian 12's packages
#	installed by make setup, with the shared libraries ldd lists.
#   arm64: bpftrace only, from Debian 12's arm64 packages (apt-get download
#	of bpftrace:arm64 and everything it depends on; make setup added the
#	arm64 architecture), unpacked whole but for their documentation.
# Packed again when the packages' versions or this script change.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-x86_64}" = arm64 ]; then
	out=$BUILD/tools/clients-arm64.cpio
	stamp=$out.versions
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances bpftrace:arm64 2>/dev/null |
		grep '^[a-z]' | sort -u)
	case "$pkgs" in
	*bpftrace:arm64*) ;;
	*) die "apt knows no bpftrace:arm64: run 'make setup' (dpkg --add-architecture arm64; apt-get update)";;
	esac
	want=$(apt-cache policy $pkgs | awk '/^[a-z]/ {p=$1} /Candidate:/ {print p, $2}'
		sha256sum < "$0")
	if [ -f "$out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		exit 0
	fi
	debs=$BUILD/tools/debs-arm64
	rm -rf "$debs"; mkdir -p "$debs"
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get download -q $pkgs > "$debs/download.log" 2>&1) ||
		die "apt-get download of bpftrace:arm64 and its dependencies failed, see $debs/download.log"
	root=$BUILD/tools/clients-root-arm64
	rm -rf "$root"; mkdir -p "$root"
	for d in "$debs"/*.deb; do
		dpkg-deb -x "$d" "$root"
	done
	rm -rf "$root/usr/share" "$root/etc" "$root/sbin" "$root/usr/sbin" "$root/usr/lib/aarch64-linux-gnu/gconv"
	[ -x "$root/usr/bin/bpftrace" ] || die "bpftrace:arm64 unpacked without usr/bin/bpftrace"
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
	mv "$out.tmp" "$out"
	echo "$want" > "$stamp"
	rm -rf "$root" "$debs"
	info "clients: $out ($(du -h "$out" | cut -f1); $(echo "$want" | grep -m1 '^bpftrace'))"
	exit 0
fi

BINS=(/usr/bin/trace-cmd /usr/bin/perf /usr/bin/bpftrace)
PKGS=(trace-cmd linux-perf bpftrace)
out=$BUILD/tools/clients-x86_64.cpio
stamp=$out.versions

[ "$(uname -m)" = x86_64 ] || die "the clients are packed from the host's x86_64 binaries; this host is $(uname -m)"
for i in "${!BINS[@]}"; do
	[ -x "${BINS[$i]}" ] || die "${BINS[$i]} missing: run 'make setup' (apt-get install ${PKGS[*]})"
done
want=$(dpkg-query -W -f='${Package} ${Version}\n' "${PKGS[@]}"; sha256sum < "$0")
if [ -f "$out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

root=$BUILD/tools/clients-root
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/lib/x86_64-linux-gnu" "$root/lib64"
# Plugins that trace-cmd report loads to print function events
plugins=(/usr/lib/x86_64-linux-gnu/traceevent/plugins/*.so)
libs=$(for f in "${BINS[@]}" "${plugins[@]}"; do ldd "$f"; done |
	awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u)
for b in "${BINS[@]}"; do
	install -m 755 "$b" "$root/usr/bin/"
done
mkdir -p "$root/usr/lib/x86_64-linux-gnu/traceevent/plugins"
cp "${plugins[@]}" "$root/usr/lib/x86_64-linux-gnu/traceevent/plugins/"
for l in $libs; do
	case "$l" in
	*/ld-linux-x86-64.so.2) cp -L "$l" "$root/lib64/ld-linux-x86-64.so.2";;
	*) cp -L "$l" "$root/lib/x86_64-linux-gnu/";;
	esac
done
(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$want" > "$stamp"
rm -rf "$root"
info "clients: $out ($(du -h "$out" | cut -f1); $(echo "$want" | head -3 | tr '\n' ',' | sed 's/,$//'))"
