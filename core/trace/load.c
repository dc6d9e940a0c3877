// SPDX-License-Identifier: MIT
/* slc_input_load(): a trace goes to the reader, anything else to the importers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../private.h"
#include "import.h"
#include "limits.h"
#include "reader.h"
#include "slcscope/trace.h"

static const char hdf5_signature[8] = { '\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n' };

/* What a path names when it is not a regular file, for the refusal. */
static const char *not_regular(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a directory" : "not a regular file";
}

/*
 * An input must be a regular file: a FIFO would block the open (or the
 * read) until someone writes into it, a device would be read to its end.
 * Checked with stat() before the open, and again on what was opened (the
 * open does not wait: O_NONBLOCK), since the name may change in between.
 */
static int is_hdf5(const char *path, int *yes, char *err, size_t errlen)
{
	char head[8];
	struct stat st;
	int fd;
	ssize_t n;

	if (stat(path, &st) < 0)
		return slc_errf(err, errlen, -errno, "cannot read %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return slc_errf(err, errlen, -EINVAL, "%s is %s, not a regular file: refused as input", path,
				not_regular(st.st_mode));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return slc_errf(err, errlen, -errno, "cannot read %s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return slc_errf(err, errlen, -EINVAL, "%s is %s, not a regular file: refused as input", path,
				not_regular(st.st_mode));
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return slc_errf(err, errlen, -EIO, "cannot read %s: %s", path, strerror(EIO));
	*yes = n == (ssize_t)sizeof(head) && memcmp(head, hdf5_signature, sizeof(head)) == 0;
	return 0;
}

/*
 * A file name is any bytes, a message is text: what the input's name put
 * into the reason, notes and target is shown with its control characters
 * and non-UTF-8 bytes as \xNN.
 */
static int escape_in_place(char **s)
{
	size_t n;
	char *e;

	if (!*s)
		return 0;
	n = strlen(*s) * 4 + 1;
	e = malloc(n);
	if (!e)
		return -ENOMEM;
	slc__escape_text(e, n, *s);
	free(*s);
	*s = e;
	return 0;
}

static int escape_texts(struct slc_input *in)
{
	return escape_in_place((char **)&in->meta.target) || escape_in_place(&in->import_notes) ||
	       escape_in_place(&in->import_warnings) ? -ENOMEM : 0;
}

static void escape_err(char *err, size_t errlen)
{
	char buf[1024];

	if (!err || !errlen)
		return;
	slc__escape_text(buf, sizeof(buf), err);
	snprintf(err, errlen, "%s", buf);
}

/* What the user says of the drive (--capacity, --cell), for an imported
 * input that cannot say it; a trace's own records win. */
static int apply_drive_opts(struct slc_input *in, const struct slc_import_opts *opts)
{
	if (!opts || in->format == SLC_INPUT_TRACE)
		return 0;
	if (opts->capacity_bytes && !in->meta.capacity_bytes)
		in->meta.capacity_bytes = opts->capacity_bytes;
	if (opts->cell[0] && !in->meta.cell_type && !(in->meta.cell_type = strdup(opts->cell)))
		return -ENOMEM;
	return 0;
}

int slc_input_load_opts(struct slc_input **out, const char *path, const struct slc_import_opts *opts, char *err,
			size_t errlen)
{
	struct slc_input *in;
	int hdf5 = 0, rc;

	*out = NULL;
	if (!path)
		return slc_errf(err, errlen, -EINVAL, "no input path");
	rc = is_hdf5(path, &hdf5, err, errlen);
	if (rc) {
		escape_err(err, errlen);
		return rc;
	}
	in = calloc(1, sizeof(*in));
	if (!in)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	in->source = strdup(path);
	if (!in->source)
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	else if (hdf5)
		rc = slc__trace_load_hdf5(in, path, err, errlen);
	else if (!(rc = slc__import_load_file(in, path, opts, err, errlen)) &&
		 (apply_drive_opts(in, opts) || escape_texts(in)))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (rc) {
		escape_err(err, errlen);
		slc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

int slc_input_load(struct slc_input **out, const char *path, char *err, size_t errlen)
{
	return slc_input_load_opts(out, path, NULL, err, errlen);
}

/*
 * Inputs that are summed must each bring their own writes: the same file
 * twice, or two logs of one fio run (each is read with all the run's logs),
 * would count them twice.  -EINVAL naming the two.
 */
static int distinct_inputs(const char *const *paths, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct stat a, b;
		int sa = stat(paths[i], &a) == 0;

		for (size_t j = i + 1; j < n; j++) {
			if (sa && stat(paths[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				return slc_errf(err, errlen, -EINVAL, "%s and %s are the same file: give each input once",
						paths[i], paths[j]);
			if (slc__import_same_run(paths[i], paths[j]))
				return slc_errf(err, errlen, -EINVAL, "%s and %s are logs of one fio run, and each is read "
						"with all of that run's logs: give one of them", paths[i], paths[j]);
		}
	}
	return 0;
}

int slc_input_load_many(struct slc_input **out, const char *const *paths, size_t n,
			const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct slc_input **parts, *in;
	size_t got = 0;
	int rc = 0;

	*out = NULL;
	if (n <= 1)
		return slc_input_load_opts(out, n ? paths[0] : NULL, opts, err, errlen);
	if ((rc = distinct_inputs(paths, n, err, errlen)))
		return rc;
	parts = calloc(n, sizeof(*parts));
	in = calloc(1, sizeof(*in));
	if (!parts || !in || !(in->source = strdup(paths[0]))) {
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (; got < n && !rc; got++)
		rc = slc_input_load_opts(&parts[got], paths[got], opts, err, errlen);
	if (!rc)
		rc = slc__import_sum(in, parts, n, err, errlen);
	if (!rc && (apply_drive_opts(in, opts) || escape_texts(in)))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (rc)
		escape_err(err, errlen);
out:
	for (size_t i = 0; i < got; i++)
		slc_input_free(parts[i]);
	free(parts);
	if (rc) {
		slc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}
