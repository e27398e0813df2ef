// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_bench: the cost of one traced call with K function graph users.
 *
 * A noinline function of this module is called @calls times in a loop,
 * untraced and then traced; the difference divided by @calls is the cost
 * per call. Each case runs @rounds times and the median is reported, one
 * line per case:
 *
 *   fgraph_bench: case=k1 users=1 calls=1000000 ns_per_call=123.4 ok=1
 *
 * ok=1 means every user saw exactly as many entries and returns as there
 * were traced calls (the callbacks really ran). Times come from
 * local_clock(): under QEMU -icount that is instruction-counted time.
 *
 * @cases selects what runs at load (comma separated); writing a list to
 * /sys/module/fgraph_bench/parameters/run runs it again later:
 *   k1,k2,k4,k8,k16  K users with counting callbacks, all on the function
 *   k16one           16 users, only one of them filters the function
 *   data4            4 users, each storing and retrieving 4 words per call
 *   loop_plain, loop_tracer
 *                    no user of ours: the time per call of the loop with
 *                    whatever tracing tracefs set up (the harness runs
 *                    loop_plain with none, loop_tracer with the
 *                    function_graph tracer on the function)
 *   depth            16 users on a recursive function: how many nested
 *                    frames fit on the shadow stack
 *   mem              shadow stack bytes per task and for all tasks
 *   reg1000          the time to register, and to unregister, a user whose
 *                    filter holds the 1000 functions fgraph_bench_fn_*:
 *                    the 16th user beside 15 others with the series, one
 *                    plain ftrace_ops on the base (6.1 has no such user)
 *   kretprobe        a kretprobe on the function with an entry handler
 *                    keeping the argument (8 bytes of data) and a return
 *                    handler checking the return value: the per-call cost
 *                    of kretprobes, on the fgraph shadow stack with the
 *                    series, with a kprobe and a pool instance without
 *   fprobe           the same with an fprobe with entry and exit handlers
 *                    and 8 bytes of entry data: on the fgraph shadow stack
 *                    with the series, with rethook without (the base has
 *                    no fprobe on arm64)
 *
 * Against a kernel without the multi-user API (the unpatched base) only
 * k1, kretprobe, fprobe, loop and mem exist; k1 then registers the one user 6.1 allows,
 * which follows the top-level set_ftrace_filter, set to
 * fgraph_bench_target for the time of the case.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>

static unsigned long calls = 1000000;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "Calls per round");

static int rounds = 5;
module_param(rounds, int, 0444);
MODULE_PARM_DESC(rounds, "Rounds per case (the median is reported)");

static char cases[128] = "k1,k1notime,k2,k4,k8,k16,k16one,data4,depth,mem";
module_param_string(cases, cases, sizeof(cases), 0444);
MODULE_PARM_DESC(cases, "Cases to run, comma separated");

#define BENCH_MAX_USERS	16
#define BENCH_MAX_ROUNDS 15

/* Where the loop result goes, so that the compiler keeps the loop */
static int bench_sink;

noinline int fgraph_bench_target(int x)
{
	barrier();
	return x + 1;
}

noinline int fgraph_bench_other(int x)
{
	barrier();
	return x - 1;
}

noinline int fgraph_bench_recurse(int depth)
{
	int ret;

	if (depth <= 0)
		return 0;
	ret = fgraph_bench_recurse(depth - 1);
	/* Not a loop nor a tail call: every level has its own frame */
	barrier();
	return ret + 1;
}

/*
 * The 1000 functions of the registration case, fgraph_bench_fn_000 to
 * _999 (no_icf: the compiler must not fold them into one)
 */
#define BENCH_FN(n)							\
	noinline __attribute__((__no_icf__)) int fgraph_bench_fn_##n(int x) \
	{ barrier(); return x + 1; }
