// SPDX-License-Identifier: GPL-2.0
/*
 * A livepatch of cmdline_proc_show(), for the IPMODIFY conflict tests:
 * /proc/cmdline reads "ipmodify_klp" while it is enabled. Loading fails
 * with -EBUSY when another IPMODIFY ftrace_ops holds the function.
 */
#include <linux/module.h>
#include <linux/livepatch.h>
#include <linux/seq_file.h>

static int patched_cmdline_proc_show(struct seq_file *m, void *v)
{
	seq_puts(m, "ipmodify_klp\n");
	return 0;
}

static struct klp_func funcs[] = {
	{
		.old_name = "cmdline_proc_show",
		.new_func = patched_cmdline_proc_show,
	}, { }
};

static struct klp_object objs[] = {
	{
		.funcs = funcs,	/* vmlinux */
	}, { }
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
};

static int __init ipmodify_klp_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit ipmodify_klp_exit(void)
{
}

module_init(ipmodify_klp_init);
module_exit(ipmodify_klp_exit);
MODULE_DESCRIPTION("livepatch for the IPMODIFY conflict tests");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
