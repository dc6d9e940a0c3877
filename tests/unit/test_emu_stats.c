// SPDX-License-Identifier: MIT
/* The emulator's stats.json: what the writer writes, the reader reads back. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "slcscope/emu_stats.h"

static void fill(struct slc_emu_stats *s)
{
	slc_emu_stats_init(s);
	s->pid = 4242;
	snprintf(s->model.name, sizeof(s->model.name), "tiny-tlc");
	s->model.capacity_bytes = 1073741824ull;
	s->model.raw_bytes = 1140850688ull;
	s->model.slc_static_bytes = 0;
	s->model.slc_dynamic_max_bytes = 268435456ull;
	s->model.time_scale = 0.25;
	s->model.size_scale = 1;
	s->uptime_s = 12.5;
	s->model_time_s = 3.125;
	s->commands = 10;
	s->write_commands = 7;
	s->read_commands = 2;
	s->trim_commands = 1;
	s->host_write_bytes = 7 << 20;
	s->host_read_bytes = 2 << 20;
	s->host_trim_bytes = 1073741824ull;
	s->nand_write_bytes = 9 << 20;
	s->slc_write_bytes = 7 << 20;
	s->gc_copy_bytes = s->fold_bytes = s->erases = s->map_flushes = 0;
	s->write_amplification = 9.0 / 7.0;
	s->cache_free_bytes = 200000000;
	for (int k = 0; k < SLC_SIM_EV__COUNT; k++)
		s->events[k] = (uint64_t)k;
	s->n_last_events = 2;
	s->last_events[0] = (struct slc_emu_stats_event){ SLC_SIM_EV_TRIM, 0.5, 0.125, 0, 1073741824.0 };
	s->last_events[1] = (struct slc_emu_stats_event){ SLC_SIM_EV_CACHE_EXHAUSTED, 9.0, 2.25, 268435456ull, 0 };
	s->faults.injected_errors = 3;
	s->faults.spikes = 1;
	s->faults.vanished = 1;
	s->late_replies = 5;
	s->max_late_ms = 2.5;
	s->opens_direct = 1;
	s->opens_buffered = 0;
	s->async_dio = 1;
	s->max_background = 256;
	s->in_flight_max = 32;
}

static void test_roundtrip(void **state)
{
	struct slc_emu_stats a, b;
	char err[256];
	char *text;

	(void)state;
	fill(&a);
	text = slc_emu_stats_format(&a);
	assert_non_null(text);
	assert_int_equal(text[strlen(text) - 1], '\n');
	assert_int_equal(slc_emu_stats_parse(&b, text, "test", err, sizeof(err)), 0);
	free(text);
	assert_int_equal(b.pid, a.pid);
	assert_string_equal(b.model.name, "tiny-tlc");
	assert_int_equal(b.model.capacity_bytes, a.model.capacity_bytes);
	assert_int_equal(b.model.slc_static_bytes, 0);
	assert_true(isnan(b.model.throttle_c));
	assert_true(b.model.time_scale == 0.25);
	assert_true(b.uptime_s == 12.5 && b.model_time_s == 3.125);
	assert_int_equal(b.commands, 10);
	assert_int_equal(b.write_commands, 7);
	assert_int_equal(b.host_trim_bytes, a.host_trim_bytes);
	assert_int_equal(b.nand_write_bytes, a.nand_write_bytes);
	assert_true(fabs(b.write_amplification - 9.0 / 7.0) < 1e-9);
	assert_true(isnan(b.temp_c));
	for (int k = 0; k < SLC_SIM_EV__COUNT; k++)
		assert_int_equal(b.events[k], (uint64_t)k);
	assert_int_equal(b.n_last_events, 2);
	assert_int_equal(b.last_events[0].kind, SLC_SIM_EV_TRIM);
	assert_true(b.last_events[0].value == 1073741824.0);
	assert_int_equal(b.last_events[1].kind, SLC_SIM_EV_CACHE_EXHAUSTED);
	assert_int_equal(b.last_events[1].host_bytes, 268435456ull);
	assert_true(b.last_events[1].t_s == 9.0 && b.last_events[1].model_t_s == 2.25);
	assert_int_equal(b.faults.injected_errors, 3);
	assert_int_equal(b.faults.vanished, 1);
	assert_true(b.max_late_ms == 2.5);
	assert_int_equal(b.async_dio, 1);
	assert_int_equal(b.max_background, 256);
	assert_int_equal(b.in_flight_max, 32);
}

/* Nothing written yet: a null write amplification; a thermal model: throttle_c and temp_c. */
static void test_null_and_optional(void **state)
{
	struct slc_emu_stats a, b;
	char err[256];
	char *text;

	(void)state;
	fill(&a);
	a.write_amplification = NAN;
	text = slc_emu_stats_format(&a);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"" SLC_EMU_KEY_WRITE_AMPLIFICATION "\": null"));
	assert_non_null(strstr(text, "\"" SLC_EMU_KEY_TEMP_C "\": null"));
	assert_null(strstr(text, "\"" SLC_EMU_KEY_MODEL_THROTTLE_C "\""));
	free(text);
	a.model.throttle_c = 70;
	a.temp_c = 41.5;
	text = slc_emu_stats_format(&a);
	assert_non_null(text);
	assert_int_equal(slc_emu_stats_parse(&b, text, "test", err, sizeof(err)), 0);
	free(text);
	assert_true(isnan(b.write_amplification));
	assert_true(b.model.throttle_c == 70 && b.temp_c == 41.5);
}

static void test_refused_and_missing(void **state)
{
	struct slc_emu_stats s;
	char err[256];

	(void)state;
	assert_int_equal(slc_emu_stats_parse(&s, "{", "x.json", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "x.json: "));
	assert_int_equal(slc_emu_stats_parse(&s, "{\"" SLC_EMU_KEY_SCHEMA "\": \"other/1\"}", "x.json", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "x.json: not " SLC_EMU_STATS_SCHEMA);
	assert_int_equal(slc_emu_stats_parse(&s, "{\"" SLC_EMU_KEY_SCHEMA "\": \"" SLC_EMU_STATS_SCHEMA "\", \""
					     SLC_EMU_KEY_COMMANDS "\": -1}", "x.json", err, sizeof(err)), 0);
	assert_true(s.commands == SLC_EMU_STATS_UNKNOWN && s.pid == SLC_EMU_STATS_UNKNOWN);
	assert_true(s.events[SLC_SIM_EV_THROTTLE_ON] == SLC_EMU_STATS_UNKNOWN);
	assert_true(isnan(s.temp_c) && isnan(s.model.throttle_c));
	assert_string_equal(s.model.name, "");
	assert_int_equal(s.n_last_events, 0);
	assert_int_equal(slc_emu_stats_load(&s, "/nonexistent/stats.json", err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "/nonexistent/stats.json: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_null_and_optional),
		cmocka_unit_test(test_refused_and_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
