#!/bin/bash
# Export the commits of build/linux after tag "base" to patches/: one
# numbered patch each, a cover letter and a series file.  The cover letter
# text comes from patches/cover-letter.txt (subject on the first line, then a
# blank line and the body).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no kernel tree: run 'make tree' first"
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted edits; commit them (git commit/--amend/rebase) before exporting"

n=$(git rev-list --count base..HEAD)
# Every patch carries the series identity (base.conf), as author and sign-off
want="$SERIES_IDENT_NAME <$SERIES_IDENT_EMAIL>"
bad=$(git log --format='%h %an <%ae>' base..HEAD | grep -vF " $want" || true)
[ -z "$bad" ] || die "commits not authored by $want:
$bad
fix: cd $TREE && git config user.name '$SERIES_IDENT_NAME' && git config user.email '$SERIES_IDENT_EMAIL' && git rebase base -x 'git commit --amend --no-edit --reset-author'"
for c in $(git rev-list base..HEAD); do
	git log -1 --format=%B "$c" | grep -qxF "Signed-off-by: $want" ||
		die "commit $(git log -1 --format=%h "$c") lacks 'Signed-off-by: $want'"
done
out=$TOP/patches
mkdir -p "$out"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch "$out/series"
if [ "$n" = 0 ]; then
	: > "$out/series"
	info "no commits after base: exported an empty series"
	exit 0
fi
git_ident format-patch -q --no-signature --zero-commit --cover-letter \
	--subject-prefix="PATCH" -o "$out" base..HEAD >/dev/null
cover=$out/0000-cover-letter.patch
if [ -f "$TOP/patches/cover-letter.txt" ]; then
	python3 - "$cover" "$TOP/patches/cover-letter.txt" <<'PY'
import sys, re
cover, txt = sys.argv[1], open(sys.argv[2]).read().split('\n', 2)
subject, body = txt[0], txt[2] if len(txt) > 2 else ''
s = open(cover).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body.rstrip('\n'))
s = re.sub(r'^Date: .*\n', 'Date: Thu, 1 Jan 1970 00:00:00 +0000\n', s, count=1, flags=re.M)
open(cover, 'w').write(s)
PY
fi
ls "$out" | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-' > "$out/series"
info "exported $n patches to patches/ (and 0000-cover-letter.patch)"
