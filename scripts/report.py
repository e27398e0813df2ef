#!/usr/bin/env python3
"""Summarise result files (JSON lines from parse-log.py or the harness
self-tests) into a per-test list and one closing line:

    N passed, N failed, N skipped

usage: report.py LOGDIR RESULTS.jsonl...   (exit 1 when anything failed)
"""
import json
import os
import sys

KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests',
                     'known-failures.txt')


def known_failures(path=KNOWN):
    """{name without arch label, or with it for one arch: reason} from
    tests/known-failures.txt"""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith('#') and '\t' in line:
                    name, reason = line.rstrip('\n').split('\t', 1)
                    out[name.strip()] = reason.strip()
    return out


def apply_known(res, known):
    for r in res:
        name = r['name'].split(' ', 1)[-1]
        for key in (r['name'], name):
            if r['status'] == 'fail' and key in known:
                r['status'] = 'skip'
                r['detail'] = f'known failure: {known[key]}'
    return res


def load(paths):
    res = []
    for p in paths:
        with open(p) as f:
            for line in f:
                line = line.strip()
                if line:
                    res.append(json.loads(line))
    return res


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    logdir, res = argv[1], apply_known(load(argv[2:]), known_failures())
    mark = {'pass': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}
    for r in res:
        d = f'  ({r["detail"]})' if r.get('detail') and r['status'] != 'pass' else ''
        print(f'{mark[r["status"]]:4}  {r["name"]}{d}')
    n = {k: sum(1 for r in res if r['status'] == k) for k in mark}
    fails = [r['name'] for r in res if r['status'] == 'fail']
    print()
    if fails:
        print('Failed:')
        for f in fails:
            print(f'  {f}')
    print(f'Full logs: {logdir}')
    print(f'{n["pass"]} passed, {n["fail"]} failed, {n["skip"]} skipped')
    return 1 if n['fail'] or not res else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
