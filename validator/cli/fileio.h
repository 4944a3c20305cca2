/* The CLI's readers: the only code that touches the file system. They turn
 * paths into blobs for the checking core. Files are opened read-only. */
#ifndef HV_FILEIO_H
#define HV_FILEIO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/blob.h"

/* Files up to this size are read into memory whole; larger ones are read
 * through windows with pread, so memory stays bounded. */
#define HV_SLURP_MAX (16u * 1024u * 1024u)

/* Bytes of a lazily read file kept from its opening (hv_file.head). */
#define HV_FILE_HEAD 16

/* A file's identity: what says the bytes are the ones read before. Taken
 * at the first opening; every later opening (a lazily read file is opened
 * again by each pass and thread that reads it, and by certify's hashing)
 * and the end of the input compare it. A writer that rewrites the file in
 * place moves its modification and change times; one that replaces it
 * changes its inode. The times come from the kernel's coarse clock (a
 * tick of 1-10 ms): a rewrite of the same size within the tick of the
 * first opening keeps them, and that is what this cannot see (README,
 * "Files that change while they are read"). */
typedef struct hv_file_id {
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
} hv_file_id;

typedef struct hv_file {
	hv_blob blob;
	hv_file_id id;         /* at the first opening */
	atomic_bool changed;   /* an opening or the end saw another identity */
	char *path;
	int fd;
	uint8_t *data;
	/* A lazily read file's first bytes, read when it was opened: the
	 * families' sniffs (magic numbers, a .meta's first line) read only
	 * these, so deciding who claims a file does not open it again. */
	uint8_t head[HV_FILE_HEAD];
	uint8_t head_len;
} hv_file;

/* Open a regular file. On failure returns false and sets *why. */
bool hv_file_open(hv_file *f, const char *path, const char **why);
void hv_file_close(hv_file *f);
/* Whether the file still has the identity of its first opening (and no
 * opening since saw another): false when it changed, was replaced or
 * removed. Marks it changed. */
bool hv_file_unchanged(hv_file *f);

/* The regular files of a directory tree, walked recursively without
 * recursion, sorted by path so reports are deterministic. Blob names keep
 * the path below the directory ("dir/loom.x/proc.1/thread.1/stream.obs").
 * Entries whose names start with '.' are skipped. The walk is bounded in
 * depth and file count; a symlink loop, a FIFO, socket or device, or an
 * unreadable entry fails the walk with a message naming it (never blocks,
 * never loops). Files up to HV_DIR_SLURP_MAX are read into memory while the
 * total stays within HV_DIR_SLURP_BUDGET; all others are read through
 * windows, opened lazily (one descriptor per thread at a time). */
#define HV_DIR_MAX_DEPTH 64
/* Files per directory input: a DUMPI trace is one file per rank, and
 * production traces reach 100,000 ranks and more; what a file costs before
 * its check (its path, its hv_file with its first bytes, ~185 bytes)
 * keeps a tree at this bound within ~195 MB. */
#define HV_DIR_MAX_FILES 1048576u
#define HV_DIR_SLURP_MAX (1024u * 1024u)
#define HV_DIR_SLURP_BUDGET (32u * 1024u * 1024u)

typedef struct hv_dir {
	hv_file *files;
	size_t n;
} hv_dir;

bool hv_dir_open(hv_dir *d, const char *path, const char **why);
/* Close the lazily opened file this thread reads, if any (worker threads
 * call this before they finish, the scheduler before it starts workers). */
void hv_file_release_lazy(void);
void hv_dir_close(hv_dir *d);

/* Never read files larger than `max` whole (default: no limit beyond the
 * ones above). hpcvet-mpi sets 0: every file is read through windows,
 * lazily, so a rank reads only the bytes of the units it checks. Set once,
 * before any file is opened. */
void hv_fileio_set_slurp_limit(uint64_t max);

/* For tests of read errors: every lazy read (of a directory's files read
 * through windows, as hpcvet-mpi reads them all) of a file whose path
 * contains `substring` fails as an I/O error would. NULL or "": none. */
void hv_fileio_set_fault(const char *substring);
/* How many lazy reads failed in this process so far, and the path of the
 * first (*first NULL when none). */
uint64_t hv_fileio_read_errors(const char **first);

/* The path of the first file this process found changed while it was
 * read (NULL when none): hpcvet-mpi names it when the ranks diverge. */
const char *hv_fileio_first_changed(void);

/* hpcvet-mpi: every file opened is also logged with its identity at its
 * first opening, so the ranks can compare what each opened (a file
 * rewritten between two ranks' openings gives each rank consistent bytes,
 * but not the same). Off by default. */
typedef struct hv_file_ident {
	char *path;
	hv_file_id id;
} hv_file_ident;
void hv_fileio_log_identities(bool on);
/* Move the log out (this process's openings since the last take) and
 * start a new one; false when an entry could not be kept (out of memory).
 * Free with hv_fileio_free_identities. */
bool hv_fileio_take_identities(hv_file_ident **out, size_t *n);
void hv_fileio_free_identities(hv_file_ident *v, size_t n);
bool hv_file_id_equal(const hv_file_id *a, const hv_file_id *b);

/* The files whose bytes a verdict rests on, for what reads them again after
 * it (the text report's hex view, the HTML report's bytes): each file a
 * stored finding names, with its identity when the input's files were last
 * found unchanged (validate_path.c). Off by default; the CLI turns it on
 * before validating when its report will show bytes. A path recorded twice
 * with two identities (two inputs that read it across a rewrite) is known
 * by neither. hv_judged_add is false when out of memory. */
void hv_judged_keep(bool on);
bool hv_judged_keeping(void);
bool hv_judged_add(const char *path, const hv_file_id *id);
void hv_judged_free(void);

/* Copy up to `len` bytes of the regular file `path` at `off`; returns the
 * count copied (0 on any failure). For the reports' views of the bytes
 * (output.h, hv_read_bytes_fn): only while the file still has the identity
 * hv_judged_add recorded for it, before and after the read; else
 * HV_READ_CHANGED (another identity now) or HV_READ_UNJUDGED (none recorded
 * here: hpcvet-mpi's input checked by another rank), and no bytes. */
size_t hv_read_range(void *ctx, const char *path, uint64_t off, uint8_t *dst, size_t len);

#endif
