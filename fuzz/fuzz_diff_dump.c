/* Differential fuzz target: `hpcvet dump` against validation. Every file is
 * read through windows (the path of files over 16 MiB) whose fetches are
 * recorded, so what validation read and what the dump decodes can be
 * compared:
 *   - every input: no fetch lies outside its file;
 *   - an input that validates conforming (no error, nothing unreadable)
 *     dumps without a decode error: the JSON dump parses, has no "stop"
 *     item (the output budget is off), no item marked untrusted, no
 *     untrusted_from, every item within its file, and (one file) every
 *     item starts at a byte validation read (a dumper decoding structure
 *     where the checks never looked). Items, not the dumper's fetches, are compared (a
 *     window fetches more than a check needs: padding between sections),
 *     and only where they start (structures carry padding no check reads).
 *     In a directory, only files validation vouches for (see vouched()):
 *     a family ignores the files its program ignores, and so does the
 *     directory's verdict.
 * Input: one control byte, then the input: bit 0 set: the container of
 * container.h (a directory: hv_validate_set, names kept as they are);
 * clear: one file, format detected by content. Nonconforming inputs are
 * dumped too (text, a budget of 64 items, to /dev/null), for the fetch check. */
#include <cjson/cJSON.h>

#include "container.h"
#include "dump/dump.h"
#include "harness.h"

typedef struct rec_io {
	const uint8_t *data;
	uint64_t size;
	uint8_t *seen;   /* bytes validation fetched */
	bool dumping;
} rec_io;

static bool rec_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	rec_io *m = io;
	if (!hv_range_in(off, len, m->size)) {
		fprintf(stderr, "fuzz diff: a %s fetch of %zu bytes at %llu is outside the file (%llu bytes)\n",
			m->dumping ? "dump" : "validation", len, (unsigned long long)off, (unsigned long long)m->size);
		abort();
	}
	if (!len) return true;
	memcpy(dst, m->data + off, len);
	if (!m->dumping && m->seen) memset(m->seen + off, 1, len);
	return true;
}

/* Whether validation vouches for a file of a conforming directory. A family
 * checks the files its program reads and ignores the others, as that program
 * does (an ovni stream not named stream.obs, a stream.obs without
 * stream.json: ovniemu skips them, and validation with it), so the
 * directory's verdict says nothing of an ignored file's bytes, while the
 * dump decodes every file by its content. A file is vouched for when it is
 * also conforming on its own; checked only when a violation is found (it
 * costs another validation). */
static size_t ignored_files;

static bool vouched(const hv_blob *b, bool set)
{
	if (!set) return true;
	const rec_io *m = b->io;
	hv_blob alone = hv_blob_from_memory(b->name, m->data, (size_t)m->size);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report r;
	hv_report_init(&r, b->name, opt.max_diags);
	hv_validate_blob(&opt, &alone, &r);
	bool ok = hv_report_exit_code(&r, false) == 0 && !r.unreadable && !r.internal_error;
	hv_report_free(&r);
	hv_blob_release(&alone);
	if (!ok) ignored_files++;
	return ok;
}

