// SPDX-License-Identifier: MIT
/* Until the NVMe backend lands: NVMe devices are sysfs-only. */
#include <errno.h>
#include "probe_priv.h"
int slc_nvme_attach(struct slc_probe *p, char *err, size_t errlen) { (void)p; (void)err; (void)errlen; return -ENOTTY; }
