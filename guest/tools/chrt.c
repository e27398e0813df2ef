// SPDX-License-Identifier: GPL-2.0
/*
 * chrt -f|-r PRIO COMMAND [ARG...]: run COMMAND with a real-time policy.
 * busybox-static of Debian has no chrt; ftracetest's wakeup tracer cases
 * need it. Built static for the guest by scripts/mkinitramfs.sh.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sched_param sp;
	int policy;

	if (argc < 4 || (strcmp(argv[1], "-f") && strcmp(argv[1], "-r"))) {
		fprintf(stderr, "usage: chrt -f|-r PRIO COMMAND [ARG...]\n");
		return 2;
	}
	policy = argv[1][1] == 'f' ? SCHED_FIFO : SCHED_RR;
	sp.sched_priority = atoi(argv[2]);
	if (sched_setscheduler(0, policy, &sp)) {
		perror("chrt: sched_setscheduler");
		return 1;
	}
	execvp(argv[3], argv + 3);
	perror("chrt: exec");
	return 127;
}
