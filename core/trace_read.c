// SPDX-License-Identifier: MIT
/*
 * Trace reader: loads a whole slcscope trace into a struct slc_input, and
 * the dispatch of slc_input_load() between traces and imports.
 *
 * Nothing in a file is trusted: every dataset is checked for rank, type
 * class and length before it is read, and a trace whose columns differ in
 * length (a writer killed inside a flush) is cut to the shortest column
 * with a note rather than refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_priv.h"

#define MAX_SAMPLES ((hsize_t)1 << 32)   /* per segment; more is not a real trace */
#define MAX_SEGMENTS 100000

static const char hdf5_signature[8] = { '\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n' };

/* Read a scalar string attribute (variable or fixed length); -ENOENT if absent. */
static int get_str(hid_t obj, const char *name, char **out)
{
	hid_t attr = H5I_INVALID_HID, ftype = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
	int rc = -EIO;

	*out = NULL;
	if (H5Aexists(obj, name) <= 0)
		return -ENOENT;
	attr = H5Aopen(obj, name, H5P_DEFAULT);
	if (attr < 0)
		goto out;
	ftype = H5Aget_type(attr);
	if (ftype < 0 || H5Tget_class(ftype) != H5T_STRING) {
		rc = -EINVAL;
		goto out;
	}
	mtype = H5Tcopy(H5T_C_S1);
	if (mtype < 0)
		goto out;
	/* HDF5 converts no strings between character sets: read in the file's own. */
	H5Tset_cset(mtype, H5Tget_cset(ftype));
	if (H5Tis_variable_str(ftype) > 0) {
		char *v = NULL;

		H5Tset_size(mtype, H5T_VARIABLE);
		if (H5Aread(attr, mtype, &v) < 0)
			goto out;
		*out = strdup(v ? v : "");
		H5free_memory(v);
	} else {
		size_t n = H5Tget_size(ftype);

		if (n == 0 || n > 1 << 20)
			goto out;
		H5Tset_size(mtype, n + 1);
		*out = calloc(1, n + 2);
		if (*out && H5Aread(attr, mtype, *out) < 0) {
			free(*out);
			*out = NULL;
			goto out;
		}
	}
	rc = *out ? 0 : -ENOMEM;
out:
	h5_close(mtype);
	h5_close(ftype);
	h5_close(attr);
	return rc;
}

/* Read a scalar numeric attribute converted to @memtype; -ENOENT if absent. */
static int get_num(hid_t obj, const char *name, hid_t memtype, void *out)
{
	hid_t attr, type, space;
	int rc = -EINVAL;

	if (H5Aexists(obj, name) <= 0)
		return -ENOENT;
	attr = H5Aopen(obj, name, H5P_DEFAULT);
	if (attr < 0)
		return -EIO;
	type = H5Aget_type(attr);
	space = H5Aget_space(attr);
	if (type >= 0 && space >= 0 && (H5Tget_class(type) == H5T_INTEGER || H5Tget_class(type) == H5T_FLOAT) &&
	    H5Sget_simple_extent_npoints(space) == 1)
		rc = H5Aread(attr, memtype, out) < 0 ? -EINVAL : 0;
	h5_close(space);
	h5_close(type);
	H5Aclose(attr);
	return rc;
}

int trace_check_schema(hid_t f, char *err, size_t errlen)
{
	char *schema = NULL;
	uint32_t version = 0;
	int rc;

	rc = get_str(f, "schema", &schema);
	if (rc == -ENOMEM)
		return seterr(err, errlen, rc, "out of memory");
	if (rc || strcmp(schema, SLC_TRACE_SCHEMA) != 0) {
		free(schema);
		return seterr(err, errlen, -EINVAL, "HDF5 file is not a slcscope trace (no schema \"%s\")",
			      SLC_TRACE_SCHEMA);
	}
	free(schema);
	if (get_num(f, "schema_version", H5T_NATIVE_UINT32, &version) < 0)
		return seterr(err, errlen, -EINVAL, "slcscope trace without a readable schema_version");
	if (version != SLC_TRACE_SCHEMA_VERSION)
		return seterr(err, errlen, -EINVAL, "trace schema version %u is not supported (this slcscope reads %d)",
			      version, SLC_TRACE_SCHEMA_VERSION);
	return 0;
}

