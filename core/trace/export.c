// SPDX-License-Identifier: MIT
/*
 * Export of a loaded input: as CSV or JSON (slcscope export), and as a new
 * trace through the writer (slcscope import).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../private.h"
#include "columns.h"
#include "limits.h"
#include "slcscope/output.h"
#include "writer.h"

static const char *format_name(enum slc_input_format f)
{
	switch (f) {
	case SLC_INPUT_TRACE: return "trace";
	case SLC_INPUT_FIO: return "fio";
	case SLC_INPUT_CSV: return "csv";
	case SLC_INPUT_CSV_BYTES: return "csv-bytes";
	case SLC_INPUT_FIO_JSON: return "fio-json";
	case SLC_INPUT_IOSTAT: return "iostat";
	case SLC_INPUT_DISKSTATS: return "diskstats";
	case SLC_INPUT_DD: return "dd";
	case SLC_INPUT_SUM: return "sum";
	}
	return "unknown";
}

/* Shortest of %.15g / %.17g that reads back as the same double; "" for NaN. */
static const char *fmt_double(char *buf, size_t len, double v)
{
	if (isnan(v)) {
		buf[0] = 0;
		return buf;
	}
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

/* Bytes per second read (@read) or written in sample @j of @s: bytes_total
 * counts both, read_bytes_total the reads (absent: none). */
static double dir_bps(const struct slc_input_segment *s, size_t j, int read)
{
	double all = (double)(s->bytes_total[j] - (j ? s->bytes_total[j - 1] : 0)), rd = 0;

	if (s->read_bytes_total)
		rd = (double)(s->read_bytes_total[j] - (j ? s->read_bytes_total[j - 1] : 0));
	return s->interval_s[j] > 0 ? (read ? rd : all - rd) / s->interval_s[j] : NAN;
}

/* dir_bps() for every sample, in a malloc'd array (NULL: out of memory). */
static double *dir_column(const struct slc_input_segment *s, int read)
{
	double *x = malloc((s->n_samples ? s->n_samples : 1) * sizeof(*x));

	for (size_t j = 0; x && j < s->n_samples; j++)
		x[j] = dir_bps(s, j, read);
	return x;
}

int slc_input_export_csv(const struct slc_input *in, FILE *out)
{
	char a[40], b[40], c[40], d[40], e[40], f[40], g[40], h[40], r[40], u[40], w[40];

	fprintf(out, "# slcscope export of %s (%s)\n", str_or_empty(in->source), format_name(in->format));
	if (in->import_notes)
		fprintf(out, "# notes: %s\n", in->import_notes);
	if (in->import_warnings)
		fprintf(out, "# warnings: %s\n", in->import_warnings);
	if (in->import_record)
		fprintf(out, "# import: %s\n", in->import_record);
	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_segment_params *p = &in->segments[i].params;

		fprintf(out,
			"# segment %zu: step=%s workload=%s block_bytes=%u queue_depth=%u jobs=%u offset_bytes=%llu "
			"range_bytes=%llu idle_before_s=%s seed=%llu data_pattern=%s interval_s=%s clock=%s\n",
			i, str_or_empty(p->step), str_or_empty(p->workload), p->block_bytes, p->queue_depth, p->jobs,
			(unsigned long long)p->offset_bytes, (unsigned long long)p->range_bytes,
			fmt_double(a, sizeof(a), p->idle_before_s), (unsigned long long)p->seed,
			str_or_empty(p->data_pattern), fmt_double(b, sizeof(b), p->interval_s), str_or_empty(p->clock));
	}
	fprintf(out, "segment,t_s,interval_s,bytes_total,ios,write_bytes_per_s,lat_p50_us,lat_p99_us,lat_p999_us,"
		     "lat_max_us,temp_c,read_bytes_total,read_ios,read_bytes_per_s,writer_cpu,writer_wait\n");
	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_input_segment *s = &in->segments[i];

		for (size_t j = 0; j < s->n_samples; j++)
			fprintf(out, "%zu,%s,%s,%llu,%llu,%s,%s,%s,%s,%s,%s,%llu,%llu,%s,%s,%s\n", i,
				fmt_double(a, sizeof(a), s->t_s[j]), fmt_double(b, sizeof(b), s->interval_s[j]),
				(unsigned long long)s->bytes_total[j], (unsigned long long)s->ios[j],
				fmt_double(c, sizeof(c), dir_bps(s, j, 0)), fmt_double(d, sizeof(d), s->lat_p50_us[j]),
				fmt_double(e, sizeof(e), s->lat_p99_us[j]), fmt_double(f, sizeof(f), s->lat_p999_us[j]),
				fmt_double(g, sizeof(g), s->lat_max_us[j]), fmt_double(h, sizeof(h), s->temp_c[j]),
				(unsigned long long)(s->read_bytes_total ? s->read_bytes_total[j] : 0),
				(unsigned long long)(s->read_ios ? s->read_ios[j] : 0),
				fmt_double(r, sizeof(r), dir_bps(s, j, 1)),
				fmt_double(u, sizeof(u), s->writer_cpu ? s->writer_cpu[j] : NAN),
				fmt_double(w, sizeof(w), s->writer_wait ? s->writer_wait[j] : NAN));
	}
	return slc_stream_error(out);
}

