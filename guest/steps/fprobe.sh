# Fprobe exit handlers that never miss (modules/kretprobe-test/fprobe_test.c):
# 200 threads asleep inside one function that an fprobe with an exit handler
# and the default nr_maxactive probes, and exits after the fprobe was
# unregistered and registered again 100 times. On the series' kernel the
# exits ride the fgraph shadow stack (path=fgraph) and miss nothing; the
# base's rethook misses those past nr_maxactive (see
# docs/fprobe-base-run.txt), and so does the series booted with
# fprobe_fgraph=0 (make check boots x86_64 once that way; arm64 has no
# rethook, only the fgraph path). Then a BPF kretprobe.multi program
# (bpftrace with a wildcard, which attaches through one fprobe) must count
# the same calls and return values on every path.
M=/harness/modules
res() { echo "HARNESS-RESULT $1 fprobe $2"; }
check() { if [ "$1" = 0 ]; then res PASS "$2"; else res FAIL "$2${3:+ ($3)}"; fi; }
mark() { echo "fgraph-harness-mark $1" > /dev/kmsg; }
phase() { dmesg | sed -n "/fgraph-harness-mark fprobe_test\$/,\$p" | grep -m1 "fprobe_test: phase=$1 "; }
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

want_path=fgraph
if [ "$HARNESS_FLAVOUR" = base ] ||
   { grep -qw fprobe_fgraph=0 /proc/cmdline && [ "$(uname -m)" = x86_64 ]; }; then
	want_path=rethook
fi

if [ ! -f $M/fprobe_test.ko ]; then
	res SKIP "fprobe_test module (not built for this kernel)"
elif ! grep -qw register_fprobe_ips /proc/kallsyms; then
	res SKIP "fprobe_test (no fprobe in this kernel: the base has none on $(uname -m))"
else
	mark fprobe_test
	if insmod $M/fprobe_test.ko; then
		rmmod fprobe_test
		many=$(phase many); echo "$many"
		n=$(field "$many" entries)
		if [ $want_path = rethook ]; then
			# A pool of nr_maxactive instances: the calls past it miss
			[ "$(field "$many" path)" = rethook ] && [ "$(field "$many" good)" = "$n" ] &&
				[ "$(field "$many" exits)" = "$n" ] &&
				[ "$(field "$many" nmissed)" = $((200 - n)) ] && [ "$n" -lt 200 ] &&
				[ "$(field "$many" bad)" = 0 ] && ! echo "$many" | grep -q error
			check $? "path=rethook: 200 threads asleep in a probed function, the exits past nr_maxactive missed" "$many"
		else
			[ "$(field "$many" path)" = fgraph ] && [ "$(field "$many" nmissed)" = 0 ] &&
				[ "$(field "$many" good)" = 200 ] && [ "$n" = 200 ] &&
				[ "$(field "$many" bad)" = 0 ] && ! echo "$many" | grep -q error
			check $? "path=fgraph: 200 threads asleep in a probed function: every exit, right value and entry data, nmissed 0" "$many"
		fi
		rereg=$(phase rereg); echo "$rereg"
		if echo "$rereg" | grep -q skipped; then
			res SKIP "exits after re-registrations: $rereg"
		else
			[ "$(field "$rereg" exits)" = 0 ] && [ "$(field "$rereg" path)" = $want_path ] &&
				! echo "$rereg" | grep -q error
			check $? "path=$want_path: exits of calls entered before 100 re-registrations reach none of them" "$rereg"
		fi
	else
		res FAIL "load fprobe_test.ko"
	fi
fi

if ! command -v bpftrace > /dev/null; then
	res SKIP "BPF kretprobe.multi (no bpftrace in this guest: only an initramfs built with CLIENTS=1 carries it, which make check does for the plain x86_64 and arm64 kernels)"
	exit 0
fi
export LD_LIBRARY_PATH=/lib/$(uname -m)-linux-gnu:/usr/lib/$(uname -m)-linux-gnu
if ! bpftrace --info 2>&1 | grep -q 'kprobe_multi: yes'; then
	res SKIP "BPF kretprobe.multi (this kernel has no kprobe_multi links: no fprobe)"
	exit 0
fi
# dd reads /proc/version in one read of its whole length. The wildcard
# attaches one kretprobe.multi link (one fprobe) to every vfs_rea*
# function: it must see each call of dd that the kprobe.multi link sees,
# and the read's return value.
len=$(wc -c < /proc/version)
dd_cmd="/bin/dd if=/proc/version of=/dev/null bs=4096 count=1"
bpftrace -e 'kprobe:vfs_rea* /pid == cpid/ { @[probe] = count(); }' \
	-c "$dd_cmd" > /tmp/fpt-entry.out 2>&1
erc=$?
bpftrace -e 'kretprobe:vfs_rea* /pid == cpid/ { @[probe] = count(); @r[probe, retval] = count(); }' \
	-c "$dd_cmd" > /tmp/fpt-exit.out 2>&1
xrc=$?
grep '^@' /tmp/fpt-entry.out /tmp/fpt-exit.out | sed 's/^/    /'
entries=$(grep '^@\[' /tmp/fpt-entry.out | sort)
exits=$(grep '^@\[' /tmp/fpt-exit.out | sed 's/kretprobe:/kprobe:/' | sort)
[ $erc = 0 ] && [ $xrc = 0 ] && [ -n "$entries" ] && [ "$entries" = "$exits" ] &&
	grep -qx "@r\[kretprobe:vfs_read, $len\]: 1" /tmp/fpt-exit.out
check $? "path=$want_path: a bpftrace kretprobe.multi on vfs_rea* sees each call of dd its kprobe.multi sees, and the read's return value ($len)" "exit $erc/$xrc; entries: $entries; exits: $exits"
