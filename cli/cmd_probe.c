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

static void probe_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope probe DEVICE|FILE|sim:MODEL [--json]\n"
		"       slcscope probe --ata-blob FILE [--json]\n"
		"\n"
		"Print what the drive is (model, serial, firmware, capacity, block sizes, LBA\n"
		"formats, interface and link, rotational, TRIM granularity, volatile write\n"
		"cache, Format/Sanitize support) and its SMART/health state (data written\n"
		"and read, temperature and thresholds, thermal throttling counters, wear,\n"
		"spare, critical warnings; ATA attributes by name).  NVMe drives are read\n"
		"through libnvme, SATA drives through libatasmart; loop, virtio and other\n"
		"devices, and regular files, show what sysfs knows and \"no SMART\".  A\n"
		"simulated drive reports its model's counters (host and NAND writes,\n"
		"temperature).  The device is opened read-only; nothing is written.\n"
		"Reading SMART needs root on most systems.\n"
		"\n"
		"Options:\n"
		"  --json        one JSON document (schema slcscope.probe/1, docs/probes.md)\n"
		"  --ata-blob FILE  decode a saved libatasmart blob (IDENTIFY and SMART data,\n"
		"                as 'skdump --save=FILE /dev/sdX' writes it) instead of a device\n"
		"  -h, --help    show this help\n"
		"\n"
		"Exit status: 0 success (also without SMART), 1 the device cannot be opened or\n"
		"an admin command failed, 2 usage.\n");
}

static int probe_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ata-blob", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *blob = NULL;
	struct slc_probe *p = NULL;
	struct slc_sim *sim = NULL;
	struct slc_health h;
	char err[512];
	const char *dev;
	int c, json = 0, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'b')
			blob = optarg;
		else
			return cli_usage("probe", "unknown option '%s'", argv[optind - 1]);
	}
	if (blob) {
		struct slc_identity id;
		struct slc_health bh;
		FILE *f;
		unsigned char *buf;
		long n;
		if (optind != argc)
			return cli_usage("probe", "--ata-blob takes the place of DEVICE");
		if (!(f = fopen(blob, "rb")))
			return cli_fail("probe", "%s: %s", blob, strerror(errno));
		if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1 << 20) || fseek(f, 0, SEEK_SET)) {
			fclose(f);
			return cli_fail("probe", "%s: not a libatasmart blob (unreadable, or over 1 MiB)", blob);
		}
		buf = malloc(n ? (size_t)n : 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			fclose(f);
			return cli_fail("probe", "%s: cannot read", blob);
		}
		fclose(f);
		rc = slc_ata_decode_blob(buf, (size_t)n, &id, &bh, err, sizeof(err));
		free(buf);
		if (rc)
			return cli_fail("probe", "%s: %s", blob, err);
		snprintf(id.path, sizeof(id.path), "%s", blob);
		if (json) {
			char *s = slc_probe_json(&id, &bh);
			if (s) printf("%s\n", s);
			free(s);
		} else {
			slc_probe_print(stdout, &id, &bh);
		}
		return CLI_OK;
	}
	if (optind != argc - 1)
		return cli_usage("probe", "give exactly one DEVICE, FILE or sim:MODEL");
	dev = argv[optind];
	if (!strncmp(dev, "sim:", 4)) {
		struct slc_sim_model m;
		if ((rc = slc_sim_model_load(&m, dev, err, sizeof(err))))
			return cli_fail("probe", "%s", err);
		if ((rc = slc_sim_open(&sim, &m, 1, err, sizeof(err))))
			return cli_fail("probe", "%s", err);
		rc = slc_probe_open_sim(&p, sim, dev, err, sizeof(err));
	} else {
		rc = slc_probe_open(&p, dev, err, sizeof(err));
	}
	if (rc) {
		slc_sim_close(sim);
		return cli_fail("probe", "%s", err);
	}
	rc = slc_probe_health(p, &h, err, sizeof(err));
	if (json) {
		char *s = slc_probe_json(slc_probe_identity(p), rc ? NULL : &h);
		if (s) {
			printf("%s\n", s);
			free(s);
		}
	} else {
		slc_probe_print(stdout, slc_probe_identity(p), rc ? NULL : &h);
	}
	slc_probe_close(p);
	slc_sim_close(sim);
	if (rc)
		return cli_fail("probe", "SMART/health: %s", err);
	return CLI_OK;
}

const struct cli_cmd cli_cmd_probe = {
	.name = "probe",
	.summary = "drive identity and SMART/health (NVMe, SATA, sysfs, simulated)",
	.run = probe_run,
	.help = probe_help,
};
