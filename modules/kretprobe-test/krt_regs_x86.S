/* SPDX-License-Identifier: GPL-2.0 */
/*
 * krt_regs_call_traced(a0, ..., a5), krt_regs_call_untraced(...): call
 * the target with known values in every callee-saved register (KRT_K0 +
 * n), which the target keeps, so that a kretprobe's handlers see them at
 * entry and at return; and KRT_MEM at the stack pointer of the return.
 * krt_regs_ret_traced/untraced: where the target returns to. What the
 * callee-saved registers hold after the return goes to krt_regs_after[].
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

.macro krt_regs_call name
SYM_FUNC_START(krt_regs_call_\name)
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movabsq $0x6b72740000000000, %rbx
	leaq 1(%rbx), %rbp
	leaq 2(%rbx), %r12
	leaq 3(%rbx), %r13
	leaq 4(%rbx), %r14
	leaq 5(%rbx), %r15
	/* The word at the stack pointer of the return: KRT_MEM */
	pushq $0x6b72746d
	call krt_regs_\name
SYM_INNER_LABEL(krt_regs_ret_\name, SYM_L_GLOBAL)
	/* What the caller finds in the callee-saved registers */
	movq %rbx, krt_regs_after(%rip)
	movq %rbp, krt_regs_after+8(%rip)
	movq %r12, krt_regs_after+16(%rip)
	movq %r13, krt_regs_after+24(%rip)
	movq %r14, krt_regs_after+32(%rip)
	movq %r15, krt_regs_after+40(%rip)
	addq $8, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	RET
SYM_FUNC_END(krt_regs_call_\name)
.endm

	.text
	krt_regs_call traced
	krt_regs_call untraced
