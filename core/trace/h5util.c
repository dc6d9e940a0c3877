// SPDX-License-Identifier: MIT
/* HDF5 helpers shared by the trace writer and reader (h5util.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5util.h"
#include "limits.h"

#include "../private.h"
#include "slcscope/trace.h"

void slc__h5_quiet(void)
{
	static int done;

	if (!done) {
		H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
		done = 1;
	}
}

static herr_t innermost(unsigned n, const H5E_error2_t *e, void *data)
{
	char **msg = data;

	/* Walked upward: the first entry is the deepest, most specific one. */
	if (n == 0 && e->desc && e->desc[0])
		*msg = (char *)e->desc;
	return 0;
}

/*
 * A failed system call comes as "file write failed: time = ..., filename =
 * ..., errno = 28, error message = 'No space left on device', ..." over
 * several lines: keep the system's message.  Anything else is kept on one
 * line, control characters replaced.
 */
static void one_line(char *buf, size_t len, const char *msg)
{
	const char *sys = strstr(msg, "error message = '");
	const char *end = sys ? strchr(sys + 17, '\'') : NULL;

	if (end)
		snprintf(buf, len, "%.*s", (int)(end - sys - 17), sys + 17);
	else
		snprintf(buf, len, "%s", msg);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
}

/*
 * Every HDF5 call clears the error stack, so the reason is taken right where
 * a call fails (slc__h5_capture()) and kept until slc__h5_reason() hands it out.
 */
static _Thread_local char captured[160];

void slc__h5_capture(void)
{
	char *msg = NULL;

	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &msg);
	if (msg)
		one_line(captured, sizeof(captured), msg);
	H5Eclear2(H5E_DEFAULT);
}

const char *slc__h5_reason(char *buf, size_t len)
{
	slc__h5_capture();
	snprintf(buf, len, "%s", captured[0] ? captured : "HDF5 error");
	captured[0] = 0;
	return buf;
}

void slc__h5_close(hid_t id)
{
	if (id < 0)
		return;
	switch (H5Iget_type(id)) {
	case H5I_FILE: H5Fclose(id); break;
	case H5I_GROUP: H5Gclose(id); break;
	case H5I_DATATYPE: H5Tclose(id); break;
	case H5I_DATASPACE: H5Sclose(id); break;
	case H5I_DATASET: H5Dclose(id); break;
	case H5I_ATTR: H5Aclose(id); break;
	case H5I_GENPROP_LST: H5Pclose(id); break;
	default: break;
	}
}

int slc__h5_put_attr(hid_t obj, const char *name, hid_t type, const void *v)
{
	hid_t space, attr;
	int rc = -EIO;

	if (H5Aexists(obj, name) > 0)
		H5Adelete(obj, name);
	space = H5Screate(H5S_SCALAR);
	if (space < 0)
		return -EIO;
	attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
	if (attr >= 0) {
		if (H5Awrite(attr, type, v) >= 0)
			rc = 0;
		H5Aclose(attr);
	}
	H5Sclose(space);
	return rc;
}

int slc__h5_put_str(hid_t obj, const char *name, const char *value)
{
	hid_t type = H5Tcopy(H5T_C_S1);
	const char *v = value ? value : "";
	int rc;

	if (type < 0)
		return -EIO;
	H5Tset_size(type, H5T_VARIABLE);
	H5Tset_cset(type, H5T_CSET_UTF8);
	rc = slc__h5_put_attr(obj, name, type, &v);
	H5Tclose(type);
	return rc;
}

int slc__h5_put_u64(hid_t obj, const char *name, uint64_t v)
{
	return slc__h5_put_attr(obj, name, H5T_NATIVE_UINT64, &v);
}

int slc__h5_put_u32(hid_t obj, const char *name, uint32_t v)
{
	return slc__h5_put_attr(obj, name, H5T_NATIVE_UINT32, &v);
}

int slc__h5_put_f64(hid_t obj, const char *name, double v)
{
	return slc__h5_put_attr(obj, name, H5T_NATIVE_DOUBLE, &v);
}

/* ---- variable-length strings, checked before HDF5 follows them -------- */