/* Helpers that tolerate NULL children: json_object_set_new() then fails and we report ENOMEM. */
static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ju64(uint64_t v)
{
	if (v > (uint64_t)INT64_MAX) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		return json_string(buf);
	}
	return json_integer((json_int_t)v);
}

/* JSON takes UTF-8 only: a string that is not (a file name is any bytes)
 * goes in with those bytes as \xNN, as messages show them. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *e;

	if (!s) return json_null();
	if ((j = json_string(s)) || !(e = malloc(strlen(s) * 4 + 1))) return j;
	slc__escape_text(e, strlen(s) * 4 + 1, s);
	j = json_string(e);
	free(e);
	return j;
}

static int set(json_t *obj, const char *key, json_t *v)
{
	return json_object_set_new(obj, key, v) ? -ENOMEM : 0;
}

static json_t *params_json(const struct slc_segment_params *p, int *rc)
{
	json_t *o = json_object();

	if (!o) {
		*rc = -ENOMEM;
		return NULL;
	}
	*rc |= set(o, "step", jstr(p->step));
	*rc |= set(o, "workload", jstr(p->workload));
	*rc |= set(o, "role", jstr(slc_role_name(p->role)));
	*rc |= set(o, "role_arg", ju64(p->role_arg));
	*rc |= set(o, "block_bytes", ju64(p->block_bytes));
	*rc |= set(o, "queue_depth", ju64(p->queue_depth));
	*rc |= set(o, "jobs", ju64(p->jobs));
	*rc |= set(o, "reap_batch", ju64(p->reap_batch));
	*rc |= set(o, "poll_us", ju64(p->poll_us));
	*rc |= set(o, "offset_bytes", ju64(p->offset_bytes));
	*rc |= set(o, "range_bytes", ju64(p->range_bytes));
	*rc |= set(o, "idle_before_s", jreal(p->idle_before_s));
	*rc |= set(o, "seed", ju64(p->seed));
	*rc |= set(o, "data_pattern", jstr(p->data_pattern));
	*rc |= set(o, "interval_s", jreal(p->interval_s));
	*rc |= set(o, "clock", jstr(p->clock));
	*rc |= set(o, "read_pct", ju64(p->read_pct));
	*rc |= set(o, "read_state", jstr(p->read_state ? p->read_state : ""));
	*rc |= set(o, "io_mode", jstr(p->io_mode ? p->io_mode : ""));
	return o;
}

static json_t *column_json(const void *data, int is_u64, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		json_t *v = is_u64 ? ju64(((const uint64_t *)data)[i]) : jreal(((const double *)data)[i]);

		if (json_array_append_new(a, v)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *segment_json(const struct slc_input_segment *s, size_t index, int *rc)
{
	json_t *o = json_object(), *cols = json_object(), *evs = json_array();

	if (!o || !cols || !evs) {
		json_decref(o);
		json_decref(cols);
		json_decref(evs);
		*rc = -ENOMEM;
		return NULL;
	}
	*rc |= set(o, "index", ju64(index));
	*rc |= set(o, "params", params_json(&s->params, rc));
	*rc |= set(o, "n_samples", ju64(s->n_samples));
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
		const void *data = *(void *const *)((const char *)s + slc__trace_cols[c].input_off);

		*rc |= set(cols, slc__trace_cols[c].name, column_json(data, slc__trace_cols[c].is_u64, s->n_samples));
	}
	{
		double *w = dir_column(s, 0), *r = dir_column(s, 1);

		if (!w || !r) *rc = -ENOMEM;
		else {
			*rc |= set(cols, "write_bytes_per_s", column_json(w, 0, s->n_samples));
			*rc |= set(cols, "read_bytes_per_s", column_json(r, 0, s->n_samples));
		}
		free(w);
		free(r);
	}
	*rc |= set(o, "samples", cols);
	for (size_t i = 0; i < s->n_events; i++) {
		json_t *e = json_object();

		if (!e || json_array_append_new(evs, e)) {
			*rc = -ENOMEM;
			break;
		}
		*rc |= set(e, "t_s", jreal(s->events[i].t_s));
		*rc |= set(e, "host_bytes", ju64(s->events[i].host_bytes));
		*rc |= set(e, "kind", jstr(s->events[i].kind));
		*rc |= set(e, "value", jreal(s->events[i].value));
	}
	*rc |= set(o, "events", evs);
	return o;
}

int slc_input_export_json(const struct slc_input *in, FILE *out)
{
	json_t *root = json_object(), *meta = json_object(), *segs = json_array(), *an = json_object();
	json_t *snaps = NULL;
	int rc = 0;

	if (!root || !meta || !segs || !an) {
		rc = -ENOMEM;
		goto out;
	}
	rc |= set(root, "schema", json_string(SLC_TRACE_SCHEMA));
	rc |= set(root, "schema_version", json_integer(SLC_TRACE_SCHEMA_VERSION));
	rc |= set(root, "source", jstr(in->source));
	rc |= set(root, "format", json_string(format_name(in->format)));
	rc |= set(meta, "command_line", jstr(in->meta.command_line));
	rc |= set(meta, "target", jstr(in->meta.target));
	rc |= set(meta, "device_model", jstr(in->meta.device_model));
	rc |= set(meta, "device_serial", jstr(in->meta.device_serial));
	rc |= set(meta, "device_firmware", jstr(in->meta.device_firmware));
	rc |= set(meta, "capacity_bytes", ju64(in->meta.capacity_bytes));
	rc |= set(meta, "logical_block_bytes", ju64(in->meta.logical_block_bytes));
	rc |= set(meta, "cell_type", jstr(in->meta.cell_type));
	rc |= set(meta, "plan", jstr(in->meta.plan));
	rc |= set(meta, "planned_steps", ju64(in->meta.planned_steps));
	rc |= set(meta, "run_status", jstr(in->meta.run_status));
	rc |= set(meta, "tool_version", jstr(in->tool_version));
	rc |= set(meta, "created_utc", jstr(in->created_utc));
	rc |= set(meta, "host", jstr(in->host));
	rc |= set(root, "meta", meta);
	meta = NULL;
	rc |= set(root, "notes", jstr(in->import_notes));
	rc |= set(root, "warnings", jstr(in->import_warnings));
	{
		/* What the import read: an object when it parses (it always does when slcscope wrote it). */
		json_t *imp = in->import_record ? json_loads(in->import_record, 0, NULL) : json_null();

		rc |= set(root, "import", imp ? imp : json_string(in->import_record));
	}
	for (size_t i = 0; i < in->n_segments && !rc; i++)
		if (json_array_append_new(segs, segment_json(&in->segments[i], i, &rc)))
			rc = -ENOMEM;
	rc |= set(root, "segments", segs);
	segs = NULL;
	for (size_t i = 0; i < in->n_analysis && !rc; i++) {
		/* Stored results are JSON text; keep them as JSON when they parse. */
		json_t *v = json_loads(in->analysis[i].json_text, JSON_DECODE_ANY, NULL);

		rc |= set(an, in->analysis[i].name, v ? v : json_string(in->analysis[i].json_text));
	}
	rc |= set(root, "analysis", an);
	an = NULL;
	snaps = json_array();
	for (size_t i = 0; snaps && i < in->n_snapshots && !rc; i++) {
		const struct slc_input_snapshot *sn = &in->snapshots[i];
		json_t *o = json_object(), *v = json_loads(sn->json_text, JSON_DECODE_ANY, NULL);

		if (!o || json_array_append_new(snaps, o)) {
			json_decref(v);
			rc = -ENOMEM;
			break;
		}
		rc |= set(o, "kind", jstr(sn->kind));
		rc |= set(o, "segment", json_integer(sn->segment));
		rc |= set(o, "t_s", jreal(sn->t_s));
		rc |= set(o, "data", v ? v : json_string(sn->json_text));
	}
	rc |= set(root, "device_snapshots", snaps);
	snaps = NULL;
	if (rc) {
		rc = -ENOMEM;
		goto out;
	}
	if (json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) < 0 ||
	    fputc('\n', out) == EOF || ferror(out)) {
		rc = slc_stream_error(out);
		if (!rc) rc = -EIO;
	}
