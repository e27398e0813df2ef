# The demo: several function-graph users at once (the function_graph tracer
# and the function profiler), which the unpatched 6.1 refuses with EBUSY.
T=/sys/kernel/tracing
cd $T || exit 1
echo 'vfs_read vfs_write vfs_open' > set_ftrace_filter
echo function_graph > current_tracer
echo "--- function_graph tracer on: $(cat current_tracer), filter: $(cat set_ftrace_filter | tr '\n' ' ')"
if echo 1 > function_profile_enabled 2>/tmp/err; then
	echo "--- function profiler started too (a second fgraph user at the same time)"
else
	echo "--- function profiler refused while function_graph runs: $(cat /tmp/err)"
fi
for i in 1 2 3; do cat /proc/version > /dev/null; ls / > /dev/null; done
echo 0 > tracing_on
echo "--- trace (first 25 lines)"
grep -v '^#' trace | head -25
echo "--- trace_stat/function0 (the profiler's view)"
head -8 trace_stat/function0 2>/dev/null || echo "(no profile)"
echo 0 > function_profile_enabled 2>/dev/null
echo nop > current_tracer
echo > set_ftrace_filter
echo 1 > tracing_on
