# Run the patched tree's kselftest ftrace suite (or the cases named by
# harness.ftrace=a,b,c relative to test.d/: files, directories or globs
# such as ftrace/fgraph-*.tc).
cd /ftrace || exit 1
cases=
if [ "$HARNESS_FTRACE" != all ]; then
	for c in $(echo "$HARNESS_FTRACE" | tr ',' ' '); do
		found=
		for f in test.d/$c; do
			[ -e "$f" ] && cases="$cases $f" && found=1
		done
		# A case the series adds is not in the base's tree
		[ -n "$found" ] || echo "HARNESS-RESULT SKIP ftrace $c (not in this tree)"
	done
	[ -n "$cases" ] || exit 0
fi
# Not a tty: no colour codes.  -v prints the log of every case that fails.
./ftracetest -v -l /tmp/ftracelogs $cases 2>&1 | cat
