// SPDX-License-Identifier: MIT
/*
 * NVMe backend of the probes: identify, SMART / health log, temperature,
 * Format NVM and Sanitize through libnvme.
 *
 * libnvme is loaded at run time with dlopen(RTLD_LOCAL) and the few exported
 * functions used here are looked up with dlsym.  libnvme depends on json-c,
 * whose json_object_get() and friends share their names with jansson's (the
 * simulated drive's model parser): linking libnvme into the program put both
 * on the link line and bound the model parser to json-c.  Loaded RTLD_LOCAL,
 * neither libnvme nor json-c enters the global symbol scope, so the program's
 * references keep binding to jansson (docs/probes.md).  Only the headers'
 * types and constants are used at compile time; the headers' static inline
 * wrappers (nvme_identify_ctrl() etc.) would reference libnvme directly and
 * are not called.
 */
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "test_hooks.h"
#include "probe_priv.h"

_Static_assert(sizeof(struct nvme_id_ctrl) == 4096, "Identify Controller is 4096 bytes");
_Static_assert(sizeof(struct nvme_id_ns) == 4096, "Identify Namespace is 4096 bytes");
_Static_assert(sizeof(struct nvme_smart_log) == 512, "the SMART / Health log is 512 bytes");
_Static_assert(sizeof(struct nvme_sanitize_log_page) == 512, "the Sanitize Status log is 512 bytes");

#define NVME_SONAME "libnvme.so.1"
#define ID_PAGE 4096
#define LOG_PAGE 512
#define FORMAT_TIMEOUT_MS (4u * 3600u * 1000u)          /* Format NVM with user data erase */
#define SANITIZE_POLL_MS 1000
#define SANITIZE_TIMEOUT_MS (8ull * 3600ull * 1000ull)

/* The libnvme functions used, resolved from the RTLD_LOCAL handle. */
struct nvme_lib {
	void *handle;
	int (*identify)(struct nvme_identify_args *args);
	int (*get_log)(struct nvme_get_log_args *args);
	int (*get_nsid)(int fd, __u32 *nsid);
	int (*get_features)(struct nvme_get_features_args *args);
	int (*format_nvm)(struct nvme_format_nvm_args *args);
	int (*sanitize_nvm)(struct nvme_sanitize_nvm_args *args);
	const char *(*status_to_string)(int status, bool fabrics);
};

static struct nvme_lib lib;
static int lib_loaded;
static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;

#ifdef SLCSCOPE_TEST_HOOKS
const char *slc__test_nvme_soname;
unsigned long long slc__test_sanitize_poll_ms = ULLONG_MAX, slc__test_sanitize_timeout_ms = ULLONG_MAX;
#define LIBNVME_NAME (slc__test_nvme_soname ? slc__test_nvme_soname : NVME_SONAME)
#define HOOKED(v, dflt) ((v) != ULLONG_MAX ? (v) : (dflt))
#else
#define LIBNVME_NAME NVME_SONAME
#define HOOKED(v, dflt) (dflt)
#endif

/* Load libnvme once per process (a failure is retried on the next attach). */
static int nvme_lib_load(char *err, size_t errlen)
{
	int rc = 0;
	pthread_mutex_lock(&lib_lock);
	if (!lib_loaded) {
		const char *name = LIBNVME_NAME;
		struct nvme_lib l = { 0 };
		l.handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
		if (!l.handle) {
			const char *why = dlerror();
			snprintf(err, errlen, "NVMe: cannot load %s (%s): install the Debian package libnvme1",
				 name, why ? why : "unknown error");
			rc = -ELIBACC;
			goto out;
		}
#define SYM(field, sym)                                                                  \
	do {                                                                             \
		*(void **)(&l.field) = dlsym(l.handle, sym);                             \
		if (!l.field) {                                                          \
			snprintf(err, errlen, "NVMe: %s has no symbol %s (libnvme 1.x needed)", \
				 name, sym);                                             \
			dlclose(l.handle);                                               \
			rc = -ELIBBAD;                                                   \
			goto out;                                                        \
		}                                                                        \
	} while (0)
		SYM(identify, "nvme_identify");
		SYM(get_log, "nvme_get_log");
		SYM(get_nsid, "nvme_get_nsid");
		SYM(get_features, "nvme_get_features");
		SYM(format_nvm, "nvme_format_nvm");
		SYM(sanitize_nvm, "nvme_sanitize_nvm");
		SYM(status_to_string, "nvme_status_to_string");
#undef SYM
		lib = l;
		lib_loaded = 1;
	}
out:
	pthread_mutex_unlock(&lib_lock);
	return rc;
}

