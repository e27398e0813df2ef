/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads asleep inside a probed function, for kretprobe_test.c and
 * fprobe_test.c. The module's own noinline function, the one its probe is
 * on, calls sleepers_wait(); sleepers_start() has @n threads call that
 * function and returns once all of them sleep in it, and sleepers_finish()
 * wakes them and waits until they have returned.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/wait.h>

#define SLEEPERS_MAX	256

static atomic_t sleepers_inside;
static struct task_struct *sleepers_tasks[SLEEPERS_MAX];
static DECLARE_WAIT_QUEUE_HEAD(sleepers_wq);
static bool sleepers_release;
static int sleepers_started;
static long (*sleepers_fn)(long arg);

/* Called from the probed function: sleep until sleepers_finish() */
static void sleepers_wait(void)
{
	atomic_inc(&sleepers_inside);
	wait_event(sleepers_wq, READ_ONCE(sleepers_release));
}

/* Returns into module text: sleepers_finish() waits with kthread_stop() */
static int sleepers_thread(void *arg)
{
	sleepers_fn((long)arg);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 100);
	return 0;
}

/* @n threads call @fn(1) ... @fn(n): 0 once all sleep inside it */
static int sleepers_start(long (*fn)(long arg), int n, const char *name)
{
	struct task_struct *t;
	int wait;

	sleepers_fn = fn;
	sleepers_started = 0;
	atomic_set(&sleepers_inside, 0);
	WRITE_ONCE(sleepers_release, false);
	if (n > SLEEPERS_MAX)
		return -E2BIG;
	while (sleepers_started < n) {
		t = kthread_run(sleepers_thread, (void *)(long)(sleepers_started + 1),
				"%s/%d", name, sleepers_started);
		if (IS_ERR(t))
			return PTR_ERR(t);
		get_task_struct(t);
		sleepers_tasks[sleepers_started++] = t;
	}
	for (wait = 0; atomic_read(&sleepers_inside) < n && wait < 30000; wait += 10)
		msleep(10);
	return atomic_read(&sleepers_inside) == n ? 0 : -ETIMEDOUT;
}

/* Wake the threads and wait until every one started has exited */
static void sleepers_finish(void)
{
	int i;

	WRITE_ONCE(sleepers_release, true);
	wake_up_all(&sleepers_wq);
	for (i = 0; i < sleepers_started; i++) {
		kthread_stop(sleepers_tasks[i]);
		put_task_struct(sleepers_tasks[i]);
	}
	sleepers_started = 0;
}