int input_segment_alloc(struct slc_input_segment *seg, size_t n)
{
	size_t m = n ? n : 1;

	for (size_t c = 0; c < trace_ncols; c++) {
		void **p = (void **)((char *)seg + trace_cols[c].input_off);

		*p = malloc(m * 8);
		if (!*p)
			return -ENOMEM;
		if (!trace_cols[c].is_u64 && !trace_cols[c].required)
			for (size_t i = 0; i < n; i++)
				((double *)*p)[i] = NAN;
		else
			memset(*p, 0, m * 8);
	}
	seg->bw_bps = malloc(m * sizeof(double));
	if (!seg->bw_bps)
		return -ENOMEM;
	seg->n_samples = n;
	return 0;
}

void input_segment_derive_bw(struct slc_input_segment *seg)
{
	uint64_t prev = 0;

	for (size_t i = 0; i < seg->n_samples; i++) {
		double dt = seg->interval_s[i];
		uint64_t b = seg->bytes_total[i];

		seg->bw_bps[i] = dt > 0 && b >= prev ? (double)(b - prev) / dt : NAN;
		prev = b;
	}
}

void input_segment_clear(struct slc_input_segment *seg)
{
	for (size_t c = 0; c < trace_ncols; c++)
		free(*(void **)((char *)seg + trace_cols[c].input_off));
	free(seg->bw_bps);
	free((char *)seg->params.step);
	free((char *)seg->params.workload);
	free((char *)seg->params.data_pattern);
	free((char *)seg->params.clock);
	for (size_t i = 0; i < seg->n_events; i++)
		free((char *)seg->events[i].kind);
	free(seg->events);
	memset(seg, 0, sizeof(*seg));
}

void slc_input_free(struct slc_input *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->n_segments; i++)
		input_segment_clear(&in->segments[i]);
	free(in->segments);
	for (size_t i = 0; i < in->n_analysis; i++) {
		free(in->analysis[i].name);
		free(in->analysis[i].json_text);
	}
	free(in->analysis);
	for (size_t i = 0; i < in->n_snapshots; i++) {
		free(in->snapshots[i].kind);
		free(in->snapshots[i].json_text);
	}
	free(in->snapshots);
	free(in->source);
	free((char *)in->meta.command_line);
	free((char *)in->meta.target);
	free((char *)in->meta.device_model);
	free((char *)in->meta.device_serial);
	free((char *)in->meta.device_firmware);
	free(in->tool_version);
	free(in->created_utc);
	free(in->host);
	free(in->import_notes);
	free(in);
}

