// SPDX-License-Identifier: MIT
/* A plan in words: what each step does and how long the whole takes. */
#include <stdio.h>
#include <string.h>

#include "exp/exp.h"
#include "slcscope/session.h"

/* What a job step does, in words: the sweeps say read or write. */
static const char *job_words(char *buf, size_t len, const struct slc_step *s)
{
	const char *order = slc_job_kind_sequential(s->job.kind) ? "sequential" : "random";
	uint32_t pct = slc_job_kind_read_pct(s->job.kind, s->job.read_pct);

	if (s->job.kind == SLC_JOB_SEQ_MIXED || s->job.kind == SLC_JOB_RAND_MIXED)
		snprintf(buf, len, "%s %u%% reads", order, pct);
	else if (s->role == SLC_ROLE_SWEEP || s->job.kind == SLC_JOB_SEQ_READ)
		snprintf(buf, len, "%s %s", order, pct ? "read" : "write");
	else
		snprintf(buf, len, "%s", order);
	return buf;
}

void slc_plan_print(FILE *f, const struct slc_plan *p, const char *spec, uint64_t capacity_bytes, int virtual_clock,
		    enum slc_unit_system units)
{
	uint64_t fixed_ns = 0;
	int open_ended = 0, width = 17;
	char a[32], b[32], c[32], w[48];

	fprintf(f, "plan %s on %s (%s):\n", p->name, spec, slc_format_bytes(a, sizeof(a), (double)capacity_bytes, units));
	/* one column of step names, however long the sweeps' state steps' */
	for (size_t i = 0; i < p->n; i++)
		if ((int)strlen(p->step[i].name) > width)
			width = (int)strlen(p->step[i].name);
	for (size_t i = 0; i < p->n; i++) {
		const struct slc_step *s = &p->step[i];
		uint64_t bytes = 0;

		fprintf(f, "  %zu. %-*s ", i + 1, width, s->name);
		switch (s->kind) {
		case SLC_STEP_TRIM:
			if (s->bytes.bytes || s->bytes.capacity_multiple > 0) {
				slc_size_resolve(&bytes, &s->bytes, capacity_bytes);
				fprintf(f, "TRIM the first %s", slc_format_bytes(a, sizeof(a), (double)bytes, units));
			} else {
				fprintf(f, "TRIM all %s", slc_format_bytes(a, sizeof(a), (double)capacity_bytes, units));
			}
			fprintf(f, ", wait %s\n", slc_format_duration(b, sizeof(b), s->wait_ns));
			fixed_ns += s->wait_ns;
			break;
		case SLC_STEP_IDLE:
			fprintf(f, "idle %s\n", slc_format_duration(b, sizeof(b), s->wait_ns));
			fixed_ns += s->wait_ns;
			break;
		case SLC_STEP_DUTY:
			fprintf(f, "%u x (random %s QD%u for %s, wait %s)\n", s->rounds,
			       slc_format_bytes(a, sizeof(a), (double)s->job.block_bytes, SLC_UNITS_BINARY), s->job.queue_depth,
			       slc_format_duration(b, sizeof(b), s->job.max_ns),
			       slc_format_duration(c, sizeof(c), s->wait_ns));
			fixed_ns += (uint64_t)s->rounds * (s->job.max_ns + s->wait_ns);
			break;
		case SLC_STEP_JOB:
			slc_size_resolve(&bytes, &s->bytes, capacity_bytes);
			fprintf(f, "%s %s QD%u", job_words(w, sizeof(w), s),
			       slc_format_bytes(a, sizeof(a), (double)s->job.block_bytes, SLC_UNITS_BINARY), s->job.queue_depth);
			if (s->job.jobs > 1)
				fprintf(f, " x %u jobs", s->job.jobs);
			if (bytes)
				fprintf(f, ", until %s written", slc_format_bytes(a, sizeof(a), (double)bytes, units));
			if (s->job.max_ns)
				fprintf(f, "%s %s", bytes ? " or" : ",", slc_format_duration(b, sizeof(b), s->job.max_ns));
			fprintf(f, "\n");
			if (s->job.max_ns)
				fixed_ns += s->job.max_ns;
			else
				open_ended = 1;
		}
	}
	fprintf(f, "time: %s%s%s\n", open_ended ? "at least " : "", slc_format_duration(a, sizeof(a), fixed_ns),
	       open_ended ? " plus the sequential fill at the drive's speed" : "");
	if (virtual_clock)
		fprintf(f, "(virtual time: a simulated drive runs much faster than that)\n");
	if (slc__experiment_named(p->name) && slc__experiment_named(p->name)->note)
		fprintf(f, "note: %s\n", slc__experiment_named(p->name)->note);
}
