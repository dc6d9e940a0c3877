// SPDX-License-Identifier: MIT
/*
 * Trace reader: loads a whole slcscope trace into a struct slc_input.
 *
 * Nothing in a file is trusted: every group's and dataset's object header
 * is walked before HDF5 opens it, every dataset is checked for rank, type
 * class and a length the file holds before it is read, every
 * variable-length string's heap reference before HDF5 follows it
 * (h5util.c), every numeric attribute against its physical range and every
 * sample against the limits every importer's are checked with (limits.c).  A trace whose columns differ
 * in length (a writer killed inside a flush) is cut to the shortest column
 * with a note rather than refused; samples of zero length (a run stopped
 * right at an interval's end) are merged into their neighbours, with a note.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#include "../private.h"
#include "columns.h"
#include "h5util.h"
#include "input.h"

#define MAX_SAMPLES ((hsize_t)SLC__INPUT_MAX_SAMPLES)   /* per segment, as per import */
#define MAX_SEGMENTS 100000

#define CHUNK_MAX ((hsize_t)256 << 10)        /* raw bytes of one chunk */

/*
 * Every chunk of the first @n elements of @ds (chunks of @chunk elements,
 * @raw bytes) allocated, inside the file, and stored in at most its raw
 * size and a little (deflate's worst case on incompressible data): HDF5
 * allocates a chunk's stored size before it reads it, a read in SWMR mode
 * (the reader's second try) past the end of the file returns zeros for
 * it, and a stored chunk inflates up to ~1000 times.  Bounded so, a chunk
 * costs at most ~300 MB.  Looked up by coordinate: one index search each.
 */
static int chunks_inside(hid_t ds, hsize_t n, hsize_t chunk, hsize_t raw)
{
	hid_t file = H5Iget_file_id(ds);
	hsize_t fsize = 0;
	int ok = file >= 0 && H5Fget_filesize(file, &fsize) >= 0;

	for (hsize_t off = 0; ok > 0 && off < n; off += chunk) {
		unsigned mask = 0;
		haddr_t addr = HADDR_UNDEF;
		hsize_t size = 0, at[1] = { off };

		if (H5Dget_chunk_info_by_coord(ds, at, &mask, &addr, &size) < 0) {
			slc__h5_capture();
			ok = -1;
			break;
		}
		ok = addr != HADDR_UNDEF && size <= raw + raw / 8 + 64 && addr <= fsize && size <= fsize - addr;
	}
	slc__h5_close(file);
	return ok;
}

/*
 * Whether the file holds what dataset @ds declares: @n elements of @elem
 * bytes.  A dimension is only a number in a header; the elements past the
 * stored data read as the fill value, so a small file could declare
 * billions of samples.  Chunked data counts its allocated chunks (each
 * chunk at most CHUNK_MAX, as HDF5 allocates a whole one to read any part,
 * and stored inside the file), contiguous and compact data their stored
 * bytes.  1 held, 0 not, -1 the chunk index unreadable (reason captured).
 */
static int stored(hid_t ds, hsize_t n, size_t elem)
{
	hid_t dcpl = H5Dget_create_plist(ds), space = H5I_INVALID_HID;
	H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
	hsize_t chunk = 0, nchunks = 0;
	int ok = 0;

	if (n == 0) {
		ok = 1;
	} else if (layout == H5D_CHUNKED) {
		ok = H5Pget_chunk(dcpl, 1, &chunk) == 1 && chunk > 0 && chunk * elem <= CHUNK_MAX &&
		     (space = H5Dget_space(ds)) >= 0;
		/* The chunk index is read here first: its damage is the reason, not the length. */
		if (ok && H5Dget_num_chunks(ds, space, &nchunks) < 0) {
			slc__h5_capture();
			ok = -1;
		} else {
			ok = ok && nchunks <= n / chunk + 1 && n <= nchunks * chunk;
			if (ok)
				ok = chunks_inside(ds, n, chunk, chunk * elem);
		}
	} else if (layout == H5D_CONTIGUOUS || layout == H5D_COMPACT) {
		ok = n <= H5Dget_storage_size(ds) / elem;
	}
	slc__h5_close(space);
	slc__h5_close(dcpl);
	return ok;
}

