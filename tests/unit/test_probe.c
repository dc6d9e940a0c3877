// SPDX-License-Identifier: MIT
/*
 * The probe dispatcher (files, errors), the simulated drive's probe, the
 * probe JSON, and the analysis of the drive's evidence: throttling told
 * from stalls by temperature readings and transition counts, write
 * amplification between counter readings.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "slcscope/analysis.h"
#include "slcscope/probe.h"
#include "slcscope/sim.h"

static void test_open_errors(void **state)
{
	struct slc_probe *p = (struct slc_probe *)1;
	char err[256];

	(void)state;
	assert_int_equal(slc_probe_open(&p, "/nonexistent/slcscope-probe", err, sizeof(err)), -ENOENT);
	assert_null(p);
	assert_non_null(strstr(err, "/nonexistent/slcscope-probe"));
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(slc_probe_open(&p, "/", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a block device"));
	assert_int_equal(slc_probe_open(&p, "", err, sizeof(err)), -EINVAL);
}

static void test_regular_file(void **state)
{
	char path[] = "/tmp/slcscope-probe-XXXXXX", err[256];
	struct slc_probe *p;
	struct slc_health h;
	const struct slc_identity *id;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1234567), 0);
	close(fd);
	assert_int_equal(slc_probe_open(&p, path, err, sizeof(err)), 0);
	id = slc_probe_identity(p);
	assert_int_equal(id->source, SLC_PROBE_FILE);
	assert_string_equal(id->interface, "file");
	assert_int_equal(id->capacity_bytes, 1234567);
	assert_int_equal(slc_probe_health(p, &h, err, sizeof(err)), 0);
	assert_int_equal(h.has_smart, 0);
	assert_non_null(strstr(h.no_smart_reason, "file"));
	assert_true(h.host_write_bytes == SLC_PROBE_UNKNOWN);
	{
		double c;
		assert_int_equal(slc_probe_temperature(p, &c), -ENODATA);
	}
	assert_int_equal(slc_probe_purge_method(p), SLC_PURGE_TRIM);
	assert_int_equal(slc_probe_purge(p, SLC_PURGE_FORMAT_USER, err, sizeof(err)), -ENOTSUP);
	slc_probe_close(p);
	unlink(path);
}

static void test_sim_probe(void **state)
{
	struct slc_sim_model m;
	struct slc_sim *sim;
	struct slc_probe *p;
	struct slc_health h0, h1;
	char err[256];
	uint64_t now = 0;
	double c;

	(void)state;
	assert_int_equal(slc_sim_model_load(&m, "thermal-nvme", err, sizeof(err)), 0);
	assert_int_equal(slc_sim_open(&sim, &m, 1, err, sizeof(err)), 0);
	assert_int_equal(slc_probe_open_sim(&p, sim, "sim:thermal-nvme", err, sizeof(err)), 0);
	assert_int_equal(slc_probe_identity(p)->source, SLC_PROBE_SIM);
	assert_int_equal(slc_probe_identity(p)->capacity_bytes, m.capacity_bytes);
	assert_int_equal(slc_probe_health(p, &h0, err, sizeof(err)), 0);
	assert_true(h0.has_smart);
	assert_int_equal(h0.host_write_bytes, 0);
	assert_int_equal(h0.nand_write_bytes, 0);
	assert_true(fabs(h0.warn_temp_c - m.throttle_c) < 1e-9);
	assert_int_equal(h0.thm_transitions[0], 0);
	/* write the whole drive sequentially: host bytes counted exactly, the
	 * drive heats up and throttles at least once */
	for (uint64_t off = 0; off < m.capacity_bytes; off += 131072)
		now = slc_sim_write(sim, now, off, 131072, NULL);
	assert_int_equal(slc_probe_health(p, &h1, err, sizeof(err)), 0);
	assert_int_equal(h1.host_write_bytes, m.capacity_bytes);
	assert_true(h1.nand_write_bytes >= h1.host_write_bytes);
	assert_true(h1.temp_c > h0.temp_c);
	assert_true(h1.thm_transitions[0] >= 1);
	assert_int_equal(slc_probe_temperature(p, &c), 0);
	assert_true(fabs(c - h1.temp_c) < 1e-9);
	assert_true(slc_health_write_amplification(&h0, &h1) >= 1.0);
	/* the sim is purged by a TRIM; it offers nothing else */
	assert_int_equal(slc_probe_purge_method(p), SLC_PURGE_TRIM);
	slc_probe_close(p);
	slc_sim_close(sim);
}

