// SPDX-License-Identifier: MIT
/* slc_input_load(): a trace goes to the reader, anything else to the importers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../private.h"
#include "import.h"
#include "reader.h"
#include "slcscope/trace.h"

static const char hdf5_signature[8] = { '\211', 'H', 'D', 'F', '\r', '\n', '\032', '\n' };

static int is_hdf5(const char *path, int *yes)
{
	char head[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0)
		return -EIO;
	*yes = n == (ssize_t)sizeof(head) && memcmp(head, hdf5_signature, sizeof(head)) == 0;
	return 0;
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
	rc = is_hdf5(path, &hdf5);
	if (rc)
		return slc_errf(err, errlen, rc, "cannot read %s: %s", path, strerror(-rc));
	in = calloc(1, sizeof(*in));
	if (!in)
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	in->source = strdup(path);
	if (!in->source)
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	else if (hdf5)
		rc = slc__trace_load_hdf5(in, path, err, errlen);
	else if (!(rc = slc__import_load_file(in, path, opts, err, errlen)) && apply_drive_opts(in, opts))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
	if (rc) {
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

int slc_input_load_many(struct slc_input **out, const char *const *paths, size_t n,
			const struct slc_import_opts *opts, char *err, size_t errlen)
{
	struct slc_input **parts, *in;
	size_t got = 0;
	int rc = 0;

	*out = NULL;
	if (n <= 1)
		return slc_input_load_opts(out, n ? paths[0] : NULL, opts, err, errlen);
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
	if (!rc && apply_drive_opts(in, opts))
		rc = slc_errf(err, errlen, -ENOMEM, "out of memory");
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
