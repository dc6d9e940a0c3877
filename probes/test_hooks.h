/* SPDX-License-Identifier: MIT */
/*
 * Test hooks of the NVMe backend, compiled in only where the test build
 * compiles the probes again with SLCSCOPE_TEST_HOOKS (tests/CMakeLists.txt):
 * the library to load (to see a missing libnvme) and the Sanitize poll and
 * timeout (to see a timeout in a second).  The installed tool has none of
 * them, and reads no environment variable that loads code or shortens a
 * safety check (docs/security.md).
 */
#ifndef SLCSCOPE_PROBES_TEST_HOOKS_H
#define SLCSCOPE_PROBES_TEST_HOOKS_H

#ifdef SLCSCOPE_TEST_HOOKS
extern const char *slc__test_nvme_soname;                /* NULL: libnvme.so.1 */
extern unsigned long long slc__test_sanitize_poll_ms;    /* ULLONG_MAX: the default */
extern unsigned long long slc__test_sanitize_timeout_ms; /* ULLONG_MAX: the default */
#endif

#endif
