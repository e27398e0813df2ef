# The steps of make check and make check-kcsan: build a kernel, boot it,
# turn its log into results.  Sourced after lib.sh by a script that sets
# out (the results folder), flavour, t0 (its start) and the array results.
# shellcheck shell=bash

stamp() { info "check: $* at $(( $(date +%s) - t0 ))s"; }

# build ARCH LABEL: kernel, modules and initramfs of $VARIANT (if set);
# the result goes to $out/LABEL-build.jsonl (results_of LABEL-build lists
# it).  Status 1 when it failed.
build() {
	local arch=$1 label=$2 res=$out/$2-build.jsonl
	if ! "$TOP/scripts/build.sh" "$arch" "$flavour" 2> >(tee "$out/$label-build.err" >&2) ||
	   ! "$TOP/scripts/build-modules.sh" "$arch" "$flavour" 2>> "$out/$label-build.err" ||
	   ! "$TOP/scripts/mkinitramfs.sh" "$arch" "$flavour" 2>> "$out/$label-build.err"; then
		printf '{"name": "%s build", "status": "fail", "detail": "%s"}\n' "$label" \
			"$(grep -m1 -E 'error|fail|missing' "$out/$label-build.err" | tr -d '"\\' | head -c 300)" > "$res.tmp"
		mv "$res.tmp" "$res"
		return 1
	fi
	# Whole when it appears: the other lane waits for this file
	echo "{\"name\": \"$label build\", \"status\": \"pass\", \"detail\": \"\"}" > "$res.tmp"
	mv "$res.tmp" "$res"
	stamp "$label built"
}

# boot ARCH LABEL STEPS CASES TIMEOUT [parse-log options]: one boot of the
# kernel of $VARIANT, its results in $out/LABEL.jsonl
boot() {
	local arch=$1 label=$2 steps=$3 cases=$4 timeout=$5; shift 5
	local log=$out/$label-boot.log
	TIMEOUT=$timeout "$TOP/scripts/boot.sh" "$arch" "$flavour" "$steps" "$cases" "$log" || true
	if ! python3 "$TOP/scripts/parse-log.py" "$log" "$label" "$@" > "$out/$label.jsonl"; then
		printf '{"name": "%s boot", "status": "fail", "detail": "no log to read (%s)"}\n' \
			"$label" "$log" > "$out/$label.jsonl"
	fi
	stamp "$label booted"
}
# niced CMD...: run CMD at a lower priority than the guest being booted
niced() { renice -n 10 -p "$BASHPID" > /dev/null; "$@"; }
results_of() { for l in "$@"; do results+=("$out/$l.jsonl"); done; }

