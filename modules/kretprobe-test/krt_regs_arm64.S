/* SPDX-License-Identifier: GPL-2.0 */
/*
 * krt_regs_call_traced(a0, ..., a5), krt_regs_call_untraced(...): call the
 * target with known values in every callee-saved register x19-x28
 * (KRT_K0 + n), which the target keeps, so that a kretprobe's handlers see
 * them at entry and at return; and KRT_MEM at the stack pointer of the
 * return. krt_regs_ret_traced/untraced: where the target returns to. What
 * the callee-saved registers hold after the return goes to
 * krt_regs_after[].
 */
#include <linux/linkage.h>
#include <asm/assembler.h>

.macro krt_regs_call name
SYM_FUNC_START(krt_regs_call_\name)
	sub	sp, sp, #112
	stp	x29, x30, [sp, #16]
	add	x29, sp, #16
	stp	x19, x20, [sp, #32]
	stp	x21, x22, [sp, #48]
	stp	x23, x24, [sp, #64]
	stp	x25, x26, [sp, #80]
	stp	x27, x28, [sp, #96]
	/* The word at the stack pointer of the return: KRT_MEM */
	mov_q	x9, 0x6b72746d
	str	x9, [sp]
	mov_q	x19, 0x6b72740000000000
	add	x20, x19, #1
	add	x21, x19, #2
	add	x22, x19, #3
	add	x23, x19, #4
	add	x24, x19, #5
	add	x25, x19, #6
	add	x26, x19, #7
	add	x27, x19, #8
	add	x28, x19, #9
	bl	krt_regs_\name
SYM_INNER_LABEL(krt_regs_ret_\name, SYM_L_GLOBAL)
	/* What the caller finds in the callee-saved registers */
	adr_l	x9, krt_regs_after
	stp	x19, x20, [x9]
	stp	x21, x22, [x9, #16]
	stp	x23, x24, [x9, #32]
	stp	x25, x26, [x9, #48]
	stp	x27, x28, [x9, #64]
	ldp	x19, x20, [sp, #32]
	ldp	x21, x22, [sp, #48]
	ldp	x23, x24, [sp, #64]
	ldp	x25, x26, [sp, #80]
	ldp	x27, x28, [sp, #96]
	ldp	x29, x30, [sp, #16]
	add	sp, sp, #112
	ret
SYM_FUNC_END(krt_regs_call_\name)
.endm

	.text
	krt_regs_call traced
	krt_regs_call untraced
