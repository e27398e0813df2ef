// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads asleep inside one kretprobed function.
 *
 * At load, for each phase: start the threads, let each one call
 * krt_sleep(arg) and sleep in it until all of them are inside, wake them
 * all, wait for them, and print one line:
 *
 *   kretprobe_test: phase=NAME threads=N entries=E returns=R good=G bad=B
 *	nmissed=M path=fgraph|kprobe
 *
 * The kretprobe keeps the argument and a check word as entry data; its
 * return handler counts a "good" return when regs_return_value() is
 * 2 * arg + 1 and the data is intact, "bad" otherwise.
 *
 * Phases:
 *  many:   200 threads, default maxactive, 16 bytes of data.
 *  big:    5 threads, 1024 bytes of data (larger than what fits in an fgraph
 *	    frame: the pool path).
 *  rereg:  50 threads asleep while the kretprobe is unregistered and
 *	    registered again 100 times (the same struct kretprobe); the
 *	    returns must not reach the new registrations: returns=0. Another
 *	    kretprobe, on krt_keep(), stays registered meanwhile, so that the
 *	    series' shared fgraph user stays too.
 *
 * The module then stays loaded (rmmod it).
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include "sleepers.h"

#define KRT_MAGIC	0x6b72747374UL

static int threads = 200;
module_param(threads, int, 0444);

static atomic_t krt_entries, krt_returns, krt_good, krt_bad;

struct krt_data {
	long arg;
	unsigned long magic;
};

static noinline long krt_keep(long arg)
{
	return arg;
}

static noinline long krt_sleep(long arg)
{
	sleepers_wait();
	return 2 * arg + 1;
}

static int krt_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct krt_data *d = (void *)ri->data;

	d->arg = regs_get_kernel_argument(regs, 0);
	d->magic = KRT_MAGIC ^ d->arg;
	atomic_inc(&krt_entries);
	return 0;
}

static int krt_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct krt_data *d = (void *)ri->data;

	atomic_inc(&krt_returns);
	if (d->magic == (KRT_MAGIC ^ d->arg) &&
	    regs_return_value(regs) == 2 * d->arg + 1)
		atomic_inc(&krt_good);
	else
		atomic_inc(&krt_bad);
	return 0;
}

static struct kretprobe krt_probe = {
	.handler	= krt_return,
	.entry_handler	= krt_entry,
};

static int krt_keep_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static struct kretprobe krt_keeper = {
	.kp.addr	= (kprobe_opcode_t *)krt_keep,
	.handler	= krt_keep_return,
};

static const char *krt_path(void)
{
#ifdef KPROBE_FLAG_FGRAPH
	if (krt_probe.kp.flags & KPROBE_FLAG_FGRAPH)
		return "fgraph";
#endif
	return "kprobe";
}

static int krt_register(size_t data_size)
{
	int ret;

	krt_probe.kp.addr = (kprobe_opcode_t *)krt_sleep;
	krt_probe.kp.flags = 0;
	krt_probe.maxactive = 0;
	krt_probe.data_size = data_size;
	ret = register_kretprobe(&krt_probe);
	if (ret)
		pr_err("kretprobe_test: register_kretprobe: %d\n", ret);
	return ret;
}

static void krt_counts_reset(void)
{
	atomic_set(&krt_entries, 0);
	atomic_set(&krt_returns, 0);
	atomic_set(&krt_good, 0);
	atomic_set(&krt_bad, 0);
}

static void krt_report(const char *phase, int n, int ret)
{
	pr_info("kretprobe_test: phase=%s threads=%d entries=%d returns=%d good=%d bad=%d nmissed=%lu path=%s%s\n",
		phase, n, atomic_read(&krt_entries), atomic_read(&krt_returns),
		atomic_read(&krt_good), atomic_read(&krt_bad),
		krt_probe.nmissed + krt_probe.kp.nmissed, krt_path(),
		ret ? " error" : "");
}

/* All threads asleep inside the probed function, then all released */
static void krt_phase(const char *phase, int n, size_t data_size)
{
	int ret;

	krt_counts_reset();
	ret = krt_register(data_size);
	if (ret) {
		krt_report(phase, n, ret);
		return;
	}
	ret = sleepers_start(krt_sleep, n, "krt");
	sleepers_finish();
	unregister_kretprobe(&krt_probe);
	krt_report(phase, n, ret);
}

static void krt_phase_rereg(int n)
{
	bool registered = true;
	int ret, i;

	ret = register_kretprobe(&krt_keeper);
	if (ret) {
		krt_report("rereg", n, ret);
		return;
	}
	ret = krt_register(sizeof(struct krt_data));
	if (ret) {
		krt_report("rereg", n, ret);
		unregister_kretprobe(&krt_keeper);
		return;
	}
	ret = sleepers_start(krt_sleep, n, "krt");
	for (i = 0; !ret && i < 100; i++) {
		unregister_kretprobe(&krt_probe);
		ret = krt_register(sizeof(struct krt_data));
		registered = !ret;
	}
	/* Only the returns of calls entered from now on count */
	krt_counts_reset();
	sleepers_finish();
	if (registered)
		unregister_kretprobe(&krt_probe);
	unregister_kretprobe(&krt_keeper);
	krt_report("rereg", n, ret);
}

static int __init krt_init(void)
{
	krt_phase("many", threads, sizeof(struct krt_data));
	krt_phase("big", 5, 1024);
	krt_phase_rereg(50);
	return 0;
}

static void __exit krt_exit(void)
{
}

module_init(krt_init);
module_exit(krt_exit);
MODULE_DESCRIPTION("Threads asleep inside a kretprobed function");
MODULE_LICENSE("GPL");
