// SPDX-License-Identifier: MIT
/* slcscope probe: what a drive is and how healthy it is.  Never writes. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slcscope/core.h"
#include "slcscope/probe.h"

static const struct slc_help_cmd probe_doc = {
	.name = "probe",
	.summary = "drive identity and SMART/health (NVMe, SATA, sysfs, simulated)",
	.usage = "probe DEVICE|FILE|sim:MODEL [--json]\nprobe --ata-blob FILE [--json]",
	.operands = "@device",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Print what the drive is (model, serial, firmware, capacity, block sizes, LBA\n"
			  "formats, interface and link, rotational, TRIM granularity, volatile write\n"
			  "cache, Format/Sanitize support) and its SMART/health state (data written\n"
			  "and read, temperature and thresholds, thermal throttling counters, wear,\n"
			  "spare, critical warnings; ATA attributes by name).  NVMe drives are read\n"
			  "through libnvme, SATA drives through libatasmart; loop, virtio and other\n"
			  "devices, and regular files, show what sysfs knows and \"no SMART\".  A\n"
			  "simulated drive reports its model's counters (host and NAND writes,\n"
			  "temperature).  The device is opened read-only; nothing is written.\n"
			  "Reading SMART needs root on most systems.\n" },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "json", 0, NULL, 'j', "one JSON document (schema slcscope.probe/1, docs/probes.md)", NULL },
			{ "ata-blob", 0, "FILE", 'b', "decode a saved libatasmart blob (IDENTIFY and SMART data,\n"
			  "as 'skdump --save=FILE /dev/sdX' writes it) instead of a device", NULL },
			{ "help", 'h', NULL, 'h', "show this help", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ .text = "Exit status: 0 success (also without SMART), 1 the device cannot be opened or\n"
			  "an admin command failed, 2 usage.\n" },
		{ 0 },
	},
};

/* The identity and health as JSON or in words; the exit code. */
static int emit(int json, const struct slc_identity *id, const struct slc_health *h)
{
	char *s;

	if (!json) {
		slc_probe_print(stdout, id, h);
		return CLI_OK;
	}
	if ((s = slc_probe_json(id, h)))
		printf("%s\n", s);
	free(s);
	return s ? CLI_OK : cli_fail("probe", "out of memory");
}

static int probe_run(int argc, char **argv)
{
	const char *blob = NULL;
	struct slc_probe *p = NULL;
	struct slc_target *sim = NULL;
	struct slc_health h;
	char err[512];
	const char *dev;
	int c, json = 0, rc;
	const char *letters;
	const struct option *opts = cli_getopt(&probe_doc, &letters);

	while ((c = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
		if (c != 'j' && c != 'b')
			return cli_bad_option("probe", opts, argv[optind - 1]);
		json |= c == 'j';
		blob = c == 'b' ? optarg : blob;
	}
	if (blob) {
		struct slc_identity id;
		struct slc_health bh;
		if (optind != argc)
			return cli_usage("probe", "--ata-blob takes the place of DEVICE");
		if (slc_ata_decode_file(blob, &id, &bh, err, sizeof(err)))
			return cli_fail("probe", "%s", err);
		return emit(json, &id, &bh);
	}
	if (optind != argc - 1)
		return cli_usage("probe", "give exactly one DEVICE, FILE or sim:MODEL");
	dev = argv[optind];
	if (!strncmp(dev, "sim:", 4)) {
		struct slc_target_opts to = { .seed = 1 };
		if (!(rc = slc_target_open(&sim, dev, &to, err, sizeof(err))))
			rc = slc_probe_open_target(&p, sim, err, sizeof(err));
	} else {
		rc = slc_probe_open(&p, dev, err, sizeof(err));
	}
	if (rc) {
		slc_target_close(sim);
		return cli_fail("probe", "%s", err);
	}
	rc = slc_probe_health(p, &h, err, sizeof(err));
	emit(json, slc_probe_identity(p), rc ? NULL : &h);
	slc_probe_close(p);
	slc_target_close(sim);
	if (rc)
		return cli_fail("probe", "SMART/health: %s", err);
	return CLI_OK;
}

const struct cli_cmd cli_cmd_probe = {
	.doc = &probe_doc,
	.run = probe_run,
};
