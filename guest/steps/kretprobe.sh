# Kretprobes that never miss (modules/kretprobe-test): 200 threads asleep
# inside one kretprobed function with the default maxactive, a kretprobe
# whose data is too big for an fgraph frame (the pool path), and returns
# after the kretprobe was unregistered and registered again 100 times.
# On the series' kernel the first two ride the fgraph shadow stack
# (path=fgraph) and miss nothing; the unpatched base misses all returns
# past maxactive (see docs/kretprobe-base-run.txt), and so does the series
# booted with kretprobe_fgraph=0 (make check boots x86_64 once that way).
M=/harness/modules
res() { echo "HARNESS-RESULT $1 kretprobe $2"; }
check() { if [ "$1" = 0 ]; then res PASS "$2"; else res FAIL "$2${3:+ ($3)}"; fi; }
mark() { echo "fgraph-harness-mark $1" > /dev/kmsg; }
phase() { dmesg | sed -n "/fgraph-harness-mark kretprobe\$/,\$p" | grep -m1 "kretprobe_test: phase=$1 "; }
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

if [ ! -f $M/kretprobe_test.ko ]; then
	res SKIP "kretprobe module (not built for this kernel)"
	exit 0
fi
mark kretprobe
if ! insmod $M/kretprobe_test.ko; then
	res FAIL "load kretprobe_test.ko"
	exit 0
fi
rmmod kretprobe_test

many=$(phase many); echo "$many"
if grep -qw kretprobe_fgraph=0 /proc/cmdline; then
	# The old path, as on the base: a pool of maxactive instances
	n=$(field "$many" entries)
	[ "$(field "$many" path)" = kprobe ] && [ "$(field "$many" good)" = "$n" ] &&
		[ "$(field "$many" nmissed)" = $((200 - n)) ] && [ "$n" -lt 200 ] &&
		[ "$(field "$many" bad)" = 0 ] && ! echo "$many" | grep -q error
	check $? "kretprobe_fgraph=0: the pool path, which misses the returns past maxactive" "$many"
else
	[ "$(field "$many" path)" = fgraph ] && [ "$(field "$many" nmissed)" = 0 ] &&
		[ "$(field "$many" good)" = 200 ] && [ "$(field "$many" entries)" = 200 ] &&
		[ "$(field "$many" bad)" = 0 ] && ! echo "$many" | grep -q error
	check $? "200 threads asleep in a kretprobed function: every return, right value and data, nmissed 0" "$many"
fi

big=$(phase big); echo "$big"
[ "$(field "$big" good)" = 5 ] && [ "$(field "$big" nmissed)" = 0 ] &&
	[ "$(field "$big" bad)" = 0 ] && ! echo "$big" | grep -q error
check $? "a kretprobe with 1024 bytes of data (pool instances) sees all 5 returns" "$big"

rereg=$(phase rereg); echo "$rereg"
[ "$(field "$rereg" returns)" = 0 ] && ! echo "$rereg" | grep -q error
check $? "returns of calls entered before 100 re-registrations reach none of them" "$rereg"

# A kretprobe event: $retval in the trace, hits and no misses in
# kprobe_profile; on the fgraph path it has no kprobe in debugfs
# kprobes/list, on the old path it has one.
T=/sys/kernel/tracing
echo > $T/trace
if echo 'r:krtread vfs_read ret=$retval' > $T/kprobe_events; then
	echo 1 > $T/events/kprobes/krtread/enable
	# dd, not cat: busybox cat may use sendfile, which is not vfs_read
	for i in 1 2 3 4 5; do dd if=/proc/version of=/dev/null 2> /dev/null; done
	echo 0 > $T/events/kprobes/krtread/enable
	prof=$(grep krtread $T/kprobe_profile); echo "$prof"
	set -- $prof
	[ "${2:-0}" -ge 5 ] && [ "${3:-1}" = 0 ] && grep -q 'krtread:.* ret=0x[1-9a-f]' $T/trace
	check $? "r: event on vfs_read: \$retval traced, kprobe_profile counts hits and no misses" "$prof"
	listed=0
	grep -q '^[0-9a-f]*  *r  *vfs_read+0x0' /sys/kernel/debug/kprobes/list && listed=1
	if grep -qw kretprobe_fgraph=0 /proc/cmdline; then
		[ $listed = 1 ]
		check $? "kretprobe_fgraph=0: the r: event is a kprobe in debugfs kprobes/list" "$(cat /sys/kernel/debug/kprobes/list)"
	else
		[ $listed = 0 ]
		check $? "the r: event rides on fgraph: no kprobe in debugfs kprobes/list" "$(cat /sys/kernel/debug/kprobes/list)"
	fi
	echo > $T/kprobe_events
else
	res FAIL "r: event on vfs_read accepted"
fi
