// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the probes' decoders of what a drive sends back: libatasmart
 * blobs (IDENTIFY DEVICE, SMART data and thresholds as records).  Whatever the
 * bytes, the decoder must return 0 or an error with a message, never read
 * out of bounds, and leave the identity's strings terminated.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slc_identity id;
	struct slc_health h;
	char err[256] = "";

	if (slc_ata_decode_blob(data, size, &id, &h, err, sizeof(err)) == 0) {
		volatile size_t sink = strlen(id.model) + strlen(id.serial) + strlen(id.firmware);
		for (unsigned i = 0; i < h.n_attrs && i < SLC_PROBE_MAX_ATTRS; i++)
			sink += strlen(h.attrs[i].name) + (size_t)h.attrs[i].raw;
		(void)sink;
	} else if (!err[0]) {
		__builtin_trap();                /* an error must say why */
	}
	return 0;
}
