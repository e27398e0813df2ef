// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads asleep inside one function that an fprobe with an exit
 * handler probes: the fprobe counterpart of kretprobe_test.c.
 *
 * At load, for each phase: start the threads, let each one call
 * fpt_sleep(arg) and sleep in it until all of them are inside, wake them
 * all, wait for them, and print one line:
 *
 *   fprobe_test: phase=NAME threads=N entries=E exits=X good=G bad=B
 *	nmissed=M path=fgraph|rethook
 *
 * The fprobe keeps the argument and a check word as entry data; its exit
 * handler counts a "good" exit when regs_return_value() is 2 * arg + 1 and
 * the data is intact, "bad" otherwise.
 *
 * Phases:
 *  many:   200 threads, the default nr_maxactive, 16 bytes of entry data.
 *  rereg:  50 threads asleep while the fprobe is unregistered and
 *	    registered again 100 times (the same struct fprobe); the exits
 *	    must not reach the new registrations: exits=0. Another fprobe
 *	    with an exit handler, on fpt_keep(), stays registered meanwhile,
 *	    so that the series' shared fgraph user stays too.
 *
 * The module then stays loaded (rmmod it).
 */
#include <linux/module.h>
#include <linux/fprobe.h>
#include "sleepers.h"

#define FPT_MAGIC	0x6670727374UL

static int threads = 200;
module_param(threads, int, 0444);

static atomic_t fpt_entries, fpt_exits, fpt_good, fpt_bad;

struct fpt_data {
	long arg;
	unsigned long magic;
};

static noinline long fpt_keep(long arg)
{
	return arg;
}

static noinline long fpt_sleep(long arg)
{
	sleepers_wait();
	return 2 * arg + 1;
}

static void fpt_entry(struct fprobe *fp, unsigned long ip,
		      struct pt_regs *regs, void *data)
{
	struct fpt_data *d = data;

	d->arg = regs_get_kernel_argument(regs, 0);
	d->magic = FPT_MAGIC ^ d->arg;
	atomic_inc(&fpt_entries);
}

static void fpt_exit(struct fprobe *fp, unsigned long ip,
		     struct pt_regs *regs, void *data)
{
	struct fpt_data *d = data;

	atomic_inc(&fpt_exits);
	if (d->magic == (FPT_MAGIC ^ d->arg) &&
	    regs_return_value(regs) == 2 * d->arg + 1)
		atomic_inc(&fpt_good);
	else
		atomic_inc(&fpt_bad);
}

static struct fprobe fpt_probe = {
	.entry_handler	= fpt_entry,
	.exit_handler	= fpt_exit,
};

static void fpt_keep_exit(struct fprobe *fp, unsigned long ip,
			  struct pt_regs *regs, void *data)
{
}

static struct fprobe fpt_keeper = {
	.exit_handler	= fpt_keep_exit,
};

static const char *fpt_path(void)
{
#ifdef FPROBE_FL_FGRAPH
	if (fpt_probe.flags & FPROBE_FL_FGRAPH)
		return "fgraph";
#endif
	return "rethook";
}

static int fpt_register(void)
{
	unsigned long addr = (unsigned long)fpt_sleep;
	int ret;

	fpt_probe.flags = 0;
	fpt_probe.nr_maxactive = 0;
	fpt_probe.entry_data_size = sizeof(struct fpt_data);
	ret = register_fprobe_ips(&fpt_probe, &addr, 1);
	if (ret)
		pr_err("fprobe_test: register_fprobe_ips: %d\n", ret);
	return ret;
}

static void fpt_counts_reset(void)
{
	atomic_set(&fpt_entries, 0);
	atomic_set(&fpt_exits, 0);
	atomic_set(&fpt_good, 0);
	atomic_set(&fpt_bad, 0);
}

static void fpt_report(const char *phase, int n, const char *path, int ret)
{
	pr_info("fprobe_test: phase=%s threads=%d entries=%d exits=%d good=%d bad=%d nmissed=%lu path=%s%s\n",
		phase, n, atomic_read(&fpt_entries), atomic_read(&fpt_exits),
		atomic_read(&fpt_good), atomic_read(&fpt_bad),
		fpt_probe.nmissed, path, ret ? " error" : "");
}

/* All threads asleep inside the probed function, then all released */
static void fpt_phase_many(int n)
{
	const char *path;
	int ret;

	fpt_counts_reset();
	ret = fpt_register();
	if (ret) {
		fpt_report("many", n, fpt_path(), ret);
		return;
	}
	ret = sleepers_start(fpt_sleep, n, "fpt");
	sleepers_finish();
	/* Unregistering clears the flag that says the path */
	path = fpt_path();
	unregister_fprobe(&fpt_probe);
	fpt_report("many", n, path, ret);
}

static void fpt_phase_rereg(int n)
{
	unsigned long keep = (unsigned long)fpt_keep;
	bool registered = true;
	int ret, i;

#ifndef FPROBE_FL_FGRAPH
	/*
	 * 6.1's unregister_fprobe() frees the filter hashes of the fprobe's
	 * ftrace_ops but leaves the ops pointing at them: registering the
	 * same struct fprobe again copies freed memory (a crash in
	 * alloc_and_copy_ftrace_hash() here). The series fixes that.
	 */
	pr_info("fprobe_test: phase=rereg skipped: this kernel cannot register a struct fprobe again\n");
	return;
#endif
	ret = register_fprobe_ips(&fpt_keeper, &keep, 1);
	if (ret) {
		fpt_report("rereg", n, fpt_path(), ret);
		return;
	}
	ret = fpt_register();
	if (ret) {
		fpt_report("rereg", n, fpt_path(), ret);
		unregister_fprobe(&fpt_keeper);
		return;
	}
	ret = sleepers_start(fpt_sleep, n, "fpt");
	for (i = 0; !ret && i < 100; i++) {
		unregister_fprobe(&fpt_probe);
		ret = fpt_register();
		registered = !ret;
	}
	/* Only the exits of calls entered from now on count */
	fpt_counts_reset();
	sleepers_finish();
	fpt_report("rereg", n, fpt_path(), ret);
	if (registered)
		unregister_fprobe(&fpt_probe);
	unregister_fprobe(&fpt_keeper);
}

static int __init fpt_init(void)
{
	fpt_phase_many(threads);
	fpt_phase_rereg(50);
	return 0;
}

static void __exit fpt_exit_module(void)
{
}

module_init(fpt_init);
module_exit(fpt_exit_module);
MODULE_DESCRIPTION("Threads asleep inside a function an fprobe probes");
MODULE_LICENSE("GPL");