/*
 * HDF5 1.10 trusts the global heap: an object index past the collection's
 * table, an object larger than the string's recorded length or a
 * collection whose object headers run past its end make H5HG_read() copy
 * wild memory (a segfault, or a heap overflow), and a free-space object of
 * size 0 makes the collection's decoder loop forever.  So before a
 * variable-length string is read, its on-disk descriptor (length, heap
 * address, index) is fetched raw and the collection it names is parsed
 * here, as HDF5 will parse it, and refused unless every object fits.
 *
 * The raw descriptor comes through a soft conversion from variable-length
 * strings to an opaque type of our own: HDF5 hands a conversion the
 * element's file bytes, which are exactly the descriptor.
 */
#define RAW_TAG "slcscope:vlen-descriptor"
#define RAW_SIZE 24                       /* length 4 + address <= 8 + index 4, with room */
#define HEAP_MIN 4096                     /* HDF5 never writes a smaller collection */
#define HEAP_MAX ((uint64_t)1 << 30)
#define STR_MAX ((size_t)64 << 20)

static herr_t raw_descriptor(hid_t src, hid_t dst, H5T_cdata_t *cdata, size_t nelmts, size_t buf_stride,
			     size_t bkg_stride, void *buf, void *bkg, hid_t dxpl)
{
	char *tag;
	int ours;

	(void)buf_stride, (void)bkg_stride, (void)bkg, (void)dxpl;
	switch (cdata->command) {
	case H5T_CONV_INIT:
		if (H5Tget_class(dst) != H5T_OPAQUE || H5Tis_variable_str(src) <= 0 || H5Tget_size(src) > RAW_SIZE)
			return -1;
		tag = H5Tget_tag(dst);
		ours = tag && strcmp(tag, RAW_TAG) == 0;
		H5free_memory(tag);
		cdata->need_bkg = H5T_BKG_NO;
		return ours ? 0 : -1;
	case H5T_CONV_CONV:
		/* One element, converted in place: its bytes already sit at the start. */
		if (nelmts != 1)
			return -1;
		memset((char *)buf + H5Tget_size(src), 0, RAW_SIZE - H5Tget_size(src));
		return 0;
	default:
		return 0;
	}
}

static hid_t raw_type(void)
{
	static hid_t type = H5I_INVALID_HID;
	hid_t vstr;

	if (type >= 0)
		return type;
	type = H5Tcreate(H5T_OPAQUE, RAW_SIZE);
	vstr = H5Tcopy(H5T_C_S1);
	if (type < 0 || vstr < 0 || H5Tset_tag(type, RAW_TAG) < 0 || H5Tset_size(vstr, H5T_VARIABLE) < 0 ||
	    H5Tregister(H5T_PERS_SOFT, "slcscope_vlen_descriptor", vstr, type, raw_descriptor) < 0) {
		slc__h5_close(type);
		type = H5I_INVALID_HID;
	}
	slc__h5_close(vstr);
	return type;
}

static uint64_t get_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* Where the file's addresses point: its size, address and length widths, base. */
struct file_geometry {
	int fd;
	uint64_t size, base;
	unsigned sa, ss;
};

static int file_geometry(hid_t obj, struct file_geometry *g)
{
	hid_t f = H5Iget_file_id(obj), fcpl = H5I_INVALID_HID;
	size_t sa = 0, ss = 0;
	hsize_t ub = 0;
	void *handle = NULL;
	hid_t fapl = H5I_INVALID_HID;
	struct stat st;
	int rc = -EINVAL;

	if (f < 0)
		return -EIO;
	fcpl = H5Fget_create_plist(f);
	fapl = H5Fget_access_plist(f);
	/* Only the default (sec2) driver has a descriptor to read the heap through. */
	if (fapl >= 0 && H5Pget_driver(fapl) != H5FD_SEC2)
		rc = -ENOTSUP;
	else if (fcpl >= 0 && fapl >= 0 && H5Pget_sizes(fcpl, &sa, &ss) >= 0 &&
	    H5Pget_userblock(fcpl, &ub) >= 0 && (sa == 4 || sa == 8) && (ss == 4 || ss == 8) &&
	    H5Fget_vfd_handle(f, H5P_DEFAULT, &handle) >= 0 && handle && fstat(*(int *)handle, &st) == 0) {
		g->fd = *(int *)handle;
		g->size = (uint64_t)st.st_size;
		g->base = ub;
		g->sa = (unsigned)sa;
		g->ss = (unsigned)ss;
		rc = 0;
	}
	slc__h5_close(fapl);
	slc__h5_close(fcpl);
	H5Fclose(f);
	return rc;
}

