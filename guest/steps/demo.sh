# The demo: several function-graph users at once, which the unpatched 6.1
# refuses with EBUSY: the function_graph tracer at the top level, the
# function profiler, and function_graph in two trace instances, each
# instance tracing its own function into its own buffer.
T=/sys/kernel/tracing
cd $T || exit 1
work() {
	for i in 1 2 3; do
		dd if=/proc/version of=/dev/null 2> /dev/null
		ls / > /dev/null
	done
}
echo 'vfs_read vfs_write vfs_open' > set_ftrace_filter
echo function_graph > current_tracer
echo "--- function_graph tracer on: $(cat current_tracer), filter: $(cat set_ftrace_filter | tr '\n' ' ')"
if echo 1 > function_profile_enabled 2>/tmp/err; then
	echo "--- function profiler started too (a second fgraph user at the same time)"
else
	echo "--- function profiler refused while function_graph runs: $(cat /tmp/err)"
fi
for i in a b; do mkdir -p instances/demo_$i; done
echo vfs_read > instances/demo_a/set_ftrace_filter
echo vfs_open > instances/demo_b/set_ftrace_filter
for i in a b; do
	if echo function_graph > instances/demo_$i/current_tracer 2>/tmp/err; then
		echo "--- instance demo_$i: function_graph on $(cat instances/demo_$i/set_ftrace_filter)"
	else
		echo "--- instance demo_$i: function_graph refused: $(cat /tmp/err)"
	fi
done
work
echo 0 > tracing_on
for i in a b; do echo 0 > instances/demo_$i/tracing_on; done
echo "--- top-level trace (first 15 lines)"
grep -v '^#' trace | head -15
for i in a b; do
	echo "--- instance demo_$i trace (first 8 lines)"
	grep -v '^#' instances/demo_$i/trace | head -8
done
echo "--- trace_stat/function0 (the profiler's view)"
head -8 trace_stat/function0 2>/dev/null || echo "(no profile)"
echo 0 > function_profile_enabled 2>/dev/null
for i in a b; do
	echo nop > instances/demo_$i/current_tracer
	rmdir instances/demo_$i
done
echo nop > current_tracer
echo > set_ftrace_filter
echo 1 > tracing_on
