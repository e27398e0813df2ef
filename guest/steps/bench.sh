# The benchmark (modules/fgraph-bench): per-call cost of fgraph users,
# then the function_graph tracer's. harness.bench_calls= and
# harness.bench_rounds= on the kernel command line size it,
# harness.bench_cases= picks the module's cases (default: all); the host
# (scripts/bench.sh) reads the "fgraph_bench: case=..." lines.
T=/sys/kernel/tracing
ko=/harness/modules/fgraph_bench.ko
calls=1000000; rounds=5
cases=k1,k1notime,k2,k4,k8,k16,k16one,data4,kretprobe,fprobe,depth,mem,reg1000,loop_plain
for w in $(cat /proc/cmdline); do
	case "$w" in
	harness.bench_calls=*) calls=${w#harness.bench_calls=};;
	harness.bench_rounds=*) rounds=${w#harness.bench_rounds=};;
	harness.bench_cases=*) cases=${w#harness.bench_cases=};;
	esac
done
res() { echo "HARNESS-RESULT $1 bench $2"; }
[ -f $ko ] || { res FAIL "module not built"; exit 1; }
echo "HARNESS-BENCH kernel=$(uname -r) calls=$calls rounds=$rounds"
# All cases that exist for this kernel (the base knows k1, kretprobe and
# fprobe only, and arm64's base no fprobe)
if insmod $ko calls=$calls rounds=$rounds cases=$cases; then
	res PASS "cases ran"
else
	res FAIL "cases ran"
fi
P=/sys/module/fgraph_bench/parameters/run
echo fgraph_bench_target > $T/set_ftrace_filter
echo function_graph > $T/current_tracer
echo loop_tracer > $P
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo loop_plain > $P
rmmod fgraph_bench
if dmesg | grep 'fgraph_bench: case=' | grep -q 'ok=0'; then
	res FAIL "every user saw every call"
else
	res PASS "every user saw every call"
fi
dmesg | grep 'fgraph_bench: ' | sed 's/^\[[ 0-9.]*\] //; s/^/HARNESS-BENCH /'
exit 0
