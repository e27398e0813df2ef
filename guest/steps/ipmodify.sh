# IPMODIFY conflicts between kprobes and a livepatch on one function
# (cmdline_proc_show), with modules/ipmodify-test: a kprobe with a
# post_handler refuses the livepatch and the log names the holder; one
# without a post_handler shares the function with it; an aggregate that
# gains a post_handler (the hole the series closes) holds the function
# like a lone kprobe with one, in both orders of loading.
T=/sys/kernel/tracing
M=/harness/modules
res() { echo "HARNESS-RESULT $1 ipmodify $2"; }
check() { if [ "$1" = 0 ]; then res PASS "$2"; else res FAIL "$2${3:+ ($3)}"; fi; }
mark() { echo "fgraph-harness-mark $1" > /dev/kmsg; }
since() { dmesg | sed -n "/fgraph-harness-mark $1\$/,\$p"; }
kp() { insmod $M/ipmodify_kprobe.ko mode=$1; }
klp_on() { insmod $M/ipmodify_klp.ko 2> /dev/null; }
# Disable the livepatch, wait for its transition, unload it.
klp_off() {
	d=/sys/kernel/livepatch/ipmodify_klp
	[ -d $d ] || return 0
	echo 0 > $d/enabled
	for i in $(seq 100); do
		[ -d $d ] || break
		sleep 0.1
	done
	rmmod ipmodify_klp
}
hits() { cat /proc/cmdline > /dev/null; cat /proc/cmdline > /dev/null; }
ipline() { grep '^cmdline_proc_show ' $T/enabled_functions; }
# held_by_kprobe WHAT MARK: the kprobes hold the I bit, and the livepatch is
# refused for that reason (-EBUSY, with the holder named since MARK)
held_by_kprobe() {
	line=$(ipline)
	echo "$line" | grep -q ' I .*ipmodify: kprobe_ftrace_handler'
	check $? "enabled_functions shows the I bit held by $1" "$line"
	if klp_on; then
		klp_off
		res FAIL "livepatch refused beside $1"
	else
		since $2 | grep -q 'cmdline_proc_show already has its IP modified by kprobe_ftrace_handler; refusing klp_ftrace_handler: -EBUSY'
		check $? "livepatch refused beside $1, the log naming the holder" "$(since $2 | grep -m1 -e refusing -e livepatch:)"
	fi
}

if [ ! -f $M/ipmodify_kprobe.ko ] || [ ! -f $M/ipmodify_klp.ko ]; then
	res SKIP "kprobe and livepatch modules (not built: no CONFIG_LIVEPATCH here)"
	exit 0
fi

# 1. kprobe with a post_handler, then the livepatch: refused, holder named.
mark post
kp post
hits
held_by_kprobe "a kprobe with a post_handler" post
rmmod ipmodify_kprobe
since post | grep -q 'hits on cmdline_proc_show: pre 2 post 2'
check $? "the kprobe with a post_handler fired on every call" "$(since post | grep hits)"

# 2. kprobe without a post_handler: the livepatch loads beside it.
mark pre
kp pre
if klp_on; then
	out=$(cat /proc/cmdline)
	line=$(ipline)
	klp_off
	[ "$out" = ipmodify_klp ]
	check $? "livepatch loads beside a kprobe without a post_handler and patches" "$out"
	echo "$line" | grep -q 'ipmodify: klp_ftrace_handler'
	check $? "enabled_functions names the livepatch as the holder" "$line"
else
	res FAIL "livepatch loads beside a kprobe without a post_handler and patches"
	res FAIL "enabled_functions names the livepatch as the holder"
fi
rmmod ipmodify_kprobe
since pre | grep -q 'hits on cmdline_proc_show: pre 1 post 0'
check $? "the kprobe without a post_handler fired beside the livepatch" "$(since pre | grep hits)"

# 3. The aggregate gains a post_handler, then the livepatch: refused.
mark aggr
kp aggr
since aggr | grep -q 'probe 2 (post_handler) on cmdline_proc_show: 0 on ftrace'
check $? "second kprobe with a post_handler joins the first" "$(since aggr | grep 'probe 2')"
held_by_kprobe "an aggregate that gained a post_handler" aggr
hits
rmmod ipmodify_kprobe
since aggr | grep -q 'hits on cmdline_proc_show: pre 4 post 2'
check $? "both probes of the aggregate fired" "$(since aggr | grep hits)"
if ipline > /dev/null; then
	res FAIL "the aggregate leaves nothing armed when it goes" "$(ipline)"
else
	res PASS "the aggregate leaves nothing armed when it goes"
fi

# 4. The livepatch first: the post_handler kprobe joining an aggregate is
# refused, and the first kprobe keeps working.
mark aggr2
if klp_on; then
	kp aggr
	since aggr2 | grep -q 'probe 2 (post_handler) on cmdline_proc_show: -16'
	check $? "a kprobe with a post_handler joining an aggregate is refused beside a livepatch" "$(since aggr2 | grep 'probe 2')"
	out=$(cat /proc/cmdline)
	rmmod ipmodify_kprobe
	klp_off
	[ "$out" = ipmodify_klp ] && since aggr2 | grep -q 'hits on cmdline_proc_show: pre 1 post 0'
	check $? "the livepatch and the first kprobe keep working" "$out; $(since aggr2 | grep hits)"
else
	res FAIL "a kprobe with a post_handler joining an aggregate is refused beside a livepatch" "livepatch did not load"
fi

if since post | grep -q -e "WARNING:" -e "Failed to disarm"; then
	res FAIL "no WARN from kprobes or ftrace" "$(since post | grep -m1 -e WARNING: -e "Failed to disarm")"
else
	res PASS "no WARN from kprobes or ftrace"
fi
