#!/usr/bin/env python3
"""Self-tests of the harness: the parts that need no boot.

Prints one JSON result per line (the format scripts/report.py reads), or a
readable list with --verbose.  Exit status 1 when any test failed.
"""
import re
import json
import os
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, 'data')
sys.path.insert(0, os.path.join(TOP, 'scripts'))

import importlib.util


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOP, 'scripts', file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


parse_log = load('parse_log', 'parse-log.py')
check_config = load('check_config', 'check-config.py')
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def results(log, **kw):
    return {r['name']: (r['status'], r['detail'])
            for r in parse_log.parse(os.path.join(DATA, log), 'x', **kw)}


@test
def kunit_cases_and_suites():
    r = results('kunit-ok.log')
    assert r['x kunit fgraph_demo.two_users'][0] == 'pass'
    assert r['x kunit fgraph_demo.data_sizes'][0] == 'pass'
    assert 'x kunit fgraph_demo.1 word' not in r, 'parameters fold into their case'
    assert r['x kunit other.skipped_case'][0] == 'skip'
    assert r['x kunit other.broken_case'][0] == 'fail'
    assert 'x kunit other' not in r, 'a failed suite with a failed case is reported once'
    assert 'x kunit complete' not in r


@test
def kunit_only_from_boot_not_dmesg_dump():
    r = parse_log.parse(os.path.join(DATA, 'kunit-ok.log'), 'x')
    n = [x for x in r if x['name'] == 'x kunit fgraph_demo.two_users']
    assert len(n) == 1, n


@test
def ftracetest_statuses():
    r = results('kunit-ok.log')
    assert r['x ftrace Basic trace file check'][0] == 'pass'
    assert r['x ftrace Basic trace file check #2'][0] == 'pass', 'duplicates get a number'
    assert r['x ftrace Basic test for tracers'][0] == 'fail', 'the dmesg dump does not count'
    assert r['x ftrace Kprobe dynamic event - adding and removing'][0] == 'skip'
    assert r['x ftrace (instance) Basic trace file check'][0] == 'fail', 'UNRESOLVED fails'
    assert r['x module sample loads'][0] == 'pass'
    assert r['x boot'][0] == 'pass'
    assert r['x kernel log clean'][0] == 'pass'


@test
def crash_and_incomplete_run_fail():
    r = results('crash.log', expect_ftrace=True, expect_kunit=True)
    assert r['x boot'][0] == 'fail'
    assert r['x kernel log clean'][0] == 'fail'
    assert 'WARNING: CPU: 1' in r['x kernel log clean'][1]
    assert r['x kunit complete'][0] == 'fail', 'plan says 3 suites'
    assert r['x ftracetest ran'][0] == 'fail'


@test
def debug_kernel_reports_fail_and_are_shown():
    """A KASAN and a lockdep report fail the run; the first is shown with
    the lines after its headline, each headline once."""
    r = results('debug.log', expect_kunit=True, expect_ftrace=True)
    assert r['x boot'][0] == 'pass' and r['x kunit fgraph_demo.two_users'][0] == 'pass'
    status, detail = r['x kernel log clean']
    assert status == 'fail'
    assert detail.count('BUG: KASAN: use-after-free') == 2, detail  # headline + report
    assert 'WARNING: possible circular locking dependency detected' in detail
    assert 'Read of size 8' in detail and 'ftrace_return_to_handler' in detail, detail
    assert 'register_ftrace_graph' not in detail, 'only the first report is shown whole'


@test
def kcsan_reports_outside_the_series_do_not_fail():
    """A race between two base functions (the series' test thread only
    calls into them) is listed as a skip; a race in the series' own
    functions fails, and without a scope every report fails."""
    scope = {l.strip() for l in open(os.path.join(DATA, 'kcsan-scope.txt'))}
    r = results('kcsan.log', kcsan_scope=scope)
    assert r["x KCSAN reports outside the series' code"][0] == 'skip'
    assert 'hrtimer_wakeup' in r["x KCSAN reports outside the series' code"][1]
    status, detail = r['x kernel log clean']
    assert status == 'fail' and 'fgraph_set_slot / fgraph_enter_first' in detail, detail
    assert 'hrtimer_wakeup' not in detail.split(' || ')[0], detail
    r = results('kcsan.log')
    assert "x KCSAN reports outside the series' code" not in r
    assert 'hrtimer_wakeup' in r['x kernel log clean'][1]
    only_base = {'caller_thread'}
    r = results('kcsan.log', kcsan_scope=only_base)
    assert r['x kernel log clean'][0] == 'pass', 'a frame below the race is not the race'


