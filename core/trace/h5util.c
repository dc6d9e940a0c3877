// SPDX-License-Identifier: MIT
/* HDF5 helpers shared by the trace writer and reader (h5util.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5util.h"

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
 * Every HDF5 call clears the error stack, so the reason is taken right where
 * a call fails (slc__h5_capture()) and kept until slc__h5_reason() hands it out.
 */
static _Thread_local char captured[160];

void slc__h5_capture(void)
{
	char *msg = NULL;

	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &msg);
	if (msg)
		snprintf(captured, sizeof(captured), "%s", msg);
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

int slc__h5_get_str(hid_t obj, const char *name, char **out)
{
	hid_t attr = H5I_INVALID_HID, ftype = H5I_INVALID_HID, mtype = H5I_INVALID_HID;
	int rc = -EIO;

	*out = NULL;
	if (H5Aexists(obj, name) <= 0)
		return -ENOENT;
	attr = H5Aopen(obj, name, H5P_DEFAULT);
	if (attr < 0)
		goto out;
	ftype = H5Aget_type(attr);
	if (ftype < 0 || H5Tget_class(ftype) != H5T_STRING) {
		rc = -EINVAL;
		goto out;
	}
	mtype = H5Tcopy(H5T_C_S1);
	if (mtype < 0)
		goto out;
	/* HDF5 converts no strings between character sets: read in the file's own. */
	H5Tset_cset(mtype, H5Tget_cset(ftype));
	if (H5Tis_variable_str(ftype) > 0) {
		char *v = NULL;

		H5Tset_size(mtype, H5T_VARIABLE);
		if (H5Aread(attr, mtype, &v) < 0)
			goto out;
		*out = strdup(v ? v : "");
		H5free_memory(v);
	} else {
		size_t n = H5Tget_size(ftype);

		if (n == 0 || n > 1 << 20)
			goto out;
		H5Tset_size(mtype, n + 1);
		*out = calloc(1, n + 2);
		if (*out && H5Aread(attr, mtype, *out) < 0) {
			free(*out);
			*out = NULL;
			goto out;
		}
	}
	rc = *out ? 0 : -ENOMEM;
out:
	slc__h5_close(mtype);
	slc__h5_close(ftype);
	slc__h5_close(attr);
	return rc;
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
	if (type >= 0 && space >= 0 && (H5Tget_class(type) == H5T_INTEGER || H5Tget_class(type) == H5T_FLOAT) &&
	    H5Sget_simple_extent_npoints(space) == 1)
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
	/*
	 * HDF5 writes the superblock, with the end-of-allocation address, last
	 * in a flush; a writer killed just before leaves data past that address.
	 * SWMR-read mode does not check reads against it, so such a file reads.
	 */
	if (flags == H5F_ACC_RDONLY)
		f = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
	if (f < 0)
		f = H5Fopen(path, flags, fapl);
	if (f < 0)
		slc__h5_capture();
	H5Pclose(fapl);
	return f;
}

int slc__h5_check_schema(hid_t f, char *err, size_t errlen)
{
	char *schema = NULL;
	uint32_t version = 0;
	int rc;

	rc = slc__h5_get_str(f, "schema", &schema);
	if (rc == -ENOMEM)
		return slc_errf(err, errlen, rc, "out of memory");
	if (rc || strcmp(schema, SLC_TRACE_SCHEMA) != 0) {
		free(schema);
		return slc_errf(err, errlen, -EINVAL, "HDF5 file is not a slcscope trace (no schema \"%s\")",
				SLC_TRACE_SCHEMA);
	}
	free(schema);
	if (slc__h5_get_num(f, "schema_version", H5T_NATIVE_UINT32, &version) < 0)
		return slc_errf(err, errlen, -EINVAL, "slcscope trace without a readable schema_version");
	if (version != SLC_TRACE_SCHEMA_VERSION)
		return slc_errf(err, errlen, -EINVAL,
				"trace schema version %u is not supported (this slcscope reads %d)", version,
				SLC_TRACE_SCHEMA_VERSION);
	return 0;
}
