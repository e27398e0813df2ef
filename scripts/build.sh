#!/bin/bash
# build.sh ARCH FLAVOUR: configure and build one kernel plus its modules,
# out of tree (O=build/obj-ARCH-FLAVOUR), with ccache.  FLAVOUR is
# "patched" (build/linux) or "base" (build/linux-base).  VARIANT=debug or
# kcsan adds configs/VARIANT.config (O=build/obj-ARCH-FLAVOUR-VARIANT).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: build.sh ARCH FLAVOUR}; flavour=${2:-patched}
arch_vars "$arch"
src=$(src_dir "$flavour")
obj=$(obj_dir "$arch" "$flavour")
[ -f "$src/Makefile" ] || die "$src is missing: run 'make tree'"
kbuild_env
mkdir -p "$obj"
KMAKE=(make -s -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS"
       CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" -j"$J")

frags=("$TOP/configs/common.config" "$TOP/configs/$arch.config")
[ "$flavour" = patched ] && frags+=("$TOP/configs/patched.config")
if [ -n "${VARIANT:-}" ]; then
	[ -f "$TOP/configs/$VARIANT.config" ] ||
		die "VARIANT=$VARIANT: there is no configs/$VARIANT.config (use debug or kcsan, or add that fragment)"
	frags+=("$TOP/configs/$VARIANT.config")
fi
[ -n "${EXTRA_CONFIG:-}" ] && frags+=($EXTRA_CONFIG)
# Reconfigure only when a fragment changed (keeps incremental builds fast).
stamp=$obj/.fragments
want=$(cat "${frags[@]}" | sha256sum)
# ... or when the .config no longer holds what they ask (a make run in
# the tree at another commit re-synced it, for instance).
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] ||
   ! python3 "$TOP/scripts/check-config.py" "$obj/.config" "${frags[@]}" >/dev/null 2>&1; then
	info "configuring $arch/$flavour"
	"${KMAKE[@]}" allnoconfig >"$obj/config.log" 2>&1
	cat "${frags[@]}" >> "$obj/.config"
	"${KMAKE[@]}" olddefconfig >>"$obj/config.log" 2>&1 ||
		{ tail -20 "$obj/config.log" >&2; die "olddefconfig failed for $arch/$flavour"; }
	echo "$want" > "$stamp"
fi
python3 "$TOP/scripts/check-config.py" "$obj/.config" "${frags[@]}" ||
	die "the $arch/$flavour config lacks options (above); fix configs/*.config"

log=$obj/build.log
info "building $arch/$flavour (log: $log)"
start=$(date +%s)
if ! "${KMAKE[@]}" all >"$log" 2>&1; then
	echo "--- first error in $log ---" >&2
	grep -m1 -B2 -A8 -E 'error:|Error [0-9]|undefined reference|ERROR:' "$log" >&2 || tail -20 "$log" >&2
	die "build of $arch/$flavour failed"
fi
rm -rf "$obj/mods"
"${KMAKE[@]}" INSTALL_MOD_PATH="$obj/mods" INSTALL_MOD_STRIP=1 modules_install >>"$log" 2>&1 ||
	{ tail -20 "$log" >&2; die "modules_install of $arch/$flavour failed"; }
grep -E 'warning:' "$log" | grep -v -E '^(ld|.*objtool)' | head -5 >&2 || true
info "built $arch/$flavour in $(( $(date +%s) - start ))s: $obj/$KIMAGE"
