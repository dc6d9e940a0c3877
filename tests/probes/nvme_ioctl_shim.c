// SPDX-License-Identifier: MIT
/* Mocked ioctl() for the NVMe probe tests: see nvme_ioctl_shim.h. */
#include <dlfcn.h>
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "nvme_ioctl_shim.h"

#define MAX_STEPS 128

static struct {
	int fd;
	long nsid;
	struct nvme_shim_step steps[MAX_STEPS];
	int n, next;
	int mismatches, answered;
	char mismatch[256];
} shim = { .fd = -1 };

static void shim_reset(int fd, long nsid)
{
	for (int i = 0; i < shim.n; i++)
		free((void *)shim.steps[i].reply);
	memset(&shim, 0, sizeof(shim));
	shim.fd = fd;
	shim.nsid = nsid;
}

static void shim_expect(const struct nvme_shim_step *step)
{
	if (shim.n >= MAX_STEPS) {
		fprintf(stderr, "nvme_ioctl_shim: more than %d expected commands\n", MAX_STEPS);
		abort();
	}
	struct nvme_shim_step *s = &shim.steps[shim.n++];
	*s = *step;
	if (step->reply && step->reply_len) {
		void *copy = malloc(step->reply_len);
		if (!copy)
			abort();
		memcpy(copy, step->reply, step->reply_len);
		s->reply = copy;
	} else {
		s->reply = NULL;
		s->reply_len = 0;
	}
}

static int shim_pending(void) { return shim.n - shim.next; }
static int shim_mismatches(void) { return shim.mismatches; }
static const char *shim_mismatch_text(void) { return shim.mismatch; }
static int shim_answered(void) { return shim.answered; }

const struct nvme_shim_api nvme_shim_api = {
	.reset = shim_reset,
	.expect = shim_expect,
	.pending = shim_pending,
	.mismatches = shim_mismatches,
	.mismatch_text = shim_mismatch_text,
	.answered = shim_answered,
};

static int mismatch(const char *fmt, ...)
{
	if (!shim.mismatches++) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(shim.mismatch, sizeof(shim.mismatch), fmt, ap);
		va_end(ap);
	}
	errno = EPROTO;
	return -1;
}

/* One admin command (the 32- and 64-bit-result forms share the fields used). */
static int admin(uint8_t opcode, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, uint64_t addr, uint32_t data_len,
		 uint32_t *result)
{
	if (shim.next >= shim.n)
		return mismatch("unexpected admin command opcode 0x%02x nsid 0x%x cdw10 0x%08x: none expected",
				opcode, nsid, cdw10);
	const struct nvme_shim_step *s = &shim.steps[shim.next];
	if (s->opcode != opcode || s->nsid != nsid || s->cdw10 != cdw10 ||
	    (s->match_cdw11 && s->cdw11 != cdw11) || (s->data_len && s->data_len != data_len))
		return mismatch("admin command %d: got opcode 0x%02x nsid 0x%x cdw10 0x%08x cdw11 0x%08x len %u, "
				"expected opcode 0x%02x nsid 0x%x cdw10 0x%08x cdw11 0x%08x len %u",
				shim.next, opcode, nsid, cdw10, cdw11, data_len, s->opcode, s->nsid, s->cdw10,
				s->cdw11, s->data_len);
	shim.next++;
	shim.answered++;
	if (s->err) {
		errno = s->err;
		return -1;
	}
	if (s->reply && addr && data_len) {
		size_t n = s->reply_len < data_len ? s->reply_len : data_len;
		memcpy((void *)(uintptr_t)addr, s->reply, n);
	}
	*result = s->result;
	return s->status;
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);

	if (fd >= 0 && fd == shim.fd) {
		switch (request) {
		case NVME_IOCTL_ID:
			if (shim.nsid < 0) {
				errno = (int)-shim.nsid;
				return -1;
			}
			return (int)shim.nsid;
		case NVME_IOCTL_ADMIN_CMD: {
			struct nvme_passthru_cmd *c = arg;
			return admin(c->opcode, c->nsid, c->cdw10, c->cdw11, c->addr, c->data_len, &c->result);
		}
		case NVME_IOCTL_ADMIN64_CMD: {
			struct nvme_passthru_cmd64 *c = arg;
			uint32_t r = 0;
			int rc = admin(c->opcode, c->nsid, c->cdw10, c->cdw11, c->addr, c->data_len, &r);
			if (rc >= 0)
				c->result = r;
			return rc;
		}
		default:
			break;   /* anything else reaches the regular file: ENOTTY */
		}
	}
	int (*real)(int, unsigned long, ...) = NULL;
	*(void **)(&real) = dlsym(RTLD_NEXT, "ioctl");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, request, arg);
}
