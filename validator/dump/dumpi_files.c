/* DUMPI dump: the index, the header, the stream's biases, every record with
 * its function, thread, times (as dumpi2ascii prints them: bias + seconds,
 * nine digits of nanoseconds) and decoded MPI arguments, then the footer's
 * call counts. Where the sections are comes from the validator's own
 * reading of the index (dumpi_check_bin); records are walked with its
 * iterator and their arguments decoded with its layout table
 * (dumpi_decode_args_cb), so the dump and the checks agree on structure. */
#include <stdlib.h>
#include <string.h>

#include "dumpi/dumpi.h"
#include "dumpers.h"

typedef struct dumpi_dump {
	hv_dump_ctx *d;
	uint8_t version[3];
	hv_window cwin; /* the argument cursor's own window: d->win is read by on_field meanwhile */
} dumpi_dump;

static void time_text(char *out, size_t len, uint32_t bias, dumpi_clock c)
{
	snprintf(out, len, "%llu.%09u", (unsigned long long)bias + c.sec, c.nsec);
}

static void clock_pair(hv_dump_out *w, const char *key, uint32_t bias, dumpi_clock a, dumpi_clock b)
{
	char t[40];
	dw_obj_begin(w, key);
	time_text(t, sizeof t, bias, a);
	dw_str(w, "start", t);
	time_text(t, sizeof t, bias, b);
	dw_str(w, "stop", t);
	dw_obj_end(w);
}

/* `count` items of `width` bytes at `at` as an array of integers (i32 are
 * signed, as MPI ints are). Bounded by the bytes the decoder accepted. */
static uint64_t int_array(hv_dump_ctx *d, const char *key, uint64_t at, unsigned width, uint64_t count)
{
	dw_arr_begin(d->w, key);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t v;
		if (!hv_dump_be(d, at + i * width, width, &v)) break;
		if (width == 4) dw_i64(d->w, NULL, (int32_t)(uint32_t)v);
		else dw_u64(d->w, NULL, v);
	}
	dw_arr_end(d->w);
	return at + count * width;
}

/* `count` big-endian u32 at `at` as unsigned integers (the header's mesh
 * fields; a value that cannot be read shows as 0). */
static void u32_array(hv_dump_ctx *d, const char *key, uint64_t at, uint64_t count)
{
	dw_arr_begin(d->w, key);
	for (uint64_t i = 0; i < count && !dw_full(d->w); i++) {
		uint64_t v = 0;
		hv_dump_be(d, at + 4 * i, 4, &v);
		dw_u64(d->w, NULL, v);
	}
	dw_arr_end(d->w);
}

/* u32 count + count x (u32 length + bytes); returns the offset after. */
static uint64_t string_array(hv_dump_ctx *d, const char *key, uint64_t at, uint64_t end)
{
	uint64_t count = 0;
	dw_arr_begin(d->w, key);
	if (hv_dump_be(d, at, 4, &count)) at += 4;
	for (uint64_t i = 0; i < count && at < end; i++) {
		uint64_t len;
		if (!hv_dump_be(d, at, 4, &len) || !hv_dump_str(d, NULL, at + 4, len)) break;
		at += 4 + len;
	}
	dw_arr_end(d->w);
	return at;
}

