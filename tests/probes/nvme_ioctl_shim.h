/* SPDX-License-Identifier: MIT */
/*
 * A mocked ioctl() for the NVMe probe tests: NVMe admin commands sent to one
 * fake descriptor (a regular file the test opens) are answered from a table
 * of expected commands, in order; every other ioctl goes to the real one.
 *
 * The shim is built two ways from nvme_ioctl_shim.c: a shared library to
 * LD_PRELOAD, and linked into a test program that exports its symbols (the
 * program's ioctl then comes first for libnvme too, which also holds under
 * AddressSanitizer, whose runtime must come first in a preload list and has
 * an ioctl interceptor of its own).  Tests find the control table with
 * dlsym(RTLD_DEFAULT, "nvme_shim_api") either way.
 */
#ifndef SLCSCOPE_NVME_IOCTL_SHIM_H
#define SLCSCOPE_NVME_IOCTL_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* One expected admin command and its reply. */
struct nvme_shim_step {
	uint8_t opcode;          /* admin opcode: 06h Identify, 02h Get Log Page, ... */
	uint32_t nsid;
	uint32_t cdw10;
	uint32_t cdw11;          /* compared when match_cdw11 */
	int match_cdw11;
	uint32_t data_len;       /* the buffer the command must carry; 0: any */
	const void *reply;       /* copied into the command's buffer (the shim keeps a copy) */
	size_t reply_len;        /* may be shorter than data_len: a short transfer */
	int status;              /* NVMe status: the ioctl's return value */
	int err;                 /* non-zero: the ioctl fails with this errno instead */
	uint32_t result;         /* completion dword 0 */
};

struct nvme_shim_api {
	/* Forget everything; answer on @fd.  NVME_IOCTL_ID returns @nsid when
	 * positive, fails with errno -@nsid when negative. */
	void (*reset)(int fd, long nsid);
	/* Append one expected command. */
	void (*expect)(const struct nvme_shim_step *step);
	/* Expected commands not yet seen. */
	int (*pending)(void);
	/* Commands that did not match the next expected one (answered EPROTO). */
	int (*mismatches)(void);
	/* The first mismatch, described; "" when none. */
	const char *(*mismatch_text)(void);
	/* Admin commands answered on the fake descriptor. */
	int (*answered)(void);
};

#endif