static void check_items(const cJSON *doc, hv_blob *blobs, size_t n, bool set)
{
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files"), *f;
	size_t fi = 0;
	cJSON_ArrayForEach(f, files)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
		const cJSON *size = cJSON_GetObjectItemCaseSensitive(f, "size");
		const cJSON *uf = cJSON_GetObjectItemCaseSensitive(f, "untrusted_from");
		const char *nm = cJSON_IsString(name) ? name->valuestring : "?";
		if (uf && !cJSON_IsNull(uf)) {
			fprintf(stderr, "fuzz diff: the dump of a conforming input marks %s untrusted\n", nm);
			abort();
		}
		/* the dump lists the files in the order it was given them (nothing
		 * is selected here); names are cleaned for output, so the order,
		 * not the name, says which blob an entry is */
		if (fi >= n) {
			fprintf(stderr, "fuzz diff: the dump lists more files than the input has (%zu)\n", n);
			abort();
		}
		const hv_blob *fb = &blobs[fi++];
		uint64_t fsize = fb->size;
		const uint8_t *seen = ((const rec_io *)fb->io)->seen;
		int vouch = -1; /* computed once, when a violation needs it */
#define VOUCHED() (vouch < 0 ? (vouch = vouched(fb, set)) : vouch)
		if (!cJSON_IsNumber(size) || size->valuedouble != (double)fsize) {
			fprintf(stderr, "fuzz diff: the dump gives %s %.0f bytes, it has %llu\n", nm, size->valuedouble,
				(unsigned long long)fsize);
			abort();
		}
		const cJSON *it;
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(f, "items"))
		{
			const cJSON *kind = cJSON_GetObjectItemCaseSensitive(it, "kind");
			const cJSON *off = cJSON_GetObjectItemCaseSensitive(it, "offset");
			const cJSON *len = cJSON_GetObjectItemCaseSensitive(it, "length");
			const char *k = cJSON_IsString(kind) ? kind->valuestring : "?";
			if ((strcmp(k, "stop") == 0 || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "untrusted"))) &&
			    VOUCHED()) {
				const cJSON *why = cJSON_GetObjectItemCaseSensitive(it, "reason");
				fprintf(stderr, "fuzz diff: the dump of a conforming input stops or distrusts %s: %s at %.0f (%s)\n",
					nm, k, cJSON_IsNumber(off) ? off->valuedouble : -1.0,
					cJSON_IsString(why) ? why->valuestring : "");
				abort();
			}
			if (cJSON_IsNumber(off) && cJSON_IsNumber(len) &&
			    off->valuedouble + len->valuedouble > (double)fsize && VOUCHED()) {
				fprintf(stderr, "fuzz diff: a dump item of a conforming input ends past its file: %s %s at %.0f+%.0f of %llu\n",
					nm, k, off->valuedouble, len->valuedouble, (unsigned long long)fsize);
				abort();
			}
			/* where the item's structure starts: a byte validation read
			 * (not every byte: structures carry padding no check reads).
			 * One file only: in a directory the family decides which files
			 * it reads (a stream ovniemu would skip is sniffed, not read) */
			if (seen && cJSON_IsNumber(off) && cJSON_IsNumber(len) && off->valuedouble >= 0 && len->valuedouble > 0 &&
			    off->valuedouble < (double)fsize && !seen[(uint64_t)off->valuedouble] && !set) {
				fprintf(stderr, "fuzz diff: a dump item of a conforming input starts at a byte validation never "
						"read: %s %s at %.0f+%.0f\n",
					nm, k, off->valuedouble, len->valuedouble);
				abort();
			}
		}
#undef VOUCHED
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) return 0;
	bool set = data[0] & 1;
	data++, size--;
	static fuzz_files ff;
	static rec_io io[FUZZ_MAX_FILES];
	if (set) {
		fuzz_unpack(data, size, &ff);
	} else {
		ff.n = 1;
		snprintf(ff.names[0], sizeof ff.names[0], "fuzz-0001.bin");
		ff.blobs[0] = hv_blob_from_memory(ff.names[0], data, size);
	}
	for (size_t i = 0; i < ff.n; i++) {
		io[i] = (rec_io){.data = ff.blobs[i].mem, .size = ff.blobs[i].size};
		io[i].seen = calloc(ff.blobs[i].size ? (size_t)ff.blobs[i].size : 1, 1);
		ff.blobs[i].mem = NULL;
		ff.blobs[i].fetch = rec_fetch;
		ff.blobs[i].io = &io[i];
	}
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	hv_report r;
	hv_report_init(&r, set ? "db" : "fuzz-0001.bin", opt.max_diags);
	if (set) hv_validate_set(&opt, ff.blobs, ff.n, &r);
	else hv_validate_blob(&opt, &ff.blobs[0], &r);
	fuzz_check_report(&r);
	bool conforming = hv_report_exit_code(&r, false) == 0 && !r.unreadable && !r.internal_error;
	for (size_t i = 0; i < ff.n; i++) {
		io[i].dumping = true;
		if (!conforming) free(io[i].seen), io[i].seen = NULL;
	}
	hv_dump_opts o = {.json = conforming, .max_items = conforming ? 0 : 64};
	if (conforming) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		if (mem) {
			hv_dump(mem, &o, r.input_path, ff.blobs, ff.n, &r, NULL);
			fclose(mem);
			cJSON *doc = cJSON_ParseWithLength(buf, len);
			if (!doc && len < (64u << 20)) {
				fprintf(stderr, "fuzz diff: the dump of a conforming input is not JSON\n");
				abort();
			}
			if (doc) check_items(doc, ff.blobs, ff.n, set);
			cJSON_Delete(doc);
			free(buf);
		}
	} else {
		static FILE *sink;
		if (!sink) sink = fopen("/dev/null", "w");
		if (sink) hv_dump(sink, &o, r.input_path, ff.blobs, ff.n, &r, NULL);
	}
	for (size_t i = 0; i < ff.n; i++) {
		free(io[i].seen);
		io[i].seen = NULL;
		hv_blob_release(&ff.blobs[i]);
	}
	hv_report_free(&r);
	if (getenv("FUZZ_DIFF_STATS"))
		fprintf(stderr, "diff_dump: %s, %zu files ignored by validation so far\n",
			conforming ? "conforming" : "nonconforming", ignored_files);
	return 0;
}
