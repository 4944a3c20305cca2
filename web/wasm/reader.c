/* See reader.h. The only code of the wasm build that reaches the user's
 * files, and only through the import below. */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fileio.h"

/* worker.js: copy `len` bytes of File `file` at `off` into wasm memory at
 * `dst`; 1 when all were copied, 0 otherwise (the File changed or could
 * not be read). The offset travels as a double: exact up to 2^53 bytes. */
__attribute__((import_module("hpcvet"), import_name("read"))) int hvw_js_read(uint32_t file, double off, void *dst,
									      uint32_t len);

/* worker.js: the core will read `len` bytes of File `file` at `off` soon
 * (hv_blob.will_read): read ahead, the page starts reading them into free
 * slots while the core checks what it has; otherwise nothing. */
__attribute__((import_module("hpcvet"), import_name("will_read"))) void hvw_js_will_read(uint32_t file, double off,
											 double len);

static uint64_t g_bytes_read;

uint64_t hvw_bytes_read(void) { return g_bytes_read; }

static bool js_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	const hvw_file *f = io;
	if (off > f->size || len > f->size - off || len > UINT32_MAX) return false;
	g_bytes_read += len;
	return len == 0 || hvw_js_read(f->js_id, (double)off, dst, (uint32_t)len) == 1;
}

static void js_will_read(void *io, uint64_t off, uint64_t len)
{
	const hvw_file *f = io;
	hvw_js_will_read(f->js_id, (double)off, (double)len);
}

bool hvw_input_add(hvw_input *in, const char *name, uint64_t size, uint32_t js_id)
{
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 16;
		hvw_file *nf = realloc(in->files, cap * sizeof *nf);
		if (!nf) return false;
		in->files = nf;
		in->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy) return false;
	in->files[in->n++] = (hvw_file){.name = copy, .size = size, .js_id = js_id};
	return true;
}

/* The order hv_dir_open gives: by name, byte by byte. */
static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const hvw_file *)a)->name, ((const hvw_file *)b)->name);
}

static bool read_whole(hvw_file *f)
{
	f->data = malloc(f->size ? (size_t)f->size : 1);
	return f->data && js_fetch(f, 0, f->data, (size_t)f->size);
}

bool hvw_input_open(hvw_input *in, char *why, size_t why_len)
{
	if (in->set && in->n > HV_DIR_MAX_FILES) {
		snprintf(why, why_len, "%s: more than %u files", in->label, HV_DIR_MAX_FILES);
		return false;
	}
	if (in->set && in->n > 1) qsort(in->files, in->n, sizeof *in->files, cmp_files);
	in->blobs = calloc(in->n ? in->n : 1, sizeof *in->blobs);
	if (!in->blobs) {
		snprintf(why, why_len, "out of memory");
		return false;
	}
	uint64_t slurped = 0;
	for (size_t i = 0; i < in->n; i++) {
		hvw_file *f = &in->files[i];
		uint64_t max = HV_SLURP_MAX;
		if (in->set) {
			uint64_t room = slurped < HV_DIR_SLURP_BUDGET ? HV_DIR_SLURP_BUDGET - slurped : 0;
			max = room < HV_DIR_SLURP_MAX ? room : HV_DIR_SLURP_MAX;
		}
		hv_blob *b = &in->blobs[i];
		*b = (hv_blob){.name = f->name, .size = f->size};
		if (f->size <= max) {
			if (!read_whole(f)) {
				snprintf(why, why_len, "%s: read error", f->name);
				return false;
			}
			b->mem = f->data;
			slurped += f->size;
		} else {
			b->fetch = js_fetch;
			b->will_read = js_will_read;
			b->io = f;
		}
	}
	return true;
}

void hvw_input_free(hvw_input *in)
{
	for (size_t i = 0; in->blobs && i < in->n; i++) hv_blob_release(&in->blobs[i]);
	for (size_t i = 0; i < in->n; i++) {
		free(in->files[i].name);
		free(in->files[i].data);
	}
	free(in->files);
	free(in->blobs);
	free(in->label);
	free(in->problem);
	memset(in, 0, sizeof *in);
}

size_t hvw_input_read_range(hvw_input *in, const char *name, uint64_t off, uint8_t *dst, size_t len)
{
	for (size_t i = 0; i < in->n; i++) {
		hvw_file *f = &in->files[i];
		if (strcmp(f->name, name) != 0) continue;
		if (off >= f->size) return 0;
		if (len > f->size - off) len = (size_t)(f->size - off);
		if (f->data) {
			memcpy(dst, f->data + off, len);
			return len;
		}
		return js_fetch(f, off, dst, len) ? len : 0;
	}
	return 0;
}