/* libnvme returns the NVMe status (>= 0) or -1 with errno: make it status or -errno. */
static int nv_ret(int rc, int saved_errno)
{
	if (rc >= 0)
		return rc;
	return saved_errno > 0 ? -saved_errno : -EIO;
}

static int nv_identify(int fd, enum nvme_identify_cns cns, uint32_t nsid, void *buf)
{
	struct nvme_identify_args a = {
		.result = NULL,
		.data = buf,
		.args_size = sizeof(a),
		.fd = fd,
		.timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
		.cns = cns,
		.csi = NVME_CSI_NVM,
		.nsid = nsid,
		.cntid = NVME_CNTLID_NONE,
		.cns_specific_id = NVME_CNSSPECID_NONE,
		.uuidx = NVME_UUID_NONE,
	};
	errno = 0;
	int rc = lib.identify(&a);
	return nv_ret(rc, errno);
}

static int nv_get_log(int fd, enum nvme_cmd_get_log_lid lid, uint32_t nsid, bool rae, void *buf, uint32_t len)
{
	struct nvme_get_log_args a = {
		.lpo = 0,
		.result = NULL,
		.log = buf,
		.args_size = sizeof(a),
		.fd = fd,
		.timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
		.lid = lid,
		.len = len,
		.nsid = nsid,
		.csi = NVME_CSI_NVM,
		.lsi = NVME_LOG_LSI_NONE,
		.lsp = NVME_LOG_LSP_NONE,
		.uuidx = NVME_UUID_NONE,
		.rae = rae,
		.ot = false,
	};
	errno = 0;
	int rc = lib.get_log(&a);
	return nv_ret(rc, errno);
}

/* ------------------------------------------------------------------------ */
/* Status text                                                               */

struct status_name {
	uint16_t code;                     /* SCT << 8 | SC */
	const char *text;
};

/* NVMe Base 2.0 "Generic Command Status Values", "Command Specific Status
 * Values" (the admin commands used here and their neighbours), "Media and
 * Data Integrity Errors"; NVM Command Set 1.0 for the 80h..  generic values. */
