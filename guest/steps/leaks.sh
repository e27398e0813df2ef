# Clean shutdown (issue #4): start and stop graph users again and again
# while the system is busy (function_graph at the top level and in trace
# instances with their own set_graph_function, set_graph_notrace,
# max_graph_depth and options, the function profiler, irqsoff with
# display-graph in an instance, instances removed each round), then ask
# kmemleak for objects that nothing references any more and that the
# tracing code allocated. Needs CONFIG_DEBUG_KMEMLEAK and kmemleak=on on
# the command line (make check boots x86_64 once that way). The samples'
# kmemleak-test module, which leaks on purpose, shows that the detector
# works in this guest.
T=/sys/kernel/tracing
K=/sys/kernel/debug/kmemleak
ROUNDS=${ROUNDS:-8}
res() { echo "HARNESS-RESULT $1 leaks $2"; }

if [ ! -w $K ]; then
	res FAIL "kmemleak (no $K: needs CONFIG_DEBUG_KMEMLEAK and kmemleak=on)"
	exit 0
fi
# What boot left behind is not ours to judge
echo scan > $K
echo clear > $K

( while :; do dd if=/proc/version of=/dev/null 2> /dev/null; ls / > /dev/null; done ) &
busy=$!
cd $T
fail=
for r in $(seq $ROUNDS); do
	for i in lk_a lk_b lk_c; do mkdir instances/$i || fail="mkdir $i"; done
	echo vfs_read > instances/lk_a/set_graph_function
	echo seq_read_iter > instances/lk_a/set_graph_notrace
	echo 3 > instances/lk_a/max_graph_depth
	echo 1 > instances/lk_a/options/funcgraph-proc
	echo 0 > instances/lk_a/options/sleep-time
	echo vfs_write > instances/lk_b/set_ftrace_filter
	echo 1 > instances/lk_c/options/display-graph
	echo '*spin_unlock_irq*' > instances/lk_c/set_ftrace_filter
	echo vfs_read > set_ftrace_filter
	case $((r % 2)) in
	0) order="lk_a lk_b top prof lk_c";;
	*) order="lk_c prof top lk_b lk_a";;
	esac
	for w in $order; do
		case $w in
		top) echo function_graph > current_tracer;;
		prof) echo 1 > function_profile_enabled;;
		lk_c) echo irqsoff > instances/lk_c/current_tracer;;
		*) echo function_graph > instances/$w/current_tracer;;
		esac || fail="round $r: start $w"
	done
	sleep 1
	# Half the rounds remove the instances with their tracers running
	if [ $((r % 2)) = 0 ]; then
		for i in lk_a lk_b; do rmdir instances/$i || fail="rmdir busy $i"; done
	fi
	echo 0 > function_profile_enabled
	echo nop > current_tracer
	for i in lk_a lk_b lk_c; do
		[ -d instances/$i ] || continue
		echo nop > instances/$i/current_tracer
		rmdir instances/$i || fail="rmdir $i"
	done
done
kill $busy
wait $busy 2> /dev/null
echo > set_ftrace_filter
if [ -n "$fail" ]; then
	res FAIL "graph users start and stop $ROUNDS rounds ($fail)"
else
	res PASS "graph users start and stop $ROUNDS rounds"
fi
n=$(grep -c . enabled_functions)
if [ "$n" = 0 ]; then
	res PASS "no function left hooked"
else
	res FAIL "no function left hooked ($n: $(head -2 enabled_functions | tr '\n' ' '))"
fi

# The positive control, then objects must be 5 s old to be reported
ctl=$(find /lib/modules -name kmemleak-test.ko | head -1)
[ -n "$ctl" ] && insmod $ctl && rmmod kmemleak_test
sleep 6
echo scan > $K
sleep 1
echo scan > $K
# One line per suspect: its backtrace joined
awk '/^unreferenced object/ { if (s) print s; s = "" } { s = s " " $0 } END { if (s) print s }' $K > /tmp/leaks
# The control's objects come from insmod (its init text, freed by now,
# leaves bare addresses); ours have a function of the tracing code in
# their backtrace (kmalloc_trace is the allocator, not tracing)
ctl_leaks=$(grep -c 'comm "insmod"' /tmp/leaks)
ours=$(grep -v 'comm "insmod"' /tmp/leaks |
	grep -E '\] (__)?(ftrace|fgraph|trace|tracing|tracer|tracefs|register_ftrace|unregister_ftrace|graph|func_graph|profile|irqsoff|wakeup|instance|event_trace|kprobe)[a-z0-9_.]*\+')
all=$(grep -c . /tmp/leaks)
if [ -z "$ctl" ]; then
	res SKIP "kmemleak sees a deliberate leak (no kmemleak-test.ko)"
elif [ "$ctl_leaks" -gt 0 ]; then
	echo "kmemleak-test: $ctl_leaks objects reported"
	res PASS "kmemleak sees a deliberate leak"
else
	res FAIL "kmemleak sees a deliberate leak (kmemleak-test's leaks not reported)"
fi
echo "kmemleak: $all suspects in all, $ctl_leaks of them kmemleak-test's"
grep -v 'comm "insmod"' /tmp/leaks | head -3 | sed 's/unreferenced object/suspect/'
if [ -z "$ours" ]; then
	res PASS "no leak from tracing"
else
	# (not as kmemleak writes it, which the log parser reads as a crash)
	echo "$ours" | head -5 | sed 's/unreferenced object/suspect/'

	res FAIL "no leak from tracing ($(echo "$ours" | grep -c .) suspects, first above)"
fi