/* Length of a 1-D numeric (or fixed-length string) dataset the file holds, -1 if not one, -2 unreadable. */
static int64_t column_length(hid_t ds, int want_string)
{
	hid_t space = H5Dget_space(ds), type = H5Dget_type(ds);
	hsize_t dim = 0;
	int64_t n = -1;

	if (space >= 0 && type >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
	    H5Sget_simple_extent_dims(space, &dim, NULL) == 1 && dim <= MAX_SAMPLES) {
		H5T_class_t cls = H5Tget_class(type);
		size_t size = H5Tget_size(type);

		if (want_string ? cls == H5T_STRING && H5Tis_variable_str(type) == 0 && size >= 1 && size <= 4096
				: (cls == H5T_INTEGER || cls == H5T_FLOAT) && size >= 1 && size <= 16) {
			int held = stored(ds, dim, size);

			n = held > 0 ? (int64_t)dim : held < 0 ? -2 : -1;
		}
	}
	slc__h5_close(type);
	slc__h5_close(space);
	return n;
}

/*
 * A numeric attribute @name of @obj (at @dir, for the message) into @out as
 * @memtype, checked against its range (limits.c) first: read as a double,
 * a value out of range is refused with its name rather than converted
 * (HDF5 clamps a negative or too large value to the type's range without a
 * word).  An absent attribute leaves *@out as it was (0: unknown).
 */
static int get_attr(hid_t obj, const char *dir, const char *name, hid_t memtype, void *out, char *err, size_t errlen)
{
	const struct slc__limit *l = slc__limit_find(name);
	char path[96];
	double v;
	int rc = slc__h5_get_num(obj, name, H5T_NATIVE_DOUBLE, &v);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return slc_errf(err, errlen, -EINVAL, "attribute %s is not a readable number", path);
	if (!l)
		return slc_errf(err, errlen, -EINVAL, "attribute %s has no range to check it against", path);
	if (!slc__limit_ok(l, v))
		return slc__limit_refuse(err, errlen, l, path, v);
	/* Past 2^53 (a seed) a double is not exact: read in the attribute's own type, checked above. */
	if (l->hi > 9007199254740992.0)
		return slc__h5_get_num(obj, name, memtype, out) ?
			slc_errf(err, errlen, -EINVAL, "attribute %s is not a readable number", path) : 0;
	/* In range, so a whole number below 2^53 where one is meant: exact through the double. */
	if (H5Tequal(memtype, H5T_NATIVE_DOUBLE) > 0)
		*(double *)out = v;
	else if (H5Tequal(memtype, H5T_NATIVE_UINT32) > 0)
		*(uint32_t *)out = (uint32_t)v;
	else if (H5Tequal(memtype, H5T_NATIVE_UINT64) > 0)
		*(uint64_t *)out = (uint64_t)v;
	else if (H5Tequal(memtype, H5T_NATIVE_LONG) > 0)
		*(long *)out = (long)v;
	else
		return slc_errf(err, errlen, -EINVAL, "attribute %s: no conversion", path);
	return 0;
}

/* Read the first @n elements of a 1-D dataset into @buf as @memtype. */
static int read_column(hid_t ds, hid_t memtype, size_t n, void *buf)
{
	hsize_t start = 0, count = n;
	hid_t fspace, mspace;
	int rc = -EIO;

	if (n == 0)
		return 0;
	fspace = H5Dget_space(ds);
	mspace = H5Screate_simple(1, &count, NULL);
	if (fspace >= 0 && mspace >= 0 &&
	    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL) >= 0 &&
	    H5Dread(ds, memtype, mspace, fspace, H5P_DEFAULT, buf) >= 0)
		rc = 0;
	else
		slc__h5_capture();
	slc__h5_close(mspace);
	slc__h5_close(fspace);
	return rc;
}

/*
 * A count column (bytes, I/Os) into @buf as unsigned 64-bit integers.  A
 * signed or floating-point column is read as doubles first: HDF5 would
 * clamp a negative value to 0 and NaN to anything without a word.  Returns
 * 0, -EIO, or -ERANGE with the first bad sample in *@bad and its value in
 * *@badv.
 */