static const struct status_name status_names[] = {
	{ 0x000, "Successful Completion" },
	{ 0x001, "Invalid Command Opcode" },
	{ 0x002, "Invalid Field in Command" },
	{ 0x003, "Command ID Conflict" },
	{ 0x004, "Data Transfer Error" },
	{ 0x005, "Commands Aborted due to Power Loss Notification" },
	{ 0x006, "Internal Error" },
	{ 0x007, "Command Abort Requested" },
	{ 0x008, "Command Aborted due to SQ Deletion" },
	{ 0x009, "Command Aborted due to Failed Fused Command" },
	{ 0x00a, "Command Aborted due to Missing Fused Command" },
	{ 0x00b, "Invalid Namespace or Format" },
	{ 0x00c, "Command Sequence Error" },
	{ 0x00d, "Invalid SGL Segment Descriptor" },
	{ 0x00e, "Invalid Number of SGL Descriptors" },
	{ 0x00f, "Data SGL Length Invalid" },
	{ 0x010, "Metadata SGL Length Invalid" },
	{ 0x011, "SGL Descriptor Type Invalid" },
	{ 0x012, "Invalid Use of Controller Memory Buffer" },
	{ 0x013, "PRP Offset Invalid" },
	{ 0x014, "Atomic Write Unit Exceeded" },
	{ 0x015, "Operation Denied" },
	{ 0x016, "SGL Offset Invalid" },
	{ 0x018, "Host Identifier Inconsistent Format" },
	{ 0x019, "Keep Alive Timer Expired" },
	{ 0x01a, "Keep Alive Timeout Invalid" },
	{ 0x01b, "Command Aborted due to Preempt and Abort" },
	{ 0x01c, "Sanitize Failed" },
	{ 0x01d, "Sanitize In Progress" },
	{ 0x01e, "SGL Data Block Granularity Invalid" },
	{ 0x01f, "Command Not Supported for Queue in CMB" },
	{ 0x020, "Namespace is Write Protected" },
	{ 0x021, "Command Interrupted" },
	{ 0x022, "Transient Transport Error" },
	{ 0x023, "Command Prohibited by Command and Feature Lockdown" },
	{ 0x024, "Admin Command Media Not Ready" },
	{ 0x080, "LBA Out of Range" },
	{ 0x081, "Capacity Exceeded" },
	{ 0x082, "Namespace Not Ready" },
	{ 0x083, "Reservation Conflict" },
	{ 0x084, "Format In Progress" },
	{ 0x100, "Completion Queue Invalid" },
	{ 0x101, "Invalid Queue Identifier" },
	{ 0x102, "Invalid Queue Size" },
	{ 0x103, "Abort Command Limit Exceeded" },
	{ 0x105, "Asynchronous Event Request Limit Exceeded" },
	{ 0x106, "Invalid Firmware Slot" },
	{ 0x107, "Invalid Firmware Image" },
	{ 0x108, "Invalid Interrupt Vector" },
	{ 0x109, "Invalid Log Page" },
	{ 0x10a, "Invalid Format" },
	{ 0x10b, "Firmware Activation Requires Conventional Reset" },
	{ 0x10c, "Invalid Queue Deletion" },
	{ 0x10d, "Feature Identifier Not Saveable" },
	{ 0x10e, "Feature Not Changeable" },
	{ 0x10f, "Feature Not Namespace Specific" },
	{ 0x110, "Firmware Activation Requires NVM Subsystem Reset" },
	{ 0x111, "Firmware Activation Requires Controller Level Reset" },
	{ 0x112, "Firmware Activation Requires Maximum Time Violation" },
	{ 0x113, "Firmware Activation Prohibited" },
	{ 0x114, "Overlapping Range" },
	{ 0x115, "Namespace Insufficient Capacity" },
	{ 0x116, "Namespace Identifier Unavailable" },
	{ 0x118, "Namespace Already Attached" },
	{ 0x119, "Namespace Is Private" },
	{ 0x11a, "Namespace Not Attached" },
	{ 0x11b, "Thin Provisioning Not Supported" },
	{ 0x11c, "Controller List Invalid" },
	{ 0x11d, "Device Self-test In Progress" },
	{ 0x11e, "Boot Partition Write Prohibited" },
	{ 0x11f, "Invalid Controller Identifier" },
	{ 0x120, "Invalid Secondary Controller State" },
	{ 0x121, "Invalid Number of Controller Resources" },
	{ 0x122, "Invalid Resource Identifier" },
	{ 0x123, "Sanitize Prohibited While Persistent Memory Region is Enabled" },
	{ 0x124, "ANA Group Identifier Invalid" },
	{ 0x125, "ANA Attach Failed" },
	{ 0x180, "Conflicting Attributes" },
	{ 0x181, "Invalid Protection Information" },
	{ 0x182, "Attempted Write to Read Only Range" },
	{ 0x280, "Write Fault" },
	{ 0x281, "Unrecovered Read Error" },
	{ 0x282, "End-to-end Guard Check Error" },
	{ 0x283, "End-to-end Application Tag Check Error" },
	{ 0x284, "End-to-end Reference Tag Check Error" },
	{ 0x285, "Compare Failure" },
	{ 0x286, "Access Denied" },
	{ 0x287, "Deallocated or Unwritten Logical Block" },
};

const char *slc__nvme_status_text(int status, char *buf, size_t len)
{
	if (!buf || len == 0)
		return "";
	if (status < 0) {
		snprintf(buf, len, "%s", strerror(-status));
		return buf;
	}
	/* The kernel's status: SC bits 7:0, SCT 10:8, CRD 12:11, More 13, DNR 14. */
	unsigned code = (unsigned)status & 0x7ffu;
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++) {
		if (status_names[i].code == code) {
			snprintf(buf, len, "%s (0x%x)", status_names[i].text, code);
			return buf;
		}
	}
	/* libnvme's table, when it is loaded and knows the code ("Name: explanation"). */
	if (lib_loaded && lib.status_to_string) {
		const char *s = lib.status_to_string((int)code, false);
		if (s && *s && strcmp(s, "unrecognized") != 0) {
			size_t n = strcspn(s, ":");
			snprintf(buf, len, "%.*s (0x%x)", (int)n, s, code);
			return buf;
		}
	}
	snprintf(buf, len, "NVMe status 0x%x (status code type %u, status code 0x%02x)", code, code >> 8,
		 code & 0xffu);
	return buf;
}

