// SPDX-License-Identifier: MIT
/* What the experiment modules share. */
#include <math.h>

#include "exp.h"

const struct slc_size slc__no_size = { 0, 0 };

double slc__seg_write_bps(const struct slc_input_segment *s)
{
	double t = s->n_samples ? s->t_s[s->n_samples - 1] : 0;

	return t > 0 ? (double)s->bytes_total[s->n_samples - 1] / t : NAN;
}

json_t *slc__jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
