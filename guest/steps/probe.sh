# Debug step: a few tracefs operations, each announced, to find a hang.
cd /sys/kernel/tracing || exit 1
for c in "cat available_tracers" "echo function > current_tracer" "echo nop > current_tracer" \
	 "echo function_graph > current_tracer" "head -5 trace" "echo nop > current_tracer" \
	 "cat /ftrace/test.d/00basic/basic1.tc | head -3"; do
	echo "probe: $c"; sh -c "$c"; echo "probe: rc=$?"
done
cd /ftrace && ./ftracetest -vvv test.d/00basic/basic1.tc 2>&1 | head -40