/* "<command>: <status>" into err; returns the -errno to hand back. */
static int cmd_error(char *err, size_t errlen, const char *command, int rc)
{
	char s[160];
	if (rc == -ENOTTY) {
		snprintf(err, errlen, "not an NVMe device (%s: the device does not take NVMe admin commands)",
			 command);
		return -ENOTTY;
	}
	slc__nvme_status_text(rc, s, sizeof(s));
	if (rc == -EACCES || rc == -EPERM)
		snprintf(err, errlen, "%s: %s (NVMe admin commands need root)", command, s);
	else
		snprintf(err, errlen, "%s: %s", command, s);
	return rc < 0 ? rc : -EIO;
}

/* ------------------------------------------------------------------------ */
/* Decoders                                                                  */

/* An identify string (ASCII, space padded): printable, trimmed. */
static void id_string(char *dst, size_t dstlen, const char *src, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && src[i] != '\0' && o + 1 < dstlen; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	while (o > 0 && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
	size_t lead = strspn(dst, " ");
	if (lead)
		memmove(dst, dst + lead, o - lead + 1);
}

/* A 128-bit little-endian counter: its value, or UNKNOWN when it does not fit. */
static uint64_t le128(const uint8_t b[16], uint64_t multiplier)
{
	uint64_t lo, hi;
	memcpy(&lo, b, 8);
	memcpy(&hi, b + 8, 8);
	lo = le64toh(lo);
	hi = le64toh(hi);
	if (hi != 0 || (multiplier > 1 && lo > (SLC_PROBE_UNKNOWN - 1) / multiplier))
		return SLC_PROBE_UNKNOWN;
	uint64_t v = lo * multiplier;
	return v == SLC_PROBE_UNKNOWN ? SLC_PROBE_UNKNOWN - 1 : v;
}

/* Kelvins as NVMe reports them -> degrees Celsius (0 K: not reported).  The
 * offset is 273, as the specification's examples and nvme-cli use it. */
static double kelvin_c(unsigned k)
{
	return k == 0 ? NAN : (double)k - 273.0;
}

/*
 * The decoders copy the page into libnvme's structure first: the caller's
 * buffer need not be aligned for the structure's 16- and 32-bit fields.
 */
void slc__nvme_decode_id_ctrl(const void *page4096, struct slc_identity *id)
{
	struct nvme_id_ctrl copy;
	memcpy(&copy, page4096, sizeof(copy));
	const struct nvme_id_ctrl *c = &copy;
	id_string(id->model, sizeof(id->model), c->mn, sizeof(c->mn));
	id_string(id->serial, sizeof(id->serial), c->sn, sizeof(c->sn));
	id_string(id->firmware, sizeof(id->firmware), c->fr, sizeof(c->fr));
	id->pci_vendor = le16toh(c->vid);

	uint32_t ver = le32toh(c->ver);
	if (ver == 0) {
		id->nvme_version[0] = '\0';   /* NVMe 1.0/1.1 controllers may leave VER zero */
	} else if ((ver & 0xffu) != 0) {
		snprintf(id->nvme_version, sizeof(id->nvme_version), "%u.%u.%u", ver >> 16, (ver >> 8) & 0xffu,
			 ver & 0xffu);
	} else {
		snprintf(id->nvme_version, sizeof(id->nvme_version), "%u.%u", ver >> 16, (ver >> 8) & 0xffu);
	}

	uint16_t oacs = le16toh(c->oacs);
	id->format_nvm = (oacs & NVME_CTRL_OACS_FORMAT) ? 1 : 0;
	id->crypto_erase = (id->format_nvm && (c->fna & NVME_CTRL_FNA_CRYPTO_ERASE)) ? 1 : 0;
	uint32_t sanicap = le32toh(c->sanicap);
	id->sanitize_crypto = (sanicap & NVME_CTRL_SANICAP_CES) ? 1 : 0;
	id->sanitize_block = (sanicap & NVME_CTRL_SANICAP_BES) ? 1 : 0;
	id->sanitize_overwrite = (sanicap & NVME_CTRL_SANICAP_OWS) ? 1 : 0;
	/* Present: its state needs Get Features (attach asks); absent: no cache to lose. */
	id->volatile_write_cache = (c->vwc & NVME_CTRL_VWC_PRESENT) ? -1 : 0;
}

void slc__nvme_decode_id_ns(const void *page4096, struct slc_identity *id)
{
	struct nvme_id_ns copy;
	memcpy(&copy, page4096, sizeof(copy));
	const struct nvme_id_ns *ns = &copy;
	unsigned n = (unsigned)ns->nlbaf + 1;     /* 0's based */
	if (n > SLC_PROBE_MAX_LBAF)
		n = SLC_PROBE_MAX_LBAF;
	unsigned cur = ns->flbas & 0x0fu;
	if (n > 16)                               /* FLBAS bits 6:5: format index bits 5:4 */
		cur |= ((ns->flbas >> 5) & 0x3u) << 4;

	id->n_lba_formats = n;
	uint32_t cur_bytes = 0;
	for (unsigned i = 0; i < SLC_PROBE_MAX_LBAF; i++) {
		struct slc_lba_format *f = &id->lba_formats[i];
		memset(f, 0, sizeof(*f));
		if (i >= n)
			continue;
		unsigned ds = ns->lbaf[i].ds;
		/* LBADS below 9 means the format is not supported (0) or invalid */
		f->data_bytes = (ds >= 9 && ds < 32) ? (uint32_t)1 << ds : 0;
		f->metadata_bytes = le16toh(ns->lbaf[i].ms);
		f->rel_perf = ns->lbaf[i].rp & 0x3u;
		f->in_use = (i == cur);
		if (f->in_use)
			cur_bytes = f->data_bytes;
	}
	if (cur_bytes) {
		uint64_t nsze = le64toh(ns->nsze);
		if (id->logical_block_bytes == 0)
			id->logical_block_bytes = cur_bytes;
		if ((id->capacity_bytes == 0 || id->capacity_bytes == SLC_PROBE_UNKNOWN) &&
		    nsze <= (SLC_PROBE_UNKNOWN - 1) / cur_bytes)
			id->capacity_bytes = nsze * cur_bytes;
	}
}

void slc__nvme_decode_smart(const void *page512, struct slc_health *h)
{
	struct nvme_smart_log copy;
	memcpy(&copy, page512, sizeof(copy));
	const struct nvme_smart_log *s = &copy;
	h->has_smart = 1;
	h->no_smart_reason[0] = '\0';
	h->critical_warning = s->critical_warning;
	h->temp_c = kelvin_c((unsigned)s->temperature[0] | (unsigned)s->temperature[1] << 8);
	h->available_spare = s->avail_spare;
	h->available_spare_threshold = s->spare_thresh;
	h->percentage_used = s->percent_used;
	/* A data unit is 1000 units of 512 bytes (NVMe Base 2.0, SMART / Health log) */
	h->host_read_bytes = le128(s->data_units_read, 512000);
	h->host_write_bytes = le128(s->data_units_written, 512000);
	h->host_read_cmds = le128(s->host_reads, 1);
	h->host_write_cmds = le128(s->host_writes, 1);
	h->power_cycles = le128(s->power_cycles, 1);
	h->power_on_hours = le128(s->power_on_hours, 1);
	h->unsafe_shutdowns = le128(s->unsafe_shutdowns, 1);
	h->media_errors = le128(s->media_errors, 1);
	h->warn_temp_time_min = le32toh(s->warning_temp_time);
	h->crit_temp_time_min = le32toh(s->critical_comp_time);
	h->thm_transitions[0] = le32toh(s->thm_temp1_trans_count);
	h->thm_transitions[1] = le32toh(s->thm_temp2_trans_count);
	h->thm_time_s[0] = le32toh(s->thm_temp1_total_time);
	h->thm_time_s[1] = le32toh(s->thm_temp2_total_time);
	/* No standard NVMe log counts NAND writes; vendor logs are not read. */
	h->nand_write_bytes = SLC_PROBE_UNKNOWN;
	h->nand_write_source[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/* The backend                                                               */

struct nvme_priv {
	uint32_t nsid;                     /* 0: controller device, no namespace */
	unsigned lbaf;                     /* the namespace's current LBA format */
	int have_lbaf;                     /* 0: FLBAS names no valid format, Format is not offered */
	unsigned mset, pi, pil;            /* FLBAS bit 4, DPS bits 2:0 and 3 */
	unsigned wctemp, cctemp;           /* kelvins; 0 not reported */
};

static int nvme_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	struct nvme_priv *pv = p->priv;
	_Alignas(8) uint8_t page[LOG_PAGE];
	memset(page, 0, sizeof(page));
	slc_health_init(h);
	/* The controller-wide page (NSID FFFFFFFFh); RAE keeps pending events */
	int rc = nv_get_log(p->fd, NVME_LOG_LID_SMART, NVME_NSID_ALL, true, page, sizeof(page));
	if (rc != 0)
		return cmd_error(err, errlen, "Get Log Page SMART / Health Information (02h)", rc);
	slc__nvme_decode_smart(page, h);
	h->warn_temp_c = kelvin_c(pv->wctemp);
	h->crit_temp_c = kelvin_c(pv->cctemp);
	return 0;
}

static int nvme_temperature(struct slc_probe *p, double *c)
{
	_Alignas(8) uint8_t page[LOG_PAGE];
	memset(page, 0, sizeof(page));
	int rc = nv_get_log(p->fd, NVME_LOG_LID_SMART, NVME_NSID_ALL, true, page, sizeof(page));
	if (rc != 0)
		return rc < 0 ? rc : -EIO;
	const struct nvme_smart_log *s = (const void *)page;
	unsigned k = (unsigned)s->temperature[0] | (unsigned)s->temperature[1] << 8;
	if (k == 0)
		return -ENODATA;
	*c = kelvin_c(k);
	return 0;
}

static enum slc_purge_kind nvme_purge_method(const struct slc_probe *p)
{
	const struct nvme_priv *pv = p->priv;
	const struct slc_identity *id = &p->id;
	if (id->sanitize_crypto == 1)
		return SLC_PURGE_SANITIZE_CRYPTO;
	if (id->sanitize_block == 1)
		return SLC_PURGE_SANITIZE_BLOCK;
	/* Format NVM works on a namespace (not offered through the controller device)
	 * and is sent with the current LBA format, which must be known */
	if (pv && pv->nsid != 0 && pv->have_lbaf && id->format_nvm == 1) {
		if (id->crypto_erase == 1)
			return SLC_PURGE_FORMAT_CRYPTO;
		return SLC_PURGE_FORMAT_USER;
	}
	return SLC_PURGE_TRIM;
}

static unsigned long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ull + (unsigned long long)ts.tv_nsec / 1000000ull;
}

static void sleep_ms(unsigned long long ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Poll the Sanitize Status log until the operation started with @sanact ends. */
static int sanitize_wait(struct slc_probe *p, unsigned sanact, const char *what, char *err, size_t errlen)
{
	unsigned long long poll = HOOKED(slc__test_sanitize_poll_ms, SANITIZE_POLL_MS);
	unsigned long long limit = HOOKED(slc__test_sanitize_timeout_ms, SANITIZE_TIMEOUT_MS);
	unsigned long long t0 = now_ms();
	double progress = 0;
	for (;;) {
		_Alignas(8) uint8_t page[LOG_PAGE];
		memset(page, 0, sizeof(page));
		int rc = nv_get_log(p->fd, NVME_LOG_LID_SANITIZE, NVME_NSID_ALL, false, page, sizeof(page));
		if (rc != 0)
			return cmd_error(err, errlen, "Get Log Page Sanitize Status (81h)", rc);
		const struct nvme_sanitize_log_page *l = (const void *)page;
		uint16_t sstat = le16toh(l->sstat);
		unsigned st = sstat & NVME_SANITIZE_SSTAT_STATUS_MASK;
		unsigned started = le32toh(l->scdw10) & 0x7u;
		progress = le16toh(l->sprog) / 65536.0 * 100.0;
		if (st == NVME_SANITIZE_SSTAT_STATUS_COMPLETED_FAILED) {
			snprintf(err, errlen, "%s: the drive reports the sanitize operation failed (Sanitize Status SSTAT 0x%x)",
				 what, sstat);
			return -EIO;
		}
		if ((st == NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS ||
		     st == NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS) && started == sanact)
			return 0;
		/* in progress, or the log does not show this operation yet */
		if (now_ms() - t0 >= limit) {
			snprintf(err, errlen, "%s: not finished after %llu s (%.1f %% done); it goes on in the drive",
				 what, limit / 1000ull, st == NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS ? progress : 0.0);
			return -ETIMEDOUT;
		}
		sleep_ms(poll);
	}
}

static int nvme_purge(struct slc_probe *p, enum slc_purge_kind kind, char *err, size_t errlen)
{
	struct nvme_priv *pv = p->priv;
	const struct slc_identity *id = &p->id;
	int rc;

	switch (kind) {
	case SLC_PURGE_SANITIZE_CRYPTO:
	case SLC_PURGE_SANITIZE_BLOCK: {
		int crypto = kind == SLC_PURGE_SANITIZE_CRYPTO;
		const char *what = crypto ? "Sanitize (crypto erase)" : "Sanitize (block erase)";
		if ((crypto ? id->sanitize_crypto : id->sanitize_block) != 1) {
			snprintf(err, errlen, "%s: not supported by this controller (SANICAP)", what);
			return -EOPNOTSUPP;
		}
		enum nvme_sanitize_sanact act =
			crypto ? NVME_SANITIZE_SANACT_START_CRYPTO_ERASE : NVME_SANITIZE_SANACT_START_BLOCK_ERASE;
		struct nvme_sanitize_nvm_args a = {
			.result = NULL,
			.args_size = sizeof(a),
			.fd = p->fd,
			.timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
			.sanact = act,
			.ovrpat = 0,
			.ause = false,
			.owpass = 0,
			.oipbp = false,
			.nodas = false,
		};
		errno = 0;
		rc = lib.sanitize_nvm(&a);
		rc = nv_ret(rc, errno);
		if (rc != 0)
			return cmd_error(err, errlen, what, rc);
		return sanitize_wait(p, (unsigned)act, what, err, errlen);
	}
	case SLC_PURGE_FORMAT_CRYPTO:
	case SLC_PURGE_FORMAT_USER: {
		int crypto = kind == SLC_PURGE_FORMAT_CRYPTO;
		const char *what = crypto ? "Format NVM (cryptographic erase)" : "Format NVM (user data erase)";
		if (id->format_nvm != 1 || (crypto && id->crypto_erase != 1)) {
			snprintf(err, errlen, "%s: not supported by this controller (OACS/FNA)", what);
			return -EOPNOTSUPP;
		}
		if (pv->nsid == 0) {
			snprintf(err, errlen, "%s: needs a namespace device (/dev/nvmeXnY), not the controller", what);
			return -EINVAL;
		}
		if (!pv->have_lbaf) {
			snprintf(err, errlen, "%s: the namespace's current LBA format is not known (FLBAS)", what);
			return -EINVAL;
		}
		struct nvme_format_nvm_args a = {
			.result = NULL,
			.args_size = sizeof(a),
			.fd = p->fd,
			.timeout = FORMAT_TIMEOUT_MS,
			.nsid = pv->nsid,
			.mset = pv->mset ? NVME_FORMAT_MSET_EXTENDED : NVME_FORMAT_MSET_SEPARATE,
			.pi = (enum nvme_cmd_format_pi)pv->pi,
			.pil = pv->pil ? NVME_FORMAT_PIL_FIRST : NVME_FORMAT_PIL_LAST,
			.ses = crypto ? NVME_FORMAT_SES_CRYPTO_ERASE : NVME_FORMAT_SES_USER_DATA_ERASE,
			.lbaf = (__u8)(pv->lbaf & 0x0fu),
			.lbafu = (__u8)((pv->lbaf >> 4) & 0x3u),
		};
		errno = 0;
		rc = lib.format_nvm(&a);
		rc = nv_ret(rc, errno);
		if (rc != 0)
			return cmd_error(err, errlen, what, rc);
		return 0;
	}
	case SLC_PURGE_TRIM:
		snprintf(err, errlen, "purge: a whole-device TRIM is done by the caller, not by the NVMe backend");
		return -EINVAL;
	case SLC_PURGE_NONE:
	default:
		snprintf(err, errlen, "purge: no purge method given");
		return -EINVAL;
	}
}

static void nvme_close(struct slc_probe *p)
{
	free(p->priv);
	p->priv = NULL;
}

static const struct slc_probe_ops nvme_ops = {
	.health = nvme_health,
	.temperature = nvme_temperature,
	.purge_method = nvme_purge_method,
	.purge = nvme_purge,
	.close = nvme_close,
};

/* One line of a sysfs file, newline dropped; "" when absent. */
static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The PCIe link of the controller behind @fd ("PCIe 16.0 GT/s x4"), from sysfs. */
static void pcie_link(int fd, char *out, size_t outlen)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		return;
	char base[96];
	snprintf(base, sizeof(base), "/sys/dev/%s/%u:%u", S_ISBLK(st.st_mode) ? "block" : "char",
		 major(st.st_rdev), minor(st.st_rdev));
	/* namespace -> controller -> PCI function; controller -> PCI function */
	static const char *const rel[] = { "device/device", "device" };
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char path[192], speed[32], width[16];
		snprintf(path, sizeof(path), "%s/%s/current_link_speed", base, rel[i]);
		read_line(path, speed, sizeof(speed));
		if (!speed[0])
			continue;
		snprintf(path, sizeof(path), "%s/%s/current_link_width", base, rel[i]);
		read_line(path, width, sizeof(width));
		char *gt = strstr(speed, " GT/s");
		if (!gt || strspn(speed, "0123456789.") != (size_t)(gt - speed))
			return;   /* "Unknown" or a form not understood */
		*gt = '\0';
		if (width[0] && strspn(width, "0123456789") == strlen(width))
			snprintf(out, outlen, "PCIe %.16s GT/s x%.8s", speed, width);
		else
			snprintf(out, outlen, "PCIe %.16s GT/s", speed);
		return;
	}
}

