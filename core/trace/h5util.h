/* SPDX-License-Identifier: MIT */
/*
 * HDF5 helpers under the trace writer and reader: error capture, closing by
 * kind, scalar attributes, opening a trace file and checking its schema.
 * Knows nothing of segments or samples.
 */
#ifndef SLCSCOPE_TRACE_H5UTIL_H
#define SLCSCOPE_TRACE_H5UTIL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* Silence HDF5's own error printing (once per process). */
void slc__h5_quiet(void);

/* Close any HDF5 identifier by its kind; negative ones are ignored. */
void slc__h5_close(hid_t id);

/* Keep the most specific message on HDF5's error stack; call right after a failing call. */
void slc__h5_capture(void);

/* The message kept by slc__h5_capture() or on the stack now, or "HDF5 error". */
const char *slc__h5_reason(char *buf, size_t len);

/* Scalar attributes (replacing one of the same name); strings are variable-length UTF-8. 0 or -EIO. */
int slc__h5_put_attr(hid_t obj, const char *name, hid_t type, const void *v);
int slc__h5_put_str(hid_t obj, const char *name, const char *value);
int slc__h5_put_u64(hid_t obj, const char *name, uint64_t v);
int slc__h5_put_u32(hid_t obj, const char *name, uint32_t v);
int slc__h5_put_f64(hid_t obj, const char *name, double v);

/*
 * A scalar string attribute (variable or fixed length) into a new string
 * the caller frees, control characters replaced (slc__h5_printable()); -ENOENT if absent, -EINVAL if not one string or if its
 * global-heap reference is damaged (checked before HDF5 follows it), -ENOMEM.
 */
int slc__h5_get_str(hid_t obj, const char *name, char **out);

/*
 * Replace control characters by '?': names and labels from a file go to
 * terminals, CSV and file names, where a newline or an escape does harm.
 */
void slc__h5_printable(char *s);

/* The scalar variable-length string dataset @name of @loc, checked likewise; -EINVAL if not one. */
int slc__h5_get_text(hid_t loc, const char *name, char **out);

/* A scalar numeric attribute converted to @memtype; -ENOENT if absent, -EINVAL if not numeric. */
int slc__h5_get_num(hid_t obj, const char *name, hid_t memtype, void *out);

/*
 * Open @loc's member @name, a group or dataset as @kind says, only after its
 * object header has been read from the file and found sound (every chunk
 * inside the file and bounded, no chunk twice, every message and attribute
 * inside its bounds): HDF5 trusts the lengths in a header.  H5I_INVALID_HID
 * when absent, damaged or of another kind.
 */
hid_t slc__h5_open_checked(hid_t loc, const char *name, H5I_type_t kind);

/* The same check of the root group's header of the open file @f (found through the superblock); 0 or -EINVAL. */
int slc__h5_check_root(hid_t f);

/* Name of the @index-th member of a numbered group ("0000", "0001", ...). */
void slc__h5_index_name(char *buf, size_t len, size_t index);

/* File access properties of every trace: earliest format, no file locking. */
hid_t slc__h5_file_access(void);

/* H5Fopen() with the trace's file access properties. */
hid_t slc__h5_open_file(const char *path, unsigned flags);

/*
 * Open read-only in SWMR-read mode, one try per metadata read: tolerates a
 * superblock whose end-of-allocation lags the data written (a writer killed
 * inside a flush), for when a plain open or read of the file failed.
 */
hid_t slc__h5_open_lagging(const char *path);

/* Check the root group's header, then the schema attributes of an open file; 0 or -EINVAL with a reason. */
int slc__h5_check_schema(hid_t f, char *err, size_t errlen);

#endif
