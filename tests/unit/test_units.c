// SPDX-License-Identifier: MIT
/* Table-driven tests of size, duration and rate parsing and printing. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "slcscope/core.h"

struct size_case {
	const char *in;
	int rc;
	uint64_t bytes;
	double multiple;
	const char *reason;    /* substring of the error, for failures */
};

static const struct size_case size_cases[] = {
	{ "4k", 0, 4096, 0, NULL },
	{ "4K", 0, 4096, 0, NULL },
	{ "128KiB", 0, 131072, 0, NULL },
	{ "128Ki", 0, 131072, 0, NULL },
	{ "1.5GiB", 0, 1610612736ull, 0, NULL },
	{ "240GB", 0, 240000000000ull, 0, NULL },
	{ "0.1GB", 0, 100000000ull, 0, NULL },
	{ "1kB", 0, 1000, 0, NULL },
	{ "1KB", 0, 1000, 0, NULL },
	{ "2T", 0, 2199023255552ull, 0, NULL },
	{ "2TB", 0, 2000000000000ull, 0, NULL },
	{ "512", 0, 512, 0, NULL },
	{ "512B", 0, 512, 0, NULL },
	{ "128 KiB", 0, 131072, 0, NULL },
	{ "0", 0, 0, 0, NULL },
	{ "007", 0, 7, 0, NULL },
	{ "16EiB", -ERANGE, 0, 0, "too large" },
	{ "15EiB", 0, 15ull << 60, 0, NULL },
	{ "18446744073709551615", 0, UINT64_MAX, 0, NULL },
	{ "18446744073709551616", -ERANGE, 0, 0, "too large" },
	{ "99999999999999999999999999999999999", -ERANGE, 0, 0, "too many digits" },
	{ "3x", 0, 0, 3.0, NULL },
	{ "0.5x", 0, 0, 0.5, NULL },
	{ "0x", -EINVAL, 0, 0, "more than 0" },
	{ "x", -EINVAL, 0, 0, "start with a number" },
	{ "3xx", -EINVAL, 0, 0, "number followed by x" },
	{ "", -EINVAL, 0, 0, "empty" },
	{ "-4k", -EINVAL, 0, 0, "negative" },
	{ "+4k", -EINVAL, 0, 0, "start with a digit" },
	{ " 4k", -EINVAL, 0, 0, "start with a digit" },
	{ "abc", -EINVAL, 0, 0, "start with a number" },
	{ "4q", -EINVAL, 0, 0, "unknown unit" },
	{ "4kb", -EINVAL, 0, 0, "bits" },
	{ "4Mib", -EINVAL, 0, 0, "bits" },
	{ "4b", -EINVAL, 0, 0, "bits" },
	{ "4KiBs", -EINVAL, 0, 0, "trailing" },
	{ "1.3k", -EINVAL, 0, 0, "whole number of bytes" },
	{ "1.2.3", -EINVAL, 0, 0, "unknown unit" },
	{ ".", -EINVAL, 0, 0, "start with a number" },
	{ ".5k", 0, 512, 0, NULL },
};

static void test_parse_size_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];
		struct slc_size sz = { 12345, 0 };
		char err[128] = "";
		int rc = slc_parse_size(&sz, c->in, err, sizeof(err));

		if (rc != c->rc)
			fail_msg("'%s': rc %d, expected %d (%s)", c->in, rc, c->rc, err);
		if (rc == 0) {
			if (sz.bytes != c->bytes || sz.capacity_multiple != c->multiple)
				fail_msg("'%s': got %llu bytes / %gx", c->in,
					 (unsigned long long)sz.bytes, sz.capacity_multiple);
		} else if (!strstr(err, c->reason)) {
			fail_msg("'%s': reason '%s' lacks '%s'", c->in, err, c->reason);
		}
	}
}

