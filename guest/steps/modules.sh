# fgraph users from modules, next to the function_graph tracer: the
# in-tree sample (samples/fgraph) and this repo's out-of-tree example
# (modules/fgraph-oot), loaded, exercised, unloaded and their reports
# checked; then a module that leaves its users registered on unload.
T=/sys/kernel/tracing
res() { echo "HARNESS-RESULT $1 modules $2"; }
# dmesg lines of one module since the mark
since() { dmesg | sed -n "/fgraph-harness-mark $1/,\$p" | grep "$2"; }
mark() { echo "fgraph-harness-mark $1" > /dev/kmsg; }
work() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		dd if=/proc/version of=/dev/null 2> /dev/null
		sh -c true
	done
}
oot=/harness/modules/fgraph_oot.ko

if [ -z "$(find /lib/modules -name fgraph-sample.ko)" ] || [ ! -f $oot ]; then
	res SKIP "sample and out-of-tree module (not built for this kernel)"
	exit 0
fi

echo 'vfs_write' > $T/set_ftrace_filter
echo function_graph > $T/current_tracer
echo > $T/trace
mark load
if modprobe fgraph-sample && insmod $oot users=2; then
	res PASS "load the sample and the out-of-tree module beside function_graph"
else
	res FAIL "load the sample and the out-of-tree module beside function_graph"
fi
work
rmmod fgraph_oot
rmmod fgraph_sample
if grep -q 'vfs_write' $T/trace; then
	res PASS "function_graph tracer traced beside the module users"
else
	res FAIL "function_graph tracer traced beside the module users"
fi
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
since load fgraph_
calls=$(since load 'fgraph_sample: calls:')
timer=$(since load 'fgraph_sample: timer:')
# calls: kernel_clone: N entries, M returns
set -- $(echo "$calls" | sed -n 's/.*: \([0-9]*\) entries, \([0-9]*\) returns.*/\1 \2/p')
if [ "${1:-0}" -ge 10 ] && [ "$1" = "${2:-x}" ]; then
	res PASS "sample counts kernel_clone entries and returns ($1/$2)"
else
	res FAIL "sample counts kernel_clone entries and returns ($calls)"
fi
# timer: do_sys_openat2: N calls, N with data, T ns
set -- $(echo "$timer" | sed -n 's/.*: \([0-9]*\) calls, \([0-9]*\) with data, \([0-9]*\) ns.*/\1 \2 \3/p')
if [ "${1:-0}" -ge 10 ] && [ "$1" = "${2:-x}" ] && [ "${3:-0}" -gt 0 ]; then
	res PASS "sample times do_sys_openat2 with per-entry data ($1 calls)"
else
	res FAIL "sample times do_sys_openat2 with per-entry data ($timer)"
fi
ok=0
for u in 0 1; do
	set -- $(since load "fgraph_oot: user $u vfs_read:" |
		sed -n 's/.*entries \([0-9]*\) returns \([0-9]*\) data-ok \([0-9]*\).*/\1 \2 \3/p')
	[ "${1:-0}" -ge 10 ] && [ "$1" = "${2:-x}" ] && [ "$2" = "${3:-y}" ] && ok=$((ok + 1))
done
if [ $ok = 2 ]; then
	res PASS "out-of-tree module: two users see every vfs_read with their data"
else
	res FAIL "out-of-tree module: two users see every vfs_read with their data"
fi

# A module that leaves its users registered: the core unregisters them.
mark leak
insmod $oot users=3 leak=1
work
rmmod fgraph_oot
work
if since leak 'left its user in slot' | grep -q fgraph_oot &&
	[ "$(since leak 'left its user in slot' | wc -l)" = 3 ]; then
	res PASS "users a module leaves registered are unregistered when it goes"
else
	res FAIL "users a module leaves registered are unregistered when it goes"
fi
# Their slots are free again: sixteen users fit once more (function_graph
# in sixteen instances; with a leaked slot the sixteenth is refused).
n=0
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	d=$T/instances/reuse$i
	mkdir $d && echo vfs_read > $d/set_ftrace_filter &&
		echo function_graph > $d/current_tracer && n=$((n + 1))
done
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	d=$T/instances/reuse$i
	[ -d $d ] || continue
	echo nop > $d/current_tracer
	rmdir $d
done
if [ $n = 16 ]; then
	res PASS "slots of the forgotten users are reusable (16 users again)"
else
	res FAIL "slots of the forgotten users are reusable ($n of 16 users)"
fi

# The functions a user traces leave with their module, and do not come
# back with it: an instance's function_graph filters ten functions of
# fgraph_bench; once the module is gone, and loaded again (often at the
# same address), fgraph's ftrace_ops traces none of them.
b=/harness/modules/fgraph_bench.ko
d=$T/instances/modgone
fn_addr() { grep ' fgraph_bench_fn_000	' /proc/kallsyms | cut -d' ' -f1; }
if insmod $b cases=none && mkdir $d &&
	echo 'fgraph_bench_fn_00*' > $d/set_ftrace_filter &&
	echo function_graph > $d/current_tracer; then
	before=$(grep -c '\[fgraph_bench\]' $T/enabled_functions)
	addr=$(fn_addr)
	rmmod fgraph_bench
	insmod $b cases=none
	after=$(grep -c '\[fgraph_bench\]' $T/enabled_functions)
	same=no
	[ "$(fn_addr)" = "$addr" ] && same=yes
	if [ "$before" = 10 ] && [ "$after" = 0 ]; then
		res PASS "a module's functions leave fgraph's filter with it (same address again: $same)"
	else
		res FAIL "a module's functions leave fgraph's filter with it ($before before, $after after reload at the same address: $same)"
	fi
else
	res FAIL "a module's functions leave fgraph's filter with it (set-up failed)"
fi
echo nop > $d/current_tracer 2>/dev/null
rmdir $d 2>/dev/null
rmmod fgraph_bench 2>/dev/null

# A quick form of the benchmark: it runs and its users see every call
# (timings are for `make bench`, not asserted here).
mark bench
if insmod $b calls=2000 rounds=1 cases=k1,k4,k16one,data4,depth,mem && rmmod fgraph_bench &&
	[ "$(since bench 'fgraph_bench: case=k' | grep -c 'ok=1')" = 3 ] &&
	since bench 'fgraph_bench: case=data4' | grep -q 'ok=1' &&
	since bench 'fgraph_bench: case=depth' | grep -q 'nested_frames='; then
	res PASS "quick benchmark runs, every user saw every call"
else
	res FAIL "quick benchmark runs, every user saw every call"
	since bench 'fgraph_bench:'
fi
exit 0
