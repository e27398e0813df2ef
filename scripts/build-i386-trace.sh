#!/bin/bash
# build-i386-trace.sh [FLAVOUR]: compile kernel/trace for a 32-bit arch
# (i386 defconfig plus the function graph tracer, its users and the
# series' KUnit suite) with the host gcc. The series wires only x86_64 and
# arm64; this checks that the generic code it changes still builds where
# the arch takes the fallback path (function_graph_enter()) and longs are
# 32 bits. No link, no boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
flavour=${1:-patched}
src=$(src_dir "$flavour")
obj=$BUILD/obj-i386-$flavour
[ -f "$src/Makefile" ] || die "$src is missing: run 'make tree'"
command -v ccache >/dev/null || die "ccache missing: run 'make setup' (apt-get install ccache)"
mkdir -p "$obj"
KMAKE=(make -s -C "$src" O="$obj" ARCH=i386 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(( $(nproc) + 1 ))")
"${KMAKE[@]}" defconfig > "$obj/build.log" 2>&1
"$src/scripts/config" --file "$obj/.config" -e FTRACE -e FUNCTION_TRACER \
	-e FUNCTION_GRAPH_TRACER -e DYNAMIC_FTRACE -e FUNCTION_PROFILER \
	-e IRQSOFF_TRACER -e SCHED_TRACER -e KPROBES -e KPROBE_EVENTS -e KUNIT \
	-e FGRAPH_KUNIT_TEST
"${KMAKE[@]}" olddefconfig >> "$obj/build.log" 2>&1
grep -q '^CONFIG_FUNCTION_GRAPH_TRACER=y' "$obj/.config" ||
	die "i386 config has no CONFIG_FUNCTION_GRAPH_TRACER (see $obj/.config)"
if ! "${KMAKE[@]}" kernel/trace/ >> "$obj/build.log" 2>&1; then
	grep -m1 -B2 -A8 -E 'error:|Error [0-9]' "$obj/build.log" >&2 || tail -20 "$obj/build.log" >&2
	die "i386 build of kernel/trace failed ($obj/build.log)"
fi
info "i386 kernel/trace built: $(ls "$obj"/kernel/trace/*.o | wc -l) objects"