static int read_count_column(hid_t ds, size_t n, uint64_t *buf, size_t *bad, double *badv)
{
	hid_t type = H5Dget_type(ds);
	int plain = type >= 0 && H5Tget_class(type) == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_NONE;

	slc__h5_close(type);
	if (!plain) {
		double *d = (double *)(void *)buf;	/* the same 8 bytes a sample */

		_Static_assert(sizeof(double) == sizeof(uint64_t), "a double per count");
		if (read_column(ds, H5T_NATIVE_DOUBLE, n, d)) return -EIO;
		for (size_t i = 0; i < n; i++)
			if (!(d[i] >= 0 && d[i] < 18446744073709551616.0)) {
				*bad = i;
				*badv = d[i];
				return -ERANGE;
			}
	}
	return read_column(ds, H5T_NATIVE_UINT64, n, buf);
}

static int append_note(struct slc_input *in, const char *note)
{
	size_t old = in->import_notes ? strlen(in->import_notes) : 0;
	char *s = realloc(in->import_notes, old + strlen(note) + 3);

	if (!s)
		return -ENOMEM;
	if (old)
		strcpy(s + old, "; ");
	else
		s[0] = 0;
	strcat(s, note);
	in->import_notes = s;
	return 0;
}

/* The step's role: stored since roles were named, else read from its name. */
static int read_role(hid_t g, const char *dir, struct slc_segment_params *p, char *err, size_t errlen)
{
	char *name = NULL;
	int r = slc__h5_get_str(g, "role", &name);

	if (r == -ENOMEM)
		return slc_errf(err, errlen, r, "out of memory");
	p->role = r ? SLC_ROLE_UNKNOWN : slc_role_from_name(name);
	free(name);
	if (p->role == SLC_ROLE_UNKNOWN) {
		p->role = slc_role_of_step(p->step, &p->role_arg);
		return 0;
	}
	return get_attr(g, dir, "role_arg", H5T_NATIVE_UINT32, &p->role_arg, err, errlen);
}

static int read_params(hid_t g, const char *segname, struct slc_segment_params *p, char *err, size_t errlen)
{
	char **strs[] = { (char **)&p->step, (char **)&p->workload, (char **)&p->data_pattern, (char **)&p->clock,
			  (char **)&p->read_state, (char **)&p->io_mode };
	const char *snames[] = { "step", "workload", "data_pattern", "clock", "read_state", "io_mode" };
	static const struct { const char *name; int u64; size_t off; } nums[] = {
		{ "block_bytes", 0, offsetof(struct slc_segment_params, block_bytes) },
		{ "queue_depth", 0, offsetof(struct slc_segment_params, queue_depth) },
		{ "jobs", 0, offsetof(struct slc_segment_params, jobs) },
		{ "reap_batch", 0, offsetof(struct slc_segment_params, reap_batch) },
		{ "poll_us", 0, offsetof(struct slc_segment_params, poll_us) },
		{ "offset_bytes", 1, offsetof(struct slc_segment_params, offset_bytes) },
		{ "range_bytes", 1, offsetof(struct slc_segment_params, range_bytes) },
		{ "seed", 1, offsetof(struct slc_segment_params, seed) },
	};
	char dir[48];
	uint32_t index = 0;
	int rc;

	snprintf(dir, sizeof(dir), "/segments/%s", segname);
	/* The group's name places it; its index attribute is only checked. */
	if ((rc = get_attr(g, dir, "index", H5T_NATIVE_UINT32, &index, err, errlen)))
		return rc;
	for (size_t i = 0; i < sizeof(snames) / sizeof(snames[0]); i++) {
		int r = slc__h5_get_str(g, snames[i], strs[i]);

		if (r == -ENOMEM)
			return slc_errf(err, errlen, r, "out of memory");
		if (r) {
			*strs[i] = strdup("");
			if (!*strs[i])
				return slc_errf(err, errlen, -ENOMEM, "out of memory");
		}
	}
	/* Numeric parameters are optional: a missing one reads as 0; one out of range refuses the trace. */
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if ((rc = get_attr(g, dir, nums[i].name, nums[i].u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_UINT32,
				   (char *)p + nums[i].off, err, errlen)))
			return rc;
	if ((rc = get_attr(g, dir, "idle_before_s", H5T_NATIVE_DOUBLE, &p->idle_before_s, err, errlen)) ||
	    (rc = get_attr(g, dir, "interval_s", H5T_NATIVE_DOUBLE, &p->interval_s, err, errlen)))
		return rc;
	p->read_pct = UINT32_MAX;
	if ((rc = get_attr(g, dir, "read_pct", H5T_NATIVE_UINT32, &p->read_pct, err, errlen)))
		return rc;
	if (p->read_pct == UINT32_MAX)
		p->read_pct = slc_workload_reads(slc_workload_from_name(p->workload)) ? 100 : 0;
	return read_role(g, dir, p, err, errlen);
}

