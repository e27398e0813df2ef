// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobes on one function, for the IPMODIFY conflict tests.
 *
 *   mode=pre   one kprobe without a post_handler (kprobe_ftrace_ops)
 *   mode=post  one kprobe with a post_handler (kprobe_ipmodify_ops)
 *   mode=aggr  the first, then a second with a post_handler at the same
 *              address: the two form an aggregate, which now modifies the IP
 *
 * Each registration's result is logged; a mode whose first probe fails
 * fails to load. On unload the hits are logged.
 */
#include <linux/module.h>
#include <linux/kprobes.h>

static char *func = "cmdline_proc_show";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "function to probe");
static char *mode = "pre";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "pre, post or aggr");

static atomic_t pre_hits = ATOMIC_INIT(0);
static atomic_t post_hits = ATOMIC_INIT(0);

static int count_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&pre_hits);
	return 0;
}

static void count_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
	atomic_inc(&post_hits);
}

static struct kprobe probes[2];
static bool registered[2];

static int add_probe(int i, bool post)
{
	int ret;

	probes[i].symbol_name = func;
	probes[i].pre_handler = count_pre;
	probes[i].post_handler = post ? count_post : NULL;
	ret = register_kprobe(&probes[i]);
	pr_info("probe %d (%s) on %s: %d%s\n", i + 1,
		post ? "post_handler" : "no post_handler", func, ret,
		ret == 0 && kprobe_ftrace(&probes[i]) ? " on ftrace" : "");
	registered[i] = ret == 0;
	return ret;
}

static int __init ipmodify_kprobe_init(void)
{
	int ret;

	if (!strcmp(mode, "pre"))
		return add_probe(0, false);
	if (!strcmp(mode, "post"))
		return add_probe(0, true);
	if (strcmp(mode, "aggr"))
		return -EINVAL;
	ret = add_probe(0, false);
	if (ret)
		return ret;
	/* A refused second probe leaves the first armed: load anyway. */
	add_probe(1, true);
	return 0;
}

static void __exit ipmodify_kprobe_exit(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (registered[i])
			unregister_kprobe(&probes[i]);
	pr_info("hits on %s: pre %d post %d\n", func, atomic_read(&pre_hits),
		atomic_read(&post_hits));
}

module_init(ipmodify_kprobe_init);
module_exit(ipmodify_kprobe_exit);
MODULE_DESCRIPTION("kprobes for the IPMODIFY conflict tests");
MODULE_LICENSE("GPL");
