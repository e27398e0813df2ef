#!/usr/bin/env python3
"""Tables of the fgraph benchmark from the guest logs of scripts/bench.sh.

usage: bench-report.py [--qemu Q] [--shift N] [--config C] ARCH:FLAVOUR:MODE:LOG...

MODE is icount (instruction-counted guest time) or wall (plain TCG).
Per kernel it prints, for each case, the cost per traced call (traced minus
untraced loop, median of the rounds) in both modes, and the ratio to the
base kernel's k1 row of the same arch and mode. Then the targets of the
design, checked on the icount numbers, and the memory figures.
"""
import argparse
import re
import sys

LINE = re.compile(r'HARNESS-BENCH fgraph_bench: (case=.*)$')
KV = re.compile(r'(\w+)=(\S+)')
ORDER = ['k1', 'k1notime', 'k2', 'k4', 'k8', 'k16', 'k16one', 'data4', 'tracer',
         'kretprobe', 'fprobe']
LABEL = {
    'k1': '1 user, counting',
    'k1notime': '1 user, counting, FGRAPH_FL_NO_TIME', 'k2': '2 users, all on the function',
    'k4': '4 users, all on the function', 'k8': '8 users, all on the function',
    'k16': '16 users, all on the function',
    'k16one': '16 users, 1 on the function',
    'data4': '4 users, 4 words of data each',
    'tracer': 'function_graph tracer (ring buffer)',
    'kretprobe': 'kretprobe, entry and return handler',
    'fprobe': 'fprobe, entry and exit handler',
}


def parse(path):
    """Return ({case: fields}, kernel line) of one log."""
    cases, kernel = {}, ''
    try:
        f = open(path, errors='replace')
    except OSError:
        return cases, kernel
    with f:
        for raw in f:
            raw = raw.rstrip('\r\n')
            if raw.startswith('HARNESS-BENCH kernel='):
                kernel = raw.split(' ', 1)[1]
            m = LINE.search(raw)
            if m:
                d = dict(KV.findall(m.group(1)))
                cases[d['case']] = d
    if 'loop_plain' in cases and 'loop_tracer' in cases:
        plain = float(cases['loop_plain']['ns_per_call'])
        traced = float(cases['loop_tracer']['ns_per_call'])
        cases['tracer'] = {'case': 'tracer', 'users': '1',
                           'ns_per_call': f'{traced - plain:.1f}', 'ok': '1'}
    return cases, kernel


def ns(cases, name):
    c = cases.get(name)
    return float(c['ns_per_call']) if c else None


