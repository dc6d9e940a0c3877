// SPDX-License-Identifier: MIT
/* Until the NVMe and ATA backends land: every device is sysfs-only. */
#include <errno.h>
#include "probe_priv.h"
int slc_nvme_attach(struct slc_probe *p, char *err, size_t errlen) { (void)p; (void)err; (void)errlen; return -ENOTTY; }
int slc_ata_attach(struct slc_probe *p, char *err, size_t errlen) { (void)p; (void)err; (void)errlen; return -ENOTSUP; }