static int read_events(hid_t seg_group, struct slc_input_segment *seg, const char *segname, char *err,
		       size_t errlen)
{
	hid_t g, ds[4] = { H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID, H5I_INVALID_HID };
	const char *names[4] = { "t_s", "host_bytes", "kind", "value" };
	hid_t kind_type = H5I_INVALID_HID;
	double *t = NULL, *v = NULL;
	uint64_t *hb = NULL;
	char (*kinds)[SLC_TRACE_KIND_MAX + 1] = NULL;
	int64_t n = -1;
	int rc = -EINVAL;
	size_t bad = SIZE_MAX;
	double badv = 0;

	if (H5Lexists(seg_group, "events", H5P_DEFAULT) <= 0)
		return 0;
	g = slc__h5_open_checked(seg_group, "events", H5I_GROUP);
	if (g < 0)
		return slc_errf(err, errlen, -EINVAL, "segment %s: unreadable events group", segname);
	for (int c = 0; c < 4; c++) {
		int64_t len;

		ds[c] = slc__h5_open_checked(g, names[c], H5I_DATASET);
		len = ds[c] >= 0 ? column_length(ds[c], c == 2) : -1;
		if (len < 0) {
			slc_errf(err, errlen, rc, "segment %s: events/%s missing or not a 1-D column", segname,
				 names[c]);
			goto out;
		}
		n = n < 0 || len < n ? len : n;
	}
	rc = -ENOMEM;
	t = malloc((size_t)n * sizeof(*t) + 1);
	v = malloc((size_t)n * sizeof(*v) + 1);
	hb = malloc((size_t)n * sizeof(*hb) + 1);
	kinds = malloc((size_t)n * sizeof(*kinds) + 1);
	seg->events = calloc((size_t)n + 1, sizeof(*seg->events));
	if (!t || !v || !hb || !kinds || !seg->events)
		goto out;
	rc = -EIO;
	kind_type = H5Tcopy(H5T_C_S1);
	if (kind_type < 0 || H5Tset_size(kind_type, SLC_TRACE_KIND_MAX + 1) < 0 ||
	    read_column(ds[0], H5T_NATIVE_DOUBLE, (size_t)n, t) || read_count_column(ds[1], (size_t)n, hb, &bad, &badv) ||
	    read_column(ds[2], kind_type, (size_t)n, kinds) || read_column(ds[3], H5T_NATIVE_DOUBLE, (size_t)n, v)) {
		char why[160];

		if (bad != SIZE_MAX)
			slc_errf(err, errlen, rc, "segment %s: event %zu's host_bytes is %g: a count is a whole number "
				 "from 0", segname, bad, badv);
		else
			slc_errf(err, errlen, rc, "segment %s: cannot read events: %s", segname,
				 slc__h5_reason(why, sizeof(why)));
		goto out;
	}
	for (int64_t i = 0; i < n; i++) {
		kinds[i][SLC_TRACE_KIND_MAX] = 0;
		slc__h5_printable(kinds[i]);
		if (!(t[i] >= 0 && t[i] <= SLC__INPUT_MAX_TIME_S) || (double)hb[i] > SLC__INPUT_MAX_BYTES) {
			seg->n_events = (size_t)i;
			rc = slc_errf(err, errlen, -EINVAL, "segment %s: event %lld has a time or byte count out of range",
				      segname, (long long)i);
			goto out;
		}
		seg->events[i].t_s = t[i];
		seg->events[i].host_bytes = hb[i];
		seg->events[i].value = v[i];
		seg->events[i].kind = strdup(kinds[i]);
		if (!seg->events[i].kind) {
			seg->n_events = (size_t)i;
			rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
	}
	seg->n_events = (size_t)n;
	rc = 0;
out:
	if (rc == -ENOMEM)
		slc_errf(err, errlen, rc, "out of memory");
	slc__h5_close(kind_type);
	free(t);
	free(v);
	free(hb);
	free(kinds);
	for (int c = 0; c < 4; c++)
		slc__h5_close(ds[c]);
	H5Gclose(g);
	return rc;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Samples of zero length (no time passed: an interval of 0, or the same
 * end time as the sample before, as when a run stops right at an
 * interval's end) have no rate.  Each goes into the sample before it, which
 * takes its byte count (cumulative), I/Os and worst latency; a first one
 * is dropped, its bytes then counting in the next sample's rate and its
 * I/Os added to that sample.  Returns how many went.
 */
static size_t merge_empty(struct slc_input_segment *seg)
{
	size_t n = seg->n_samples, w = 0;

	for (size_t i = 0; i < n; i++) {
		if (seg->interval_s[i] == 0 || (w > 0 && seg->t_s[i] == seg->t_s[w - 1])) {
			if (w > 0) {
				seg->bytes_total[w - 1] = seg->bytes_total[i];
				seg->ios[w - 1] = sat_add(seg->ios[w - 1], seg->ios[i]);
				seg->read_bytes_total[w - 1] = seg->read_bytes_total[i];
				seg->read_ios[w - 1] = sat_add(seg->read_ios[w - 1], seg->read_ios[i]);
				if (!(seg->lat_max_us[w - 1] >= seg->lat_max_us[i]) && !isnan(seg->lat_max_us[i]))
					seg->lat_max_us[w - 1] = seg->lat_max_us[i];
			} else if (i + 1 < n) {
				seg->ios[i + 1] = sat_add(seg->ios[i + 1], seg->ios[i]);
				seg->read_ios[i + 1] = sat_add(seg->read_ios[i + 1], seg->read_ios[i]);
			}
			continue;
		}
		for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
			uint64_t *col = *(uint64_t **)((char *)seg + slc__trace_cols[c].input_off);

			col[w] = col[i];             /* every column is 8 bytes wide */
		}
		w++;
	}
	seg->n_samples = w;
	return n - w;
}

/*
 * Open the sample columns of segment @g into @ds; *@n becomes the shortest
 * one's length, with one note when they differ.
 */
static int open_columns(struct slc_input *in, hid_t g, hid_t *ds, int64_t *n, const char *segname, char *err,
			size_t errlen)
{
	int64_t longest = -1;

	*n = -1;
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
		const struct slc__trace_col *col = &slc__trace_cols[c];
		int64_t len;

		if (H5Lexists(g, col->name, H5P_DEFAULT) <= 0) {
			if (col->required)
				return slc_errf(err, errlen, -EINVAL, "segment %s: no %s column", segname, col->name);
			continue;
		}
		ds[c] = slc__h5_open_checked(g, col->name, H5I_DATASET);
		if (ds[c] < 0)
			return slc_errf(err, errlen, -EINVAL, "segment %s: %s has a damaged header", segname, col->name);
		len = column_length(ds[c], 0);
		if (len == -2) {
			char why[160];

			return slc_errf(err, errlen, -EINVAL, "segment %s: cannot read %s: %s", segname, col->name,
					slc__h5_reason(why, sizeof(why)));
		}
		if (len < 0)
			return slc_errf(err, errlen, -EINVAL,
					"segment %s: %s is not a 1-D numeric column of at most %llu samples held in the file",
					segname, col->name, (unsigned long long)MAX_SAMPLES);
		*n = *n < 0 || len < *n ? len : *n;
		longest = len > longest ? len : longest;
	}
	if (longest > *n) {
		char note[160];

		snprintf(note, sizeof(note), "segment %s: columns differ in length (%lld to %lld samples), cut to %lld",
			 segname, (long long)*n, (long long)longest, (long long)*n);
		if (append_note(in, note))
			return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Samples never written (NaN time: a writer stopped in a flush) go, with a note. */
static int cut_unwritten(struct slc_input *in, struct slc_input_segment *seg, const char *segname)
{
	size_t keep = seg->n_samples;
	char note[160];

	while (keep && isnan(seg->t_s[keep - 1]))
		keep--;
	if (keep == seg->n_samples)
		return 0;
	snprintf(note, sizeof(note), "segment %s: %zu trailing samples never written (writer stopped in a flush)",
		 segname, seg->n_samples - keep);
	seg->n_samples = keep;
	return append_note(in, note);
}

/* Checked samples of zero length go into their neighbours, with a note. */
static int merge_note(struct slc_input *in, struct slc_input_segment *seg, const char *segname)
{
	size_t merged = merge_empty(seg);
	char note[160];

	if (!merged)
		return 0;
	snprintf(note, sizeof(note), "segment %s: %zu sample%s of zero length merged into the one before",
		 segname, merged, merged == 1 ? "" : "s");
	return append_note(in, note);
}

static int read_segment(struct slc_input *in, hid_t g, struct slc_input_segment *seg, const char *segname,
			size_t *held, char *err, size_t errlen)
{
	char segdesc[48];
	hid_t ds[SLC__TRACE_NCOLS];
	int64_t n = -1;
	int rc;

	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++)
		ds[c] = H5I_INVALID_HID;
	snprintf(segdesc, sizeof(segdesc), "segment %s", segname);
	rc = read_params(g, segname, &seg->params, err, errlen);
	if (rc)
		return rc;
	rc = open_columns(in, g, ds, &n, segname, err, errlen);
	if (rc)
		goto out;
	/* Every sample of the input is held at once: their total is bounded, not only each segment's. */
	if ((size_t)n > (SLC__INPUT_MAX_MEMORY - *held) / SLC__INPUT_SAMPLE_BYTES) {
		rc = slc_errf(err, errlen, -E2BIG, "segment %s: the trace's samples would take over %zu MiB of memory",
			      segname, SLC__INPUT_MAX_MEMORY >> 20);
		goto out;
	}
	*held += (size_t)n * SLC__INPUT_SAMPLE_BYTES;
	rc = slc__input_segment_alloc(seg, (size_t)n);
	if (rc) {
		slc_errf(err, errlen, rc, "out of memory");
		goto out;
	}
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
		const struct slc__trace_col *col = &slc__trace_cols[c];
		void *dst = *(void **)((char *)seg + col->input_off);

		if (ds[c] < 0)
			continue;
		size_t bad = 0;
		double badv = 0;
		int r = col->is_u64 ? read_count_column(ds[c], (size_t)n, dst, &bad, &badv)
				    : read_column(ds[c], H5T_NATIVE_DOUBLE, (size_t)n, dst);

		if (r == -ERANGE) {
			rc = slc_errf(err, errlen, -EINVAL, "segment %s: %s at sample %zu is %g: a count is a whole "
				      "number from 0", segname, col->name, bad, badv);
			goto out;
		}
		if (r) {
			char why[160];

			rc = slc_errf(err, errlen, -EIO, "segment %s: cannot read %s: %s", segname, col->name,
				      slc__h5_reason(why, sizeof(why)));
			goto out;
		}
	}
	if (cut_unwritten(in, seg, segname)) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	rc = slc__limit_check_samples(seg, segdesc, err, errlen);
	if (!rc && merge_note(in, seg, segname))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (!rc)
		rc = read_events(g, seg, segname, err, errlen);
	if (!rc)
		slc__input_segment_derive_bw(seg);
out:
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++)
		slc__h5_close(ds[c]);
	return rc;
}

