// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_oot: an out-of-tree function graph user, written against the
 * mainline (v6.11+) fgraph API, as a GPL module author would.
 *
 * It registers @users users (default 2) on the function @func (default
 * vfs_read), all sharing one pair of callbacks that find their own state
 * with container_of(). Each keeps the entry time and a check word as
 * per-entry data and verifies both on return. On unload it prints, per
 * user:
 *
 *   fgraph_oot: user 0 vfs_read: entries 10 returns 10 data-ok 10
 *
 * With leak=1 it "forgets" to unregister on unload, to show that the core
 * unregisters the users of a module that goes away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched/clock.h>

#ifndef FGRAPH_MULTI_USER
#error "fgraph_oot needs a kernel with the multi-user fgraph API"
#endif

#define OOT_MAX_USERS	4

static char func[KSYM_NAME_LEN] = "vfs_read";
module_param_string(func, func, KSYM_NAME_LEN, 0444);
MODULE_PARM_DESC(func, "Function to trace");

static int users = 2;
module_param(users, int, 0444);
MODULE_PARM_DESC(users, "Number of fgraph users (1-4)");

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "Do not unregister on unload (the core must)");

struct oot_user {
	struct fgraph_ops	gops;
	int			nr;
	atomic_t		entries;
	atomic_t		returns;
	atomic_t		data_ok;
};

struct oot_data {
	u64		start;
	unsigned long	check;
};

static struct oot_user oot_users[OOT_MAX_USERS];

static unsigned long oot_check(struct oot_user *u, unsigned long fn)
{
	return fn ^ ((unsigned long)u->nr << 8) ^ 0x5a5a5a5aUL;
}

static int oot_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	struct oot_user *u = container_of(gops, struct oot_user, gops);
	struct oot_data *d;

	d = fgraph_reserve_data(gops->idx, sizeof(*d));
	if (!d)
		return 0;
	d->start = local_clock();
	d->check = oot_check(u, trace->func);
	atomic_inc(&u->entries);
	return 1;
}

static void oot_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	struct oot_user *u = container_of(gops, struct oot_user, gops);
	struct oot_data *d;
	int size;

	atomic_inc(&u->returns);
	d = fgraph_retrieve_data(gops->idx, &size);
	if (d && size >= sizeof(*d) && d->check == oot_check(u, trace->func) &&
	    d->start <= local_clock())
		atomic_inc(&u->data_ok);
}

static void oot_report(struct oot_user *u)
{
	pr_info("user %d %s: entries %d returns %d data-ok %d\n",
		u->nr, func, atomic_read(&u->entries),
		atomic_read(&u->returns), atomic_read(&u->data_ok));
}

static void oot_stop(int n)
{
	while (n--) {
		unregister_ftrace_graph(&oot_users[n].gops);
		ftrace_free_filter(&oot_users[n].gops.ops);
		oot_report(&oot_users[n]);
	}
}

static int __init oot_init(void)
{
	int i, ret;

	if (users < 1 || users > OOT_MAX_USERS)
		return -EINVAL;

	for (i = 0; i < users; i++) {
		struct oot_user *u = &oot_users[i];

		u->nr = i;
		u->gops.entryfunc = oot_entry;
		u->gops.retfunc = oot_return;
		ret = ftrace_set_filter(&u->gops.ops, func, strlen(func), 0);
		if (!ret)
			ret = register_ftrace_graph(&u->gops);
		if (ret) {
			pr_err("user %d on %s: %d\n", i, func, ret);
			ftrace_free_filter(&u->gops.ops);
			oot_stop(i);
			return ret;
		}
		pr_info("user %d in slot %d\n", i, u->gops.idx);
	}
	pr_info("%d users on %s\n", users, func);
	return 0;
}

static void __exit oot_exit(void)
{
	int i;

	if (!leak) {
		oot_stop(users);
		return;
	}
	for (i = 0; i < users; i++)
		oot_report(&oot_users[i]);
	pr_info("leaving %d users registered\n", users);
}

module_init(oot_init);
module_exit(oot_exit);
MODULE_DESCRIPTION("Out-of-tree function graph user example");
MODULE_LICENSE("GPL");