static void test_parse_bytes_refuses_multiple(void **state)
{
	uint64_t b;
	char err[128];
	(void)state;
	assert_int_equal(slc_parse_bytes(&b, "3x", err, sizeof(err)), -EINVAL);
	assert_int_equal(slc_parse_bytes(&b, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(slc_parse_bytes(&b, "4k", NULL, 0), 0);
	assert_int_equal(b, 4096);
}

static void test_size_resolve(void **state)
{
	struct slc_size s = { 0, 3.0 };
	uint64_t b;
	(void)state;
	assert_int_equal(slc_size_resolve(&b, &s, 240000000000ull), 0);
	assert_true(b == 720000000000ull);
	assert_int_equal(slc_size_resolve(&b, &s, 0), -EINVAL);
	s.capacity_multiple = 1e6;
	assert_int_equal(slc_size_resolve(&b, &s, UINT64_MAX / 2), -ERANGE);
	s.capacity_multiple = 0;
	s.bytes = 77;
	assert_int_equal(slc_size_resolve(&b, &s, 0), 0);
	assert_int_equal(b, 77);
}

struct dur_case {
	const char *in;
	int rc;
	uint64_t ns;
	const char *reason;
};

static const struct dur_case dur_cases[] = {
	{ "90s", 0, 90000000000ull, NULL },
	{ "15m", 0, 900000000000ull, NULL },
	{ "15min", 0, 900000000000ull, NULL },
	{ "2h", 0, 7200000000000ull, NULL },
	{ "1.5h", 0, 5400000000000ull, NULL },
	{ "100ms", 0, 100000000ull, NULL },
	{ "250us", 0, 250000ull, NULL },
	{ "7ns", 0, 7ull, NULL },
	{ "1d", 0, 86400000000000ull, NULL },
	{ "10", 0, 10000000000ull, NULL },
	{ "0.5", 0, 500000000ull, NULL },
	{ "1 s", 0, 1000000000ull, NULL },
	{ "", -EINVAL, 0, "empty" },
	{ "-5s", -EINVAL, 0, "negative" },
	{ "5x", -EINVAL, 0, "unknown duration unit" },
	{ "s", -EINVAL, 0, "start with a number" },
	{ "1e9d", -EINVAL, 0, "unknown duration unit" },
	{ "999999999999d", -ERANGE, 0, "too large" },
};

static void test_parse_duration_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(dur_cases) / sizeof(dur_cases[0]); i++) {
		const struct dur_case *c = &dur_cases[i];
		uint64_t ns = 0;
		char err[128] = "";
		int rc = slc_parse_duration_ns(&ns, c->in, err, sizeof(err));

		if (rc != c->rc)
			fail_msg("'%s': rc %d, expected %d (%s)", c->in, rc, c->rc, err);
		if (rc == 0 && ns != c->ns)
			fail_msg("'%s': got %llu ns", c->in, (unsigned long long)ns);
		if (rc != 0 && !strstr(err, c->reason))
			fail_msg("'%s': reason '%s' lacks '%s'", c->in, err, c->reason);
	}
}

static void test_parse_rate(void **state)
{
	double bps;
	char err[128];
	(void)state;
	assert_int_equal(slc_parse_rate_bps(&bps, "500MB/s", err, sizeof(err)), 0);
	assert_true(bps == 500e6);
	assert_int_equal(slc_parse_rate_bps(&bps, "2GiB/s", err, sizeof(err)), 0);
	assert_true(bps == 2147483648.0);
	assert_int_equal(slc_parse_rate_bps(&bps, "1000", err, sizeof(err)), 0);
	assert_true(bps == 1000.0);
	assert_int_equal(slc_parse_rate_bps(&bps, "1.5MiB/s", err, sizeof(err)), 0);
	assert_true(bps == 1572864.0);
	assert_int_equal(slc_parse_rate_bps(&bps, "500MB/h", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "trailing"));
	assert_int_equal(slc_parse_rate_bps(&bps, "-1MB/s", err, sizeof(err)), -EINVAL);
}

struct fmt_case {
	double v;
	enum slc_unit_system sys;
	const char *out;
};

