#!/bin/bash
# Prepare the kernel trees:
#   build/linux       git repo: one "base" commit (tag base) + the series, one
#                     commit per patch (git am).  This is where work happens.
#   build/linux-base  git worktree of tag "base": the unpatched baseline.
# An existing tree is left alone (it may hold work); use --force to rebuild it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

force=
[ "${1:-}" = --force ] && force=1

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL is missing: run 'make setup' (installs $BASE_PACKAGE=$BASE_VERSION)"

make_base_repo() {
	local tmp=$BUILD/linux.tmp
	rm -rf "$tmp"; mkdir -p "$tmp"
	info "checking $BASE_TARBALL"
	local sum
	sum=$(sha256sum "$BASE_TARBALL" | cut -d' ' -f1)
	if [ "$sum" != "$BASE_SHA256" ]; then
		local have
		have=$(dpkg-query -W -f='${Version}' "$BASE_PACKAGE" 2>/dev/null || echo unknown)
		warn "$BASE_TARBALL ($BASE_PACKAGE $have) has sha256 $sum, base.conf pins $BASE_VERSION with $BASE_SHA256; trying the series on it anyway"
	fi
	info "unpacking the base into $TREE"
	tar -C "$tmp" -xf "$BASE_TARBALL"
	mv "$tmp"/linux-source-6.1 "$tmp/src"
	(
		cd "$tmp/src"
		git init -q -b master .
		git config core.autocrlf false
		git config gc.auto 0
		git add -A -f .
		git_ident commit -q -m "Linux $BASE_PACKAGE $BASE_VERSION (Debian)" \
			-m "sha256 of the tarball: $sum"
		git tag base
	)
	mv "$tmp/src" "$TREE"
	rmdir "$tmp"
}

apply_series() {
	local series=$TOP/patches/series
	[ -f "$series" ] || { info "no patches/series: the tree is the unpatched base"; return 0; }
	cd "$TREE"
	# Commits made by hand in the tree carry the series identity too
	git config user.name "$SERIES_IDENT_NAME"
	git config user.email "$SERIES_IDENT_EMAIL"
	local n=0
	while read -r p; do
		case "$p" in ''|\#*) continue;; esac
		[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! git_ident am -q --keep-cr --committer-date-is-author-date "$TOP/patches/$p" >"$BUILD/am.log" 2>&1; then
			git am --abort >/dev/null 2>&1 || true
			echo "--- git am output ---" >&2
			cat "$BUILD/am.log" >&2
			git apply --check -v "$TOP/patches/$p" 2>&1 | grep -E '^(error|Checking|Hunk)|does not apply|patch failed' | head -20 >&2 || true
			die "patch $p does not apply to $(git describe --tags --always)"
		fi
		n=$((n + 1))
	done < "$series"
	info "applied $n patches"
}

mkdir -p "$BUILD"
if [ -d "$TREE/.git" ] && [ -z "$force" ]; then
	info "$TREE exists; leaving it as it is (make tree-reset rebuilds it)"
else
	rm -rf "$TREE" "$BASE_TREE"
	make_base_repo
	apply_series
fi

if [ ! -d "$BASE_TREE" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$BASE_TREE" base
fi