/* Walk the collection as H5HG's decoder does; 0 when object @idx of @len bytes is in it and all fits. */
static int heap_walk(const unsigned char *c, uint64_t size, unsigned ss, uint64_t idx, uint64_t len)
{
	uint64_t hdr = 8 + ss, objhdr = 8 + ss, p = hdr;
	unsigned char seen[65536 / 8] = { 0 };
	int found = 0;

	while (p < size) {
		uint64_t i, n, need;

		if (p + objhdr > size)
			break;                           /* tail too small for a header: free space */
		i = get_le(c + p, 2);
		n = get_le(c + p + 8, ss);
		if (i > 0 && n > size)
			return -EINVAL;
		need = i > 0 ? objhdr + ((n + 7) & ~(uint64_t)7) : n;
		if (need < objhdr || need > size - p || (i > 0 && (seen[i / 8] & (1u << (i % 8)))))
			return -EINVAL;
		seen[i / 8] |= (unsigned char)(1u << (i % 8));
		if (i == idx)
			found = n == len;
		p += need;
	}
	return found ? 0 : -EINVAL;
}

/* Check the descriptor @raw of a variable-length string of @obj's file before HDF5 reads it. */
static int check_descriptor(hid_t obj, const unsigned char *raw)
{
	struct file_geometry g;
	unsigned char head[16], *c;
	uint64_t len, addr, idx, size;
	int rc;

	if ((rc = file_geometry(obj, &g)))
		return rc == -ENOTSUP ? -EINVAL : rc;
	len = get_le(raw, 4);
	addr = get_le(raw + 4, g.sa);
	idx = get_le(raw + 4 + g.sa, 4);
	if (addr == 0)
		return len == 0 ? 0 : -EINVAL;       /* HDF5 reads nothing at address 0 */
	if (len > STR_MAX || idx == 0 || idx > 65535 || addr >= g.size || g.base > g.size - addr ||
	    g.size - addr - g.base < 8 + g.ss)
		return -EINVAL;
	addr += g.base;
	if (pread(g.fd, head, 8 + g.ss, (off_t)addr) != (ssize_t)(8 + g.ss) || memcmp(head, "GCOL", 4) || head[4] != 1)
		return -EINVAL;
	size = get_le(head + 8, g.ss);
	if (size < HEAP_MIN || size > HEAP_MAX || size > g.size - addr)
		return -EINVAL;
	c = malloc(size);
	if (!c)
		return -ENOMEM;
	rc = pread(g.fd, c, size, (off_t)addr) == (ssize_t)size ? heap_walk(c, size, g.ss, idx, len) : -EIO;
	free(c);
	return rc;
}

/* ---- object headers, checked before HDF5 decodes them ----------------- */

/*
 * HDF5 1.10 trusts an object header too: a chunk length is allocated
 * before it is read (a flipped byte asked for 32 GiB, or 138 TB), a
 * continuation chunk that leads back to an earlier one makes the decoder
 * allocate messages without end (4.4 GB and a hang), and an attribute
 * message is decoded by its own name, datatype and dataspace lengths
 * whatever the message's size (a name without its NUL read past the
 * buffer inside H5Aexists()).  So before an object is opened, its header
 * is read from the file here and walked as HDF5 will walk it: every chunk
 * inside the file and at most HDR_CHUNK_MAX bytes, at most HDR_CHUNKS
 * chunks, none twice, every message inside its chunk, every attribute's
 * parts inside its message with the name's NUL where its length says, and
 * the local heap of an old-style group inside the file.
 */
