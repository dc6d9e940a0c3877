// SPDX-License-Identifier: MIT
/*
 * The lab as a static site: the stored runs grouped by drive, handed to the
 * session's site writer, which words and draws them as the reports do.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_priv.h"

/* A run's trace still at its stored path with its stored hash?  One that
 * is not only loses its report: the site is built from the database. */
static int same_trace(const struct run_row *r)
{
	char e[1024];

	return slc__lab_same_trace(r->id, r->drive, r->path, r->sha, e, sizeof(e)) == 0;
}

int slc_lab_site(struct slc_lab *lab, const char *dir, int binary, int reports, FILE *log, char *err, size_t errlen)
{
	struct rows rs = { 0 };
	struct slc_site_drive *drives = NULL;
	struct slc_site_run *runs = NULL;
	char (*notes)[96] = NULL, title[160];
	size_t nd = 0;
	int rc = slc__lab_fetch(lab, "ORDER BY r.drive_id, r.id", 0, NULL, &rs, err, errlen);

	if (!rc && (!(drives = calloc(rs.n + 1, sizeof(*drives))) || !(runs = calloc(rs.n + 1, sizeof(*runs))) ||
		    !(notes = calloc(rs.n + 1, sizeof(*notes)))))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < rs.n; i++) {
		const struct run_row *r = &rs.r[i];
		char a[32], b[32];
		if (!nd || drives[nd - 1].id != r->drive_id)
			drives[nd++] = (struct slc_site_drive){ .id = r->drive_id, .name = r->drive, .model = r->model,
								.serial = r->serial, .runs = &runs[i],
								.capacity_bytes = r->capacity > 0 ? r->capacity : 0 };
		drives[nd - 1].n_runs++;
		runs[i] = (struct slc_site_run){ .id = r->id, .created = r->created, .plan = r->plan, .status = r->status,
						 .path = reports && same_trace(r) ? r->path : NULL, .v = r->v };
		if (!reports) runs[i].path = r->path;
		runs[i].partial = *r->status && strcmp(r->status, "complete");
		if (!isfinite(r->v[SLC_LAB_CACHE]) && isfinite(r->cache_min)) {
			snprintf(notes[i], sizeof(notes[i]), "cache between %s and %s: it ended inside the first samples",
				 slc_format_bytes(a, sizeof(a), r->cache_min, binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL),
				 slc_format_bytes(b, sizeof(b), r->cache_max, binary ? SLC_UNITS_BINARY : SLC_UNITS_DECIMAL));
			runs[i].note = notes[i];
		}
	}
	if (rc == -ENOMEM) snprintf(err, errlen, "out of memory");
	if (!rc) {
		snprintf(title, sizeof(title), "The lab's drives");
		const struct slc_site site = { .title = title, .cols = slc__lab_columns, .n_cols = SLC_LAB_FIGURE__COUNT,
					       .drives = drives, .n_drives = nd, .reports = reports, .binary = binary };
		rc = slc_site_write(dir, &site, log, err, errlen);
	}
	free(notes);
	free(runs);
	free(drives);
	free(rs.r);
	return rc;
}