struct analysis_walk {
	struct slc_input *in;
	int rc;
};

static herr_t load_analysis(hid_t grp, const char *name, const H5L_info_t *info, void *data)
{
	struct analysis_walk *w = data;
	struct slc_input_analysis *a;
	char *text = NULL;
	int r = slc__h5_get_text(grp, name, &text);

	if (r == -ENOMEM) {
		w->rc = r;
		return -1;
	}
	if (r)
		return 0;                       /* not a sound string dataset: not ours, skip */
	a = realloc(w->in->analysis, (w->in->n_analysis + 1) * sizeof(*a));
	if (a) {
		w->in->analysis = a;
		a += w->in->n_analysis;
		a->json_text = text;
		a->name = strdup(name);
		if (a->name) {
			w->in->n_analysis++;
			return 0;
		}
	}
	free(text);
	w->rc = -ENOMEM;
	return -1;
}

static int load_snapshots(hid_t f, struct slc_input *in, char *err, size_t errlen)
{
	hid_t dev, g;
	H5G_info_t info;
	int rc = 0;

	dev = slc__h5_open_checked(f, "device", H5I_GROUP);
	g = dev >= 0 ? slc__h5_open_checked(dev, "snapshots", H5I_GROUP) : H5I_INVALID_HID;
	slc__h5_close(dev);
	if (g < 0)
		return 0;
	if (g < 0 || H5Gget_info(g, &info) < 0 || info.nlinks > MAX_SEGMENTS) {
		slc__h5_close(g);
		return 0;                        /* unreadable snapshots do not spoil the samples */
	}
	in->snapshots = calloc(info.nlinks + 1, sizeof(*in->snapshots));
	if (!in->snapshots)
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < info.nlinks && !rc; i++) {
		struct slc_input_snapshot *sn = &in->snapshots[in->n_snapshots];
		char name[32];
		hid_t ds;

		slc__h5_index_name(name, sizeof(name), i);
		if (H5Lexists(g, name, H5P_DEFAULT) <= 0)
			continue;
		if (slc__h5_get_text(g, name, &sn->json_text) == -ENOMEM)
			rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		ds = slc__h5_open_checked(g, name, H5I_DATASET);
		sn->segment = -1;
		if (ds >= 0) {
			char dir[64];

			snprintf(dir, sizeof(dir), "/device/snapshots/%s", name);
			if (slc__h5_get_str(ds, "kind", &sn->kind) == -ENOMEM)
				rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
			if (!rc)
				rc = get_attr(ds, dir, "t_s", H5T_NATIVE_DOUBLE, &sn->t_s, err, errlen);
			if (!rc)
				rc = get_attr(ds, dir, "segment", H5T_NATIVE_LONG, &sn->segment, err, errlen);
			H5Dclose(ds);
		}
		if (rc) {
			free(sn->json_text);
			free(sn->kind);
			memset(sn, 0, sizeof(*sn));
			break;
		}
		if (!sn->json_text || !sn->kind) {
			free(sn->json_text);
			free(sn->kind);
			memset(sn, 0, sizeof(*sn));
			continue;
		}
		in->n_snapshots++;
	}
	H5Gclose(g);
	return rc;
}