int slc__nvme_attach(struct slc_probe *p, char *err, size_t errlen)
{
	int rc = nvme_lib_load(err, errlen);
	if (rc)
		return rc;

	_Alignas(8) uint8_t page[ID_PAGE];
	memset(page, 0, sizeof(page));
	rc = nv_identify(p->fd, NVME_IDENTIFY_CNS_CTRL, 0, page);
	if (rc != 0)
		return cmd_error(err, errlen, "Identify Controller", rc);

	struct nvme_priv *pv = calloc(1, sizeof(*pv));
	if (!pv) {
		snprintf(err, errlen, "NVMe: out of memory");
		return -ENOMEM;
	}
	/* Filled in a copy: a failed attach leaves the dispatcher's identity as it was */
	struct slc_identity *id = malloc(sizeof(*id));
	if (!id) {
		free(pv);
		snprintf(err, errlen, "NVMe: out of memory");
		return -ENOMEM;
	}
	*id = p->id;
	slc__nvme_decode_id_ctrl(page, id);
	const struct nvme_id_ctrl *ctrl = (const void *)page;
	pv->wctemp = le16toh(ctrl->wctemp);
	pv->cctemp = le16toh(ctrl->cctemp);
	int vwc_present = (ctrl->vwc & NVME_CTRL_VWC_PRESENT) != 0;

	/* The namespace of a block device; the controller's character device has none. */
	__u32 nsid = 0;
	errno = 0;
	if (lib.get_nsid(p->fd, &nsid) != 0 || nsid == 0 || nsid == NVME_NSID_ALL)
		nsid = 0;
	pv->nsid = nsid;
	id->nsid = nsid;
	if (nsid) {
		char what[48];
		memset(page, 0, sizeof(page));
		rc = nv_identify(p->fd, NVME_IDENTIFY_CNS_NS, nsid, page);
		if (rc != 0) {
			free(pv);
			free(id);
			snprintf(what, sizeof(what), "Identify Namespace %" PRIu32, nsid);
			return cmd_error(err, errlen, what, rc);
		}
		slc__nvme_decode_id_ns(page, id);
		const struct nvme_id_ns *ns = (const void *)page;
		for (unsigned i = 0; i < id->n_lba_formats; i++) {
			if (id->lba_formats[i].in_use && id->lba_formats[i].data_bytes) {
				pv->lbaf = i;
				pv->have_lbaf = 1;
			}
		}
		pv->mset = (ns->flbas >> 4) & 1u;
		pv->pi = ns->dps & 0x7u;
		pv->pil = (ns->dps >> 3) & 1u;
	}

	/* Volatile Write Cache feature (FID 06h), bit 0 WCE: only when the cache exists */
	if (vwc_present) {
		__u32 result = 0;
		struct nvme_get_features_args a = {
			.result = &result,
			.data = NULL,
			.args_size = sizeof(a),
			.fd = p->fd,
			.timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
			.nsid = 0,
			.sel = NVME_GET_FEATURES_SEL_CURRENT,
			.cdw11 = 0,
			.data_len = 0,
			.fid = NVME_FEAT_FID_VOLATILE_WC,
			.uuidx = NVME_UUID_NONE,
		};
		errno = 0;
		rc = lib.get_features(&a);
		rc = nv_ret(rc, errno);
		id->volatile_write_cache = rc == 0 ? (int)(result & 1u) : -1;
	} else {
		id->volatile_write_cache = 0;
	}

	if (!id->link[0])
		pcie_link(p->fd, id->link, sizeof(id->link));
	id->source = SLC_PROBE_NVME;
	snprintf(id->interface, sizeof(id->interface), "nvme");
	p->id = *id;
	free(id);
	p->priv = pv;
	p->ops = &nvme_ops;
	return 0;
}
