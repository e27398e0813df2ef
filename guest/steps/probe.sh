# Debug step: switch every tracer in turn (as 00basic/basic2.tc does),
# announcing each with the time it took, to find the one that stalls.
cd /sys/kernel/tracing || exit 1
echo "probe: tracers: $(cat available_tracers)"
for t in $(cat available_tracers) nop; do
	s=$(cut -d' ' -f1 /proc/uptime)
	echo "probe: -> $t"
	echo $t > current_tracer
	echo "probe: $t set rc=$? after $s .. $(cut -d' ' -f1 /proc/uptime)"
done