static void on_field(void *ctx, const dumpi_field *f, uint64_t at, uint64_t end)
{
	dumpi_dump *x = ctx;
	hv_dump_ctx *d = x->d;
	hv_dump_out *w = d->w;
	char key[64];
	snprintf(key, sizeof key, "%.*s", (int)f->name_len, f->name);
	uint64_t v = 0, count = 0;
	switch (f->kind) {
	case 'b':
		if (hv_dump_be(d, at, 1, &v)) dw_u64(w, key, v);
		return;
	case 'h':
		if (hv_dump_be(d, at, 2, &v)) dw_u64(w, key, v);
		return;
	case 'i':
	case 'r':
	case 't':
		if (hv_dump_be(d, at, 4, &v)) dw_i64(w, key, (int32_t)(uint32_t)v);
		return;
	case 'q':
		if (hv_dump_be(d, at, 8, &v)) dw_i64(w, key, (int64_t)v);
		return;
	default: break;
	}
	if (at == end) { /* statuses not recorded (config mask) */
		dw_null(w, key);
		return;
	}
	if (!hv_dump_be(d, at, 4, &count)) return;
	switch (f->kind) {
	case 'I': int_array(d, key, at + 4, 4, count); return;
	case 'H': int_array(d, key, at + 4, 2, count); return;
	case 'B': int_array(d, key, at + 4, 1, count); return;
	case 'C': hv_dump_str(d, key, at + 4, count); return;
	case 'D': string_array(d, key, at, end); return;
	case 'E':
		dw_arr_begin(w, key);
		at += 4;
		for (uint64_t i = 0; i < count && at < end; i++) at = string_array(d, NULL, at, end);
		dw_arr_end(w);
		return;
	case 'J':
		dw_arr_begin(w, key);
		at += 4;
		for (uint64_t i = 0; i < count && at < end; i++) {
			uint64_t n;
			if (!hv_dump_be(d, at, 4, &n)) break;
			at = int_array(d, NULL, at + 4, 4, n);
		}
		dw_arr_end(w);
		return;
	case 'S': {
		bool tag = dumpi_version_at_least(x->version, 0, 6, 3);
		unsigned width = tag ? 14 : 10;
		dw_arr_begin(w, key);
		for (uint64_t i = 0; i < count; i++) {
			uint64_t p = at + 4 + i * width, bytes, source, cancelled, error, tg = 0;
			if (!hv_dump_be(d, p, 4, &bytes) || !hv_dump_be(d, p + 4, 4, &source) ||
			    !hv_dump_be(d, p + 8, 1, &cancelled) || !hv_dump_be(d, p + 9, 1, &error) ||
			    (tag && !hv_dump_be(d, p + 10, 4, &tg)))
				break;
			dw_obj_begin(w, NULL);
			dw_i64(w, "bytes", (int32_t)(uint32_t)bytes);
			dw_i64(w, "source", (int32_t)(uint32_t)source);
			dw_i64(w, "cancelled", (int8_t)(uint8_t)cancelled);
			dw_i64(w, "error", (int8_t)(uint8_t)error);
			if (tag) dw_i64(w, "tag", (int32_t)(uint32_t)tg);
			dw_obj_end(w);
		}
		dw_arr_end(w);
		return;
	}
	case 'x':
	case 'y':
		/* an array from 0.6.9 (x) / 0.6.8 (y) on, a single int before */
		if (end - at == 4) dw_i64(w, key, (int32_t)(uint32_t)count);
		else int_array(d, key, at + 4, 4, count);
		return;
	case 'A':
	case 'a': {
		uint64_t p = at + 4;
		if (f->kind == 'A' && !dumpi_version_at_least(x->version, 0, 6, 2)) p += 4; /* the old duplicate count */
		dw_i64(w, "argc", (int32_t)(uint32_t)count);
		dw_arr_begin(w, key);
		for (uint64_t i = 0; (int32_t)(uint32_t)count > 0 && i < count && p < end; i++) {
			uint64_t len;
			if (!hv_dump_be(d, p, 4, &len) || !hv_dump_str(d, NULL, p + 4, len)) break;
			p += 4 + len;
		}
		dw_arr_end(w);
		return;
	}
	default: return;
	}
}

/* Where a record's arguments start: after the function id, the config
 * mask, the thread, the clocks and the perf counters that mask says are there. */
static uint64_t args_at(const dumpi_record *rec)
{
	uint64_t p = rec->offset + 3;
	if (rec->mask & DUMPI_MASK_THREAD) p += 2;
	if (rec->mask & DUMPI_MASK_CPU) p += 12;
	if (rec->mask & DUMPI_MASK_WALL) p += 12;
	if (rec->mask & DUMPI_MASK_PERF) p += 1 + 16u * rec->perf_count;
	return p;
}

static void dump_record(dumpi_dump *x, const dumpi_record *rec, uint32_t cpu_bias, uint32_t wall_bias)
{
	hv_dump_ctx *d = x->d;
	hv_dump_out *w = d->w;
	dw_item_begin(w, "record", dumpi_record_path(d->path, sizeof d->path, rec->index), rec->offset, rec->length);
	dw_u64(w, "index", rec->index);
	dw_str(w, "function", dumpi_function_name(rec->fn));
	dw_u64(w, "function_id", rec->fn);
	dw_u64(w, "mask", rec->mask);
	if (rec->mask & DUMPI_MASK_THREAD) dw_u64(w, "thread", rec->thread);
	if (rec->mask & DUMPI_MASK_WALL) clock_pair(w, "wall", wall_bias, rec->wall_start, rec->wall_stop);
	if (rec->mask & DUMPI_MASK_CPU) clock_pair(w, "cpu", cpu_bias, rec->cpu_start, rec->cpu_stop);
	if (rec->mask & DUMPI_MASK_PERF) {
		uint64_t p = args_at(rec) - 16u * rec->perf_count;
		dw_arr_begin(w, "perf");
		for (unsigned i = 0; i < rec->perf_count; i++) {
			uint64_t a, b;
			if (!hv_dump_be(d, p + 16u * i, 8, &a) || !hv_dump_be(d, p + 16u * i + 8, 8, &b)) break;
			dw_obj_begin(w, NULL);
			dw_u64(w, "start", a);
			dw_u64(w, "stop", b);
			dw_obj_end(w);
		}
		dw_arr_end(w);
	}
	dw_obj_begin(w, "args");
	const dumpi_layout *L = dumpi_layout_of(rec->fn);
	dumpi_cur c = {.w = &x->cwin, .pos = args_at(rec), .limit = rec->offset + rec->length};
	dumpi_argfail why;
	if (L) dumpi_decode_args_cb(L, rec->mask, x->version, &c, &why, on_field, x);
	dw_obj_end(w);
	dw_item_end(w);
}