@test
def kcsan_scope_from_the_command_line():
    """--kcsan-scope reads its file; an empty one is refused rather than
    letting every report pass."""
    log = os.path.join(DATA, 'kcsan.log')
    cmd = [sys.executable, os.path.join(TOP, 'scripts', 'parse-log.py'), log, 'x', '--kcsan-scope']
    p = subprocess.run(cmd + [os.path.join(DATA, 'kcsan-scope.txt')], capture_output=True, text=True)
    r = {json.loads(l)['name']: json.loads(l)['status'] for l in p.stdout.splitlines()}
    assert p.returncode == 0 and r['x kernel log clean'] == 'fail', p.stdout + p.stderr
    with tempfile.NamedTemporaryFile('w') as empty:
        p = subprocess.run(cmd + [empty.name], capture_output=True, text=True)
    assert p.returncode == 2 and 'names no function' in p.stderr, p.stderr


@test
def config_mismatches_are_named():
    bad = check_config.check(os.path.join(DATA, 'dot.config'), [os.path.join(DATA, 'frag.config')])
    names = sorted((b[1], b[2], b[3]) for b in bad)
    assert names == [('CONFIG_KUNIT', 'y', 'n'), ('CONFIG_SAMPLE_TRACE_PRINTK', 'm', 'y')], names
    assert not check_config.check(os.path.join(DATA, 'frag.config'), [os.path.join(DATA, 'frag.config')])


@test
def config_later_fragment_overrides():
    with tempfile.TemporaryDirectory() as t:
        a, b, dot = (os.path.join(t, n) for n in ('a', 'b', 'dot'))
        open(a, 'w').write('CONFIG_NET=y\nCONFIG_FTRACE=y\n')
        open(b, 'w').write('# CONFIG_NET is not set\n')
        open(dot, 'w').write('CONFIG_FTRACE=y\n')
        assert not check_config.check(dot, [a, b])
        bad = check_config.check(dot, [b, a])
        assert [x[1] for x in bad] == ['CONFIG_NET'], bad


@test
def config_cli_exit_status():
    p = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'check-config.py'),
                        os.path.join(DATA, 'dot.config'), os.path.join(DATA, 'frag.config')],
                       capture_output=True, text=True)
    assert p.returncode == 1 and 'CONFIG_KUNIT=y requested' in p.stderr, p.stderr


def sh(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True, env=env)
    if check and p.returncode:
        raise AssertionError(f'{cmd}: {p.stdout}{p.stderr}')
    return p