out:
	json_decref(root);
	json_decref(meta);
	json_decref(segs);
	json_decref(an);
	return rc;
}

/* ---- trace ------------------------------------------------------------ */

static void sample_at(const struct slc_input_segment *seg, size_t i, struct slc_sample *s)
{
	for (size_t c = 0; c < SLC__TRACE_NCOLS; c++) {
		const char *src = *(char *const *)((const char *)seg + slc__trace_cols[c].input_off);

		memcpy((char *)s + slc__trace_cols[c].sample_off, src + i * 8, 8);
	}
}

struct trace_out {
	const struct slc_input *in;
	const char *command_line, *path;
};

/* The trace into @tmp (slc_output_write() renames it into place). */
static int write_trace_tmp(const char *tmp, FILE *f, void *arg, char *err, size_t errlen)
{
	const struct trace_out *a = arg;
	const struct slc_input *in = a->in;
	const char *command_line = a->command_line, *path = a->path;
	struct slc_trace_meta meta = in->meta;
	struct slc_trace *t = NULL;
	int rc;

	(void)f;
	if (command_line)
		meta.command_line = command_line;
	rc = slc_trace_create(&t, tmp, &meta, err, errlen);
	if (rc)
		return rc;
	if ((in->import_notes && slc__trace_put_root_str(t, "import_notes", in->import_notes)) ||
	    (in->import_warnings && slc__trace_put_root_str(t, "import_warnings", in->import_warnings)) ||
	    (in->import_record && slc__trace_put_root_str(t, "import", in->import_record)))
		rc = slc_errf(err, errlen, -EIO, "cannot write the import's notes and record");
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
		slc_errf(err, errlen, rc, "%s", slc_trace_errmsg(t));
	if (!rc) {
		rc = slc_trace_flush(t);
		for (size_t i = 0; i < in->n_analysis && !rc; i++)
			rc = slc__trace_put_json(t, in->analysis[i].name, in->analysis[i].json_text, err, errlen);
		for (size_t i = 0; i < in->n_snapshots && !rc; i++)
			rc = slc__trace_snapshot_at(t, in->snapshots[i].kind, in->snapshots[i].segment,
						    in->snapshots[i].t_s, in->snapshots[i].json_text);
	}
	if (slc_trace_close(t) && !rc)
		rc = slc_errf(err, errlen, -EIO, "cannot close %s", path);
	return rc;
}

