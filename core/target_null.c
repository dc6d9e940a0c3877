// SPDX-License-Identifier: MIT
/*
 * The null target ("null:SIZE"): completes every command at once without
 * doing it, on the monotonic clock, so a run measures the engine's own
 * overhead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "private.h"
#include "target_priv.h"

struct null_priv {
	struct slc_io *q[1024];
	unsigned n;
};

static int null_submit(struct slc_target *t, struct slc_io *io, void *buf)
{
	struct null_priv *p = t->priv;
	(void)buf;
	if (p->n == 1024)
		return -EBUSY;
	p->q[p->n++] = io;
	return 0;
}

static int null_reap(struct slc_target *t, struct slc_io **done, unsigned max, unsigned min)
{
	struct null_priv *p = t->priv;
	uint64_t now = slc__target_mono_ns();
	unsigned n = p->n < max ? p->n : max;

	(void)min;
	for (unsigned i = 0; i < n; i++) {
		p->q[i]->result = (int)p->q[i]->len;
		p->q[i]->complete_ns = now;
		done[i] = p->q[i];
	}
	memmove(p->q, p->q + n, (p->n - n) * sizeof(p->q[0]));
	p->n -= n;
	return (int)n;
}

static int null_discard(struct slc_target *t, uint64_t offset, uint64_t len)
{
	(void)t; (void)offset; (void)len;
	return 0;
}

static void null_close(struct slc_target *t)
{
	free(t->priv);
}

static int null_twin(struct slc_target *t, struct slc_target *tw, unsigned qd, char *err, size_t errlen)
{
	(void)t; (void)qd;
	if (!(tw->priv = calloc(1, sizeof(struct null_priv))))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

static const struct slc_target_ops null_ops = {
	.name = "null",
	.caps = SLC_TARGET_CAP_NO_IO | SLC_TARGET_CAP_IGNORES_DATA,
	.submit = null_submit,
	.reap = null_reap,
	.now_ns = slc__target_mono_now,
	.discard = null_discard,
	.idle = slc__target_mono_idle,
	.twin = null_twin,
	.close = null_close,
};

int slc__target_null_size(const char *spec, uint64_t *bytes, char *err, size_t errlen)
{
	char why[128];

	*bytes = 0;
	if (slc_parse_bytes(bytes, spec + 5, why, sizeof(why)))
		return slc_errf(err, errlen, -EINVAL, "%s: %s; null: needs a size of at least 4k, as in null:100GB",
				spec, why);
	if (*bytes < 4096)
		return slc_errf(err, errlen, -EINVAL, "null: needs a size of at least 4k, as in null:100GB");
	return 0;
}

int slc__target_null_open(struct slc_target *t, const char *spec, const struct slc_target_opts *o,
			  char *err, size_t errlen)
{
	int rc;

	(void)o;
	if ((rc = slc__target_null_size(spec, &t->capacity_bytes, err, errlen)))
		return rc;
	t->priv = calloc(1, sizeof(struct null_priv));
	if (!t->priv)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	t->ops = &null_ops;
	t->kind = SLC_TARGET_NULL;
	t->logical_block_bytes = 512;
	t->physical_block_bytes = 4096;
	return 0;
}