@test
def series_status_and_export_roundtrip():
    """A toy kernel tree: export, in sync, then a stray commit and an edit
    are named and make series-status fail."""
    with tempfile.TemporaryDirectory() as t:
        top = os.path.join(t, 'proj')
        os.makedirs(os.path.join(top, 'scripts'))
        os.makedirs(os.path.join(top, 'patches'))
        for f in ('lib.sh', 'export-series.sh', 'series-status.sh'):
            sh(f'cp {TOP}/scripts/{f} {top}/scripts/', t)
        sh(f'cp {TOP}/base.conf {top}/', t)
        tree = os.path.join(top, 'build', 'linux')
        os.makedirs(tree)
        g = "git -c user.name='fgraph-multi project' -c user.email=fgraph-multi@invalid"
        sob = '-m "Signed-off-by: fgraph-multi project <fgraph-multi@invalid>"'
        sh(f'git init -q . && echo a > f && git add f && {g} commit -qm base && git tag base', tree)
        env = dict(os.environ, BUILD=os.path.join(top, 'build'))
        assert sh('scripts/series-status.sh', top, env).returncode == 0
        # A commit by someone else, or without the sign-off, is refused
        sh('echo x >> f && git -c user.name=t -c user.email=t@t commit -qam x', tree)
        p = sh('scripts/export-series.sh', top, env, check=False)
        assert p.returncode != 0 and 'not authored by' in p.stderr + p.stdout, p.stderr
        sh(f'git reset -q --hard base && echo x >> f && {g} commit -qam x', tree)
        p = sh('scripts/export-series.sh', top, env, check=False)
        assert p.returncode != 0 and 'lacks' in p.stderr + p.stdout, p.stderr
        sh('git reset -q --hard base', tree)
        sh(f'echo b >> f && {g} commit -qam "lib: Add b" -m "Because b." {sob}', tree)
        p = sh('scripts/series-status.sh', top, env, check=False)
        assert p.returncode == 1 and 'not exported' in p.stdout, p.stdout
        sh('scripts/export-series.sh', top, env)
        assert open(os.path.join(top, 'patches', 'series')).read().strip() == '0001-lib-Add-b.patch'
        assert os.path.exists(os.path.join(top, 'patches', '0000-cover-letter.patch'))
        p = sh('scripts/series-status.sh', top, env, check=False)
        assert p.returncode == 0, p.stdout
        sh('echo c >> f', tree)
        p = sh('scripts/series-status.sh', top, env, check=False)
        assert p.returncode == 1 and 'uncommitted' in p.stdout, p.stdout
        sh(f'{g} commit -q -a --amend --no-edit', tree)
        p = sh('scripts/series-status.sh', top, env, check=False)
        assert p.returncode == 1 and 'differs from patches/0001' in p.stdout, p.stdout
        sh(f'{g} commit -q --amend -m "lib: Add b and c" {sob}', tree)
        sh('scripts/export-series.sh', top, env)
        assert sh('scripts/series-status.sh', top, env, check=False).returncode == 0
        sh(f'{g} commit -q --amend -m "lib: Renamed" {sob}', tree)
        p = sh('scripts/series-status.sh', top, env, check=False)
        assert p.returncode == 1 and 'message' in p.stdout, p.stdout


def rst_problems(text, name='doc.rst'):
    """docutils messages of WARNING level and up for one document"""
    import io
    import docutils.core
    import docutils.utils
    err = io.StringIO()
    try:
        docutils.core.publish_doctree(
            text, source_path=name,
            settings_overrides={'report_level': 2, 'halt_level': 5,
                                'warning_stream': err})
    except docutils.utils.SystemMessage as e:
        return str(e)
    return err.getvalue().strip()


def added_files(patch):
    """{path: text} of the files a patch creates"""
    out, cur = {}, None
    with open(patch, errors='replace') as f:
        for line in f:
            if line.startswith('diff --git '):
                cur = None
            elif line.startswith('--- /dev/null'):
                cur = ''
            elif line.startswith('+++ b/') and cur == '':
                cur = line[6:].strip()
                out[cur] = []
            elif cur and line.startswith('+'):
                out[cur].append(line[1:])
            elif cur and not line.startswith(('+', '@@', '\\')):
                cur = None
    return {k: ''.join(v) for k, v in out.items()}


@test
def rst_checker_finds_errors():
    assert rst_problems('Title\n=====\n\nText.\n') == ''
    bad = 'Title\n===\n\n* item\ncontinued badly\n\n.. unknown-directive::\n'
    assert rst_problems(bad), 'a broken document must be reported'


@test
def series_documentation_is_valid_rst():
    pdir = os.path.join(TOP, 'patches')
    docs = {}
    for p in sorted(os.listdir(pdir)):
        if p.endswith('.patch'):
            docs.update({k: v for k, v in added_files(os.path.join(pdir, p)).items()
                         if k.endswith('.rst')})
    for name, text in docs.items():
        problems = rst_problems(text, name)
        assert not problems, f'{name}: {problems}'


