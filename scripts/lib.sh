# Common helpers for the harness scripts.  Sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# shellcheck source=../base.conf
. "$TOP/base.conf"

die()  { printf 'error: %s\n' "$*" >&2; exit 1; }
warn() { printf 'warning: %s\n' "$*" >&2; }
info() { printf '==> %s\n' "$*" >&2; }

# The prepared kernel trees: the patched one (base + series, where the
# developer works) and the pristine base (a git worktree at tag "base").
TREE=$BUILD/linux
BASE_TREE=$BUILD/linux-base

# arch_vars ARCH: set KARCH, CROSS, QEMU and friends for one target.
arch_vars() {
	case "$1" in
	x86_64)
		KARCH=x86_64; CROSS=; KIMAGE=arch/x86/boot/bzImage
		QEMU=qemu-system-x86_64; CONSOLE=ttyS0
		BUSYBOX=/bin/busybox
		;;
	arm64)
		KARCH=arm64; CROSS=aarch64-linux-gnu-; KIMAGE=arch/arm64/boot/Image
		QEMU=qemu-system-aarch64; CONSOLE=ttyAMA0
		BUSYBOX=$BUILD/tools/busybox-arm64
		;;
	*) die "unknown arch '$1' (use x86_64 or arm64)";;
	esac
}

# obj_dir ARCH FLAVOUR: the O= directory of one build.  VARIANT (debug,
# kcsan: configs/VARIANT.config on top of the flavour's fragments) builds
# the same tree in a directory of its own.
obj_dir() { echo "$BUILD/obj-$1-$2${VARIANT:+-$VARIANT}"; }

# src_dir FLAVOUR: the source tree of a flavour (patched or base).
src_dir() {
	case "$1" in
	patched) echo "$TREE";;
	base) echo "$BASE_TREE";;
	*) die "unknown flavour '$1' (use patched or base)";;
	esac
}

# kbuild_env: what every kernel build of the harness shares: ccache, with
# paths relative to the project so that a clone elsewhere (CI) hits the
# cache, reproducible objects so that it hits across rebuilds, and the
# parallelism ($J).
kbuild_env() {
	command -v ccache >/dev/null || die "ccache missing: run 'make setup' (apt-get install ccache)"
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache-fgraph}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
	export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
	export KBUILD_BUILD_USER=fgraph KBUILD_BUILD_HOST=harness
	J=${J:-$(( $(nproc) + 1 ))}
}

git_ident() {
	git -c user.name="$SERIES_IDENT_NAME" -c user.email="$SERIES_IDENT_EMAIL" "$@"
}