#define BENCH_FN10(n)	BENCH_FN(n##0) BENCH_FN(n##1) BENCH_FN(n##2)	\
	BENCH_FN(n##3) BENCH_FN(n##4) BENCH_FN(n##5) BENCH_FN(n##6)	\
	BENCH_FN(n##7) BENCH_FN(n##8) BENCH_FN(n##9)
#define BENCH_FN100(n)	BENCH_FN10(n##0) BENCH_FN10(n##1) BENCH_FN10(n##2) \
	BENCH_FN10(n##3) BENCH_FN10(n##4) BENCH_FN10(n##5) BENCH_FN10(n##6) \
	BENCH_FN10(n##7) BENCH_FN10(n##8) BENCH_FN10(n##9)
BENCH_FN100(0) BENCH_FN100(1) BENCH_FN100(2) BENCH_FN100(3) BENCH_FN100(4)
BENCH_FN100(5) BENCH_FN100(6) BENCH_FN100(7) BENCH_FN100(8) BENCH_FN100(9)

#define BENCH_FN_GLOB	"fgraph_bench_fn_*"

static void bench_report_reg(const char *kind, u64 reg, u64 unreg, bool ok)
{
	pr_info("case=reg1000 kind=%s register_ns=%llu unregister_ns=%llu ok=%d\n",
		kind, reg, unreg, ok);
}

static u64 bench_loop(void)
{
	unsigned long i;
	u64 t0, t1;
	int acc = 0;

	preempt_disable();
	t0 = local_clock();
	for (i = 0; i < calls; i++)
		acc = fgraph_bench_target(acc);
	t1 = local_clock();
	preempt_enable();
	WRITE_ONCE(bench_sink, acc);
	return t1 - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median of @rounds timings of the loop, in ns */
static u64 bench_median(void)
{
	u64 t[BENCH_MAX_ROUNDS];
	int i, n = clamp(rounds, 1, BENCH_MAX_ROUNDS);

	for (i = 0; i < n; i++) {
		t[i] = bench_loop();
		cond_resched();
	}
	sort(t, n, sizeof(t[0]), cmp_u64, NULL);
	return t[n / 2];
}

static void bench_report(const char *name, int users, u64 traced, u64 base,
			 bool ok)
{
	s64 d = (s64)traced - (s64)base;
	/* tenths of a ns per call */
	s64 per = div64_s64(d * 10, (s64)calls);

	pr_info("case=%s users=%d calls=%lu ns_per_call=%lld.%lld untraced_ns=%llu ok=%d\n",
		name, users, calls, per / 10, abs(per % 10),
		div64_u64(base * 10, calls) / 10, ok);
}

static void bench_mem(void)
{
	struct task_struct *g, *t;
	unsigned long tasks = 0, stacks = 0;
	size_t per_task;

#ifdef SHADOW_STACK_SIZE
	per_task = SHADOW_STACK_SIZE;
#else
	per_task = FTRACE_RETFUNC_DEPTH * sizeof(struct ftrace_ret_stack);
#endif
	rcu_read_lock();
	for_each_process_thread(g, t) {
		tasks++;
		if (t->ret_stack)
			stacks++;
	}
	rcu_read_unlock();
	pr_info("case=mem shadow_stack_bytes_per_task=%zu frame_bytes=%zu tasks=%lu with_stack=%lu total_bytes=%lu\n",
		per_task, sizeof(struct ftrace_ret_stack), tasks, stacks,
		stacks * per_task);
}

#ifdef FGRAPH_MULTI_USER

struct bench_user {
	struct fgraph_ops	gops;
	atomic_long_t		entries;
	atomic_long_t		returns;
	atomic_long_t		bad;
	int			max_depth;
	int			data_words;
};

static struct bench_user busers[BENCH_MAX_USERS];

static int bench_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	struct bench_user *u = container_of(gops, struct bench_user, gops);
	unsigned long *d;
	int i;

	atomic_long_inc(&u->entries);
	if (trace->depth > u->max_depth)
		u->max_depth = trace->depth;
	if (u->data_words) {
		d = fgraph_reserve_data(gops->idx, u->data_words * sizeof(long));
		if (!d) {
			atomic_long_inc(&u->bad);
			return 1;
		}
		for (i = 0; i < u->data_words; i++)
			d[i] = trace->func + i;
	}
	return 1;
}

static void bench_return(struct ftrace_graph_ret *trace,
			 struct fgraph_ops *gops)
{
	struct bench_user *u = container_of(gops, struct bench_user, gops);
	unsigned long *d;
	int i, size;

	atomic_long_inc(&u->returns);
	if (u->data_words) {
		d = fgraph_retrieve_data(gops->idx, &size);
		if (!d || size != u->data_words * sizeof(long)) {
			atomic_long_inc(&u->bad);
			return;
		}
		for (i = 0; i < u->data_words; i++)
			if (d[i] != trace->func + i)
				atomic_long_inc(&u->bad);
	}
}

/* The k cases count only, as the base's user does: same callback work */
static int bench_count_entry(struct ftrace_graph_ent *trace,
			     struct fgraph_ops *gops)
{
	atomic_long_inc(&container_of(gops, struct bench_user, gops)->entries);
	return 1;
}

static void bench_count_return(struct ftrace_graph_ret *trace,
			       struct fgraph_ops *gops)
{
	atomic_long_inc(&container_of(gops, struct bench_user, gops)->returns);
}

static void bench_stop(int n)
{
	while (n--) {
		unregister_ftrace_graph(&busers[n].gops);
		ftrace_free_filter(&busers[n].gops.ops);
	}
}

/*
 * Register @k users; @matching of them filter @func, the others @other.
 * @plain users only count; the others also check their depth and data.
 */
static int bench_start(int k, int matching, const char *func,
		       const char *other, int data_words, bool plain,
		       unsigned long flags)
{
	int i, ret;

	memset(busers, 0, sizeof(busers));
	for (i = 0; i < k; i++) {
		struct bench_user *u = &busers[i];
		const char *f = i < matching ? func : other;

		u->gops.entryfunc = plain ? bench_count_entry : bench_entry;
		u->gops.retfunc = plain ? bench_count_return : bench_return;
		u->data_words = data_words;
		u->gops.flags = flags;
		ret = ftrace_set_filter(&u->gops.ops, (unsigned char *)f,
					strlen(f), 0);
		if (!ret)
			ret = register_ftrace_graph(&u->gops);
		if (ret) {
			pr_err("user %d on %s: %d\n", i, f, ret);
			ftrace_free_filter(&u->gops.ops);
			bench_stop(i);
			return ret;
		}
	}
	return 0;
}

static void bench_users(const char *name, int k, int matching, int data_words,
			unsigned long flags)
{
	u64 base, traced;
	long want;
	bool ok = true;
	int i, n = clamp(rounds, 1, BENCH_MAX_ROUNDS);

	base = bench_median();
	if (bench_start(k, matching, "fgraph_bench_target",
			"fgraph_bench_other", data_words, !data_words, flags))
		return;
	traced = bench_median();
	bench_stop(k);
	want = (long)calls * n;
	for (i = 0; i < k; i++) {
		long e = atomic_long_read(&busers[i].entries);
		long r = atomic_long_read(&busers[i].returns);

		if (i < matching)
			ok &= e == want && r == want;
		else
			ok &= e == 0 && r == 0;
		ok &= !atomic_long_read(&busers[i].bad);
	}
	bench_report(name, k, traced, base, ok);
}

static void bench_depth(void)
{
	int i, deepest = 0, want = 100;

	if (bench_start(BENCH_MAX_USERS, BENCH_MAX_USERS,
			"fgraph_bench_recurse", NULL, 0, false, 0))
		return;
	preempt_disable();
	atomic_set(&current->trace_overrun, 0);
	/* The depth reached tells how many frames fit above this one */
	fgraph_bench_recurse(want);
	preempt_enable();
	bench_stop(BENCH_MAX_USERS);
	for (i = 0; i < BENCH_MAX_USERS; i++)
		deepest = max(deepest, busers[i].max_depth + 1);
	pr_info("case=depth users=16 recursion=%d nested_frames=%d overruns=%d\n",
		want, deepest, atomic_read(&current->trace_overrun));
}

static int bench_k1(void)
{
	bench_users("k1", 1, 1, 0, 0);
	return 0;
}

/* The 16th user, with a filter of 1000 functions, beside 15 others */
static void bench_reg1000(void)
{
	struct bench_user *u = &busers[BENCH_MAX_USERS - 1];
	char glob[] = BENCH_FN_GLOB;	/* the filter parser writes into it */
	u64 t0, t1, t2;
	int ret;

	if (bench_start(BENCH_MAX_USERS - 1, BENCH_MAX_USERS - 1,
			"fgraph_bench_other", NULL, 0, true, 0))
		return;
	u->gops.entryfunc = bench_count_entry;
	u->gops.retfunc = bench_count_return;
	ret = ftrace_set_filter(&u->gops.ops, glob, strlen(glob), 0);
	t0 = local_clock();
	if (!ret)
		ret = register_ftrace_graph(&u->gops);
	t1 = local_clock();
	if (!ret)
		unregister_ftrace_graph(&u->gops);
	t2 = local_clock();
	ftrace_free_filter(&u->gops.ops);
	bench_stop(BENCH_MAX_USERS - 1);
	bench_report_reg("fgraph16", t1 - t0, t2 - t1, !ret);
}

#else /* !FGRAPH_MULTI_USER: the unpatched 6.1 base */

static atomic_long_t base_entries, base_returns;
static int (*base_register)(struct fgraph_ops *gops);
static void (*base_unregister)(struct fgraph_ops *gops);

static int base_entry(struct ftrace_graph_ent *trace)
{
	atomic_long_inc(&base_entries);
	return 1;
}

static void base_return(struct ftrace_graph_ret *trace)
{
	atomic_long_inc(&base_returns);
}

static struct fgraph_ops base_ops = {
	.entryfunc	= base_entry,
	.retfunc	= base_return,
};

/* 6.1 exports neither the fgraph API nor kallsyms_lookup_name() */
static unsigned long base_lookup(const char *name)
{
	static unsigned long (*lookup)(const char *name);
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (!lookup) {
		if (register_kprobe(&kp))
			return 0;
		lookup = (void *)kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup(name);
}

static int bench_k1(void)
{
	u64 base, traced;
	long want = (long)calls * clamp(rounds, 1, BENCH_MAX_ROUNDS);
	int ret;

	base_register = (void *)base_lookup("register_ftrace_graph");
	base_unregister = (void *)base_lookup("unregister_ftrace_graph");
	if (!base_register || !base_unregister) {
		pr_err("cannot find register_ftrace_graph\n");
		return -ENOENT;
	}
	/* 6.1's one fgraph user follows the top-level set_ftrace_filter */
	ftrace_set_global_filter((unsigned char *)"fgraph_bench_target",
				 strlen("fgraph_bench_target"), 1);
	base = bench_median();
	ret = base_register(&base_ops);
	if (ret) {
		pr_err("register_ftrace_graph: %d\n", ret);
		return ret;
	}
	traced = bench_median();
	base_unregister(&base_ops);
	ftrace_set_global_filter(NULL, 0, 1);
	bench_report("k1", 1, traced, base,
		     atomic_long_read(&base_entries) == want &&
		     atomic_long_read(&base_returns) == want);
	return 0;
}

static void bench_plain_func(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops bench_plain_ops = {
	.func	= bench_plain_func,
};

/* One ftrace_ops with a filter of 1000 functions: 6.1's cost of that */
static void bench_reg1000(void)
{
	char glob[] = BENCH_FN_GLOB;	/* the filter parser writes into it */
	u64 t0, t1, t2;
	int ret;

	ret = ftrace_set_filter(&bench_plain_ops, glob, strlen(glob), 0);
	t0 = local_clock();
	if (!ret)
		ret = register_ftrace_function(&bench_plain_ops);
	t1 = local_clock();
	if (!ret)
		unregister_ftrace_function(&bench_plain_ops);
	t2 = local_clock();
	ftrace_free_filter(&bench_plain_ops);
	bench_report_reg("ftrace_ops", t1 - t0, t2 - t1, !ret);
}
#endif /* FGRAPH_MULTI_USER */

static atomic_long_t krp_entries, krp_returns;

static int bench_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(long *)ri->data = (int)regs_get_kernel_argument(regs, 0);
	atomic_long_inc(&krp_entries);
	return 0;
}

static int bench_krp_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if ((int)regs_return_value(regs) == *(long *)ri->data + 1)
		atomic_long_inc(&krp_returns);
	return 0;
}

static struct kretprobe bench_krp = {
	.handler	= bench_krp_return,
	.entry_handler	= bench_krp_entry,
	.data_size	= sizeof(long),
};

static void bench_kretprobe(void)
{
	long want = (long)calls * clamp(rounds, 1, BENCH_MAX_ROUNDS);
	const char *path = "kprobe";
	u64 base, traced;
	int ret;

	atomic_long_set(&krp_entries, 0);
	atomic_long_set(&krp_returns, 0);
	base = bench_median();
	bench_krp.kp.addr = (kprobe_opcode_t *)fgraph_bench_target;
	bench_krp.kp.flags = 0;
	bench_krp.maxactive = 0;
	ret = register_kretprobe(&bench_krp);
	if (ret) {
		pr_err("register_kretprobe: %d\n", ret);
		return;
	}
#ifdef KPROBE_FLAG_FGRAPH
	if (bench_krp.kp.flags & KPROBE_FLAG_FGRAPH)
		path = "fgraph";
#endif
	traced = bench_median();
	unregister_kretprobe(&bench_krp);
	bench_report("kretprobe", 1, traced, base,
		     atomic_long_read(&krp_entries) == want &&
		     atomic_long_read(&krp_returns) == want &&
		     !bench_krp.nmissed);
	pr_info("kretprobe path=%s nmissed=%d\n", path, bench_krp.nmissed);
}

#ifdef CONFIG_FPROBE
static atomic_long_t fp_entries, fp_exits;

static void bench_fp_entry(struct fprobe *fp, unsigned long ip,
			   struct pt_regs *regs, void *data)
{
	*(long *)data = (int)regs_get_kernel_argument(regs, 0);
	atomic_long_inc(&fp_entries);
}

static void bench_fp_exit(struct fprobe *fp, unsigned long ip,
			  struct pt_regs *regs, void *data)
{
	if ((int)regs_return_value(regs) == *(long *)data + 1)
		atomic_long_inc(&fp_exits);
}

static struct fprobe bench_fp = {
	.entry_handler	= bench_fp_entry,
	.exit_handler	= bench_fp_exit,
	.entry_data_size = sizeof(long),
};

static void bench_fprobe(void)
{
	long want = (long)calls * clamp(rounds, 1, BENCH_MAX_ROUNDS);
	unsigned long addr = (unsigned long)fgraph_bench_target;
	const char *path = "rethook";
	u64 base, traced;
	int ret;

	atomic_long_set(&fp_entries, 0);
	atomic_long_set(&fp_exits, 0);
	base = bench_median();
	bench_fp.flags = 0;
	ret = register_fprobe_ips(&bench_fp, &addr, 1);
	if (ret) {
		pr_err("register_fprobe_ips: %d\n", ret);
		return;
	}
#ifdef FPROBE_FL_FGRAPH
	if (bench_fp.flags & FPROBE_FL_FGRAPH)
		path = "fgraph";
#endif
	traced = bench_median();
	unregister_fprobe(&bench_fp);
	bench_report("fprobe", 1, traced, base,
		     atomic_long_read(&fp_entries) == want &&
		     atomic_long_read(&fp_exits) == want && !bench_fp.nmissed);
	pr_info("fprobe path=%s nmissed=%lu\n", path, bench_fp.nmissed);
}
#endif

static bool want_case(const char *name)
{
	const char *p = cases;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if ((p == cases || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

static DEFINE_MUTEX(bench_mutex);

#ifdef FGRAPH_MULTI_USER
/* The multi-user cases: users registered, how many on the function, data */
static const struct bench_case {
	const char	*name;
	int		users;
	int		matching;
	int		data_words;
	unsigned long	flags;
} bench_cases[] = {
	{ "k2",		2,	2,	0 },
	{ "k4",		4,	4,	0 },
	{ "k8",		8,	8,	0 },
	{ "k16",	16,	16,	0 },
	{ "k16one",	16,	1,	0 },
	{ "data4",	4,	4,	4 },
#ifdef FGRAPH_FL_NO_TIME
	/* A user that does not read calltime and rettime */
	{ "k1notime",	1,	1,	0,	FGRAPH_FL_NO_TIME },
#endif
};
#endif

static void bench_run(void)
{
	int __maybe_unused i;

#ifdef FGRAPH_MULTI_USER
	pr_info("start calls=%lu rounds=%d multi_user=1\n", calls, rounds);
#else
	pr_info("start calls=%lu rounds=%d multi_user=0\n", calls, rounds);
#endif
	if (want_case("k1"))
		bench_k1();
#ifdef FGRAPH_MULTI_USER
	for (i = 0; i < ARRAY_SIZE(bench_cases); i++) {
		const struct bench_case *c = &bench_cases[i];

		if (want_case(c->name))
			bench_users(c->name, c->users, c->matching,
				    c->data_words, c->flags);
	}
	if (want_case("depth"))
		bench_depth();
#endif
	if (want_case("kretprobe"))
		bench_kretprobe();
#ifdef CONFIG_FPROBE
	if (want_case("fprobe"))
		bench_fprobe();
#endif
	if (want_case("loop_plain"))
		bench_report("loop_plain", 0, bench_median(), 0, true);
	if (want_case("loop_tracer"))
		bench_report("loop_tracer", 0, bench_median(), 0, true);
	if (want_case("mem"))
		bench_mem();
	if (want_case("reg1000"))
		bench_reg1000();
	pr_info("done\n");
}

static int bench_run_set(const char *val, const struct kernel_param *kp)
{
	mutex_lock(&bench_mutex);
	strscpy(cases, val, sizeof(cases));
	strim(cases);
	bench_run();
	mutex_unlock(&bench_mutex);
	return 0;
}

static const struct kernel_param_ops bench_run_ops = {
	.set	= bench_run_set,
};
module_param_cb(run, &bench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "Write a list of cases to run them");

static int __init bench_init(void)
{
	mutex_lock(&bench_mutex);
	bench_run();
	mutex_unlock(&bench_mutex);
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("Cost of function graph users per traced call");
MODULE_LICENSE("GPL");