/* The header: version, starttime, host and user names, then meshdim and
 * its mesh coordinates, and from 0.5 on the mesh sizes (a count and that
 * many u32). The item spans the fields that lie in the file. */
static void dump_header(hv_dump_ctx *d, uint64_t at)
{
	hv_dump_out *w = d->w;
	uint64_t v0, v1, v2, start, hl, ul = 0;
	if (!hv_dump_be(d, at, 1, &v0) || !hv_dump_be(d, at + 1, 1, &v1) || !hv_dump_be(d, at + 2, 1, &v2) ||
	    !hv_dump_be(d, at + 3, 8, &start) || !hv_dump_be(d, at + 11, 2, &hl)) {
		hv_dump_stop(d, at, "the header does not fit in the file");
		return;
	}
	/* the span first: the item's length is written when it begins */
	uint64_t size = d->b->size, end = at + 13, host = end, user = 0, mesh = 0, sizes = 0, meshdim = 0, count = 0;
	bool have_host = hv_range_in(host, hl, size), have_user = false, have_mesh = false, have_sizes = false;
	if (have_host && hv_dump_be(d, host + hl, 2, &ul)) {
		user = host + hl + 2;
		have_user = hv_range_in(user, ul, size);
		end = have_user ? user + ul : user;
	} else if (have_host) {
		end = host + hl;
	}
	if (have_user && hv_dump_be(d, end, 4, &meshdim) && hv_dump_array_in(d, end + 4, meshdim, 4)) {
		mesh = end + 4;
		end = mesh + 4 * meshdim;
		have_mesh = true;
		const uint8_t ver[3] = {(uint8_t)v0, (uint8_t)v1, (uint8_t)v2};
		if (dumpi_version_at_least(ver, 0, 5, 0) && hv_dump_be(d, end, 4, &count) &&
		    hv_dump_array_in(d, end + 4, count, 4)) {
			sizes = end + 4;
			end = sizes + 4 * count;
			have_sizes = true;
		}
	}
	dw_item_begin(w, "header", "header", at, end - at);
	char ver[32];
	snprintf(ver, sizeof ver, "%u.%u.%u", (unsigned)v0, (unsigned)v1, (unsigned)v2);
	dw_str(w, "version", ver);
	dw_u64(w, "starttime", start);
	if (have_host) hv_dump_str(d, "hostname", host, hl);
	if (have_user) hv_dump_str(d, "username", user, ul);
	if (have_mesh) {
		dw_u64(w, "meshdim", meshdim);
		u32_array(d, "meshcrd", mesh, meshdim);
	}
	if (have_sizes) u32_array(d, "meshsize", sizes, count);
	dw_item_end(w);
}

static void dump_footer(hv_dump_ctx *d, uint64_t at)
{
	hv_dump_out *w = d->w;
	uint64_t magic;
	if (!hv_dump_be(d, at, 8, &magic) || !hv_range_in(at, DUMPI_FOOTER_SIZE, d->b->size)) {
		hv_dump_stop(d, at, "the footer does not fit in the file");
		return;
	}
	dw_item_begin(w, "footer", "footer", at, DUMPI_FOOTER_SIZE);
	dw_u64(w, "magic", magic);
	/* only functions called or ignored at least once, as {name, id, called, ignored} */
	dw_arr_begin(w, "calls");
	for (unsigned f = 0; f < DUMPI_FOOTER_SLOTS; f++) {
		uint64_t called, ignored;
		if (!hv_dump_be(d, at + 8 + 4u * f, 4, &called) ||
		    !hv_dump_be(d, at + 8 + 4u * (DUMPI_FOOTER_SLOTS + f), 4, &ignored))
			break;
		if (!called && !ignored) continue;
		dw_obj_begin(w, NULL);
		dw_str(w, "function", dumpi_function_name(f));
		dw_u64(w, "function_id", f);
		dw_u64(w, "called", called);
		dw_u64(w, "ignored", ignored);
		dw_obj_end(w);
	}
	dw_arr_end(w);
	dw_item_end(w);
}