def fmt(v, nd=1):
    return '-' if v is None else f'{v:.{nd}f}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--qemu', default='')
    ap.add_argument('--shift', default='0')
    ap.add_argument('--config', default='')
    ap.add_argument('runs', nargs='+')
    a = ap.parse_args()
    data, kernels = {}, {}
    for r in a.runs:
        arch, flavour, mode, path = r.split(':', 3)
        data[(arch, flavour, mode)], k = parse(path)
        if k:
            kernels[(arch, flavour)] = k
    print(f'QEMU: {a.qemu}; icount: -icount shift={a.shift},sleep=off '
          f'(1 instruction = {2 ** int(a.shift)} ns of guest time); '
          f'wall: plain TCG; config: {a.config}')
    print('cost = traced minus untraced loop, per call, median of the rounds; '
          'ratio = to the base kernel\'s k1 row, same arch and mode')
    failed = False
    for arch in sorted({k[0] for k in data}):
        ref = {m: ns(data.get((arch, 'base', m), {}), 'k1') for m in ('icount', 'wall')}
        for flavour in ('base', 'patched'):
            ic = data.get((arch, flavour, 'icount'), {})
            wl = data.get((arch, flavour, 'wall'), {})
            if not ic and not wl:
                continue
            print()
            print(f'== {arch} {flavour}: {kernels.get((arch, flavour), "?")}')
            print(f'{"case":8} {"what":38} {"icount ns":>10} {"ratio":>6} '
                  f'{"wall ns":>9} {"ratio":>6}  ok')
            for name in ORDER:
                vi, vw = ns(ic, name), ns(wl, name)
                if vi is None and vw is None:
                    continue
                ri = vi / ref['icount'] if vi is not None and ref['icount'] else None
                rw = vw / ref['wall'] if vw is not None and ref['wall'] else None
                ok = all(c.get(name, {}).get('ok', '1') == '1' for c in (ic, wl))
                failed |= not ok
                print(f'{name:8} {LABEL[name]:38} {fmt(vi):>10} {fmt(ri, 2):>6} '
                      f'{fmt(vw):>9} {fmt(rw, 2):>6}  {"yes" if ok else "NO"}')
            mem = ic.get('mem') or wl.get('mem')
            if mem:
                print(f'memory: {mem["shadow_stack_bytes_per_task"]} bytes of shadow stack '
                      f'per task ({mem["frame_bytes"]}-byte frame header); '
                      f'{mem["with_stack"]} of {mem["tasks"]} tasks have one: '
                      f'{mem["total_bytes"]} bytes in all')
            depth = ic.get('depth') or wl.get('depth')
            if depth:
                print(f'depth: {depth["nested_frames"]} nested frames with 16 users '
                      f'accepting and no data (recursion {depth["recursion"]}, '
                      f'{depth["overruns"]} overruns)')
            if flavour == 'patched':
                for m, got in (('icount', ic), ('wall', wl)):
                    new = ns(got, 'kretprobe')
                    old = ns(data.get((arch, 'base', m), {}), 'kretprobe')
                    if new is not None and old:
                        print(f'kretprobe ({m}): {new:.1f} ns per call against '
                              f'{old:.1f} on the base: ratio {new / old:.2f}')
            if flavour != 'patched' or not ic:
                continue
            k1, base = ns(ic, 'k1'), ref['icount']
            base_ic = data.get((arch, 'base', 'icount'), {})
            checks = []
            k1_limit = 1.04 if arch == 'x86_64' else 1.10
            if k1 is not None and base:
                checks.append((f'k1 <= {k1_limit} x base k1', k1 / base, k1_limit))
            if k1 and ns(ic, 'k16one') is not None:
                checks.append(('k16one <= 1.10 x k1', ns(ic, 'k16one') / k1, 1.10))
            for n in (2, 4, 8, 16):
                v = ns(ic, f'k{n}')
                if k1 and v is not None:
                    checks.append((f'k{n}: each extra user <= 0.20 x k1',
                                   (v - k1) / (n - 1) / k1, 0.20))
            if ns(ic, 'tracer') is not None and ns(base_ic, 'tracer'):
                checks.append(('function_graph tracer <= 1.00 x base tracer',
                               ns(ic, 'tracer') / ns(base_ic, 'tracer'), 1.00))
            # Kretprobes on fgraph must not cost more than 6.1's (rethook on
            # x86_64, breakpoint and trampoline on arm64)
            krp_limit = 1.00 if arch == 'x86_64' else 0.80
            if ns(ic, 'kretprobe') is not None and ns(base_ic, 'kretprobe'):
                checks.append((f'kretprobe <= {krp_limit:.2f} x base kretprobe',
                               ns(ic, 'kretprobe') / ns(base_ic, 'kretprobe'),
                               krp_limit))
            # Fprobes on fgraph must not cost more than 6.1's: rethook on
            # x86_64; arm64's 6.1 has no fprobe, and its entry and return
            # handlers are a kretprobe's (breakpoint and trampoline)
            fp_ref = 'fprobe' if arch == 'x86_64' else 'kretprobe'
            if ns(ic, 'fprobe') is not None and ns(base_ic, fp_ref):
                checks.append((f'fprobe <= 1.00 x base {fp_ref}',
                               ns(ic, 'fprobe') / ns(base_ic, fp_ref), 1.00))
            reg, breg = ic.get('reg1000'), base_ic.get('reg1000')
            if reg and breg and int(breg['register_ns']):
                r = int(reg['register_ns']) / int(breg['register_ns'])
                print(f'registration, 1000-function filter (icount): 16th fgraph user '
                      f'{int(reg["register_ns"]) / 1e6:.2f} ms, 6.1 ftrace_ops '
                      f'{int(breg["register_ns"]) / 1e6:.2f} ms (unregistration '
                      f'{int(reg["unregister_ns"]) / 1e6:.2f} ms against '
                      f'{int(breg["unregister_ns"]) / 1e6:.2f} ms)')
                checks.append(('16th user, 1000 functions <= 2 x 6.1 ops', r, 2.0))
            print('targets (icount):')
            for what, got, limit in checks:
                if isinstance(limit, bool):
                    met = got
                    print(f'  {what:46} {"met" if met else "MISSED"}')
                else:
                    met = got <= limit
                    print(f'  {what:46} {got:6.2f}  {"met" if met else "MISSED"}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