#define HDR_CHUNKS 64
#define HDR_CHUNK_MAX ((uint64_t)1 << 20)
#define HDR_TOTAL_MAX ((uint64_t)4 << 20)
#define LHEAP_MAX ((uint64_t)16 << 20)

struct hdr_walk {
	const struct file_geometry *g;
	uint64_t seen[HDR_CHUNKS];
	unsigned nseen;
	uint64_t total;
};

/* Read @n bytes at file address @addr (past the user block); 0 or -EINVAL. */
static int read_at(const struct file_geometry *g, uint64_t addr, uint64_t n, unsigned char **out)
{
	unsigned char *b;

	*out = NULL;
	if (addr > g->size || g->base > g->size - addr || n > g->size - addr - g->base)
		return -EINVAL;
	b = malloc(n ? n : 1);
	if (!b)
		return -ENOMEM;
	if (pread(g->fd, b, n, (off_t)(addr + g->base)) != (ssize_t)n) {
		free(b);
		return -EINVAL;
	}
	*out = b;
	return 0;
}

/* Elements of a dataspace message @d of @n bytes (sizes of lengths @ss), or UINT64_MAX when unsound. */
static uint64_t space_points(const unsigned char *d, uint64_t n, unsigned ss)
{
	unsigned v, rank, flags, at;
	uint64_t points = 1;

	if (n < 4)
		return UINT64_MAX;
	v = d[0], rank = d[1], flags = d[2];
	if (v == 2 && d[3] == 2)
		return 0;                               /* null dataspace */
	if ((v != 1 && v != 2) || rank > 32 || (v == 2 && d[3] > 1))
		return UINT64_MAX;
	at = v == 1 ? 8 : 4;
	if (at + (uint64_t)rank * ss * ((flags & 1) ? 2 : 1) > n)
		return UINT64_MAX;
	for (unsigned i = 0; i < rank; i++) {
		uint64_t dim = get_le(d + at + (uint64_t)i * ss, ss);

		if (dim && points > (UINT64_C(1) << 40) / dim)
			return UINT64_MAX;
		points *= dim;
	}
	return points;
}

/*
 * An attribute message's parts (name, datatype, dataspace, data) inside its
 * @n bytes: HDF5 copies the data as the datatype's size times the
 * dataspace's points whatever the message holds, and reads a
 * variable-length element as its full descriptor (length, heap address,
 * index) whatever the size the datatype states.
 */
static int check_attr_msg(const struct file_geometry *g, const unsigned char *m, uint64_t n)
{
	uint64_t name, dt, ds, at_dt, at_ds, at_data, points, esize;
	const unsigned char *nm;
	unsigned v;

	if (n < 8)
		return -EINVAL;
	v = m[0];
	name = get_le(m + 2, 2);
	dt = get_le(m + 4, 2);
	ds = get_le(m + 6, 2);
	if (name == 0 || dt < 8 || ds < 4)
		return -EINVAL;
	if (v == 1) {
		at_dt = 8 + ((name + 7) & ~7ull);
		at_ds = at_dt + ((dt + 7) & ~7ull);
		at_data = at_ds + ((ds + 7) & ~7ull);
	} else if (v == 2 || v == 3) {
		at_dt = (v == 3 ? 9 : 8) + name;
		at_ds = at_dt + dt;
		at_data = at_ds + ds;
	} else {
		return -EINVAL;
	}
	if (at_data > n)
		return -EINVAL;
	/* HDF5 copies the name up to its NUL: it must be the last of its bytes, and the only one. */
	nm = m + (v == 3 ? 9 : 8);
	if (nm[name - 1] != 0 || memchr(nm, 0, name - 1))
		return -EINVAL;
	esize = get_le(m + at_dt + 4, 4);
	if ((m[at_dt] & 0x0f) == 9 && esize != 4 + (uint64_t)g->sa + 4)
		return -EINVAL;
	points = space_points(m + at_ds, ds, g->ss);
	if (points == UINT64_MAX || esize == 0 || (points && esize > (n - at_data) / points))
		return -EINVAL;
	return 0;
}