int slc_input_write_trace_opts(const struct slc_input *in, const char *path, const char *command_line,
			       const struct slc_output_opts *o, char *err, size_t errlen)
{
	const char *source = in->source;
	const struct slc_output_opts def = { .kind = SLC_OUTPUT_TRACE, .inputs = &source, .n_inputs = source ? 1 : 0 };

	return slc_output_write(path, o ? o : &def, write_trace_tmp, &(struct trace_out){ in, command_line, path },
				err, errlen);
}

int slc_input_write_trace(const struct slc_input *in, const char *path, const char *command_line, char *err,
			  size_t errlen)
{
	return slc_input_write_trace_opts(in, path, command_line, NULL, err, errlen);
}

void slc_input_print_summary(FILE *out, const struct slc_input *in, const char *label)
{
	char b1[32], b2[32], b3[32];
	size_t n = 0;
	double bytes = 0, secs = 0;

	for (size_t i = 0; i < in->n_segments; i++) {
		const struct slc_input_segment *s = &in->segments[i];

		n += s->n_samples;
		if (s->n_samples) {
			bytes += (double)s->bytes_total[s->n_samples - 1];
			secs += s->t_s[s->n_samples - 1];
		}
	}
	fprintf(out, "%s: %zu segment(s), %zu samples, %s written in %s, mean %s\n", label, in->n_segments, n,
		slc_format_bytes(b1, sizeof(b1), bytes, SLC_UNITS_BINARY),
		slc_format_duration(b2, sizeof(b2), (uint64_t)llround(secs * 1e9)),
		slc_format_rate(b3, sizeof(b3), secs > 0 ? bytes / secs : 0, SLC_UNITS_BINARY));
	if (in->import_notes)
		fprintf(out, "note: %s\n", in->import_notes);
	if (in->import_warnings)
		fprintf(out, "warning: %s\n", in->import_warnings);
}

static int export_tmp(const char *tmp, FILE *f, void *arg, char *err, size_t errlen)
{
	const struct trace_out *a = arg;
	int rc = a->command_line ? slc_input_export_json(a->in, f) : slc_input_export_csv(a->in, f);

	(void)tmp;
	return rc ? slc_errf(err, errlen, rc, "cannot write the export: %s", strerror(-rc)) : 0;
}

int slc_input_export_file(const struct slc_input *in, const char *path, int json, const struct slc_output_opts *o,
			  char *err, size_t errlen)
{
	const char *source = in->source;
	const struct slc_output_opts def = { .kind = SLC_OUTPUT_TEXT, .inputs = &source, .n_inputs = source ? 1 : 0,
		.stdout_ok = 1 };

	return slc_output_write(path ? path : "-", o ? o : &def, export_tmp,
				&(struct trace_out){ in, json ? "json" : NULL, path }, err, errlen);
}
