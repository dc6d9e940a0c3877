// SPDX-License-Identifier: MIT
/*
 * DIR/stats.json of the emulator (slcscope/emu_stats.h): one table per JSON
 * object maps each key to its field, and the writer and the reader both walk
 * those tables, so a key is named once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "slcscope/emu_stats.h"
#include "slcscope/units.h"
#include "slcscope/vocab.h"

enum field_type {
	F_U64,          /* uint64_t; SLC_EMU_STATS_UNKNOWN: left out */
	F_REAL,         /* double; NAN: left out */
	F_REAL_NULL,    /* double; NAN: null */
	F_BOOL,         /* int */
	F_NAME,         /* char[NAME_LEN] */
};

#define NAME_LEN sizeof(((struct slc_emu_stats_model *)0)->name)

struct field {
	const char *key;
	enum field_type type;
	size_t off;     /* in the struct the table describes */
};

#define S_(type, key, member) { key, type, offsetof(struct slc_emu_stats, member) }
#define EV_(type, key, member) { key, type, offsetof(struct slc_emu_stats_event, member) }
#define N_(a) (sizeof(a) / sizeof((a)[0]))

static const struct field model_fields[] = {
	S_(F_NAME, SLC_EMU_KEY_MODEL_NAME, model.name),
	S_(F_U64, SLC_EMU_KEY_MODEL_CAPACITY_BYTES, model.capacity_bytes),
	S_(F_U64, SLC_EMU_KEY_MODEL_RAW_BYTES, model.raw_bytes),
	S_(F_U64, SLC_EMU_KEY_MODEL_SLC_STATIC_BYTES, model.slc_static_bytes),
	S_(F_U64, SLC_EMU_KEY_MODEL_SLC_DYNAMIC_MAX_BYTES, model.slc_dynamic_max_bytes),
	S_(F_REAL, SLC_EMU_KEY_MODEL_THROTTLE_C, model.throttle_c),
	S_(F_REAL, SLC_EMU_KEY_MODEL_TIME_SCALE, model.time_scale),
	S_(F_REAL, SLC_EMU_KEY_MODEL_SIZE_SCALE, model.size_scale),
};

/* The top level before "events", in the order written. */
static const struct field head_fields[] = {
	S_(F_U64, SLC_EMU_KEY_PID, pid),
	/* "model" goes here */
	S_(F_REAL, SLC_EMU_KEY_UPTIME_S, uptime_s),
	S_(F_REAL, SLC_EMU_KEY_MODEL_TIME_S, model_time_s),
	S_(F_U64, SLC_EMU_KEY_COMMANDS, commands),
	S_(F_U64, SLC_EMU_KEY_WRITE_COMMANDS, write_commands),
	S_(F_U64, SLC_EMU_KEY_READ_COMMANDS, read_commands),
	S_(F_U64, SLC_EMU_KEY_TRIM_COMMANDS, trim_commands),
	S_(F_U64, SLC_EMU_KEY_HOST_WRITE_BYTES, host_write_bytes),
	S_(F_U64, SLC_EMU_KEY_HOST_READ_BYTES, host_read_bytes),
	S_(F_U64, SLC_EMU_KEY_HOST_TRIM_BYTES, host_trim_bytes),
	S_(F_U64, SLC_EMU_KEY_NAND_WRITE_BYTES, nand_write_bytes),
	S_(F_U64, SLC_EMU_KEY_SLC_WRITE_BYTES, slc_write_bytes),
	S_(F_U64, SLC_EMU_KEY_GC_COPY_BYTES, gc_copy_bytes),
	S_(F_U64, SLC_EMU_KEY_FOLD_BYTES, fold_bytes),
	S_(F_U64, SLC_EMU_KEY_ERASES, erases),
	S_(F_U64, SLC_EMU_KEY_MAP_FLUSHES, map_flushes),
	S_(F_REAL_NULL, SLC_EMU_KEY_WRITE_AMPLIFICATION, write_amplification),
	S_(F_U64, SLC_EMU_KEY_CACHE_FREE_BYTES, cache_free_bytes),
	S_(F_REAL_NULL, SLC_EMU_KEY_TEMP_C, temp_c),
};

static const struct field fault_fields[] = {
	S_(F_U64, SLC_EMU_KEY_FAULT_INJECTED_ERRORS, faults.injected_errors),
	S_(F_U64, SLC_EMU_KEY_FAULT_SPIKES, faults.spikes),
	S_(F_BOOL, SLC_EMU_KEY_FAULT_VANISHED, faults.vanished),
};