/* An old-style group's local heap (its symbol table message's second address). */
static int check_local_heap(const struct file_geometry *g, uint64_t addr)
{
	unsigned char *h;
	uint64_t size, data;
	int rc;

	if ((rc = read_at(g, addr, 8 + 2 * (uint64_t)g->ss + g->sa, &h)))
		return rc;
	size = get_le(h + 8, g->ss);
	data = get_le(h + 8 + 2 * g->ss, g->sa);
	rc = memcmp(h, "HEAP", 4) || h[4] != 0 || size > LHEAP_MAX || data > g->size || size > g->size - data ?
		     -EINVAL : 0;
	free(h);
	return rc;
}

static int walk_chunk(struct hdr_walk *w, uint64_t addr, uint64_t len, int v2, unsigned hflags);

/* The messages of one chunk @c of @n bytes (signature and checksum taken off). */
static int walk_messages(struct hdr_walk *w, const unsigned char *c, uint64_t n, int v2, unsigned hflags)
{
	const struct file_geometry *g = w->g;
	uint64_t hsz = v2 ? 4 + ((hflags & 0x04) ? 2 : 0) : 8, p = 0;
	int rc;

	while (p + hsz <= n) {
		unsigned type = v2 ? c[p] : (unsigned)get_le(c + p, 2);
		uint64_t size = get_le(c + p + (v2 ? 1 : 2), 2);
		const unsigned char *m = c + p + hsz;

		if (size > n - p - hsz)
			return -EINVAL;
		if (type == 0x0C && (rc = check_attr_msg(g, m, size)))
			return rc;
		if (type == 0x11) {
			if (size < 2 * (uint64_t)g->sa || (rc = check_local_heap(g, get_le(m + g->sa, g->sa))))
				return -EINVAL;
		}
		if (type == 0x10) {
			if (size < (uint64_t)g->sa + g->ss ||
			    (rc = walk_chunk(w, get_le(m, g->sa), get_le(m + g->sa, g->ss), v2, hflags)))
				return -EINVAL;
		}
		p += hsz + size;
	}
	/* A version 1 header's messages fill their chunk; a version 2 one may end in a gap. */
	return !v2 && p != n ? -EINVAL : 0;
}

/* A continuation chunk at @addr of @len bytes. */
static int walk_chunk(struct hdr_walk *w, uint64_t addr, uint64_t len, int v2, unsigned hflags)
{
	unsigned char *c;
	int rc;

	if (len > HDR_CHUNK_MAX || len > HDR_TOTAL_MAX - w->total || w->nseen == HDR_CHUNKS || (v2 && len < 8))
		return -EINVAL;
	for (unsigned i = 0; i < w->nseen; i++)
		if (w->seen[i] == addr)
			return -EINVAL;
	w->seen[w->nseen++] = addr;
	w->total += len;
	if ((rc = read_at(w->g, addr, len, &c)))
		return rc;
	if (v2 && memcmp(c, "OCHK", 4))
		rc = -EINVAL;
	else
		rc = v2 ? walk_messages(w, c + 4, len - 8, 1, hflags) : walk_messages(w, c, len, 0, 0);
	free(c);
	return rc;
}

/* The header of the object at file address @addr of @loc's file. */
static int check_header(hid_t loc, uint64_t addr)
{
	struct file_geometry g;
	struct hdr_walk w = { .g = &g };
	unsigned char *h;
	uint64_t len, at;
	int rc;

	if ((rc = file_geometry(loc, &g)))
		return rc == -ENOTSUP ? 0 : rc;   /* another driver: nothing to read it through */
	if ((rc = read_at(&g, addr, 16, &h)))
		return rc;
	if (h[0] == 1) {                              /* version 1: prefix of 16 bytes, messages 8-aligned */
		len = get_le(h + 8, 4);
		free(h);
		if (len > HDR_CHUNK_MAX || len % 8)
			return -EINVAL;
		w.seen[w.nseen++] = addr;
		w.total = len;
		if ((rc = read_at(&g, addr + 16, len, &h)))
			return rc;
		rc = walk_messages(&w, h, len, 0, 0);
		free(h);
		return rc;
	}
	if (memcmp(h, "OHDR", 4) || h[4] != 2) {
		free(h);
		return -EINVAL;
	}
	{
		unsigned flags = h[5], lw = 1u << (flags & 3);
		unsigned char *c;

		free(h);
		at = 6 + ((flags & 0x20) ? 16 : 0) + ((flags & 0x10) ? 4 : 0);
		if ((rc = read_at(&g, addr, at + lw, &h)))
			return rc;
		len = get_le(h + at, lw);
		free(h);
		if (len > HDR_CHUNK_MAX)
			return -EINVAL;
		w.seen[w.nseen++] = addr;
		w.total = len;
		if ((rc = read_at(&g, addr, at + lw + len + 4, &c)))
			return rc;
		rc = walk_messages(&w, c + at + lw, len, 1, flags);
		free(c);
	}
	return rc;
}

