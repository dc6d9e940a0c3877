// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the probes' decoders of what a drive sends back: libatasmart
 * blobs (IDENTIFY DEVICE, SMART data and thresholds as records) and NVMe pages
 * (Identify Controller, Identify Namespace, SMART/health log).  The first byte
 * picks the decoder (0: ATA blob; 1, 2, 3: the NVMe pages, zero-padded to
 * their size), the rest is the reply.  Whatever the bytes, a decoder must
 * return 0 or an error with a message, never read out of bounds, and leave
 * the identity's strings terminated.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char page[4096];
	struct slc_identity id;
	struct slc_health h;
	char err[256] = "";

	if (size < 1)
		return 0;
	if (data[0] % 4) {
		size_t n = size - 1 < sizeof(page) ? size - 1 : sizeof(page);
		memset(page, 0, sizeof(page));
		memcpy(page, data + 1, n);
		slc_identity_init(&id);
		slc_health_init(&h);
		switch (data[0] % 4) {
		case 1: slc__nvme_decode_id_ctrl(page, &id); break;
		case 2: slc__nvme_decode_id_ns(page, &id); break;
		default: slc__nvme_decode_smart(page, &h); break;
		}
		volatile size_t sink = strlen(id.model) + strlen(id.serial) + strlen(id.firmware) + id.n_lba_formats;
		for (unsigned i = 0; i < id.n_lba_formats && i < SLC_PROBE_MAX_LBAF; i++)
			sink += id.lba_formats[i].data_bytes;
		(void)sink;
		return 0;
	}
	if (slc_ata_decode_blob(data + 1, size - 1, &id, &h, err, sizeof(err)) == 0) {
		volatile size_t sink = strlen(id.model) + strlen(id.serial) + strlen(id.firmware);
		for (unsigned i = 0; i < h.n_attrs && i < SLC_PROBE_MAX_ATTRS; i++)
			sink += strlen(h.attrs[i].name) + (size_t)h.attrs[i].raw;
		(void)sink;
	} else if (!err[0]) {
		__builtin_trap();                /* an error must say why */
	}
	return 0;
}
