#!/usr/bin/env python3
"""Check that every option requested by kconfig fragments is set in .config.

usage: check-config.py DOTCONFIG FRAGMENT...

Exit 0 when all are set as asked; else print each option that is not (with
what .config has instead) and exit 1.
"""
import re
import sys

OPT = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def parse(path):
    """Return {option: value} of a .config or fragment; 'n' for unset."""
    opts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = OPT.match(line)
            if m:
                opts[m.group(1)] = m.group(2)
                continue
            m = UNSET.match(line)
            if m:
                opts[m.group(1)] = 'n'
    return opts


def check(dotconfig, fragments):
    """Return a list of (fragment, option, wanted, have) mismatches."""
    have = parse(dotconfig)
    # Later fragments override earlier ones, as in the merged .config.
    wanted = {}
    for frag in fragments:
        for opt, want in parse(frag).items():
            wanted[opt] = (frag, want)
    bad = []
    for opt, (frag, want) in wanted.items():
        got = have.get(opt, 'n')
        if got != want:
            bad.append((frag, opt, want, got))
    return bad


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = check(argv[1], argv[2:])
    for frag, opt, want, got in bad:
        print(f'config: {opt}={want} requested by {frag} but .config has '
              f'{"it unset" if got == "n" else opt + "=" + got} '
              f'(a dependency is missing or the option does not exist)',
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