static void test_format(void **state)
{
	static const struct fmt_case bytes[] = {
		{ 512, SLC_UNITS_BINARY, "512 B" },
		{ 1610612736.0, SLC_UNITS_BINARY, "1.50 GiB" },
		{ 240e9, SLC_UNITS_DECIMAL, "240 GB" },
		{ 2.3e9, SLC_UNITS_DECIMAL, "2.30 GB" },
		{ 71.5 * 1073741824.0, SLC_UNITS_BINARY, "71.5 GiB" },
		{ 1023, SLC_UNITS_BINARY, "1023 B" },
		{ 1024, SLC_UNITS_BINARY, "1 KiB" },
		{ 4096, SLC_UNITS_BINARY, "4 KiB" },
		{ 1536, SLC_UNITS_BINARY, "1.50 KiB" },
	};
	char buf[64];
	(void)state;
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++)
		assert_string_equal(slc_format_bytes(buf, sizeof(buf), bytes[i].v, bytes[i].sys), bytes[i].out);
	assert_string_equal(slc_format_rate(buf, sizeof(buf), 512.3e6, SLC_UNITS_DECIMAL), "512 MB/s");
	assert_string_equal(slc_format_rate(buf, sizeof(buf), 5079.0 * 1048576, SLC_UNITS_BINARY), "4.96 GiB/s");
	assert_string_equal(slc_format_iops(buf, sizeof(buf), 80123), "80.1k IOPS");
	assert_string_equal(slc_format_iops(buf, sizeof(buf), 950), "950 IOPS");
	assert_string_equal(slc_format_iops(buf, sizeof(buf), 1.5e6), "1.50M IOPS");
	assert_string_equal(slc_format_duration(buf, sizeof(buf), 250000000ull), "250.0 ms");
	assert_string_equal(slc_format_duration(buf, sizeof(buf), 42000000000ull), "42.0 s");
	assert_string_equal(slc_format_duration(buf, sizeof(buf), 900000000000ull), "15m 00s");
	assert_string_equal(slc_format_duration(buf, sizeof(buf), 7385000000000ull), "2h 03m 05s");
	assert_string_equal(slc_format_duration(buf, sizeof(buf), 5), "5 ns");
}

/* Every size printed in either system parses back to within the printed precision. */
static void test_format_parse_roundtrip(void **state)
{
	static const double values[] = { 4096, 131072, 2.3e9, 240e9, 1e12, 3.5 * 1073741824.0 };
	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		for (int sys = 0; sys < 2; sys++) {
			char buf[64], compact[64], err[128];
			uint64_t b;
			size_t k = 0;
			slc_format_bytes(buf, sizeof(buf), values[i], (enum slc_unit_system)sys);
			for (const char *p = buf; *p; p++)
				if (*p != ' ') compact[k++] = *p;
			compact[k] = '\0';
			/* "2.30GB" is exact; "1.00KiB"-style values may not be whole bytes */
			if (slc_parse_bytes(&b, compact, err, sizeof(err)) == 0)
				assert_true((double)b > values[i] * 0.99 && (double)b < values[i] * 1.01);
			else
				assert_non_null(strstr(err, "whole number"));
		}
	}
}

/* A stream's write error carries its reason: a full device says so, a
 * stream without an error says nothing. */
static void test_stream_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	char buf[256];

	(void)state;
	if (!f) {
		skip();
		return;
	}
	assert_int_equal(slc_stream_error(f), 0);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 100; i++) fwrite(buf, 1, sizeof(buf), f);
	assert_int_equal(slc_stream_error(f), -ENOSPC);
	fclose(f);
	f = tmpfile();
	assert_non_null(f);
	fputs("fine\n", f);
	assert_int_equal(slc_stream_error(f), 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_table),
		cmocka_unit_test(test_parse_bytes_refuses_multiple),
		cmocka_unit_test(test_size_resolve),
		cmocka_unit_test(test_parse_duration_table),
		cmocka_unit_test(test_parse_rate),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_parse_roundtrip),
		cmocka_unit_test(test_stream_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