@test
def bench_report_ratios_and_targets():
    rep = load('bench_report', 'bench-report.py')
    with tempfile.TemporaryDirectory() as d:
        def log(name, lines):
            path = os.path.join(d, name)
            with open(path, 'w') as f:
                f.write('HARNESS-BENCH kernel=6.1 calls=10 rounds=1\n')
                for l in lines:
                    f.write(f'HARNESS-BENCH fgraph_bench: {l}\n')
            return path
        base = log('b', ['case=k1 users=1 calls=10 ns_per_call=100.0 untraced_ns=5 ok=1',
                         'case=loop_plain users=0 calls=10 ns_per_call=5.0 untraced_ns=0 ok=1',
                         'case=loop_tracer users=0 calls=10 ns_per_call=405.0 untraced_ns=0 ok=1',
                         'case=kretprobe users=1 calls=10 ns_per_call=400.0 untraced_ns=5 ok=1',
                         'case=reg1000 kind=ftrace_ops register_ns=1000 unregister_ns=9000 ok=1'])
        pat = log('p', ['case=k1 users=1 calls=10 ns_per_call=104.0 untraced_ns=5 ok=1',
                        'case=k1notime users=1 calls=10 ns_per_call=98.0 untraced_ns=5 ok=1',
                        'case=k16one users=16 calls=10 ns_per_call=130.0 untraced_ns=5 ok=1',
                        'case=k2 users=2 calls=10 ns_per_call=120.0 untraced_ns=5 ok=0',
                        'case=loop_plain users=0 calls=10 ns_per_call=5.0 untraced_ns=0 ok=1',
                        'case=loop_tracer users=0 calls=10 ns_per_call=505.0 untraced_ns=0 ok=1',
                        'case=kretprobe users=1 calls=10 ns_per_call=900.0 untraced_ns=5 ok=1',
                        'case=reg1000 kind=fgraph16 register_ns=1500 unregister_ns=9900 ok=1'])
        out = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'bench-report.py'),
                              f'x86_64:base:icount:{base}', f'x86_64:patched:icount:{pat}'],
                             capture_output=True, text=True)
        assert out.returncode == 1, 'a case whose users missed calls fails'
        t = out.stdout
        assert '1.04' in t, t                      # k1 ratio to base
        assert re.search(r'k1 <= 1.04 x base k1 +1.04  met', t), t
        assert 'k16one <= 1.10 x k1' in t and '1.25  MISSED' in t, t
        # loop_tracer - loop_plain: 500 against the base's 400
        assert re.search(r'function_graph tracer <= 1.00 x base tracer +1.25  MISSED', t), t
        assert re.search(r'16th user, 1000 functions <= 2 x 6.1 ops +1.50  met', t), t
        assert re.search(r'kretprobe <= 1.00 x base kretprobe +2.25  MISSED', t), t
        assert 'tracer' in t and '500.0' in t, t
        assert 'NO' in t, t
    assert rep.fmt(None) == '-'


@test
def known_failures_become_skips():
    rep = load('report', 'report.py')
    res = [{'name': 'x86_64 ftrace A case', 'status': 'fail', 'detail': ''},
           {'name': 'x86_64 ftrace B case', 'status': 'fail', 'detail': ''},
           {'name': 'arm64 ftrace A case', 'status': 'pass', 'detail': ''}]
    out = rep.apply_known(res, {'ftrace A case': 'why'})
    assert [r['status'] for r in out] == ['skip', 'fail', 'pass'], out
    assert 'why' in out[0]['detail']
    assert 'ftrace Meta-selftest: Checkbashisms' in rep.known_failures()
    # An entry with the arch label covers that arch only
    res = [{'name': 'arm64 ftrace C case', 'status': 'fail', 'detail': ''},
           {'name': 'x86_64 ftrace C case', 'status': 'fail', 'detail': ''}]
    out = rep.apply_known(res, {'arm64 ftrace C case': 'flaky there'})
    assert [r['status'] for r in out] == ['skip', 'fail'], out


def main():
    verbose = '--verbose' in sys.argv
    failed = 0
    for t in TESTS:
        name = f'harness {t.__name__}'
        try:
            t()
            r = {'name': name, 'status': 'pass', 'detail': ''}
        except Exception as e:
            failed += 1
            r = {'name': name, 'status': 'fail', 'detail': f'{type(e).__name__}: {e}'}
            traceback.print_exc(file=sys.stderr)
        if verbose:
            print(f'{r["status"].upper():4} {name} {r["detail"]}')
        else:
            print(json.dumps(r))
    if verbose:
        print(f'{len(TESTS) - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