/*
 * The root group's header address, from the superblock (at the end of the
 * user block): H5Fopen() reads the superblock but not always the root's
 * header, and asking HDF5 for the address (H5Oget_info) would load it.
 */
static int root_address(const struct file_geometry *g, uint64_t *addr)
{
	unsigned char sb[128];
	unsigned at;

	if (pread(g->fd, sb, sizeof(sb), (off_t)g->base) != (ssize_t)sizeof(sb) || memcmp(sb, "\211HDF\r\n\032\n", 8))
		return -EINVAL;
	if (sb[8] == 2 || sb[8] == 3) {
		/* version, offset and length sizes, flags; base, extension, end-of-file, root header addresses */
		at = 12 + 3 * g->sa;
	} else if (sb[8] == 0 || sb[8] == 1) {
		/* 16 fixed bytes (+4 for version 1's indexed storage K), four addresses, then the root's
		 * symbol table entry: its name's offset, then its header's address */
		at = 24 + (sb[8] == 1 ? 4 : 0) + 4 * g->sa + g->sa;
	} else {
		return -EINVAL;
	}
	*addr = get_le(sb + at, g->sa);
	return 0;
}

int slc__h5_check_root(hid_t f)
{
	struct file_geometry g;
	uint64_t addr;
	int rc;

	if ((rc = file_geometry(f, &g)))
		return rc == -ENOTSUP ? 0 : rc;   /* another driver: nothing to read it through */
	if ((rc = root_address(&g, &addr)))
		return rc;
	return check_header(f, addr);
}

hid_t slc__h5_open_checked(hid_t loc, const char *name, H5I_type_t kind)
{
	H5L_info_t link;
	hid_t id;

	/* Only a hard link's target is an object header of this file, at the address the link holds. */
	if (H5Lexists(loc, name, H5P_DEFAULT) <= 0 || H5Lget_info(loc, name, &link, H5P_DEFAULT) < 0 ||
	    link.type != H5L_TYPE_HARD || check_header(loc, link.u.address))
		return H5I_INVALID_HID;
	id = H5Oopen(loc, name, H5P_DEFAULT);
	if (id >= 0 && H5Iget_type(id) != kind) {
		slc__h5_close(id);
		return H5I_INVALID_HID;
	}
	return id;
}

/*
 * Read one variable-length string element (attribute when @is_attr, else a
 * dataset) in character set @cset into a new string.  -EINVAL when its
 * descriptor or heap is damaged.
 */
