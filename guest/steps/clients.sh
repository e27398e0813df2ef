# The tracing clients people use, on this kernel: trace-cmd, perf and
# bpftrace from Debian 12 (packed by scripts/mkclients.sh, x86_64 only).
# Two functions that only this step calls: ksys_sync (the sync command)
# and __x64_sys_newuname (uname).  Each client check stops tracing before
# it reads the trace, so the reader's own calls cannot feed the trace.
# What the unpatched base refuses (function_graph in an instance) is
# reported as skipped with the reason; on the series' kernel it fails.
T=/sys/kernel/tracing
F1=ksys_sync
F2=__x64_sys_newuname
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
cd /tmp || exit 1
res() { echo "HARNESS-RESULT $1 clients $2"; }
check() { if [ "$1" = 0 ]; then res PASS "$2"; else res FAIL "$2${3:+ ($3)}"; fi; }
# refused WHAT: the base cannot run function_graph in an instance
refused() {
	if [ "$HARNESS_FLAVOUR" = base ]; then
		res SKIP "$1 (the base refuses function_graph in an instance: $2)"
	else
		res FAIL "$1 (function_graph refused in an instance: $2)"
	fi
}
calls() { sync; uname > /dev/null; sync; uname > /dev/null; }
# has FILE FUNC: FUNC appears in a function_graph trace in FILE (as a
# leaf "FUNC();" or an entry "FUNC() {")
has() { grep -q "[ |]$2()" "$1"; }
# graphed FILE FUNC: how many calls of FUNC a function_graph trace holds
graphed() { grep -c -e "[ |]$2();" -e "[ |]$2() {" "$1"; }
# clean WHAT: after a client, nothing stays hooked and no instance is left
clean() {
	left=$(cat $T/enabled_functions; ls $T/instances)
	[ -z "$left" ]
	check $? "$1 leaves enabled_functions empty and no instance behind" "$(echo "$left" | head -5 | tr '\n' ' ')"
}
reset_all() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/set_graph_function
	for d in $T/instances/*; do [ -d "$d" ] && rmdir "$d"; done
	echo 1 > $T/tracing_on
	echo > $T/trace
}
run() {
	# Print what a client said, indented, so the log shows it
	"$@" > /tmp/client.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/client.out | head -${SHOW:-15}
	return $rc
}

# trace-cmd --version exits 255 after printing its version: read the words
for c in trace-cmd perf bpftrace; do
	v=$("$c" --version 2>&1 | grep -m1 -E "^$c (version )?v?[0-9]")
	if [ -z "$v" ]; then
		res FAIL "$c runs in the guest ($("$c" --version 2>&1 | head -1))"
		exit 0
	fi
	echo "    $v"
done
for f in $F1 $F2; do
	grep -q "^$f\$" $T/available_filter_functions ||
		{ res FAIL "$f is traceable"; exit 0; }
done
reset_all

# 1. trace-cmd start at the top level and in an instance, at once
echo "== trace-cmd start -p function_graph -l $F1; trace-cmd start -B tc -p function_graph -l $F2"
run trace-cmd start -p function_graph -l $F1
run trace-cmd start -B tc -p function_graph -l $F2
if [ "$(cat $T/instances/tc/current_tracer 2>/dev/null)" != function_graph ]; then
	refused "trace-cmd start: function_graph at the top level and in instance tc at once" \
		"instances/tc/current_tracer is $(cat $T/instances/tc/current_tracer 2>&1)"
else
	[ "$(cat $T/current_tracer)" = function_graph ]
	check $? "trace-cmd start -B does not reset the top level's function_graph" "$(cat $T/current_tracer)"
	calls
	run trace-cmd stop
	run trace-cmd stop -B tc
	trace-cmd show > top.txt 2>&1
	trace-cmd show -B tc > tc.txt 2>&1
	sed 's/^/    top: /' top.txt | grep -v '^    top: #' | head -8
	sed 's/^/    tc: /' tc.txt | grep -v '^    tc: #' | head -8
	has top.txt $F1 && ! has top.txt $F2
	check $? "trace-cmd show holds $F1 and not $F2" "$(grep -c . top.txt) lines"
	has tc.txt $F2 && ! has tc.txt $F1
	check $? "trace-cmd show -B tc holds $F2 and not $F1" "$(grep -c . tc.txt) lines"
fi
run trace-cmd reset
run trace-cmd reset -B tc -d
clean "trace-cmd start/reset"
reset_all

# 2. trace-cmd record with two instances, each its own function
echo "== trace-cmd record -B ra -p function_graph -l $F1 -B rb -p function_graph -l $F2 -- calls"
printf 'sync; uname; sync; uname\n' > calls.sh
SHOW=30 run trace-cmd record -o rec.dat -B ra -p function_graph -l $F1 \
	-B rb -p function_graph -l $F2 sh /tmp/calls.sh
rc=$?
trace-cmd report -i rec.dat > rec.txt 2>&1
sed 's/^/    report: /' rec.txt | grep -v -e '^    report: *#' -e 'version = ' | head -12
if [ $rc != 0 ] && grep -q -i -e 'function_graph' -e 'invalid' -e 'failed' /tmp/client.out &&
   [ "$HARNESS_FLAVOUR" = base ]; then
	refused "trace-cmd record with two function_graph instances" "record exit $rc"
	# trace-cmd exits on the refusal without removing the instances it made
	res SKIP "trace-cmd record leaves enabled_functions empty and no instance behind (trace-cmd record exited $rc on the refusal, leaving: $(ls $T/instances | tr '\n' ' '))"
else
	# report prefixes each event with its buffer's name
	grep -q "^ *ra: .*[ |]$F1()" rec.txt && grep -q "^ *rb: .*[ |]$F2()" rec.txt &&
		! grep -q "^ *ra: .*[ |]$F2()" rec.txt && ! grep -q "^ *rb: .*[ |]$F1()" rec.txt
	check $? "trace-cmd report shows $F1 in instance ra only and $F2 in rb only" "record exit $rc, $(grep -c . rec.txt) lines"
	clean "trace-cmd record"
fi
reset_all

# 3. perf ftrace -G at the top level while an instance graphs another function
echo "== perf ftrace --inherit -G $F1 -- calls, instance pf graphing $F2"
mkdir $T/instances/pf
echo $F2 > $T/instances/pf/set_ftrace_filter
if ! echo function_graph > $T/instances/pf/current_tracer 2> /dev/null ||
   [ "$(cat $T/instances/pf/current_tracer)" != function_graph ]; then
	refused "perf ftrace beside function_graph in an instance" \
		"instances/pf/current_tracer is $(cat $T/instances/pf/current_tracer)"
else
	SHOW=12 run perf ftrace --inherit -G $F1 -- sh /tmp/calls.sh
	prc=$?
	cp /tmp/client.out perf.txt
	echo 0 > $T/instances/pf/tracing_on
	cat $T/instances/pf/trace > pf.txt
	sed 's/^/    pf: /' pf.txt | grep -v '^    pf: #' | head -6
	[ $prc = 0 ] && grep -q "[ |]$F1() {" perf.txt
	check $? "perf ftrace -G $F1 shows $F1's graph" "exit $prc, $(grep -c . perf.txt) lines"
	has pf.txt $F2 && ! has pf.txt $F1
	check $? "instance pf beside perf ftrace holds $F2 and not $F1" "$(grep -c . pf.txt) lines"
	echo nop > $T/instances/pf/current_tracer
fi
echo > $T/instances/pf/set_ftrace_filter
rmdir $T/instances/pf
clean "perf ftrace"
reset_all

# 4. bpftrace kprobe and kretprobe on the function the function_graph
# tracer traces: both see every call
echo "== bpftrace kprobe:$F1 / kretprobe:$F1 beside function_graph on $F1"
echo $F1 > $T/set_ftrace_filter
echo function_graph > $T/current_tracer
printf 'for i in 1 2 3 4 5 6 7; do sync; done\n' > sync7.sh
SHOW=20 run bpftrace -e "kprobe:$F1 { @entries = count(); } kretprobe:$F1 { @returns = count(); }" \
	-c '/bin/sh /tmp/sync7.sh'
brc=$?
cp /tmp/client.out bpf.txt
echo 0 > $T/tracing_on
n=$(graphed $T/trace $F1)
e=$(sed -n 's/^@entries: //p' bpf.txt)
r=$(sed -n 's/^@returns: //p' bpf.txt)
[ $brc = 0 ] && [ "$e" = 7 ] && [ "$r" = 7 ]
check $? "bpftrace kprobe and kretprobe on $F1 beside function_graph count 7 calls each" \
	"exit $brc, entries=$e returns=$r"
[ "$n" = 7 ]
check $? "the function_graph trace of $F1 beside bpftrace holds all 7 calls" "$n"
# What this step set up itself, then what bpftrace may have left
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
clean "bpftrace"
reset_all