static void test_json(void **state)
{
	struct slc_identity id;
	struct slc_health h;
	json_t *doc, *v;
	char *s;

	(void)state;
	slc_identity_init(&id);
	slc_health_init(&h);
	id.source = SLC_PROBE_NVME;
	snprintf(id.model, sizeof(id.model), "Example NVMe 1TB");
	id.capacity_bytes = 1000204886016ull;
	id.nsid = 1;
	id.n_lba_formats = 2;
	id.lba_formats[0] = (struct slc_lba_format){ 512, 0, 2, 1 };
	id.lba_formats[1] = (struct slc_lba_format){ 4096, 0, 1, 0 };
	h.has_smart = 1;
	h.host_write_bytes = 123456789000ull;
	h.temp_c = 41;
	s = slc_probe_json(&id, &h);
	assert_non_null(s);
	doc = json_loads(s, 0, NULL);
	free(s);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "slcscope.probe/1");
	v = json_object_get(doc, "identity");
	assert_string_equal(json_string_value(json_object_get(v, "source")), "nvme");
	assert_int_equal(json_integer_value(json_object_get(v, "capacity_bytes")), 1000204886016ll);
	assert_true(json_is_null(json_object_get(v, "serial")));       /* unknown stays null */
	assert_true(json_is_null(json_object_get(v, "rotational")));
	v = json_object_get(json_object_get(v, "nvme"), "lba_formats");
	assert_int_equal(json_array_size(v), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(v, 1), "data_bytes")), 4096);
	assert_true(json_is_true(json_object_get(json_array_get(v, 0), "in_use")));
	v = json_object_get(doc, "health");
	assert_int_equal(json_integer_value(json_object_get(v, "host_write_bytes")), 123456789000ll);
	assert_true(json_is_null(json_object_get(v, "nand_write_bytes")));
	assert_true(json_is_null(json_object_get(v, "warn_temp_c")));
	assert_true(fabs(json_number_value(json_object_get(v, "temp_c")) - 41) < 1e-9);
	json_decref(doc);

	/* no SMART: the reason, nothing else */
	slc_health_init(&h);
	snprintf(h.no_smart_reason, sizeof(h.no_smart_reason), "no SMART on this device (loop)");
	s = slc_probe_json(NULL, &h);
	doc = json_loads(s, 0, NULL);
	free(s);
	v = json_object_get(doc, "health");
	assert_true(json_is_false(json_object_get(v, "has_smart")));
	assert_string_equal(json_string_value(json_object_get(v, "no_smart_reason")), "no SMART on this device (loop)");
	assert_null(json_object_get(v, "host_write_bytes"));
	assert_null(json_object_get(doc, "identity"));
	json_decref(doc);
}

static void test_write_amplification(void **state)
{
	const double t[] = { 0, 10, 20, 30 };
	const double host[] = { 1000, 2000, 3000, 4000 };
	const double nand[] = { 5000, 6000, 8000, 11000 };
	struct slc_health a, b;

	(void)state;
	assert_true(fabs(slc_write_amplification(t, host, nand, 4, 0, 10, 1) - 1.0) < 1e-12);
	assert_true(fabs(slc_write_amplification(t, host, nand, 4, 10, 30, 1) - 2.5) < 1e-12);
	/* halfway between readings: interpolated */
	assert_true(fabs(slc_write_amplification(t, host, nand, 4, 15, 25, 1) - 2.5) < 1e-12);
	/* outside the readings' reach, or no span: unknown */
	assert_true(isnan(slc_write_amplification(t, host, nand, 4, 10, 45, 1)));
	assert_true(isnan(slc_write_amplification(t, host, nand, 4, 10, 10, 1)));
	assert_true(isnan(slc_write_amplification(t, host, nand, 1, 0, 10, 1)));

	slc_health_init(&a);
	slc_health_init(&b);
	assert_true(isnan(slc_health_write_amplification(&a, &b)));
	a.host_write_bytes = 100; a.nand_write_bytes = 1000;
	b.host_write_bytes = 300; b.nand_write_bytes = 1300;
	assert_true(fabs(slc_health_write_amplification(&a, &b) - 1.5) < 1e-12);
	b.host_write_bytes = 100;            /* nothing written: unknown */
	assert_true(isnan(slc_health_write_amplification(&a, &b)));
}

/* A cache, then a dip, then the native speed: the breakdown the thermal
 * evidence is applied to. */
static void make_phases(struct slc_analysis *a, struct slc_phase *ph)
{
	memset(a, 0, sizeof(*a));
	ph[0] = (struct slc_phase){ .kind = SLC_PHASE_SLC_CACHE, .tier = 1, .start_s = 0, .end_s = 10,
				    .start_bytes = 0, .end_bytes = 30e9, .mean_bps = 3e9 };
	ph[1] = (struct slc_phase){ .kind = SLC_PHASE_STALL, .start_s = 10, .end_s = 14,
				    .start_bytes = 30e9, .end_bytes = 30.4e9, .mean_bps = 1e8 };
	ph[2] = (struct slc_phase){ .kind = SLC_PHASE_SLC_CACHE, .tier = 1, .start_s = 14, .end_s = 20,
				    .start_bytes = 30.4e9, .end_bytes = 48.4e9, .mean_bps = 3e9 };
	ph[3] = (struct slc_phase){ .kind = SLC_PHASE_DIRECT_TO_TLC, .start_s = 20, .end_s = 100,
				    .start_bytes = 48.4e9, .end_bytes = 128.4e9, .mean_bps = 1e9 };
	a->phases = ph;
	a->n_phases = 4;
	a->has_cache = 1;
	a->cache_bytes = 48.4e9;
	a->cache_end_s = 20;
	a->erase_bound_start_s = a->erase_bound_start_bytes = NAN;
}

