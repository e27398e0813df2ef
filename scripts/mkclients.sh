#!/bin/bash
# mkclients.sh: pack the tracing clients people use (trace-cmd, perf,
# bpftrace: Debian 12's x86_64 packages, installed by make setup) with the
# shared libraries ldd lists for them into build/tools/clients-x86_64.cpio,
# an uncompressed cpio that mkinitramfs.sh appends to the x86_64 initramfs
# when CLIENTS=1.  The guest stays busybox (static): the clients bring
# the host's dynamic loader (/lib64) and libraries (/lib/x86_64-linux-gnu).
# Packed again when the packages' versions or this script change.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

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
