// SPDX-License-Identifier: GPL-2.0
/*
 * The registers a kretprobe's handlers see, on each path a kretprobe takes.
 *
 * An assembly helper (krt_regs_$(SRCARCH).S) calls a target with known
 * arguments and known values in every callee-saved register; the target
 * keeps them, as the ABI wants, so they are the same at its entry and at
 * its return. Two targets, the same code:
 *  traced:   an ftrace location. On the series' kernel its kretprobe rides
 *	      the fgraph shadow stack; booted with kretprobe_fgraph=0, and on
 *	      the base, it is a kprobe on ftrace (x86_64) or a breakpoint
 *	      (arm64), with a rethook/trampoline return.
 *  untraced: notrace: always a breakpoint kprobe and the old return.
 * For each, at load, one line:
 *
 *   kretprobe_regs: target=T path=fgraph|kprobe calls=N override=ok|no
 *	mismatches=none [ret_lr=SYMBOL]
 *
 * ret_lr (arm64 only): what the link register points to at return, the
 * trampoline the target returned to, which differs between the paths.
 * mismatches= lists the registers whose value was not the expected one, as
 * entry:REG=GOT/WANT or return:REG=GOT/WANT. The expected values: the
 * arguments, the callee-saved registers, the stack pointer (at return:
 * that of entry, past the return address on x86_64), the frame pointer of
 * the helper (arm64), the instruction pointer a kprobe reports (entry: the
 * probed address, after the breakpoint on x86_64; return: where the target
 * returns to), the return value, kernel mode; and after the return, the
 * caller's callee-saved registers. A last call has the return handler
 * change the return value: the caller must get the changed value
 * (override=ok).
 *
 * Then, for tracing tools (kprobe events, BPF), writing to the parameter
 * "call" calls the traced target as the test did: a tool probing it must
 * see the return value 1, the callee-saved registers KRT_K0 + n and the
 * word KRT_MEM at the stack pointer, on either path. (Kprobe events and
 * BPF refuse notrace functions: the untraced target is for this module.)
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/ptrace.h>

#define KRT_K0		0x6b72740000000000UL
#define KRT_ARG0	0x61726700UL
#define KRT_CHANGED	0x5a5aUL

long krt_regs_call_traced(long a0, long a1, long a2, long a3, long a4,
			  long a5);
long krt_regs_call_untraced(long a0, long a1, long a2, long a3, long a4,
			    long a5);
extern char krt_regs_ret_traced[], krt_regs_ret_untraced[];
/* Written by the helpers right after the call */
unsigned long krt_regs_after[10];

noinline long krt_regs_traced(long a0, long a1, long a2, long a3, long a4,
			      long a5)
{
	barrier();
	return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5;
}

noinline notrace long krt_regs_untraced(long a0, long a1, long a2, long a3,
					long a4, long a5)
{
	barrier();
	return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5;
}

/* One general register: its name and where pt_regs keeps it */
struct krt_reg {
	const char	*name;
	size_t		off;
};

#define KRT_REG(n, f)	{ n, offsetof(struct pt_regs, f) }

#ifdef CONFIG_X86_64
#define KRT_IP_ADJ	1
#define KRT_RET_POP	sizeof(long)
static const struct krt_reg krt_args[] = {
	KRT_REG("di", di), KRT_REG("si", si), KRT_REG("dx", dx),
	KRT_REG("cx", cx), KRT_REG("r8", r8), KRT_REG("r9", r9),
};
static const struct krt_reg krt_saved[] = {
	KRT_REG("bx", bx), KRT_REG("bp", bp), KRT_REG("r12", r12),
	KRT_REG("r13", r13), KRT_REG("r14", r14), KRT_REG("r15", r15),
};
#elif defined(CONFIG_ARM64)
#define KRT_IP_ADJ	0
#define KRT_RET_POP	0
static const struct krt_reg krt_args[] = {
	KRT_REG("x0", regs[0]), KRT_REG("x1", regs[1]),
	KRT_REG("x2", regs[2]), KRT_REG("x3", regs[3]),
	KRT_REG("x4", regs[4]), KRT_REG("x5", regs[5]),
};
static const struct krt_reg krt_saved[] = {
	KRT_REG("x19", regs[19]), KRT_REG("x20", regs[20]),
	KRT_REG("x21", regs[21]), KRT_REG("x22", regs[22]),
	KRT_REG("x23", regs[23]), KRT_REG("x24", regs[24]),
	KRT_REG("x25", regs[25]), KRT_REG("x26", regs[26]),
	KRT_REG("x27", regs[27]), KRT_REG("x28", regs[28]),
};
#endif

static unsigned long krt_get(struct pt_regs *regs, const struct krt_reg *r)
{
	return *(unsigned long *)((char *)regs + r->off);
}

static struct pt_regs krt_at_entry, krt_at_return;
static int krt_calls;
static bool krt_change;

static int krt_regs_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	krt_at_entry = *regs;
	return 0;
}

static int krt_regs_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	krt_at_return = *regs;
	krt_calls++;
	if (krt_change)
		regs_set_return_value(regs, KRT_CHANGED);
	return 0;
}

/*
 * What an arch cannot give as the old path does, shown: arm64's link
 * register at return holds the trampoline the function returned to.
 */
