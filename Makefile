# fgraph-multi: a patch series for Linux 6.1 (Debian linux-source-6.1) and
# the harness that builds, boots, tests and measures it.
#
#   make demo      boot the patched x86_64 kernel and show fgraph users at work
#   make check     every test: harness self-tests, both arches built and booted,
#                  KUnit, ftracetest, tracing clients, an x86_64 debug kernel
#                  (lockdep, KASAN, UBSAN); ends with "N passed, N failed"
#   make check-kcsan  the race detector: an arm64 KCSAN kernel (weak memory
#                  modelled) runs the churn and parked cases
#
#   make bench     the benchmark: cost per traced call with 1 to 16 users,
#                  patched against the unpatched base, under -icount and TCG
#
# Smaller steps: setup, tree, tree-reset, build, export, series-status,
# check-base (the same checks on the unpatched base), selftest, build-each
# (each patch of the series compiled on its own).
SHELL := /bin/bash
S := scripts

.PHONY: all setup tree tree-reset build build-base export series-status \
	check check-base check-kcsan selftest demo bench build-each clean help
all: help
help:
	@sed -n '1,/^SHELL/p' Makefile | sed '$$d'

setup:
	@$(S)/setup.sh

tree: setup
	@$(S)/prepare-tree.sh

tree-reset: setup
	@$(S)/series-status.sh >/dev/null || { echo "build/linux holds work the series lacks; export it first (make export) or run: scripts/prepare-tree.sh --force"; exit 1; }
	@$(S)/prepare-tree.sh --force

build: tree
	@for a in $${ARCHS:-x86_64 arm64}; do $(S)/build.sh $$a patched || exit 1; done

build-base: tree
	@for a in $${ARCHS:-x86_64 arm64}; do $(S)/build.sh $$a base || exit 1; done

export:
	@$(S)/export-series.sh

series-status:
	@$(S)/series-status.sh

build-each: tree
	@$(S)/build-each.sh $${ARCHS:-}

selftest:
	@python3 tests/harness/run.py --verbose

check: setup
	@$(S)/check.sh

check-base: setup
	@FLAVOUR=base $(S)/check.sh

check-kcsan: setup
	@$(S)/check-kcsan.sh

demo: setup
	@$(S)/demo.sh

bench: setup
	@$(S)/bench.sh

clean:
	rm -rf build/obj-* build/check-* build/bench build/each/obj-*