/* The top level after "faults". */
static const struct field tail_fields[] = {
	S_(F_U64, SLC_EMU_KEY_LATE_REPLIES, late_replies),
	S_(F_REAL, SLC_EMU_KEY_MAX_LATE_MS, max_late_ms),
	S_(F_U64, SLC_EMU_KEY_OPENS_DIRECT, opens_direct),
	S_(F_U64, SLC_EMU_KEY_OPENS_BUFFERED, opens_buffered),
	S_(F_BOOL, SLC_EMU_KEY_ASYNC_DIO, async_dio),
	S_(F_U64, SLC_EMU_KEY_MAX_BACKGROUND, max_background),
	S_(F_U64, SLC_EMU_KEY_IN_FLIGHT_MAX, in_flight_max),
};

/* One of "last_events", after its "event" name. */
static const struct field event_fields[] = {
	EV_(F_REAL, SLC_EMU_KEY_EV_T_S, t_s),
	EV_(F_REAL, SLC_EMU_KEY_EV_MODEL_T_S, model_t_s),
	EV_(F_U64, SLC_EMU_KEY_EV_HOST_BYTES, host_bytes),
	EV_(F_REAL, SLC_EMU_KEY_EV_VALUE, value),
};

void slc_emu_stats_init(struct slc_emu_stats *s)
{
	const struct field *tables[] = { model_fields, head_fields, fault_fields, tail_fields };
	const size_t sizes[] = { N_(model_fields), N_(head_fields), N_(fault_fields), N_(tail_fields) };

	memset(s, 0, sizeof(*s));
	for (size_t t = 0; t < N_(tables); t++) {
		for (size_t i = 0; i < sizes[t]; i++) {
			char *p = (char *)s + tables[t][i].off;
			if (tables[t][i].type == F_U64)
				*(uint64_t *)p = SLC_EMU_STATS_UNKNOWN;
			else if (tables[t][i].type == F_REAL || tables[t][i].type == F_REAL_NULL)
				*(double *)p = NAN;
		}
	}
	for (size_t k = 0; k < SLC_SIM_EV__COUNT; k++)
		s->events[k] = SLC_EMU_STATS_UNKNOWN;
}

/* ---- writing ---- */

/* Sets one key; jansson drops a NULL value, which is how keys are left out. */
static void put(json_t *obj, const char *key, json_t *v)
{
	if (v)
		json_object_set_new(obj, key, v);
}

static void write_fields(json_t *obj, const void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)base + f[i].off;
		double d;

		switch (f[i].type) {
		case F_U64:
			if (*(const uint64_t *)p != SLC_EMU_STATS_UNKNOWN)
				put(obj, f[i].key, json_integer((json_int_t)*(const uint64_t *)p));
			break;
		case F_REAL:
		case F_REAL_NULL:
			d = *(const double *)p;
			put(obj, f[i].key, isfinite(d) ? json_real(d) : f[i].type == F_REAL_NULL ? json_null() : NULL);
			break;
		case F_BOOL:
			put(obj, f[i].key, json_boolean(*(const int *)p));
			break;
		case F_NAME:
			put(obj, f[i].key, json_string(p));
			break;
		}
	}
}

static json_t *events_json(const struct slc_emu_stats *s)
{
	json_t *ev = json_object();

	for (int k = 0; ev && k < SLC_SIM_EV__COUNT; k++)
		if (s->events[k] != SLC_EMU_STATS_UNKNOWN)
			put(ev, slc_event_kind_name((enum slc_event_kind)k), json_integer((json_int_t)s->events[k]));
	return ev;
}

static json_t *last_events_json(const struct slc_emu_stats *s)
{
	json_t *last = json_array();

	for (size_t i = 0; last && i < s->n_last_events && i < SLC_EMU_STATS_LAST_EVENTS; i++) {
		const struct slc_emu_stats_event *e = &s->last_events[i];
		json_t *o = json_object();

		if (!o)
			break;
		put(o, SLC_EMU_KEY_EV_EVENT, json_string(slc_event_kind_name((enum slc_event_kind)e->kind)));
		write_fields(o, e, event_fields, N_(event_fields));
		json_array_append_new(last, o);
	}
	return last;
}

static json_t *object_of(const struct slc_emu_stats *s, const struct field *f, size_t n)
{
	json_t *o = json_object();

	if (o)
		write_fields(o, s, f, n);
	return o;
}

