#!/bin/bash
# Install (with apt) everything the harness needs on a Debian 12 machine,
# and check the pinned base package.  Safe to run again: it only installs
# what is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(make gcc git xz-utils bc flex bison libelf-dev libssl-dev ccache cpio
      kmod python3 python3-docutils qemu-system-x86 qemu-system-arm
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross busybox-static perl
      devscripts trace-cmd linux-perf bpftrace)

need_root() {
	[ "$(id -u)" = 0 ] || die "$1 needs root: run 'sudo make setup' (or: sudo apt-get install ${PKGS[*]})"
}

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done

updated=
apt_update() {
	[ -n "$updated" ] && return 0
	need_root "apt-get update"
	info "apt-get update"
	apt-get update -q >"$BUILD/apt-update.log" 2>&1 ||
		die "apt-get update failed, see $BUILD/apt-update.log"
	updated=1
}
mkdir -p "$BUILD/tools"

if [ ${#missing[@]} -gt 0 ]; then
	apt_update
	info "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
		>"$BUILD/apt-install.log" 2>&1 ||
		die "apt-get install ${missing[*]} failed, see $BUILD/apt-install.log"
fi

# The base: the pinned linux-source-6.1 version.
have=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
if [ "$have" != "$BASE_VERSION" ]; then
	apt_update
	cand=$(apt-cache policy "$BASE_PACKAGE" | awk '/Candidate:/ {print $2}')
	if apt-cache madison "$BASE_PACKAGE" | awk '{print $3}' | grep -qx "$BASE_VERSION"; then
		info "installing $BASE_PACKAGE=$BASE_VERSION"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
			"$BASE_PACKAGE=$BASE_VERSION" >"$BUILD/apt-install.log" 2>&1 ||
			die "installing $BASE_PACKAGE=$BASE_VERSION failed, see $BUILD/apt-install.log"
	elif [ -n "$have" ]; then
		warn "$BASE_PACKAGE $have is installed but the series is based on $BASE_VERSION;" \
		     "apt does not offer $BASE_VERSION. Using $have: prepare-tree stops if the series does not apply."
	elif [ -n "$cand" ] && [ "$cand" != "(none)" ]; then
		warn "apt offers $BASE_PACKAGE $cand, not the pinned $BASE_VERSION; installing $cand." \
		     "prepare-tree stops if the series does not apply (then update base.conf or rebase the series)."
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$BASE_PACKAGE" \
			>"$BUILD/apt-install.log" 2>&1 || die "installing $BASE_PACKAGE failed"
	else
		die "apt offers no $BASE_PACKAGE; the series needs $BASE_PACKAGE=$BASE_VERSION (Debian 12 bookworm-security)"
	fi
fi

# busybox for arm64 guests: the static arm64 binary from Debian's archive.
if [ ! -x "$BUILD/tools/busybox-arm64" ]; then
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		need_root "dpkg --add-architecture arm64"
		dpkg --add-architecture arm64
		updated=
	fi
	apt_update
	tmp=$(mktemp -d)
	( cd "$tmp" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1 ) ||
		die "apt-get download busybox-static:arm64 failed (needs 'dpkg --add-architecture arm64' and 'apt-get update')"
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/x"
	install -m 755 "$tmp/x/bin/busybox" "$BUILD/tools/busybox-arm64"
	rm -rf "$tmp"
fi

for t in gcc aarch64-linux-gnu-gcc ccache qemu-system-x86_64 qemu-system-aarch64 cpio depmod flex bison bc python3; do
	command -v "$t" >/dev/null || die "$t is still missing after setup"
done
info "setup complete"