static void test_thermal(void **state)
{
	struct slc_phase ph[4];
	struct slc_analysis a;
	const double tt[] = { 0, 5, 10, 15, 20, 25, 30 };
	const double cool[] = { 40, 45, 50, 52, 55, 57, 58 };
	const double hot[] = { 40, 55, 69.4, 66, 60, 62, 64 };
	const double rising[] = { 40, 50, 60, 65, 70, 72, 71 };
	const double mt[] = { 0, 10, 20 }, mv[] = { 3, 4, 4 };
	struct slc_thermal_in th = { .temp_t_s = tt, .n_temp = 7, .warn_c = 70, .interval_s = 1 };

	(void)state;
	/* no evidence at all: nothing changes */
	make_phases(&a, ph);
	th.temp_c = cool;
	th.warn_c = NAN;
	assert_int_equal(slc_analysis_apply_thermal(&a, &th), 0);
	assert_int_equal(ph[1].kind, SLC_PHASE_STALL);

	/* the drive was at its warning temperature (within a kelvin) during
	 * the dip: throttling */
	th.warn_c = 70;
	th.temp_c = hot;
	assert_int_equal(slc_analysis_apply_thermal(&a, &th), 1);
	assert_int_equal(ph[1].kind, SLC_PHASE_THROTTLED);
	assert_int_equal(ph[3].kind, SLC_PHASE_DIRECT_TO_TLC);   /* it had cooled again by 20 s */

	/* readings that show a cool drive turn a "throttled" dip into a stall */
	th.temp_c = cool;
	assert_int_equal(slc_analysis_apply_thermal(&a, &th), 1);
	assert_int_equal(ph[1].kind, SLC_PHASE_STALL);

	/* the transition count rising during the dip is evidence too */
	make_phases(&a, ph);
	th.tmt_t_s = mt;
	th.tmt = mv;
	th.n_tmt = 3;
	assert_int_equal(slc_analysis_apply_thermal(&a, &th), 1);
	assert_int_equal(ph[1].kind, SLC_PHASE_THROTTLED);
	th.n_tmt = 0;

	/* a slowdown that begins as the temperature crosses the threshold is
	 * throttling; the cache figures stay those of the cache phases */
	make_phases(&a, ph);
	th.temp_c = rising;
	assert_true(slc_analysis_apply_thermal(&a, &th) >= 1);
	assert_int_equal(ph[3].kind, SLC_PHASE_THROTTLED);
	assert_true(fabs(a.cache_bytes - 48.4e9) < 1);
	assert_true(fabs(a.cache_end_s - 20) < 1e-9);

	/* the reason follows the model's */
	make_phases(&a, ph);
	ph[3].kind = SLC_PHASE_ERASE_BOUND;
	a.erase_bound_start_s = 20;
	a.erase_bound_start_bytes = 48.4e9;
	assert_true(slc_analysis_apply_thermal(&a, &th) >= 1);
	assert_true(isnan(a.erase_bound_start_bytes));
	assert_string_equal(a.model.explain, "the drive's temperature or thermal management: the slowdown from 48.4 GB "
					     "written is throttling, not the erase-bound phase\n");
	/* a cache too short to measure stays a bound */
	make_phases(&a, ph);
	a.has_cache = 0;
	a.cache_bytes = a.cache_end_s = NAN;
	a.model.cache_bound = 1;
	assert_true(slc_analysis_apply_thermal(&a, &th) >= 1);
	assert_false(a.has_cache);
	assert_true(isnan(a.cache_bytes));

	/* ... but not one that runs on after the drive has cooled well under
	 * the threshold: throttling ends as the drive cools, so a slowdown
	 * that lasts while it is cool is the drive's own (GC) */
	{
		const double released[] = { 40, 50, 60, 65, 69.5, 55, 50 };

		make_phases(&a, ph);
		th.temp_c = released;
		slc_analysis_apply_thermal(&a, &th);
		assert_int_equal(ph[3].kind, SLC_PHASE_DIRECT_TO_TLC);
	}

	assert_int_equal(slc_analysis_apply_thermal(NULL, &th), -EINVAL);
}

/* Unknown counts and times are left out of the text, never printed as 2^64-1. */
static void test_print_unknown(void **state)
{
	struct slc_identity id;
	struct slc_health h;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	slc_identity_init(&id);
	snprintf(id.path, sizeof(id.path), "/dev/test");
	slc_health_init(&h);
	h.has_smart = 1;
	h.thm_transitions[0] = 3;                  /* a count without its time */
	assert_non_null(f);
	slc_probe_print(f, &id, &h);
	fclose(f);
	assert_non_null(strstr(text, "TMT1 3 times"));
	assert_null(strstr(text, "18446744073709551615"));
	assert_null(strstr(text, "TMT2"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_regular_file),
		cmocka_unit_test(test_sim_probe),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_write_amplification),
		cmocka_unit_test(test_thermal),
		cmocka_unit_test(test_print_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