static int read_root(hid_t f, struct slc_input *in, char *err, size_t errlen)
{
	char **strs[] = { (char **)&in->meta.command_line, (char **)&in->meta.target, (char **)&in->meta.device_model,
			  (char **)&in->meta.device_serial, (char **)&in->meta.device_firmware, &in->tool_version,
			  &in->created_utc, &in->host, &in->import_notes, &in->import_warnings, &in->import_record,
			  (char **)&in->meta.cell_type, (char **)&in->meta.plan, (char **)&in->meta.run_status };
	const char *names[] = { "command_line", "target", "device_model", "device_serial", "device_firmware",
				"tool_version", "created_utc", "host", "import_notes", "import_warnings", "import",
				"cell_type", "plan", "run_status" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (slc__h5_get_str(f, names[i], strs[i]) == -ENOMEM)
			return slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (get_attr(f, "", "capacity_bytes", H5T_NATIVE_UINT64, &in->meta.capacity_bytes, err, errlen))
		return -ERANGE;
	if (get_attr(f, "", "planned_steps", H5T_NATIVE_UINT32, &in->meta.planned_steps, err, errlen))
		return -ERANGE;
	return get_attr(f, "", "logical_block_bytes", H5T_NATIVE_UINT32, &in->meta.logical_block_bytes, err, errlen);
}

static int running(const struct slc_input *in)
{
	return in->meta.run_status && !strcmp(in->meta.run_status, "running");
}

/*
 * The newest segment of a run still writing its trace (or killed while it
 * did) may be half made when read: its group made, a column not yet.  The
 * segments before it are whole, so they are read, and it is left out with
 * a note (@why: what was missing).
 */
static int leave_out_newest(struct slc_input *in, const char *segname, const char *why)
{
	char note[384];

	snprintf(note, sizeof(note), "segment %s left out: the run was writing it (%s)", segname, why);
	slc__input_segment_clear(&in->segments[in->n_segments - 1]);
	in->n_segments--;
	return append_note(in, note);
}

/* Load the open trace @f into @in. */
static int load_file(hid_t f, struct slc_input *in, char *err, size_t errlen)
{
	hid_t segs = H5I_INVALID_HID;
	H5G_info_t info;
	size_t held = 0;
	int rc;

	in->format = SLC_INPUT_TRACE;
	rc = slc__h5_check_schema(f, err, errlen);
	if (rc)
		goto out;
	rc = read_root(f, in, err, errlen);
	if (rc)
		goto out;
	rc = -EINVAL;
	segs = slc__h5_open_checked(f, "segments", H5I_GROUP);
	if (segs < 0 || H5Gget_info(segs, &info) < 0) {
		slc_errf(err, errlen, rc, "trace has no readable /segments group");
		goto out;
	}
	if (info.nlinks > MAX_SEGMENTS) {
		slc_errf(err, errlen, rc, "trace has too many segments (%llu)", (unsigned long long)info.nlinks);
		goto out;
	}
	in->segments = calloc(info.nlinks + 1, sizeof(*in->segments));
	if (!in->segments) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < info.nlinks; i++) {
		char name[32];
		hid_t g;

		slc__h5_index_name(name, sizeof(name), i);
		g = slc__h5_open_checked(segs, name, H5I_GROUP);
		in->n_segments = i + 1;
		if (g < 0) {
			rc = slc_errf(err, errlen, -EINVAL, "trace lacks segment %s, or its header is damaged", name);
		} else {
			rc = read_segment(in, g, &in->segments[i], name, &held, err, errlen);
			H5Gclose(g);
		}
		if (rc == -EINVAL && i > 0 && i + 1 == info.nlinks && running(in))
			rc = leave_out_newest(in, name, err);
		if (rc)
			goto out;
	}
	rc = 0;
	if (H5Lexists(f, "analysis", H5P_DEFAULT) > 0) {
		struct analysis_walk w = { in, 0 };
		hid_t ag = slc__h5_open_checked(f, "analysis", H5I_GROUP);

		if (ag >= 0) {
			H5Literate(ag, H5_INDEX_NAME, H5_ITER_INC, NULL, load_analysis, &w);
			H5Gclose(ag);
		}
		rc = w.rc;
		if (rc)
			slc_errf(err, errlen, rc, "out of memory");
	}
	if (!rc)
		rc = load_snapshots(f, in, err, errlen);
out:
	slc__h5_close(segs);
	return rc;
}

