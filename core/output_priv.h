/* SPDX-License-Identifier: MIT */
/* Shared by output.c and output_dir.c: the checks both make, and the list of
 * temporary files and directories a signal removes. */
#ifndef SLCSCOPE_OUTPUT_PRIV_H
#define SLCSCOPE_OUTPUT_PRIV_H

#include <stddef.h>
#include <sys/stat.h>

enum { SLC__TMP_FILE, SLC__TMP_DIR, SLC__TMP_MADE_DIR };

/* Note @path as a temporary (a file, a flat directory, or a report directory
 * made empty but for its marker); the slot to forget it by, or -1 when full. */
int slc__tmp_register(const char *path, int kind);
void slc__tmp_forget(int slot);

/* Remove the entries of directory @dir whose names start with @prefix (all
 * when NULL); system calls alone, so a signal handler may call it. */
void slc__unlink_in(const char *dir, const char *prefix);

/* "a block device", "a FIFO", ...: what a non-regular file is. */
const char *slc__file_type(mode_t mode);

/* Is @real (an absolute, resolved path) in /dev, /proc or /sys?  The
 * directory's name, else NULL. */
const char *slc__system_dir(const char *real);

/* Is @st one of the @n @inputs (same device and inode)?  Its name, else NULL. */
const char *slc__same_as_input(const struct stat *st, const char *const *inputs, size_t n);

/* Is the file open as @fd locked by a running slcscope?  0, or -EBUSY with
 * who holds it in @err (@what names the file); takes the lock itself when free. */
int slc__take_lock(int fd, const char *what, char *err, size_t errlen);

/* Is the file @st (at @path) used as swap, mounted through FUSE or backing a
 * loop device?  1 with what was found in @what ("backs the loop device
 * /dev/loop3"), else 0 (safety.c). */
int slc__file_in_use(const struct stat *st, const char *path, char *what, size_t len);

/* @path's directory and name into @dir (@len) and a pointer into @path. */
const char *slc__split_path(const char *path, char *dir, size_t len);

/* fsync directory @dir, so a rename in it lasts: 0 or -errno. */
int slc__fsync_dir(const char *dir);

#endif
