// SPDX-License-Identifier: MIT
/*
 * Time the host was away, told apart from time the drive took.
 *
 * A process stopped (SIGSTOP, Ctrl-Z) submits nothing while the drive
 * finishes what it had: on resume the sampler would close an interval of
 * zero bytes for every interval of the stop, a stall the drive never had.
 * The resume is seen by its SIGCONT (the kernel delivers it to a handler
 * after continuing the process); the pause then began no earlier than the
 * engine's last pass through its loop, which with commands in flight is at
 * most one completion's wait before the stop.  A suspend stops the
 * monotonic clock that the samples use, so it leaves no gap in them; the
 * boot clock runs on through it, and the difference between the two grows
 * by its length, which the trace records as well.
 */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"          /* slc__target_mono_ns(): the real targets' clock */

static volatile sig_atomic_t conts;

static void on_cont(int sig)
{
	(void)sig;
	conts++;
}

int slc_host_watch_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_cont;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGCONT, &sa, NULL) ? -1 : 0;
}

static int64_t boot_minus_mono_ns(void)
{
	struct timespec b, m;

	clock_gettime(CLOCK_BOOTTIME, &b);
	clock_gettime(CLOCK_MONOTONIC, &m);
	return ((int64_t)b.tv_sec - (int64_t)m.tv_sec) * 1000000000ll + (b.tv_nsec - m.tv_nsec);
}

/* Less than this between the two clocks is their reading apart, not a suspend. */
#define SUSPEND_MIN_NS 10000000ll

void slc_host_watch_init(struct slc_host_watch *w)
{
	w->conts = (unsigned)conts;
	w->boot_off_ns = boot_minus_mono_ns();
}

int slc__host_watch_continued(const struct slc_host_watch *w)
{
	return (unsigned)conts != w->conts;
}

/* Less than this is no pause worth a record (a SIGCONT sent to a running
 * process). */
#define PAUSE_MIN_NS 1000000ull

uint64_t slc__host_stop(unsigned what, uint64_t from, uint64_t now, uint64_t *end)
{
	if (what & SLC_HOST_CONTINUED) {
		/* the stop may have come after @now was read (inside a wait,
		 * or in the check): it ended no earlier than the clock says now */
		uint64_t c = slc__target_mono_ns();

		if (c > now)
			now = c;
	}
	*end = now;
	return (what & SLC_HOST_CONTINUED) && now > from && now - from >= PAUSE_MIN_NS ? now - from : 0;
}

unsigned slc_host_watch_check(struct slc_host_watch *w, uint64_t *suspended_ns)
{
	unsigned c = (unsigned)conts, r = 0;
	int64_t off = boot_minus_mono_ns();

	*suspended_ns = 0;
	if (c != w->conts) {
		w->conts = c;
		r |= SLC_HOST_CONTINUED;
	}
	if (off - w->boot_off_ns >= SUSPEND_MIN_NS) {
		*suspended_ns = (uint64_t)(off - w->boot_off_ns);
		w->boot_off_ns = off;
		r |= SLC_HOST_SUSPENDED;
	}
	return r;
}