char *slc_emu_stats_format(const struct slc_emu_stats *s)
{
	json_t *root = json_object();
	char *text, *t;
	size_t n;

	if (!root)
		return NULL;
	put(root, SLC_EMU_KEY_SCHEMA, json_string(SLC_EMU_STATS_SCHEMA));
	write_fields(root, s, head_fields, 1);                  /* pid */
	put(root, SLC_EMU_KEY_MODEL, object_of(s, model_fields, N_(model_fields)));
	write_fields(root, s, head_fields + 1, N_(head_fields) - 1);
	put(root, SLC_EMU_KEY_EVENTS, events_json(s));
	put(root, SLC_EMU_KEY_LAST_EVENTS, last_events_json(s));
	put(root, SLC_EMU_KEY_FAULTS, object_of(s, fault_fields, N_(fault_fields)));
	write_fields(root, s, tail_fields, N_(tail_fields));
	text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (!text)
		return NULL;
	n = strlen(text);
	if (!(t = realloc(text, n + 2)))
		return text;            /* without its newline rather than not at all */
	t[n] = '\n';
	t[n + 1] = 0;
	return t;
}

/* ---- reading ---- */

static uint64_t u64_of(json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 ? (uint64_t)json_integer_value(v) : SLC_EMU_STATS_UNKNOWN;
}

static void read_fields(json_t *obj, void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(obj, f[i].key);
		char *p = (char *)base + f[i].off;

		switch (f[i].type) {
		case F_U64:
			*(uint64_t *)p = u64_of(v);
			break;
		case F_REAL:
		case F_REAL_NULL:
			*(double *)p = json_is_number(v) ? json_number_value(v) : NAN;
			break;
		case F_BOOL:
			*(int *)p = json_is_true(v);
			break;
		case F_NAME:
			snprintf(p, NAME_LEN, "%s", json_is_string(v) ? json_string_value(v) : "");
			break;
		}
	}
}

static enum slc_sim_event_kind kind_of(const char *name)
{
	enum slc_event_kind k = slc_event_kind_from_name(name);

	/* the drive's own events come first in the shared vocabulary */
	return (int)k < SLC_SIM_EV__COUNT ? (enum slc_sim_event_kind)k : SLC_SIM_EV__COUNT;
}

static void read_events(json_t *doc, struct slc_emu_stats *s)
{
	json_t *ev = json_object_get(doc, SLC_EMU_KEY_EVENTS), *last = json_object_get(doc, SLC_EMU_KEY_LAST_EVENTS);

	for (int k = 0; k < SLC_SIM_EV__COUNT; k++)
		s->events[k] = u64_of(json_object_get(ev, slc_event_kind_name((enum slc_event_kind)k)));
	s->n_last_events = 0;
	for (size_t i = 0; i < json_array_size(last) && s->n_last_events < SLC_EMU_STATS_LAST_EVENTS; i++) {
		json_t *o = json_array_get(last, i);
		struct slc_emu_stats_event *e = &s->last_events[s->n_last_events++];

		e->kind = kind_of(json_string_value(json_object_get(o, SLC_EMU_KEY_EV_EVENT)));
		read_fields(o, e, event_fields, N_(event_fields));
	}
}

static int from_doc(struct slc_emu_stats *s, json_t *doc, const char *origin, char *err, size_t errlen)
{
	json_t *schema = json_object_get(doc, SLC_EMU_KEY_SCHEMA);

	if (!json_is_string(schema) || strcmp(json_string_value(schema), SLC_EMU_STATS_SCHEMA))
		return slc_errf(err, errlen, -EINVAL, "%s: not %s", origin, SLC_EMU_STATS_SCHEMA);
	slc_emu_stats_init(s);
	read_fields(json_object_get(doc, SLC_EMU_KEY_MODEL), s, model_fields, N_(model_fields));
	read_fields(doc, s, head_fields, N_(head_fields));
	read_events(doc, s);
	read_fields(json_object_get(doc, SLC_EMU_KEY_FAULTS), s, fault_fields, N_(fault_fields));
	read_fields(doc, s, tail_fields, N_(tail_fields));
	return 0;
}

int slc_emu_stats_parse(struct slc_emu_stats *s, const char *text, const char *origin, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	int rc;

	if (!doc)
		return slc_errf(err, errlen, -EINVAL, "%s: %s", origin, je.text);
	rc = from_doc(s, doc, origin, err, errlen);
	json_decref(doc);
	return rc;
}

int slc_emu_stats_load(struct slc_emu_stats *s, const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	int rc;

	if (!doc)
		return slc_errf(err, errlen, -EIO, "%s: %s", path, je.text);
	rc = from_doc(s, doc, path, err, errlen);
	json_decref(doc);
	return rc;
}