/* Length of a 1-D numeric dataset, or -1 with a reason. */
static int64_t column_length(hid_t ds, int want_string)
{
	hid_t space = H5Dget_space(ds), type = H5Dget_type(ds);
	hsize_t dim = 0;
	int64_t n = -1;

	if (space >= 0 && type >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
	    H5Sget_simple_extent_dims(space, &dim, NULL) == 1 && dim <= MAX_SAMPLES) {
		H5T_class_t cls = H5Tget_class(type);

		if (want_string ? cls == H5T_STRING && H5Tis_variable_str(type) == 0
				: cls == H5T_INTEGER || cls == H5T_FLOAT)
			n = (int64_t)dim;
	}
	h5_close(type);
	h5_close(space);
	return n;
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
		h5_capture();
	h5_close(mspace);
	h5_close(fspace);
	return rc;
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
static int read_role(hid_t g, struct slc_segment_params *p)
{
	char *name = NULL;
	int r = get_str(g, "role", &name);

	if (r == -ENOMEM)
		return r;
	p->role = r ? SLC_ROLE_UNKNOWN : slc_role_from_name(name);
	free(name);
	if (p->role == SLC_ROLE_UNKNOWN) {
		p->role = slc_role_of_step(p->step, &p->role_arg);
		return 0;
	}
	get_num(g, "role_arg", H5T_NATIVE_UINT32, &p->role_arg);
	return 0;
}

static int read_params(hid_t g, struct slc_segment_params *p)
{
	int rc = 0;
	char **strs[] = { (char **)&p->step, (char **)&p->workload, (char **)&p->data_pattern, (char **)&p->clock };
	const char *snames[] = { "step", "workload", "data_pattern", "clock" };

	for (size_t i = 0; i < 4; i++) {
		int r = get_str(g, snames[i], strs[i]);

		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT || r == -EINVAL) {
			*strs[i] = strdup("");
			if (!*strs[i])
				return -ENOMEM;
		} else if (r) {
			rc = r;
		}
	}
	/* Numeric parameters are optional: a missing one reads as 0. */
	get_num(g, "block_bytes", H5T_NATIVE_UINT32, &p->block_bytes);
	get_num(g, "queue_depth", H5T_NATIVE_UINT32, &p->queue_depth);
	get_num(g, "jobs", H5T_NATIVE_UINT32, &p->jobs);
	get_num(g, "reap_batch", H5T_NATIVE_UINT32, &p->reap_batch);
	get_num(g, "offset_bytes", H5T_NATIVE_UINT64, &p->offset_bytes);
	get_num(g, "range_bytes", H5T_NATIVE_UINT64, &p->range_bytes);
	get_num(g, "idle_before_s", H5T_NATIVE_DOUBLE, &p->idle_before_s);
	get_num(g, "seed", H5T_NATIVE_UINT64, &p->seed);
	get_num(g, "interval_s", H5T_NATIVE_DOUBLE, &p->interval_s);
	return rc ? rc : read_role(g, p);
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

	if (H5Lexists(seg_group, "events", H5P_DEFAULT) <= 0)
		return 0;
	g = H5Gopen2(seg_group, "events", H5P_DEFAULT);
	if (g < 0)
		return seterr(err, errlen, -EINVAL, "segment %s: unreadable events group", segname);
	for (int c = 0; c < 4; c++) {
		int64_t len;

		ds[c] = H5Lexists(g, names[c], H5P_DEFAULT) > 0 ? H5Dopen2(g, names[c], H5P_DEFAULT) : -1;
		len = ds[c] >= 0 ? column_length(ds[c], c == 2) : -1;
		if (len < 0) {
			seterr(err, errlen, rc, "segment %s: events/%s missing or not a 1-D column", segname, names[c]);
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
	    read_column(ds[0], H5T_NATIVE_DOUBLE, (size_t)n, t) || read_column(ds[1], H5T_NATIVE_UINT64, (size_t)n, hb) ||
	    read_column(ds[2], kind_type, (size_t)n, kinds) || read_column(ds[3], H5T_NATIVE_DOUBLE, (size_t)n, v)) {
		char why[160];

		seterr(err, errlen, rc, "segment %s: cannot read events: %s", segname, h5_reason(why, sizeof(why)));
		goto out;
	}
	for (int64_t i = 0; i < n; i++) {
		kinds[i][SLC_TRACE_KIND_MAX] = 0;
		seg->events[i].t_s = t[i];
		seg->events[i].host_bytes = hb[i];
		seg->events[i].value = v[i];
		seg->events[i].kind = strdup(kinds[i]);
		if (!seg->events[i].kind) {
			seg->n_events = (size_t)i;
			rc = seterr(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
	}
	seg->n_events = (size_t)n;
	rc = 0;
out:
	if (rc == -ENOMEM)
		seterr(err, errlen, rc, "out of memory");
	h5_close(kind_type);
	free(t);
	free(v);
	free(hb);
	free(kinds);
	for (int c = 0; c < 4; c++)
		h5_close(ds[c]);
	H5Gclose(g);
	return rc;
}

static int check_samples(const struct slc_input_segment *seg, const char *segname, char *err, size_t errlen)
{
	for (size_t i = 0; i < seg->n_samples; i++) {
		if (!isfinite(seg->t_s[i]) || !isfinite(seg->interval_s[i]) || seg->interval_s[i] < 0)
			return seterr(err, errlen, -EINVAL, "segment %s: sample %zu has a non-finite or negative time",
				      segname, i);
		if (i && seg->t_s[i] < seg->t_s[i - 1])
			return seterr(err, errlen, -EINVAL, "segment %s: time goes backwards at sample %zu", segname, i);
		if (i && seg->bytes_total[i] < seg->bytes_total[i - 1])
			return seterr(err, errlen, -EINVAL, "segment %s: bytes_total shrinks at sample %zu", segname, i);
	}
	return 0;
}

static int read_segment(struct slc_input *in, hid_t g, struct slc_input_segment *seg, const char *segname,
			char *err, size_t errlen)
{
	hid_t ds[16];
	int64_t n = -1;
	int rc;

	for (size_t c = 0; c < 16; c++)
		ds[c] = H5I_INVALID_HID;
	rc = read_params(g, &seg->params);
	if (rc)
		return seterr(err, errlen, rc, "segment %s: unreadable parameters", segname);
	for (size_t c = 0; c < trace_ncols; c++) {
		int64_t len;

		ds[c] = H5Lexists(g, trace_cols[c].name, H5P_DEFAULT) > 0 ? H5Dopen2(g, trace_cols[c].name, H5P_DEFAULT)
									  : H5I_INVALID_HID;
		if (ds[c] < 0) {
			if (trace_cols[c].required) {
				rc = seterr(err, errlen, -EINVAL, "segment %s: no %s column", segname, trace_cols[c].name);
				goto out;
			}
			continue;
		}
		len = column_length(ds[c], 0);
		if (len < 0) {
			rc = seterr(err, errlen, -EINVAL, "segment %s: %s is not a 1-D numeric column", segname,
				    trace_cols[c].name);
			goto out;
		}
		if (n >= 0 && len != n) {
			char note[128];

			snprintf(note, sizeof(note), "segment %s: columns differ in length, cut to the shortest", segname);
			rc = append_note(in, note);
			if (rc)
				goto out;
		}
		n = n < 0 || len < n ? len : n;
	}
	rc = input_segment_alloc(seg, (size_t)n);
	if (rc) {
		seterr(err, errlen, rc, "out of memory");
		goto out;
	}
	for (size_t c = 0; c < trace_ncols; c++) {
		void *dst = *(void **)((char *)seg + trace_cols[c].input_off);

		if (ds[c] < 0)
			continue;
		if (read_column(ds[c], trace_cols[c].is_u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_DOUBLE, (size_t)n, dst)) {
			char why[160];

			rc = seterr(err, errlen, -EIO, "segment %s: cannot read %s: %s", segname, trace_cols[c].name,
				    h5_reason(why, sizeof(why)));
			goto out;
		}
	}
	{
		size_t keep = seg->n_samples;

		while (keep && isnan(seg->t_s[keep - 1]))
			keep--;
		if (keep < seg->n_samples) {
			char note[160];

			snprintf(note, sizeof(note), "segment %s: %zu trailing samples never written (writer stopped in a flush)",
				 segname, seg->n_samples - keep);
			seg->n_samples = keep;
			rc = append_note(in, note);
			if (rc)
				goto out;
		}
	}
	rc = check_samples(seg, segname, err, errlen);
	if (!rc)
		rc = read_events(g, seg, segname, err, errlen);
	if (!rc)
		input_segment_derive_bw(seg);
out:
	for (size_t c = 0; c < trace_ncols; c++)
		h5_close(ds[c]);
	return rc;
}

struct analysis_walk {
	struct slc_input *in;
	int rc;
};

/* Read a scalar string dataset (variable length); NULL if it is not one. */
static char *read_text_dataset(hid_t loc, const char *name)
{
	hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT), type = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
	char *text = NULL, *copy = NULL;

	if (ds < 0)
		return NULL;
	type = H5Dget_type(ds);
	if (type >= 0 && H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
		mtype = H5Tcopy(H5T_C_S1);
		H5Tset_size(mtype, H5T_VARIABLE);
		H5Tset_cset(mtype, H5Tget_cset(type));
		if (H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) >= 0 && text) {
			copy = strdup(text);
			H5free_memory(text);
		}
	}
	h5_close(mtype);
	h5_close(type);
	H5Dclose(ds);
	return copy;
}

static herr_t load_analysis(hid_t grp, const char *name, const H5L_info_t *info, void *data)
{
	struct analysis_walk *w = data;
	struct slc_input_analysis *a;
	char *text = read_text_dataset(grp, name);

	if (!text)
		return 0;                       /* not a string dataset: not ours, skip */
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

static int load_snapshots(hid_t f, struct slc_input *in)
{
	hid_t g;
	H5G_info_t info;
	int rc = 0;

	if (H5Lexists(f, "device", H5P_DEFAULT) <= 0 || H5Lexists(f, "device/snapshots", H5P_DEFAULT) <= 0)
		return 0;
	g = H5Gopen2(f, "device/snapshots", H5P_DEFAULT);
	if (g < 0 || H5Gget_info(g, &info) < 0 || info.nlinks > MAX_SEGMENTS) {
		h5_close(g);
		return 0;                        /* unreadable snapshots do not spoil the samples */
	}
	in->snapshots = calloc(info.nlinks + 1, sizeof(*in->snapshots));
	if (!in->snapshots)
		rc = -ENOMEM;
	for (size_t i = 0; i < info.nlinks && !rc; i++) {
		struct slc_input_snapshot *sn = &in->snapshots[in->n_snapshots];
		char name[32];
		hid_t ds;

		trace_segment_name(name, sizeof(name), i);
		if (H5Lexists(g, name, H5P_DEFAULT) <= 0)
			continue;
		sn->json_text = read_text_dataset(g, name);
		ds = H5Dopen2(g, name, H5P_DEFAULT);
		sn->segment = -1;
		if (ds >= 0) {
			if (get_str(ds, "kind", &sn->kind) == -ENOMEM)
				rc = -ENOMEM;
			get_num(ds, "t_s", H5T_NATIVE_DOUBLE, &sn->t_s);
			get_num(ds, "segment", H5T_NATIVE_LONG, &sn->segment);
			H5Dclose(ds);
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

static int read_root(hid_t f, struct slc_input *in)
{
	char **strs[] = { (char **)&in->meta.command_line, (char **)&in->meta.target, (char **)&in->meta.device_model,
			  (char **)&in->meta.device_serial, (char **)&in->meta.device_firmware, &in->tool_version,
			  &in->created_utc, &in->host, &in->import_notes };
	const char *names[] = { "command_line", "target", "device_model", "device_serial", "device_firmware",
				"tool_version", "created_utc", "host", "import_notes" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (get_str(f, names[i], strs[i]) == -ENOMEM)
			return -ENOMEM;
	get_num(f, "capacity_bytes", H5T_NATIVE_UINT64, &in->meta.capacity_bytes);
	get_num(f, "logical_block_bytes", H5T_NATIVE_UINT32, &in->meta.logical_block_bytes);
	return 0;
}

int trace_load_hdf5(struct slc_input *in, const char *path, char *err, size_t errlen)
{
	hid_t f, segs = H5I_INVALID_HID;
	H5G_info_t info;
	char why[160];
	int rc;

	h5_quiet();
	f = trace_open_file(path, H5F_ACC_RDONLY);
	if (f < 0)
		return seterr(err, errlen, -EINVAL, "%s: damaged or truncated HDF5 file (%s)", path,
			      h5_reason(why, sizeof(why)));
	in->format = SLC_INPUT_TRACE;
	rc = trace_check_schema(f, err, errlen);
	if (rc)
		goto out;
	rc = read_root(f, in);
	if (rc) {
		seterr(err, errlen, rc, "out of memory");
		goto out;
	}
	rc = -EINVAL;
	segs = H5Lexists(f, "segments", H5P_DEFAULT) > 0 ? H5Gopen2(f, "segments", H5P_DEFAULT) : -1;
	if (segs < 0 || H5Gget_info(segs, &info) < 0) {
		seterr(err, errlen, rc, "trace has no readable /segments group");
		goto out;
	}
	if (info.nlinks > MAX_SEGMENTS) {
		seterr(err, errlen, rc, "trace has too many segments (%llu)", (unsigned long long)info.nlinks);
		goto out;
	}
	in->segments = calloc(info.nlinks + 1, sizeof(*in->segments));
	if (!in->segments) {
		rc = seterr(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < info.nlinks; i++) {
		char name[32];
		hid_t g;

		trace_segment_name(name, sizeof(name), i);
		g = H5Lexists(segs, name, H5P_DEFAULT) > 0 ? H5Gopen2(segs, name, H5P_DEFAULT) : -1;
		if (g < 0) {
			seterr(err, errlen, rc, "trace lacks segment %s", name);
			goto out;
		}
		in->n_segments = i + 1;
		rc = read_segment(in, g, &in->segments[i], name, err, errlen);
		H5Gclose(g);
		if (rc)
			goto out;
		rc = -EINVAL;
	}
	rc = 0;
	if (H5Lexists(f, "analysis", H5P_DEFAULT) > 0) {
		struct analysis_walk w = { in, 0 };
		hid_t ag = H5Gopen2(f, "analysis", H5P_DEFAULT);

		if (ag >= 0) {
			H5Literate(ag, H5_INDEX_NAME, H5_ITER_INC, NULL, load_analysis, &w);
			H5Gclose(ag);
		}
		rc = w.rc;
		if (rc)
			seterr(err, errlen, rc, "out of memory");
	}
	if (!rc) {
		rc = load_snapshots(f, in);
		if (rc)
			seterr(err, errlen, rc, "out of memory");
	}
out:
	h5_close(segs);
	H5Fclose(f);
	H5Eclear2(H5E_DEFAULT);
	return rc;
}

static int is_hdf5(const char *path, int *yes)
{
	char head[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return -EIO;
	*yes = n == (ssize_t)sizeof(head) && memcmp(head, hdf5_signature, sizeof(head)) == 0;
	return 0;
}

int slc_input_load_opts(struct slc_input **out, const char *path, const struct slc_import_opts *opts, char *err,
			size_t errlen)
{
	struct slc_input *in;
	int hdf5 = 0, rc;

	*out = NULL;
	if (!path)
		return seterr(err, errlen, -EINVAL, "no input path");
	rc = is_hdf5(path, &hdf5);
	if (rc)
		return seterr(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
	in = calloc(1, sizeof(*in));
	if (!in)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	in->source = strdup(path);
	if (!in->source)
		rc = seterr(err, errlen, -ENOMEM, "out of memory");
	else if (hdf5)
		rc = trace_load_hdf5(in, path, err, errlen);
	else
		rc = import_load_file(in, path, opts, err, errlen);
	if (rc) {
		slc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

int slc_input_load(struct slc_input **out, const char *path, char *err, size_t errlen)
{
	return slc_input_load_opts(out, path, NULL, err, errlen);
}

static void sample_at(const struct slc_input_segment *seg, size_t i, struct slc_sample *s)
{
	for (size_t c = 0; c < trace_ncols; c++) {
		const char *src = *(char *const *)((const char *)seg + trace_cols[c].input_off);

		memcpy((char *)s + trace_cols[c].sample_off, src + i * 8, 8);
	}
}

int slc_input_write_trace(const struct slc_input *in, const char *path, const char *command_line, char *err,
			  size_t errlen)
{
	struct slc_trace_meta meta = in->meta;
	struct slc_trace *t = NULL;
	char *tmp;
	int rc;

	tmp = tmp_name_beside(path);
	if (!tmp)
		return seterr(err, errlen, -ENOMEM, "out of memory");
	if (command_line)
		meta.command_line = command_line;
	rc = slc_trace_create(&t, tmp, &meta, err, errlen);
	if (rc)
		goto out;
	if (in->import_notes && trace_put_root_str(t, "import_notes", in->import_notes))
		rc = seterr(err, errlen, -EIO, "cannot write import notes");
	slc_trace_set_flush_interval(t, 1e9);  /* one flush at the end is enough: the file is renamed after */
	for (size_t i = 0; i < in->n_segments && !rc; i++) {
		const struct slc_input_segment *seg = &in->segments[i];

		rc = slc_trace_segment_begin(t, &seg->params);
		for (size_t j = 0; j < seg->n_samples && !rc; j++) {
			struct slc_sample s;

			sample_at(seg, j, &s);
			rc = slc_trace_append(t, &s);
		}
		for (size_t j = 0; j < seg->n_events && !rc; j++)
			rc = slc_trace_event(t, &seg->events[j]);
		if (!rc)
			rc = slc_trace_segment_end(t);
	}
	if (rc)
		seterr(err, errlen, rc, "%s", slc_trace_errmsg(t));
	if (!rc) {
		rc = slc_trace_flush(t);
		for (size_t i = 0; i < in->n_analysis && !rc; i++)
			rc = trace_put_json_writer(t, in->analysis[i].name, in->analysis[i].json_text, err, errlen);
		for (size_t i = 0; i < in->n_snapshots && !rc; i++)
			rc = trace_snapshot_at(t, in->snapshots[i].kind, in->snapshots[i].segment, in->snapshots[i].t_s,
					       in->snapshots[i].json_text);
	}
	if (slc_trace_close(t) && !rc)
		rc = seterr(err, errlen, -EIO, "cannot close %s", path);
out:
	rc = publish_tmp(tmp, path, rc, err, errlen);
	free(tmp);
	return rc;
}