static const char *krt_ret_lr(void)
{
#ifdef CONFIG_ARM64
	static char buf[KSYM_SYMBOL_LEN + 8];

	snprintf(buf, sizeof(buf), " ret_lr=%ps", (void *)krt_at_return.regs[30]);
	return buf;
#else
	return "";
#endif
}

static char krt_out[512];
static int krt_len;

static void krt_expect(const char *when, const char *name, unsigned long got,
		       unsigned long want)
{
	if (got == want)
		return;
	krt_len += scnprintf(krt_out + krt_len, sizeof(krt_out) - krt_len,
			     "%s%s:%s=%lx/%lx", krt_len ? "," : "", when, name,
			     got, want);
}

static void krt_regs_test(const char *target, void *func, char *ret_addr,
			  long (*call)(long, long, long, long, long, long))
{
	struct kretprobe rp = {
		.kp.addr	= func,
		.handler	= krt_regs_return,
		.entry_handler	= krt_regs_entry,
	};
	const char *path = "kprobe";
	unsigned long want;
	long got;
	int i, ret;

	krt_len = 0;
	krt_calls = 0;
	krt_change = false;
	memset(krt_regs_after, 0, sizeof(krt_regs_after));
	ret = register_kretprobe(&rp);
	if (ret) {
		pr_err("kretprobe_regs: target=%s register_kretprobe: %d\n",
		       target, ret);
		return;
	}
#ifdef KPROBE_FLAG_FGRAPH
	if (rp.kp.flags & KPROBE_FLAG_FGRAPH)
		path = "fgraph";
#endif
	want = KRT_ARG0 ^ (KRT_ARG0 + 1) ^ (KRT_ARG0 + 2) ^ (KRT_ARG0 + 3) ^
	       (KRT_ARG0 + 4) ^ (KRT_ARG0 + 5);
	got = call(KRT_ARG0, KRT_ARG0 + 1, KRT_ARG0 + 2, KRT_ARG0 + 3,
		   KRT_ARG0 + 4, KRT_ARG0 + 5);
	krt_expect("call", "ret", got, want);

	for (i = 0; i < ARRAY_SIZE(krt_args); i++)
		krt_expect("entry", krt_args[i].name,
			   krt_get(&krt_at_entry, &krt_args[i]), KRT_ARG0 + i);
	for (i = 0; i < ARRAY_SIZE(krt_saved); i++) {
		krt_expect("entry", krt_saved[i].name,
			   krt_get(&krt_at_entry, &krt_saved[i]), KRT_K0 + i);
		krt_expect("return", krt_saved[i].name,
			   krt_get(&krt_at_return, &krt_saved[i]), KRT_K0 + i);
		/* And the return trampoline gave the caller its values back */
		krt_expect("after", krt_saved[i].name, krt_regs_after[i],
			   KRT_K0 + i);
	}
	krt_expect("entry", "user_mode", user_mode(&krt_at_entry), 0);
	krt_expect("return", "user_mode", user_mode(&krt_at_return), 0);
	/* The probed address: past an ENDBR on x86_64 with IBT */
	krt_expect("entry", "ip", instruction_pointer(&krt_at_entry),
		   (unsigned long)rp.kp.addr + KRT_IP_ADJ);
	krt_expect("return", "ip", instruction_pointer(&krt_at_return),
		   (unsigned long)ret_addr);
	krt_expect("return", "ret", regs_return_value(&krt_at_return), want);
	krt_expect("return", "sp", kernel_stack_pointer(&krt_at_return),
		   kernel_stack_pointer(&krt_at_entry) + KRT_RET_POP);
#ifdef CONFIG_ARM64
	/* The helper's frame, the link to its caller */
	krt_expect("return", "fp", krt_at_return.regs[29],
		   krt_at_entry.regs[29]);
	krt_expect("entry", "lr", krt_at_entry.regs[30],
		   (unsigned long)ret_addr);
#endif

	/* The return handler changes the return value: the caller sees it */
	krt_change = true;
	got = call(1, 2, 4, 8, 16, 32);
	unregister_kretprobe(&rp);

	pr_info("kretprobe_regs: target=%s path=%s calls=%d override=%s mismatches=%s%s\n",
		target, path, krt_calls, got == KRT_CHANGED ? "ok" : "no",
		krt_len ? krt_out : "none", krt_ret_lr());
}

static int krt_regs_call_set(const char *val, const struct kernel_param *kp)
{
	krt_regs_call_traced(KRT_ARG0, KRT_ARG0 + 1, KRT_ARG0 + 2,
			     KRT_ARG0 + 3, KRT_ARG0 + 4, KRT_ARG0 + 5);
	return 0;
}

static const struct kernel_param_ops krt_regs_call_ops = {
	.set	= krt_regs_call_set,
};
module_param_cb(call, &krt_regs_call_ops, NULL, 0200);
MODULE_PARM_DESC(call, "write anything: call the traced target once");

static int __init krt_regs_init(void)
{
	krt_regs_test("traced", krt_regs_traced, krt_regs_ret_traced,
		      krt_regs_call_traced);
	krt_regs_test("untraced", krt_regs_untraced, krt_regs_ret_untraced,
		      krt_regs_call_untraced);
	return 0;
}

static void __exit krt_regs_exit(void)
{
}

module_init(krt_regs_init);
module_exit(krt_regs_exit);
MODULE_DESCRIPTION("The registers kretprobe handlers see");
MODULE_LICENSE("GPL");