static int read_vlen_str(hid_t obj, int is_attr, H5T_cset_t cset, char **out)
{
	unsigned char raw[RAW_SIZE];
	hid_t rtype = raw_type(), mtype;
	char *v = NULL;
	herr_t r;
	int rc;

	if (rtype < 0)
		return -EIO;
	r = is_attr ? H5Aread(obj, rtype, raw) : H5Dread(obj, rtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw);
	if (r < 0)
		return -EINVAL;
	if ((rc = check_descriptor(obj, raw)))
		return rc;
	mtype = H5Tcopy(H5T_C_S1);
	if (mtype < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0 || H5Tset_cset(mtype, cset) < 0) {
		slc__h5_close(mtype);
		return -EIO;
	}
	r = is_attr ? H5Aread(obj, mtype, &v) : H5Dread(obj, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
	H5Tclose(mtype);
	if (r < 0)
		return -EINVAL;
	*out = strdup(v ? v : "");
	H5free_memory(v);
	return *out ? 0 : -ENOMEM;
}

/* @type and @space describe one string element HDF5 can read; its class and character set are known. */
static int one_string(hid_t type, hid_t space)
{
	H5T_cset_t cset = H5Tget_cset(type);
	int ok = type >= 0 && space >= 0 && H5Tget_class(type) == H5T_STRING &&
		 (cset == H5T_CSET_ASCII || cset == H5T_CSET_UTF8) && H5Sget_simple_extent_npoints(space) == 1;

	/* A variable-length string's characters are a stored type too: one byte, or the conversion runs wild. */
	if (ok && H5Tis_variable_str(type) > 0) {
		hid_t base = H5Tget_super(type);

		ok = base >= 0 && H5Tget_size(base) == 1;
		slc__h5_close(base);
	}
	return ok;
}

int slc__h5_get_str(hid_t obj, const char *name, char **out)
{
	hid_t attr = H5I_INVALID_HID, ftype = H5I_INVALID_HID, space = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
	int rc = -EINVAL;

	*out = NULL;
	if (H5Aexists(obj, name) <= 0)
		return -ENOENT;
	attr = H5Aopen(obj, name, H5P_DEFAULT);
	if (attr < 0)
		return -EIO;
	ftype = H5Aget_type(attr);
	space = H5Aget_space(attr);
	if (!one_string(ftype, space))
		goto out;
	/* HDF5 converts no strings between character sets: read in the file's own. */
	if (H5Tis_variable_str(ftype) > 0) {
		rc = read_vlen_str(attr, 1, H5Tget_cset(ftype), out);
	} else {
		size_t n = H5Tget_size(ftype);

		if (n == 0 || n > 1 << 20)
			goto out;
		rc = -EIO;
		mtype = H5Tcopy(H5T_C_S1);
		if (mtype < 0 || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0 || H5Tset_size(mtype, n + 1) < 0)
			goto out;
		rc = -ENOMEM;
		*out = calloc(1, n + 2);
		if (*out) {
			rc = H5Aread(attr, mtype, *out) < 0 ? -EINVAL : 0;
			if (rc) {
				free(*out);
				*out = NULL;
			}
		}
	}
out:
	if (!rc)
		slc__h5_printable(*out);
	slc__h5_close(mtype);
	slc__h5_close(space);
	slc__h5_close(ftype);
	slc__h5_close(attr);
	return rc;
}

void slc__h5_printable(char *s)
{
	/* text from a file goes into messages, JSON and graphs, which take
	 * UTF-8 only: a byte that starts no sequence is replaced as well */
	while (*s) {
		size_t n = slc__utf8_len((const unsigned char *)s);

		if (n == 1 && ((unsigned char)*s < ' ' || *s == 0x7f))
			n = 0;
		if (!n)
			*s++ = '?';
		else
			s += n;
	}
}

int slc__h5_get_text(hid_t loc, const char *name, char **out)
{
	hid_t ds, type, space;
	int rc = -EINVAL;

	*out = NULL;
	ds = slc__h5_open_checked(loc, name, H5I_DATASET);
	if (ds < 0)
		return -EINVAL;
	type = H5Dget_type(ds);
	space = H5Dget_space(ds);
	if (one_string(type, space) && H5Tis_variable_str(type) > 0)
		rc = read_vlen_str(ds, 0, H5Tget_cset(type), out);
	slc__h5_close(space);
	slc__h5_close(type);
	H5Dclose(ds);
	return rc;
}

/*
 * A number type as writers make them: an integer of 1, 2, 4 or 8 bytes, an
 * IEEE float of 4 or 8 using all its bits.  HDF5 converts any layout a
 * header describes (fields at any bit offset of a type of any size); no
 * measurement needs more, and less is less to trust.
 */
static int plain_number(hid_t type)
{
	H5T_class_t cls = H5Tget_class(type);
	size_t n = H5Tget_size(type);

	if (cls == H5T_INTEGER)
		return (n == 1 || n == 2 || n == 4 || n == 8) && H5Tget_precision(type) == n * 8 &&
		       H5Tget_offset(type) == 0;
	return cls == H5T_FLOAT && (n == 4 || n == 8) && H5Tget_precision(type) == n * 8 && H5Tget_offset(type) == 0;
}

int slc__h5_get_num(hid_t obj, const char *name, hid_t memtype, void *out)
{
	hid_t attr, type, space;
	int rc = -EINVAL;

	if (H5Aexists(obj, name) <= 0)
		return -ENOENT;
	attr = H5Aopen(obj, name, H5P_DEFAULT);
	if (attr < 0)
		return -EIO;
	type = H5Aget_type(attr);
	space = H5Aget_space(attr);
	if (type >= 0 && space >= 0 && plain_number(type) && H5Sget_simple_extent_npoints(space) == 1)
		rc = H5Aread(attr, memtype, out) < 0 ? -EINVAL : 0;
	slc__h5_close(space);
	slc__h5_close(type);
	H5Aclose(attr);
	return rc;
}

void slc__h5_index_name(char *buf, size_t len, size_t index)
{
	snprintf(buf, len, "%04zu", index);
}

hid_t slc__h5_file_access(void)
{
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);

	if (fapl < 0)
		return fapl;
	/* Earliest format: readable by old MATLAB/h5py, no SWMR status flags. */
	H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST);
