// SPDX-License-Identifier: MIT
/* sysfs probe against canned trees in testdata/sysfs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "slcscope/probes.h"

static void test_nvme(void **state)
{
	struct slc_sysfs_info i;
	(void)state;
	assert_int_equal(slc_sysfs_probe(&i, TESTDATA_DIR "/sysfs", "nvme0n1"), 0);
	assert_string_equal(i.model, "Samsung SSD 980 PRO 1TB");
	assert_string_equal(i.serial, "S5GXNF0R123456A");
	assert_string_equal(i.firmware, "5B2QGXA7");
	assert_true(i.capacity_bytes == 1953525168ull * 512);
	assert_int_equal(i.logical_block_bytes, 512);
	assert_int_equal(i.rotational, 0);
	assert_true(i.discard_max_bytes > 0);
	assert_string_equal(i.write_cache, "write back");
	assert_int_equal(i.partitions, 1);
	assert_int_equal(i.holders, 0);
}

static void test_loop_with_holder(void **state)
{
	struct slc_sysfs_info i;
	(void)state;
	assert_int_equal(slc_sysfs_probe(&i, TESTDATA_DIR "/sysfs", "loop3"), 0);
	assert_string_equal(i.model, "");
	assert_int_equal(i.logical_block_bytes, 4096);
	assert_int_equal(i.rotational, 1);
	assert_int_equal(i.holders, 1);
	assert_int_equal(i.partitions, 0);
	assert_true(i.capacity_bytes == 2097152ull * 512);
}

static void test_errors(void **state)
{
	struct slc_sysfs_info i;
	(void)state;
	assert_int_equal(slc_sysfs_probe(&i, TESTDATA_DIR "/sysfs", "sdz"), -ENOENT);
	assert_int_equal(slc_sysfs_probe(&i, TESTDATA_DIR "/sysfs", "../x"), -EINVAL);
	assert_int_equal(slc_sysfs_probe(&i, TESTDATA_DIR "/sysfs", ""), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_loop_with_holder),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
