#!/bin/bash
# build-modules.sh ARCH FLAVOUR: build this repo's out-of-tree modules
# (modules/*/) with M= against one built kernel and put the .ko files in
# obj-ARCH-FLAVOUR/extra-modules, which mkinitramfs.sh carries into the
# guest as /harness/modules.  A module that does not build against this
# kernel (the base lacks the API the series adds) is reported and skipped;
# its guest test then says so.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: build-modules.sh ARCH FLAVOUR}; flavour=${2:-patched}
arch_vars "$arch"
src=$(src_dir "$flavour"); obj=$(obj_dir "$arch" "$flavour")
[ -f "$obj/Module.symvers" ] || die "$obj is not built: run scripts/build.sh $arch $flavour"
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache-fgraph}
out=$obj/extra-modules
rm -rf "$out"; mkdir -p "$out"
for dir in "$TOP"/modules/*/; do
	name=$(basename "$dir")
	# Build in a copy: M= writes objects next to the sources.
	work=$obj/extra-build/$name
	rm -rf "$work"; mkdir -p "$work"
	cp -r "$dir." "$work/"
	if make -s -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		CC="ccache ${CROSS}gcc" M="$work" modules >"$work/build.log" 2>&1; then
		cp "$work"/*.ko "$out/"
		info "module $name built for $arch/$flavour"
	else
		warn "module $name does not build for $arch/$flavour: $(grep -m1 -E 'error' "$work/build.log" || tail -1 "$work/build.log")"
	fi
done