/* One attempt: open (plainly, or tolerating a lagging superblock) and load into a fresh input. */
static int attempt(const char *path, int lagging, struct slc_input **out, char *err, size_t errlen)
{
	struct slc_input *in;
	char why[160];
	hid_t f;
	int rc;

	*out = NULL;
	f = lagging ? slc__h5_open_lagging(path) : slc__h5_open_file(path, H5F_ACC_RDONLY);
	if (f < 0)
		return slc_errf(err, errlen, -EINVAL, "%s: damaged or truncated HDF5 file (%s)", path,
				slc__h5_reason(why, sizeof(why)));
	in = calloc(1, sizeof(*in));
	rc = in ? load_file(f, in, err, errlen) : slc_errf(err, errlen, -ENOMEM, "out of memory");
	H5Fclose(f);
	H5Eclear2(H5E_DEFAULT);
	if (rc)
		slc_input_free(in);
	else
		*out = in;
	return rc;
}

int slc__trace_load_hdf5(struct slc_input *in, const char *path, char *err, size_t errlen)
{
	struct slc_input *got = NULL;
	char err2[512];
	int rc, plain_opened;

	slc__h5_quiet();
	/*
	 * A finished trace opens plainly.  One whose writer was killed just
	 * before a flush wrote the superblock has data past the end-of-allocation
	 * address it records, which a plain open or read refuses: that gets a
	 * second, lagging-tolerant attempt.  Its reason is kept when the plain
	 * open failed; otherwise the plain attempt's is.
	 */
	rc = attempt(path, 0, &got, err, errlen);
	plain_opened = !(rc && err && strstr(err, "damaged or truncated HDF5 file"));
	if (rc && rc != -ENOMEM) {
		rc = attempt(path, 1, &got, err2, sizeof(err2));
		if (rc && !plain_opened && err)
			snprintf(err, errlen, "%s", err2);
	}
	/* A reason of the file's content says which file: several may be read at once. */
	if (rc && err && errlen && strncmp(err, path, strlen(path)) != 0) {
		char inner[512];

		snprintf(inner, sizeof(inner), "%s", err);
		snprintf(err, errlen, "%s: %s", path, inner);
	}
	if (rc)
		return rc;
	got->source = in->source;
	*in = *got;
	free(got);
	return 0;
}
