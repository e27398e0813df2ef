#!/bin/bash
# build-each.sh [ARCH...]: compile every patch of the series on its own.
#
# Checks out each commit of build/linux after the base tag, oldest first,
# in a worktree of its own (build/each/linux: the developer's tree is left
# alone) and compiles, out of tree and incrementally (build/each/obj-ARCH),
# what the series can break there: kernel/trace/, the kernel files around
# kprobes and the task's shadow stack, the arch's ftrace, unwinder and
# kprobes code, and samples/fgraph/ once it exists.  The config is the
# patched kernel's (configs/*.config), made again at each commit that
# changes a Kconfig file, so that options a patch adds are built from that
# patch on.  A compile error stops the walk and names the patch; a
# compiler warning in a patch is printed with it and fails the run at the
# end.  Objects only: no link, no boot (the whole series is built, linked
# and booted by make check).
#
# ARCH defaults to x86_64 and arm64.  EACH_FROM=N starts at patch N
# (1-based) to pick up a walk after a fix; the objects of the earlier ones
# are then not rebuilt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(x86_64 arm64)
[ -d "$TREE/.git" ] || die "$TREE is missing: run 'make tree'"
git -C "$TREE" rev-parse -q --verify base >/dev/null ||
	die "$TREE has no 'base' tag: run 'make tree'"
kbuild_env

mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
[ ${#commits[@]} -gt 0 ] || die "$TREE has no commits after the base tag"
from=${EACH_FROM:-1}
if ! [[ "$from" =~ ^[0-9]+$ ]] || [ "$from" -lt 1 ] || [ "$from" -gt ${#commits[@]} ]; then
	die "EACH_FROM=$from: a patch number from 1 to ${#commits[@]}"
fi

wt=$BUILD/each/linux
# (Made again if build/linux was made again since: make tree-reset)
if [ ! -f "$wt/.git" ] ||
   [ "$(git -C "$wt" rev-parse --show-toplevel 2>/dev/null)" != "$wt" ]; then
	rm -rf "$wt"
	mkdir -p "$BUILD/each"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base ||
		die "could not add the worktree $wt"
fi

# targets ARCH: what to compile at the commit checked out
targets() {
	local t=(kernel/trace/ kernel/kprobes.o kernel/fork.o init/init_task.o)
	case $1 in
	x86_64) t+=(arch/x86/kernel/ftrace.o arch/x86/kernel/ftrace_64.o
		    arch/x86/kernel/unwind_orc.o arch/x86/kernel/kprobes/);;
	arm64) t+=(arch/arm64/kernel/ftrace.o arch/arm64/kernel/entry-ftrace.o
		   arch/arm64/kernel/stacktrace.o arch/arm64/kernel/probes/);;
	esac
	[ -d "$wt/samples/fgraph" ] && grep -q '^CONFIG_SAMPLE_FGRAPH=m' "$obj/.config" &&
		t+=(samples/fgraph/)
	echo "${t[@]}"
}

warned=()
for arch in "${archs[@]}"; do
	arch_vars "$arch"
	obj=$BUILD/each/obj-$arch
	mkdir -p "$obj"
	KMAKE=(make -s -C "$wt" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS"
	       CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" -j"$J")
	frags=("$TOP/configs/common.config" "$TOP/configs/$arch.config"
	       "$TOP/configs/patched.config")
	start=$(date +%s)
	for ((n = from; n <= ${#commits[@]}; n++)); do
		c=${commits[n - 1]}
		subj=$(git -C "$TREE" log -1 --format=%s "$c")
		git -C "$wt" checkout -q --detach "$c"
		log=$obj/patch-$n.log
		if [ ! -f "$obj/.config" ] || [ "$n" = "$from" ] ||
		   git -C "$wt" diff --name-only "$c^" "$c" | grep -q 'Kconfig'; then
			{ "${KMAKE[@]}" allnoconfig && cat "${frags[@]}" >> "$obj/.config" &&
			  "${KMAKE[@]}" olddefconfig; } >"$obj/config.log" 2>&1 ||
				{ tail -20 "$obj/config.log" >&2; die "$arch: configuring at patch $n ($subj) failed"; }
		fi
		# shellcheck disable=SC2046
		if ! "${KMAKE[@]}" $(targets "$arch") >"$log" 2>&1; then
			grep -m1 -B2 -A8 -E 'error:|Error [0-9]' "$log" >&2 || tail -20 "$log" >&2
			die "$arch: patch $n does not build on its own: $subj (log: $log)"
		fi
		if grep -q 'warning:' "$log"; then
			warn "$arch: patch $n warns: $subj"
			grep -A3 'warning:' "$log" | head -12 >&2
			warned+=("$arch patch $n")
		fi
		printf '%s %2d/%d ok  %s\n' "$arch" "$n" ${#commits[@]} "$subj"
	done
	info "$arch: patches $from-${#commits[@]} built on their own in $(( $(date +%s) - start ))s"
done
[ ${#warned[@]} -eq 0 ] || die "compiler warnings in: ${warned[*]}"
info "every patch builds on its own (${archs[*]})"