void hv_dump_dumpi_bin(hv_dump_ctx *d)
{
	hv_dump_out *w = d->w;
	hv_report scratch;
	hv_report_init(&scratch, d->b->name, 0);
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = 0};
	dumpi_bin_info info;
	memset(&info, 0, sizeof info);
	dumpi_check_bin(&opt, d->b, &scratch, &info);
	hv_report_free(&scratch);
	if (!info.index_ok) {
		hv_dump_stop(d, d->b->size, "no DUMPI index at the end of the file: the sections cannot be found");
		return;
	}
	uint64_t idx = d->b->size - info.index_size;
	dw_item_begin(w, "index", "index", idx, info.index_size);
	dw_u64(w, "size", info.index_size);
	dw_obj_begin(w, "sections");
	for (int s = 0; s < DS_COUNT; s++) dw_u64(w, dumpi_sec_names[s], info.off[s]);
	dw_obj_end(w);
	dw_item_end(w);
	if (info.off[DS_HEADER]) dump_header(d, info.off[DS_HEADER]);
	if (!info.header_ok || !info.off[DS_BODY] || !info.off[DS_HEADER] || info.off[DS_HEADER] <= info.off[DS_BODY]) {
		hv_dump_stop(d, info.off[DS_BODY], "no usable header version or stream bounds: records are not decoded");
	} else {
		uint64_t body = info.off[DS_BODY], cb = 0, wb = 0;
		if (!hv_dump_be(d, body, 4, &cb) || !hv_dump_be(d, body + 4, 4, &wb)) {
			hv_dump_stop(d, body, "the stream has no room for its time biases");
		} else {
			dw_item_begin(w, "biases", "stream/bias", body, 8);
			dw_u64(w, "cpu_bias", cb);
			dw_u64(w, "wall_bias", wb);
			dw_item_end(w);
			dumpi_dump x = {.d = d};
			memcpy(x.version, info.version, 3);
			dumpi_iter it;
			if (!hv_window_init(&x.cwin, d->b, HV_WINDOW_DEFAULT)) {
				hv_dump_stop(d, body, "out of memory");
			} else if (!dumpi_iter_init(&it, d->b, body + 8, info.off[DS_HEADER], info.version)) {
				hv_window_free(&x.cwin);
				hv_dump_stop(d, body, "out of memory");
			} else {
				dumpi_record rec;
				while (!dw_full(d->w) && dumpi_iter_next(&it, &rec)) {
					if (d->o->sel.have_range && rec.index > d->o->sel.last) break;
					if (hv_dump_in_range(d, rec.index)) dump_record(&x, &rec, (uint32_t)cb, (uint32_t)wb);
				}
				if (it.at_end) {
					if (!d->o->sel.have_range) {
						dw_item_begin(w, "end", "stream/end", rec.offset, 2);
						dw_item_end(w);
					}
				} else if (!d->o->sel.have_range || rec.index <= d->o->sel.last) {
					char why[160];
					snprintf(why, sizeof why, "record %llu (%s) cannot be decoded (%s): the rest of the stream is not dumped",
						 (unsigned long long)rec.index, dumpi_function_name(rec.fn),
						 it.failure ? hv_rules[it.failure].id : "read error");
					hv_dump_stop(d, rec.offset, why);
				}
				dumpi_iter_free(&it);
				hv_window_free(&x.cwin);
			}
		}
	}
	if (info.off[DS_FOOTER] && !d->o->sel.have_range) dump_footer(d, info.off[DS_FOOTER]);
}

/* The .meta: its key=value lines, with offsets. */
void hv_dump_dumpi_meta(hv_dump_ctx *d)
{
	uint64_t size = d->b->size, line = 0;
	uint64_t at = 0;
	while (at < size && !dw_full(d->w)) {
		/* a line: up to the next '\n' (looked for through the window, a chunk at a time) */
		uint64_t end = at;
		const uint8_t *p = NULL;
		while (end < size) {
			uint64_t chunk = size - end < 4096 ? size - end : 4096;
			p = hv_window_get(&d->win, end, (size_t)chunk);
			if (!p) return;
			const uint8_t *nl = memchr(p, '\n', (size_t)chunk);
			if (nl) {
				end += (uint64_t)(nl - p);
				break;
			}
			end += chunk;
		}
		if (hv_dump_in_range(d, line)) {
			snprintf(d->path, sizeof d->path, "line[%llu]", (unsigned long long)line);
			dw_item_begin(d->w, "meta-line", d->path, at, end - at);
			uint64_t len = end - at, eq = len;
			const uint8_t *q = hv_window_get(&d->win, at, (size_t)(len < HV_DUMP_STR_MAX ? len : HV_DUMP_STR_MAX));
			for (uint64_t i = 0; q && i < len && i < HV_DUMP_STR_MAX; i++)
				if (q[i] == '=') {
					eq = i;
					break;
				}
			if (eq < len) {
				hv_dump_str(d, "key", at, eq);
				hv_dump_str(d, "value", at + eq + 1, len - eq - 1);
			} else {
				hv_dump_str(d, "text", at, len);
			}
			dw_item_end(d->w);
		}
		line++;
		at = end + 1;
	}
}
