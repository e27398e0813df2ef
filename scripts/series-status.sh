#!/bin/bash
# Exit 0 when build/linux holds exactly the exported series (no extra or
# missing commits, no edited patch, no uncommitted edits); else name what
# differs and exit 1.  No tree at all is fine (nothing can be lost).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || { echo "no kernel tree (build/linux): nothing to compare"; exit 0; }
cd "$TREE" || exit 1
bad=0
dirty=$(git status --porcelain --untracked-files=no | head -20)
if [ -n "$dirty" ]; then
	echo "uncommitted edits in build/linux:"; echo "$dirty" | sed 's/^/  /'
	bad=1
fi

# New files hide easily: Debian's .gitignore ignores the whole top level.
stray=$(git ls-files --others --exclude=.git | head -20)
if [ -n "$stray" ]; then
	echo "files in build/linux that git does not track (git add -f them or remove them):"
	echo "$stray" | sed 's/^/  /'
	bad=1
fi

# Compare patch ids: the series as exported vs the tree's commits.
series=$TOP/patches/series
mapfile -t files < <([ -f "$series" ] && grep -vE '^(#|$)' "$series")
mapfile -t commits < <(git rev-list --reverse base..HEAD)
exp_ids=(); tree_ids=()
for f in "${files[@]}"; do
	exp_ids+=("$(git patch-id --stable < "$TOP/patches/$f" | cut -d' ' -f1)")
done
for c in "${commits[@]}"; do
	tree_ids+=("$(git show "$c" | git patch-id --stable | cut -d' ' -f1)")
done
# The messages too, all in one python run (one per patch took most of
# the time): the indices whose commit message differs from its patch's.
mapfile -t msg_bad < <(python3 - "$TOP/patches" "${#files[@]}" \
	"${files[@]}" "${commits[@]}" <<'PY'
import sys, email, re, subprocess
from email import policy
top, n = sys.argv[1], int(sys.argv[2])
files, commits = sys.argv[3:3 + n], sys.argv[3 + n:]
def squeeze(text):
    return '\n'.join(l for l in text.split('\n') if l != '')
for i, (f, c) in enumerate(zip(files, commits)):
    m = email.message_from_file(open(top + '/' + f), policy=policy.default)
    subj = re.sub(r'^\[PATCH[^\]]*\]\s*', '', ' '.join(m['Subject'].split()))
    body = re.split(r'^---$', m.get_payload(), maxsplit=1, flags=re.M)[0]
    want = subprocess.run(['git', 'log', '-1', '--format=%B', c],
                          capture_output=True, text=True).stdout
    if squeeze(want) != squeeze(subj + '\n' + body):
        print(i)
PY
)
declare -A msg_differs=()
for i in "${msg_bad[@]}"; do msg_differs[$i]=1; done
max=${#files[@]}; [ ${#commits[@]} -gt "$max" ] && max=${#commits[@]}
for ((i = 0; i < max; i++)); do
	f=${files[$i]:-}; c=${commits[$i]:-}
	if [ -z "$c" ]; then
		echo "patch $f is in the series but not in the tree"; bad=1
	elif [ -z "$f" ]; then
		echo "commit $(git log -1 --format='%h %s' "$c") is in the tree but not exported"; bad=1
	elif [ "${exp_ids[$i]}" != "${tree_ids[$i]}" ]; then
		echo "commit $(git log -1 --format='%h %s' "$c") differs from patches/$f"; bad=1
	elif [ -n "${msg_differs[$i]:-}" ]; then
		# Same code, another message
		echo "commit $(git log -1 --format='%h %s' "$c") has a message that differs from patches/$f"; bad=1
	fi
done
[ $bad = 0 ] && echo "series is in sync with build/linux (${#commits[@]} patches)"
exit $bad
