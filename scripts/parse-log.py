#!/usr/bin/env python3
"""Turn one guest serial log into test results.

usage: parse-log.py LOG LABEL [--expect-kunit] [--expect-ftrace]
                   [--kcsan-scope FUNCTIONS]

Prints one JSON object per line: {"name", "status" (pass/fail/skip),
"detail"}.  LABEL (for example "x86_64") prefixes every name.  Results:
  LABEL boot                 the guest reached HARNESS-DONE
  LABEL kernel log clean     no panic, oops, BUG, WARN, hung task, nor any
                             lockdep, KASAN, KCSAN, UBSAN, RCU, list or
                             might-sleep report (the first one is shown)
  LABEL kunit SUITE.CASE     each KUnit case (KTAP/TAP from the boot log)
  LABEL ftrace DESC          each ftracetest case
  LABEL STEP NAME            "HARNESS-RESULT PASS|FAIL|SKIP NAME" lines that
                             guest steps print
  LABEL KCSAN reports outside the series' code
                             with --kcsan-scope FUNCTIONS (a file, one
                             function name a line: those defined in the
                             files the series changes and in the test
                             modules), a KCSAN report neither of whose
                             racing functions (the two its title names) is
                             one of them does not fail the log; they are
                             listed here as a skip
"""
import json
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
KTAP_RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(#\s*(SKIP|TODO)\b.*)?$')
KTAP_PLAN = re.compile(r'^(\s*)1\.\.(\d+)\s*$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
FTRACE = re.compile(r'^\[(\d+)\](.*)\t\[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\]\s*$')
RESULT = re.compile(r'^HARNESS-RESULT (PASS|FAIL|SKIP) (.*)$')
STEP_END = re.compile(r'^HARNESS-STEP-END (\S+) rc=(\d+)')
CRASH = re.compile(
    r'Kernel panic|\bOops\b|^\s*WARNING: |\bBUG: |kernel BUG at|'
    r'possible (recursive|circular) locking|inconsistent lock state|'
    r'INFO: task .* blocked|rcu: INFO: .* stall|soft lockup|hard LOCKUP|'
    r'UBSAN:|general protection fault|Unable to handle kernel|'
    r'list_(add|del) corruption|ODEBUG: |'
    r'unreferenced object 0x|Call Trace:|Call trace:')
# Lines of a report shown after its headline (a lockdep chain or a KASAN
# access with its stack).
REPORT_LINES = 24
FTRACE_STATUS = {'PASS': 'pass', 'XFAIL': 'pass', 'FAIL': 'fail',
                 'UNRESOLVED': 'fail', 'UNDEFINED': 'fail',
                 'UNTESTED': 'skip', 'UNSUPPORTED': 'skip'}


def strip(line):
    return TS.sub('', line.rstrip('\n'))


def report_detail(raw, crashes, context=REPORT_LINES):
    """The headlines of every report and the first report as the log has
    it: its headline and the lines after it (lockdep's chain, KASAN's
    access and stack), so that a failure shows what the kernel said."""
    if not crashes:
        return ''
    first = raw.index(crashes[0])
    body = []
    for l in raw[first + 1:first + 1 + context]:
        # The report ends where the next one (or the harness) begins
        if l.startswith(('=====', 'HARNESS-')) or (CRASH.search(l) and 'Call ' not in l):
            break
        if l.strip():
            body.append(l)
    return ('; '.join(crashes[:5]) + (f' (+{len(crashes) - 5} more)' if len(crashes) > 5 else '') +
            ' || first report: ' + ' | '.join([crashes[0]] + body))


def parse_kunit(lines):
    """Return (results, problems) of the boot-time KUnit run.

    Level 0 results are suites, level 1 their cases (parameterised cases
    are folded into their case)."""
    results, problems = [], []
    suites = {}        # indent -> subtest name
    plan0 = None
    suites_seen = 0
    cases_in_suite = 0
    for line in lines:
        m = SUBTEST.match(line)
        if m:
            suites[len(m.group(1)) // 4] = m.group(2).strip()
            continue
        m = KTAP_PLAN.match(line)
        if m and len(m.group(1)) == 0 and plan0 is None:
            plan0 = int(m.group(2))
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        level = len(m.group(1)) // 4
        ok = m.group(2) == 'ok'
        name = m.group(4).strip()
        skip = m.group(6) == 'SKIP'
        status = 'skip' if skip else ('pass' if ok else 'fail')
        if level == 1:
            results.append((f'{suites.get(1, "?")}.{name}', status, ''))
            cases_in_suite += 1
        elif level == 0:
            suites_seen += 1
            if cases_in_suite == 0:
                results.append((f'{name}', status, 'suite result'))
            elif not ok and not skip and not any(
                    r[0].startswith(name + '.') and r[1] == 'fail' for r in results):
                results.append((f'{name}', 'fail', 'suite failed'))
            cases_in_suite = 0
    if plan0 is not None and suites_seen < plan0:
        problems.append(f'KTAP plan says {plan0} suites, {suites_seen} reported (crash or hang?)')
    return results, problems


KCSAN_TITLE = re.compile(r'BUG: KCSAN: [\w-]+(?: [\w-]+)* in (.*)$')


def kcsan_outside(raw, scope):
    """The titles of the KCSAN reports in @raw whose racing functions are
    all outside @scope (a set of function names)."""
    inside, outside = set(), set()
    for l in raw:
        m = KCSAN_TITLE.search(l)
        if not m:
            continue
        funcs = {f.strip().split('+')[0].split('.')[0] for f in m.group(1).split('/')}
        (inside if funcs & scope else outside).add(l)
    # The same title can stand for an in-scope race elsewhere in the log
    return outside - inside


def parse(path, label, expect_kunit=False, expect_ftrace=False, kcsan_scope=None):
    with open(path, errors='replace') as f:
        raw = [strip(l) for l in f]
    out = []

    def add(name, status, detail=''):
        out.append({'name': f'{label} {name}', 'status': status, 'detail': detail})

    done = any(l.startswith('HARNESS-DONE') for l in raw)
    booted = any(l.startswith('HARNESS-BOOTED') for l in raw)
    add('boot', 'pass' if done else 'fail',
        '' if done else ('guest did not finish' if booted else 'guest never reached init'))

    # KCSAN reports of races the series' code takes no part in
    outside = kcsan_outside(raw, kcsan_scope) if kcsan_scope is not None else set()
    if outside:
        add("KCSAN reports outside the series' code", 'skip',
            f'{len(outside)} kind(s), not failing the run: ' + '; '.join(sorted(outside)))

    # Crash patterns anywhere (the dmesg dump repeats the console: dedupe).
    crashes = []
    for l in raw:
        if CRASH.search(l) and l not in crashes and l not in outside:
            crashes.append(l)
    add('kernel log clean', 'fail' if crashes else 'pass', report_detail(raw, crashes))

    # KUnit: the part of the log before init started.
    head = []
    for l in raw:
        if l.startswith('HARNESS-BOOTED'):
            break
        head.append(l)
    kres, kprob = parse_kunit(head)
    for name, status, detail in kres:
        add(f'kunit {name}', status, detail)
    for p in kprob:
        add('kunit complete', 'fail', p)
    if expect_kunit and not kres:
        add('kunit ran', 'fail', 'no KUnit results in the boot log')

    # Guest steps: outside the dmesg dump.
    body, in_dmesg = [], False
    for l in raw:
        if l.startswith('HARNESS-DMESG-BEGIN'):
            in_dmesg = True
        elif l.startswith('HARNESS-DMESG-END'):
            in_dmesg = False
        elif not in_dmesg:
            body.append(l)
    seen = {}
    nftrace = 0
    for l in body:
        m = FTRACE.match(l)
        if m:
            desc = ' '.join(m.group(2).split())
            seen[desc] = seen.get(desc, 0) + 1
            if seen[desc] > 1:
                desc += f' #{seen[desc]}'
            add(f'ftrace {desc}', FTRACE_STATUS[m.group(3)], m.group(3))
            nftrace += 1
            continue
        m = RESULT.match(l)
        if m:
            add(m.group(2).strip(), {'PASS': 'pass', 'FAIL': 'fail', 'SKIP': 'skip'}[m.group(1)])
            continue
        m = STEP_END.match(l)
        if m and m.group(1) not in ('ftracetest', 'none') and m.group(2) != '0':
            add(f'step {m.group(1)}', 'fail', f'exit status {m.group(2)}')
    if expect_ftrace and nftrace == 0:
        add('ftracetest ran', 'fail', 'no ftracetest results in the log')
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    scope = None
    if '--kcsan-scope' in argv:
        with open(argv[argv.index('--kcsan-scope') + 1]) as f:
            scope = {l.strip() for l in f if l.strip()}
        if not scope:
            print('parse-log.py: --kcsan-scope names no function: every report would pass',
                  file=sys.stderr)
            return 2
    res = parse(argv[1], argv[2], '--expect-kunit' in argv, '--expect-ftrace' in argv, scope)
    for r in res:
        print(json.dumps(r))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
