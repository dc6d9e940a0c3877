// SPDX-License-Identifier: MIT
/*
 * The shared vocabulary: names round-trip, and every step of every plan
 * carries the role that its name gives back for traces that stored none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "slcscope/core.h"
#include "slcscope/session.h"

static void test_names_round_trip(void **state)
{
	(void)state;
	for (int r = 0; r < SLC_ROLE__COUNT; r++)
		assert_int_equal(slc_role_from_name(slc_role_name((enum slc_role)r)), r);
	for (int w = 0; w < SLC_WL__COUNT; w++)
		assert_int_equal(slc_workload_from_name(slc_workload_name((enum slc_workload)w)), w);
	for (int k = 0; k < SLC_EVK__COUNT; k++)
		assert_int_equal(slc_event_kind_from_name(slc_event_kind_name((enum slc_event_kind)k)), k);
	for (int k = 0; k < SLC_SNAP__COUNT; k++)
		assert_int_equal(slc_snapshot_kind_from_name(slc_snapshot_kind_name((enum slc_snapshot_kind)k)), k);
	assert_int_equal(slc_role_from_name("no such role"), SLC_ROLE_UNKNOWN);
	assert_int_equal(slc_role_from_name(NULL), SLC_ROLE_UNKNOWN);
	assert_string_equal(slc_role_name((enum slc_role)999), "unknown");
	assert_int_equal(slc_workload_from_name("rand_write"), SLC_WL_RAND_WRITE);
	assert_int_equal(slc_event_kind_from_name("smart_nand_bytes"), SLC_EVK_SMART_NAND_BYTES);
}

/* The simulated drive's event names are the vocabulary's first ones. */
static void test_sim_events_share_names(void **state)
{
	(void)state;
	for (int k = 0; k < SLC_SIM_EV__COUNT; k++)
		assert_string_equal(slc_sim_event_name((enum slc_sim_event_kind)k), slc_event_kind_name((enum slc_event_kind)k));
}

static void test_legacy_step_names(void **state)
{
	static const struct { const char *step; enum slc_role role; uint32_t arg; } cases[] = {
		{ "seq_fill", SLC_ROLE_FILL, 0 }, { "rand_curve", SLC_ROLE_CURVE, 0 },
		{ "idle_burst", SLC_ROLE_IDLE_BURST, 0 }, { "idle_burst_120s", SLC_ROLE_IDLE_BURST, 120 },
		{ "idle_300s", SLC_ROLE_IDLE, 300 }, { "trim_burst", SLC_ROLE_TRIM_BURST, 0 },
		{ "burst_at_75%", SLC_ROLE_LEVEL_BURST, 75 }, { "burst_after_trim", SLC_ROLE_LEVEL_BURST, 0 },
		{ "hir_wait_25s", SLC_ROLE_HIR_ROUNDS, 25 }, { "saturate_after_50s", SLC_ROLE_SATURATE, 50 },
		{ "import", SLC_ROLE_IMPORTED, 0 },
		/* names no plan gives: read by prefix, as older analyses did */
		{ "idle_burst_s", SLC_ROLE_IDLE_BURST, 0 }, { "burst_at_25", SLC_ROLE_LEVEL_BURST, 25 },
		{ "burst_at_50pct", SLC_ROLE_LEVEL_BURST, 50 }, { "hir_wait_2.5s", SLC_ROLE_HIR_ROUNDS, 2 },
		{ "hir_wait_15sec", SLC_ROLE_HIR_ROUNDS, 15 }, { "idle_burst5s", SLC_ROLE_IDLE_BURST, 5 },
		{ "burst_post_trim", SLC_ROLE_TRIM_BURST, 0 }, { "hir_wait_99999999999s", SLC_ROLE_HIR_ROUNDS, 0 },
		/* and the rest stays unknown */
		{ "rand_curve2", SLC_ROLE_UNKNOWN, 0 }, { "", SLC_ROLE_UNKNOWN, 0 }, { "fill_to_x", SLC_ROLE_UNKNOWN, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t arg = 7;
		assert_int_equal(slc_role_of_step(cases[i].step, &arg), cases[i].role);
		assert_int_equal(arg, cases[i].arg);
	}
	assert_int_equal(slc_role_of_step(NULL, NULL), SLC_ROLE_UNKNOWN);
	assert_true(slc_role_after_trim(SLC_ROLE_TRIM_BURST, 0));
	assert_true(slc_role_after_trim(SLC_ROLE_LEVEL_BURST, 0));
	assert_false(slc_role_after_trim(SLC_ROLE_LEVEL_BURST, 25));
	assert_false(slc_role_after_trim(SLC_ROLE_IDLE_BURST, 0));
	assert_true(slc_workload_same("rand_write", "rand_write"));
	assert_false(slc_workload_same("rand_write", "seq_write"));
	assert_true(slc_workload_same("rand_rw", "rand_rw"));
	assert_false(slc_workload_same("rand_rw", "seq_write_verify"));
	assert_false(slc_workload_same(NULL, "rand_write"));
}

/* A plan step's explicit role is what its name gives back. */
static void test_plans_name_their_roles(void **state)
{
	static const char *const plans[] = { "lab", "seq", "rand", "trim-response", "fill-levels",
					     "compress", "hir", "idle-sweep" };
	struct slc_plan_opts o;
	struct slc_plan p;
	char err[256];

	(void)state;
	slc_plan_opts_default(&o);
	for (size_t k = 0; k < sizeof(plans) / sizeof(plans[0]); k++) {
		assert_int_equal(slc_plan_build(&p, plans[k], &o, err, sizeof(err)), 0);
		for (size_t i = 0; i < p.n; i++) {
			uint32_t arg;
			enum slc_role r = slc_role_of_step(p.step[i].name, &arg);
			if (r != p.step[i].role || arg != p.step[i].role_arg)
				fail_msg("plan %s step %s: role %s/%u, its name gives %s/%u", plans[k], p.step[i].name,
					 slc_role_name(p.step[i].role), p.step[i].role_arg, slc_role_name(r), arg);
			assert_int_not_equal(p.step[i].role, SLC_ROLE_UNKNOWN);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_sim_events_share_names),
		cmocka_unit_test(test_legacy_step_names),
		cmocka_unit_test(test_plans_name_their_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