#if H5_VERSION_GE(1, 10, 7)
	/* Let readers look at a trace while it is being written. */
	H5Pset_file_locking(fapl, 0, 1);
#endif
	return fapl;
}

hid_t slc__h5_open_file(const char *path, unsigned flags)
{
	hid_t fapl = slc__h5_file_access();
	hid_t f = H5I_INVALID_HID;

	if (fapl < 0)
		return fapl;
	f = H5Fopen(path, flags, fapl);
	if (f < 0)
		slc__h5_capture();
	H5Pclose(fapl);
	return f;
}

hid_t slc__h5_open_lagging(const char *path)
{
	hid_t fapl = slc__h5_file_access();
	hid_t f = H5I_INVALID_HID;

	if (fapl < 0)
		return fapl;
	/*
	 * SWMR-read mode does not check reads against the end-of-allocation
	 * address, but it retries a metadata read whose checksum fails, sleeping
	 * longer each time (100 tries, ~10 minutes): on a damaged file one try
	 * is the only useful number.
	 */
	if (H5Pset_metadata_read_attempts(fapl, 1) >= 0)
		f = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
	if (f < 0)
		slc__h5_capture();
	H5Pclose(fapl);
	return f;
}

int slc__h5_check_schema(hid_t f, char *err, size_t errlen)
{
	char *schema = NULL;
	double version = 0;
	int rc;

	/* The root's header was loaded with the file; its attributes are decoded at the first look. */
	if (slc__h5_check_root(f))
		return slc_errf(err, errlen, -EINVAL, "the root group's object header is damaged");
	rc = slc__h5_get_str(f, "schema", &schema);
	if (rc == -ENOMEM)
		return slc_errf(err, errlen, rc, "out of memory");
	if (rc || strcmp(schema, SLC_TRACE_SCHEMA) != 0) {
		free(schema);
		return slc_errf(err, errlen, -EINVAL, "HDF5 file is not a slcscope trace (no schema \"%s\")",
				SLC_TRACE_SCHEMA);
	}
	free(schema);
	/* Read as a double: a version of 2^32+1 or 1.5 must not pass as 1. */
	if (slc__h5_get_num(f, "schema_version", H5T_NATIVE_DOUBLE, &version) < 0)
		return slc_errf(err, errlen, -EINVAL, "slcscope trace without a readable attribute /schema_version");
	if (version != SLC_TRACE_SCHEMA_VERSION)
		return slc_errf(err, errlen, -EINVAL,
				"attribute /schema_version = %.17g: trace schema version %.17g is not supported (this "
				"slcscope reads %d)", version, version, SLC_TRACE_SCHEMA_VERSION);
	return 0;
}
