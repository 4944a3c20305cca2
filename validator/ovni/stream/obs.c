/* stream.obs: the binary stream of one ovni thread. Streamed through a
 * window, so a stream of any size validates in bounded memory. Every size is
 * computed in 64 bits: the reference readers compute the jumbo event size in
 * a C int and crash (size >= 0x7ffffff3) or loop forever (0xfffffff0). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hv_int.h"
#include "walk.h"
#include "ovni/ovni.h"

#define OBS_HDR 8u
#define EV_HDR 12u
#define JUMBO_HDR 16u
#define FLAG_JUMBO 0x10u
#define FLAGS_RESERVED 0xe0u

bool ovni_obs_sniff(hv_blob *b)
{
	uint8_t m[4];
	return b->size >= 4 && hv_blob_read(b, 0, m, 4) && memcmp(m, "ovni", 4) == 0;
}

static bool is_graph(uint8_t c) { return c >= 0x21 && c <= 0x7e; }

static void mcv_text(const uint8_t *mcv, char out[16])
{
	if (is_graph(mcv[0]) && is_graph(mcv[1]) && is_graph(mcv[2]))
		snprintf(out, 16, "%c%c%c", mcv[0], mcv[1], mcv[2]);
	else
		snprintf(out, 16, "%02x %02x %02x", mcv[0], mcv[1], mcv[2]);
}

/* Header; returns the offset of the first event, or UINT64_MAX when the
 * stream cannot be walked. */
static uint64_t check_header(hv_blob *b, hv_report *r, bool headerless_ok)
{
	const char *f = b->name;
	if (!hv_eval(r, HV_R_OVNI_OBS_EMPTY, b->size > 0)) {
		hv_emit(r, HV_R_OVNI_OBS_EMPTY, f, 0, 0, "stream.obs", "the stream is empty (0 bytes); want at least the 8-byte header");
		return UINT64_MAX;
	}
	uint8_t h[OBS_HDR] = {0};
	size_t got = b->size < OBS_HDR ? (size_t)b->size : OBS_HDR;
	if (!hv_blob_read(b, 0, h, got)) return UINT64_MAX;
	bool magic = got >= 4 && memcmp(h, "ovni", 4) == 0;
	if (headerless_ok && !magic) return 0; /* v1 thread file without header */
	if (!hv_eval(r, HV_R_OVNI_OBS_HEADER_TRUNCATED, b->size >= OBS_HDR)) {
		hv_emit(r, HV_R_OVNI_OBS_HEADER_TRUNCATED, f, 0, b->size, "stream.obs/header",
			"the stream has %" PRIu64 " bytes, fewer than the 8-byte header (%" PRIu64 " missing)", b->size,
			(uint64_t)OBS_HDR - b->size);
		return UINT64_MAX;
	}
	if (!hv_eval(r, HV_R_OVNI_OBS_MAGIC, magic)) {
		hv_emit(r, HV_R_OVNI_OBS_MAGIC, f, 0, 4, "stream.obs/header/magic",
			"magic is %02x %02x %02x %02x, want 6f 76 6e 69 (\"ovni\")", h[0], h[1], h[2], h[3]);
		return UINT64_MAX;
	}
	uint32_t v = hv_le32(h + 4);
	if (!hv_eval(r, HV_R_OVNI_OBS_VERSION, v == 1)) {
		hv_emit(r, HV_R_OVNI_OBS_VERSION, f, 4, 4, "stream.obs/header/version", "stream version is %" PRIu32
			" (bytes %02x %02x %02x %02x), want 1 as a little-endian u32%s", v, h[4], h[5], h[6], h[7],
			hv_be32(h + 4) == 1 ? " (this looks like a big-endian writer)" : "");
		return UINT64_MAX;
	}
	return OBS_HDR;
}

/* Out of line on purpose: the per-event fast path (fast_walk) does not
 * fetch, and inlining the window fast path into the slow-path checks makes
 * the compiler allocate the hot loop's registers worse (callgrind: +16% Ir). */
__attribute__((noinline)) static const uint8_t *obs_window_get(hv_window *w, uint64_t off, size_t len)
{
	return hv_window_get(w, off, len);
}

/* The walk's state (walk.h): the per-event checks read and write the
 * fields that cross a chunk's cut in w->cut. */
typedef ovni_obs_walk walk;

static const ovni_evspec *lookup(walk *w, const uint8_t *mcv)
{
	unsigned h = (mcv[0] * 31u + mcv[1] * 7u + mcv[2]) & 255u;
	if (w->cache[h].valid && memcmp(w->cache[h].mcv, mcv, 3) == 0) return w->cache[h].spec;
	const ovni_evspec *s = ovni_event_find(mcv);
	memcpy(w->cache[h].mcv, mcv, 3);
	w->cache[h].valid = true;
	w->cache[h].spec = s;
	return s;
}

/* The summary notes for the tree checks, shared by the slow and fast paths. */
static void note_model(ovni_obs_summary *s, int m, uint64_t off)
{
	if (!(s->models & (1u << m))) s->model_off[m] = off;
	s->models |= 1u << m;
}

/* The type of a mark event, for the tree's declared-type check. */
static void note_mark_type(ovni_obs_summary *s, int64_t type, uint64_t off)
{
	if (type >= 0 && type < OVNI_MARK_TYPES) {
		uint64_t bit = 1ull << (type % 64);
		if (!(s->mark_types[type / 64] & bit)) s->mark_off[type] = off;
		s->mark_types[type / 64] |= bit;
	} else if (!s->mark_bad_type) {
		s->mark_bad_type = true;
		s->mark_bad_type_value = type;
		s->mark_bad_type_off = off;
	}
}

/* Events ovniemu 1.14 takes whatever their value and payload: the ovni
 * model's burst category (OB*: the handler only records the clock) and its
 * sort category (OU*: ignored by the emulator; OU[ and OU] only tell
 * ovnisort where to sort). libovni's own test programs write OB. with a
 * payload and as a jumbo event, and a jumbo OUj inside an unsorted region. */
static bool handler_takes_any(const uint8_t *p) { return p[1] == 'O' && (p[2] == 'B' || p[2] == 'U'); }

static void check_mcv(walk *w, uint64_t off, const uint8_t *p, bool jumbo, uint64_t payload)
{
	hv_report *r = w->r;
	const char *f = w->b->name;
	/* Formatted for every event only when something is reported: this runs
	 * tens of millions of times on a large stream. */
	char path[64], mcv[16];
	bool printable = is_graph(p[1]) && is_graph(p[2]) && is_graph(p[3]);
	int m = printable ? ovni_model_by_letter(p[1]) : -1;
	const ovni_evspec *s = m >= 0 ? lookup(w, p + 1) : NULL;
	/* the payload judged as ovniemu 1.14's handler judges it (the table's
	 * `emu` column), not against the signature: nOS-V 4.1 writes OCn with
	 * 8 bytes, which the emulator ignores */
	int verdict = s ? (int)ovni_payload_judge(s, jumbo, payload) : -1;
	bool sig_ok = verdict == OVNI_PAYLOAD_OK || (m >= 0 && handler_takes_any(p));
	if (m >= 0) note_model(w->sum, m, off);
	if (sig_ok) {
		hv_eval(r, HV_R_OVNI_OBS_MCV_PRINTABLE, true);
		hv_eval(r, HV_R_OVNI_OBS_MODEL_UNKNOWN, true);
		hv_eval(r, HV_R_OVNI_OBS_MCV_MINOR_NEWER, true);
		hv_eval(r, HV_R_OVNI_OBS_PAYLOAD_SIZE, true);
		hv_eval(r, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE, true);
		return;
	}
	snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]/mcv", w->cut.idx);
	mcv_text(p + 1, mcv);
	if (!hv_eval(r, HV_R_OVNI_OBS_MCV_PRINTABLE, printable)) {
		hv_emit(r, HV_R_OVNI_OBS_MCV_PRINTABLE, f, off + 1, 3, path,
			"MCV bytes %s are not all printable characters (0x21..0x7e)", mcv);
		return;
	}
	if (!hv_eval(r, HV_R_OVNI_OBS_MODEL_UNKNOWN, m >= 0)) {
		hv_emit(r, HV_R_OVNI_OBS_MODEL_UNKNOWN, f, off + 1, 1, path,
			"event %s: model '%c' is not one of 6 D K M O P T V", mcv, p[1]);
		return;
	}
	if (!hv_eval(r, HV_R_OVNI_OBS_MCV_MINOR_NEWER, s != NULL)) {
		hv_emit(r, HV_R_OVNI_OBS_MCV_MINOR_NEWER, f, off + 1, 3, path,
			"event %s is not in the ovni 1.14 table of model %s", mcv, ovni_models[m].name);
		return;
	}
	/* the sizes the emulator's handlers refuse: errors */
	char need[96]; /* formatted only for a stored diagnostic */
#define NEED (ovni_payload_need(s, need, sizeof need), need)
	if (!hv_eval(r, HV_R_OVNI_OBS_PAYLOAD_SIZE, verdict != OVNI_PAYLOAD_REFUSED)) {
		if (jumbo)
			hv_emit(r, HV_R_OVNI_OBS_PAYLOAD_SIZE, f, off, 1, path,
				"event %s is a jumbo event of %" PRIu64 " data bytes, %" PRIu64 " payload bytes to the emulator "
				"(the u32 jumbo size counts); it needs %s and stops", mcv, payload, payload + 4, NEED);
		else
			hv_emit(r, HV_R_OVNI_OBS_PAYLOAD_SIZE, f, off, 1, path,
				"event %s has %" PRIu64 " payload bytes; the emulator needs %s and stops", mcv, payload, NEED);
		return;
	}
	/* taken, but its arguments read from other bytes than the signature's */
	if (!hv_eval(r, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE, false))
		hv_emit(r, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE, f, off, 1, path,
			"event %s is a jumbo event of %" PRIu64 " data bytes; the emulator takes it, but its handler wants "
			"%s of normal payload and takes the u32 jumbo size (%" PRIu64 ") for the first argument",
			mcv, payload, NEED, payload);
#undef NEED
}

void ovni_obs_sort_marker(walk *w, uint64_t off, bool open)
{
	hv_report *r = w->r;
	char path[64];
	if (w->cut.region_unknown) {
		w->cut.marker = true;
		w->cut.marker_open = open;
		w->cut.marker_off = off;
		w->cut.marker_idx = w->cut.idx;
		w->cut.marker_at = r->ndiags;
		w->cut.marker_ghosts = r->nghosts;
		w->cut.region_unknown = false;
		w->cut.in_region = open;
		if (open) w->cut.region_open_off = off;
		return;
	}
	bool ok = open ? !w->cut.in_region : w->cut.in_region;
	if (!hv_eval(r, HV_R_OVNI_OBS_SORT_REGION, ok)) {
		snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]/mcv", w->cut.idx);
		if (open)
			hv_emit(r, HV_R_OVNI_OBS_SORT_REGION, w->b->name, off + 1, 3, path,
				"OU[ inside the sort region opened at offset 0x%" PRIx64 " (nested regions are not supported)",
				w->cut.region_open_off);
		else
			hv_emit(r, HV_R_OVNI_OBS_SORT_REGION, w->b->name, off + 1, 3, path, "OU] without a preceding OU[");
	}
	w->cut.in_region = open;
	if (open) w->cut.region_open_off = off;
}

static void check_sort_marker(walk *w, uint64_t off, const uint8_t *p)
{
	if (p[1] == 'O' && p[2] == 'U' && (p[3] == '[' || p[3] == ']')) ovni_obs_sort_marker(w, off, p[3] == '[');
}

/* The clock checks without their evaluation counts (the fast path counts
 * its events in bulk). `inside`: the event lies strictly between OU[ and
 * OU], so the hint names ovnisort, which sorts those events only; the
 * markers themselves stay where they are. */
static inline void clock_step(walk *w, uint64_t off, uint64_t clock, bool inside)
{
	if (w->cut.idx == 0) w->sum->first_clock = clock;
	if (clock >> 63) {
		if (w->cut.signed_n++ == 0) {
			w->cut.signed_off = off;
			w->cut.signed_idx = w->cut.idx;
			w->cut.signed_clock = clock;
		}
	}
	if (w->cut.idx > 0 && clock < w->cut.prev_clock) {
		if (w->cut.back_n++ == 0) {
			w->cut.back_off = off;
			w->cut.back_idx = w->cut.idx;
			w->cut.back_prev = w->cut.prev_clock;
			w->cut.back_clock = clock;
			w->cut.back_in_region = inside;
			w->cut.back_unknown = w->cut.region_unknown;
		}
	}
	w->cut.prev_clock = clock;
}

static void check_clock(walk *w, uint64_t off, uint64_t clock, bool inside)
{
	hv_eval(w->r, HV_R_OVNI_OBS_CLOCK_SIGNED, true);
	hv_eval(w->r, HV_R_OVNI_OBS_CLOCK_MONOTONIC, true);
	clock_step(w, off, clock, inside);
}

static void report_clocks(walk *w)
{
	hv_report *r = w->r;
	char path[64];
	if (w->cut.back_n) {
		snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]/clock", w->cut.back_idx);
		hv_emit(r, HV_R_OVNI_OBS_CLOCK_MONOTONIC, w->b->name, w->cut.back_off + 4, 8, path,
			"clock goes backwards %" PRIu64 " -> %" PRIu64 " (%" PRIu64 " ns earlier) at event %" PRIu64
			", %s; %" PRIu64 " backwards step(s) in this stream",
			w->cut.back_prev, w->cut.back_clock, w->cut.back_prev - w->cut.back_clock, w->cut.back_idx,
			w->cut.back_in_region ? "inside an OU[...OU] sort region (run ovnisort before emulating)"
					  : "outside any OU[...OU] sort region",
			w->cut.back_n);
	}
	if (w->cut.signed_n) {
		snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]/clock", w->cut.signed_idx);
		hv_emit(r, HV_R_OVNI_OBS_CLOCK_SIGNED, w->b->name, w->cut.signed_off + 4, 8, path,
			"clock %" PRIu64 " (0x%016" PRIx64 ") is >= 2^63, negative as the emulator's int64; %" PRIu64
			" such event(s) in this stream", w->cut.signed_clock, w->cut.signed_clock, w->cut.signed_n);
	}
}

/* OM[ OM] OM= carry (i64 value, i32 type). The type must be declared in
 * some thread's ovni.mark (checked by the tree); the value must not be 0. */
static void check_mark_event(walk *w, hv_window *win, uint64_t off)
{
	const uint8_t *q = obs_window_get(win, off, 24);
	if (!q) return;
	int64_t value = (int64_t)hv_le64(q + 12);
	int64_t type = (int32_t)hv_le32(q + 20);
	if (!hv_eval(w->r, HV_R_OVNI_OBS_MARK_VALUE, value != 0)) {
		char path[64];
		snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]/value", w->cut.idx);
		hv_emit(w->r, HV_R_OVNI_OBS_MARK_VALUE, w->b->name, off + 12, 8, path,
			"mark event O%c%c of type %" PRId64 " has value 0; mark values must be non-zero", q[2], q[3], type);
	}
	note_mark_type(w->sum, type, off);
}

/* An event header no reader decodes: a non-printable MCV or an unknown
 * model letter. Reserved flag bits are not in it: ovniemu 1.14 and ovnidump
 * size an event from the jumbo bit and the low nibble alone, so an event
 * with 0x20/0x40/0x80 set is read exactly as without them (its own note,
 * ovni.obs.reserved-flags, says so), however many such events follow. */
static bool undecodable(const uint8_t *p)
{
	if (!is_graph(p[1]) || !is_graph(p[2]) || !is_graph(p[3])) return true;
	return ovni_model_by_letter(p[1]) < 0;
}

/* At an undecodable header at off (p: its first 12 bytes, `evlen` the
 * length it declares, or 0 when that runs past the end): 0 when it is a
 * lone bad event (the next one starts a valid chain: its own rules report
 * it), else the length of the damaged region from off to where events
 * parse again (sync.c) or to the end, reported once. */
static uint64_t damaged_region(walk *w, uint64_t off, uint64_t evlen)
{
	hv_blob *b = w->b;
	uint64_t next = off + evlen;
	if (evlen && (next == b->size || ovni_obs_chain_at(b, next))) return 0;
	/* where events parse again, and the event headers the region spans
	 * by the lengths they declare, in one pass */
	ovni_obs_count cn = {.h = off, .n = 0};
	uint64_t end = ovni_obs_resync(b, off + 1, b->size, &cn);
	if (end == UINT64_MAX) end = b->size;
	uint64_t n = cn.n;
	char path[64];
	if (!hv_eval(w->r, HV_R_OVNI_OBS_DAMAGED_REGION, false))
		hv_emit(w->r, HV_R_OVNI_OBS_DAMAGED_REGION, b->name, off, end - off,
			(snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]", w->cut.idx), path),
			"bytes 0x%" PRIx64 "..0x%" PRIx64 " (%" PRIu64 " bytes, %" PRIu64
			" event header(s)) hold no decodable event; want back-to-back events, each with a "
			"printable MCV of a known model; %s",
			off, end, end - off, n,
			end == b->size ? "no valid event follows up to the end of the stream"
				       : "valid events start again at the region's end");
	return end - off;
}

/* Check one event at `off`; returns its length, or 0 when the stream ends
 * inside it (reported). */
static uint64_t check_event(walk *w, hv_window *win, uint64_t off)
{
	hv_report *r = w->r;
	const char *f = w->b->name;
	uint64_t left = w->b->size - off;
	char path[64]; /* formatted only when reporting (EVPATH) */
#define EVPATH (snprintf(path, sizeof path, "stream.obs/event[%" PRIu64 "]", w->cut.idx), path)
	hv_eval(r, HV_R_OVNI_OBS_EVENT_TRUNCATED, true);
	if (left < EV_HDR) {
		hv_emit(r, HV_R_OVNI_OBS_EVENT_TRUNCATED, f, off, left, EVPATH,
			"the stream ends %" PRIu64 " byte(s) into an event header of 12 bytes (%" PRIu64 " missing)", left,
			EV_HDR - left);
		return 0;
	}
	const uint8_t *p = obs_window_get(win, off, left < JUMBO_HDR ? EV_HDR : JUMBO_HDR);
	if (!p) return 0; /* I/O failure: reported by the caller through io_failed */
	bool jumbo = p[0] & FLAG_JUMBO;
	unsigned nibble = p[0] & 0x0fu;
	if (undecodable(p)) {
		uint64_t declared = jumbo ? (left >= JUMBO_HDR ? JUMBO_HDR + (uint64_t)hv_le32(p + EV_HDR) : 0)
					  : EV_HDR + nibble + (nibble != 0);
		uint64_t skip = damaged_region(w, off, declared <= left ? declared : 0);
		if (skip) return skip;
		p = obs_window_get(win, off, left < JUMBO_HDR ? EV_HDR : JUMBO_HDR); /* the window is the walk's */
		if (!p) return 0;
	}
	uint64_t payload, evlen;
	if (jumbo) {
		if (left < JUMBO_HDR) {
			hv_emit(r, HV_R_OVNI_OBS_EVENT_TRUNCATED, f, off, left, EVPATH,
				"the stream ends %" PRIu64 " byte(s) into a jumbo event header of 16 bytes (%" PRIu64
				" missing)", left, JUMBO_HDR - left);
			return 0;
		}
		payload = hv_le32(p + EV_HDR);
		evlen = JUMBO_HDR + payload;
	} else {
		payload = nibble ? nibble + 1u : 0u;
		evlen = EV_HDR + payload;
	}
	if (evlen > left) {
		hv_emit(r, HV_R_OVNI_OBS_EVENT_TRUNCATED, f, off, left, EVPATH,
			"the stream ends inside a %s event of %" PRIu64 " bytes%s: %" PRIu64 " present, %" PRIu64
			" missing", jumbo ? "jumbo" : "normal", evlen, jumbo ? " (16 + declared jumbo size)" : "", left,
			evlen - left);
		return 0;
	}
	if (!hv_eval(r, HV_R_OVNI_OBS_RESERVED_FLAGS, (p[0] & FLAGS_RESERVED) == 0))
		hv_emit(r, HV_R_OVNI_OBS_RESERVED_FLAGS, f, off, 1, EVPATH,
			"byte 0 is 0x%02x: reserved flag bits 0x%02x are set (only 0x10, jumbo, is defined)", p[0],
			p[0] & FLAGS_RESERVED);
	if (jumbo) {
		if (!hv_eval(r, HV_R_OVNI_OBS_JUMBO_NIBBLE, nibble == 3))
			hv_emit(r, HV_R_OVNI_OBS_JUMBO_NIBBLE, f, off, 1, EVPATH,
				"jumbo event with payload-size nibble %u; want 3 (byte 0 = 0x13)", nibble);
		if (!hv_eval(r, HV_R_OVNI_OBS_JUMBO_TOO_LARGE, payload <= OVNI_JUMBO_MAX))
			hv_emit(r, HV_R_OVNI_OBS_JUMBO_TOO_LARGE, f, off + EV_HDR, 4, EVPATH,
				"jumbo data of %" PRIu64 " bytes; libovni writes at most %u", payload, OVNI_JUMBO_MAX);
	}
	check_mcv(w, off, p, jumbo, payload);
	bool closes = p[1] == 'O' && p[2] == 'U' && p[3] == ']';
	if (w->cut.idx == 0) w->cut.first_closes = closes;
	check_clock(w, off, hv_le64(p + 4), (w->cut.in_region || w->cut.region_unknown) && !closes);
	check_sort_marker(w, off, p);
	if (p[1] == 'O' && p[2] == 'M' && (p[3] == '[' || p[3] == ']' || p[3] == '=') && !jumbo && payload == 12)
		check_mark_event(w, win, off); /* last: it moves the window under p */
	return evlen;
#undef EVPATH
}

/* The fast path: an event that passes every per-event rule -- no reserved
 * flag, a known MCV whose payload ovniemu 1.14 takes (a well-formed
 * jumbo event included), a sort marker that opens or closes as expected, a
 * mark event with a non-zero value -- is checked here with a table lookup
 * on its first four bytes, and its rule evaluations are counted in bulk
 * (fast_counts). Any other event, or one that does not lie whole in the
 * buffer, goes through check_event, which reports exactly as before. */
enum { FAST_NO = 0, FAST_PLAIN, FAST_JUMBO, FAST_SORT_OPEN, FAST_SORT_CLOSE, FAST_MARK };

/* One slot of a direct-mapped table of the event keys (bytes 0..3: flags
 * and MCV) met in this stream. A stream uses a few dozen keys, so after the
 * first events every lookup hits: in effect a perfect hash of the keys the
 * stream uses, built as they appear. A zeroed slot holds key 0, which is
 * correctly FAST_NO (its MCV is not printable). */
typedef struct ovni_obs_fast_entry {
	uint32_t key;
	uint8_t plain; /* 1 for FAST_PLAIN, else 0: one test per plain event */
	uint8_t kind;  /* FAST_* */
} fast_entry;

#define FAST_SLOTS 1024u
#define FAST_TAIL 28u /* the longest normal event (12 + 16): a normal event needs no length check */

/* A key has two slots (two hashes), so two keys of a stream that share one
 * (a direct-mapped table made them evict each other at every switch) each
 * keep their entry. */
static inline unsigned fast_slot(uint32_t key) { return (key * 2654435761u) >> 22; }
static inline unsigned fast_slot2(uint32_t key) { return ((key ^ (key >> 13)) * 0x85ebca6bu) >> 22; }

typedef ovni_obs_counts fast_counts;

/* Classify the event at p (stream offset off) into its slot. The event's
 * model is noted here, not per event: the first event of a model in the
 * stream is the first of its key, so it always misses the table; when the
 * fast path then hands the event to check_event, that notes the same model
 * at the same offset. */
__attribute__((noinline)) static const fast_entry *fast_fill(walk *w, fast_entry *fe, const uint8_t *p, uint64_t off)
{
	/* the first of the key's slots that holds no key (key 0), else the first */
	uint32_t key = hv_le32(p);
	fast_entry *e = &fe[fast_slot(key)];
	if (e->key != 0 && fe[fast_slot2(key)].key == 0) e = &fe[fast_slot2(key)];
	uint8_t kind = FAST_NO;
	bool jumbo = p[0] & FLAG_JUMBO;
	unsigned nibble = p[0] & 0x0fu;
	bool printable = is_graph(p[1]) && is_graph(p[2]) && is_graph(p[3]);
	bool sort = p[1] == 'O' && p[2] == 'U' && (p[3] == '[' || p[3] == ']');
	bool mark = p[1] == 'O' && p[2] == 'M' && (p[3] == '[' || p[3] == ']' || p[3] == '=');
	uint64_t payload = nibble ? nibble + 1u : 0u;
	if (!(p[0] & FLAGS_RESERVED) && printable && (!jumbo || nibble == 3)) {
		int m = ovni_model_by_letter(p[1]);
		const ovni_evspec *sp = m >= 0 ? lookup(w, p + 1) : NULL;
		if (!sp) {
			kind = FAST_NO;
		} else if (jumbo) {
			/* taken whatever its data size: a jumbo signature, or a
			 * handler that reads no payload */
			if ((sp->emu == OVNI_EMU_JUMBO || sp->emu == OVNI_EMU_ANY) && !sort) kind = FAST_JUMBO;
		} else if (ovni_payload_judge(sp, false, payload) == OVNI_PAYLOAD_OK) {
			kind = sort ? (p[3] == '[' ? FAST_SORT_OPEN : FAST_SORT_CLOSE) : mark && payload == 12 ? FAST_MARK
											   : FAST_PLAIN;
		}
		if (kind != FAST_NO) note_model(w->sum, m, off);
	}
	e->key = hv_le32(p);
	e->kind = kind;
	e->plain = kind == FAST_PLAIN;
	return e;
}

/* Walk the events lying whole in buf (stream offsets [*off, end)); stops at
 * the first event that needs check_event, or FAST_TAIL bytes before end.
 * This is the loop that runs once per event: the walk state lives in
 * locals, and a plain event costs a table lookup and one signed clock
 * comparison. That comparison covers both clock rules while the previous
 * clock is below 2^63 (a clock >= 2^63 is negative, so below it): the
 * stream's first event and the events after a clock >= 2^63 are left to
 * check_event. The rarer kinds branch on their kind: handling them with
 * masks instead avoids the mispredictions on the generated streams (which
 * mix them at random) but costs every plain event more instructions, and
 * measured slower on real streams, which are nearly all plain. */
static void fast_walk(walk *w, fast_entry *fe, fast_counts *fc, const uint8_t *buf, uint64_t buf_off, uint64_t *off,
		      uint64_t end, uint64_t stop)
{
	if (end - *off < FAST_TAIL || w->cut.idx == 0 || (w->cut.prev_clock >> 63)) return;
	const uint8_t *p = buf + (*off - buf_off), *bend = buf + (end - buf_off), *lim = bend - FAST_TAIL;
	/* events start before `stop` (a chunk's end; *off < stop) */
	if (stop - buf_off <= (uint64_t)(lim - buf)) lim = buf + (stop - buf_off) - 1;
	uint64_t idx = w->cut.idx, idx0 = idx;
	int64_t prev = (int64_t)w->cut.prev_clock;
	bool in_region = w->cut.in_region, unknown = w->cut.region_unknown;
	while (p <= lim) {
		uint32_t key = hv_le32(p);
		const fast_entry *e = &fe[fast_slot(key)];
		if (__builtin_expect(e->key != key, 0)) {
			e = &fe[fast_slot2(key)];
			if (e->key != key) e = fast_fill(w, fe, p, buf_off + (uint64_t)(p - buf));
		}
		/* The length from byte 0, not from the slot: the next event's
		 * address then waits for one load, not for the key's hash and
		 * the slot (the loop's critical path). */
		unsigned nibble = key & 0x0fu;
		uint64_t len = EV_HDR + nibble + (nibble != 0);
		unsigned kind = FAST_PLAIN;
		if (e->plain == 0) {
			kind = e->kind;
			if (kind == FAST_JUMBO) {
				uint64_t data = hv_le32(p + EV_HDR);
				if (data > OVNI_JUMBO_MAX || JUMBO_HDR + data > (uint64_t)(bend - p)) break;
				len = JUMBO_HDR + data;
			} else if (kind == FAST_MARK) {
				if (hv_le64(p + 12) == 0) break; /* value 0: reported by check_event */
			} else if (kind == FAST_SORT_OPEN || kind == FAST_SORT_CLOSE) {
				if (unknown || in_region == (kind == FAST_SORT_OPEN)) break;
			} else {
				break;
			}
		}
		int64_t clock = (int64_t)hv_le64(p + 4);
		if (__builtin_expect(clock < prev, 0)) {
			w->cut.idx = idx;
			w->cut.prev_clock = (uint64_t)prev;
			w->cut.in_region = in_region;
			clock_step(w, buf_off + (uint64_t)(p - buf), (uint64_t)clock,
				   (in_region || unknown) && kind != FAST_SORT_CLOSE);
			if (clock < 0) lim = p; /* finish this event, then stop */
		}
		prev = clock;
		if (kind != FAST_PLAIN) {
			uint64_t o = buf_off + (uint64_t)(p - buf);
			if (kind == FAST_JUMBO) {
				fc->jumbo++;
			} else if (kind == FAST_MARK) {
				note_mark_type(w->sum, (int32_t)hv_le32(p + 20), o);
				fc->mark++;
			} else {
				in_region = kind == FAST_SORT_OPEN;
				if (in_region) w->cut.region_open_off = o;
				fc->sort++;
			}
		}
		p += len;
		idx++;
	}
	*off = buf_off + (uint64_t)(p - buf);
	w->cut.idx = idx;
	w->cut.prev_clock = (uint64_t)prev;
	w->cut.in_region = in_region;
	fc->events += idx - idx0;
}

static void fast_account(hv_report *r, const fast_counts *fc)
{
	static const int every[] = {HV_R_OVNI_OBS_EVENT_TRUNCATED, HV_R_OVNI_OBS_RESERVED_FLAGS,
				    HV_R_OVNI_OBS_MCV_PRINTABLE,  HV_R_OVNI_OBS_MODEL_UNKNOWN,
				    HV_R_OVNI_OBS_MCV_MINOR_NEWER, HV_R_OVNI_OBS_PAYLOAD_SIGNATURE, HV_R_OVNI_OBS_PAYLOAD_SIZE,
				    HV_R_OVNI_OBS_CLOCK_SIGNED,   HV_R_OVNI_OBS_CLOCK_MONOTONIC};
	for (size_t k = 0; k < sizeof every / sizeof every[0]; k++) r->evaluated[every[k]] += fc->events;
	r->evaluated[HV_R_OVNI_OBS_JUMBO_NIBBLE] += fc->jumbo;
	r->evaluated[HV_R_OVNI_OBS_JUMBO_TOO_LARGE] += fc->jumbo;
	r->evaluated[HV_R_OVNI_OBS_SORT_REGION] += fc->sort;
	r->evaluated[HV_R_OVNI_OBS_MARK_VALUE] += fc->mark;
}

bool ovni_obs_fast_path = true;

/* A walk at off over win (NULL: its own window of wincap bytes). */
static ovni_obs_walker *walker_new(hv_blob *b, hv_report *r, ovni_obs_summary *sum, hv_window *win, size_t wincap,
				   uint64_t off)
{
	ovni_obs_walker *ow = hv_calloc(1, sizeof *ow);
	if (!ow || (!win && !hv_window_init(&ow->own, b, wincap))) {
		free(ow);
		hv_report_internal(r, "out of memory for a stream window");
		return NULL;
	}
	ow->own_win = !win;
	ow->win = win ? win : &ow->own;
	ow->w.b = b;
	ow->w.r = r;
	ow->w.sum = sum;
	ow->fe = ovni_obs_fast_path ? hv_calloc(FAST_SLOTS, sizeof *ow->fe) : NULL;
	ow->off = off;
	ow->stop = b->size;
	return ow;
}

ovni_obs_walker *ovni_obs_start(hv_blob *b, hv_report *r, bool headerless_ok, ovni_obs_summary *sum, hv_window *win)
{
	memset(sum, 0, sizeof *sum);
	uint64_t off = check_header(b, r, headerless_ok);
	if (off == UINT64_MAX) return NULL;
	ovni_obs_walker *ow = walker_new(b, r, sum, win, HV_WINDOW_DEFAULT, off);
	if (ow) sum->walked = true;
	return ow;
}

ovni_obs_walker *ovni_obs_start_at(hv_blob *b, hv_report *r, ovni_obs_summary *sum, uint64_t start, size_t wincap)
{
	memset(sum, 0, sizeof *sum);
	ovni_obs_walker *ow = walker_new(b, r, sum, NULL, wincap, start);
	if (ow) ow->w.cut.region_unknown = true;
	return ow;
}

bool ovni_obs_finished(const ovni_obs_walker *ow)
{
	return ow->stopped || ow->off >= ow->w.b->size || ow->w.b->io_failed;
}

/* Check events from the frontier on. `refill`: move the window as needed
 * (the walk owns it); else only the events whose header bytes (at most 28:
 * a normal event whole, the header of a jumbo one) lie in what the window
 * holds now, so a window shared with the model is never moved under it. */
static void step(ovni_obs_walker *ow, bool refill)
{
	walk *w = &ow->w;
	hv_blob *b = w->b;
	hv_window *win = ow->win;
	uint64_t off = ow->off;
	while (off < ow->stop && !b->io_failed) {
		uint64_t wend = b->mem ? b->size : win->start + win->len;
		if (!refill && (b->mem == NULL && (off < win->start || (off + FAST_TAIL > wend && wend < b->size))))
			break; /* the next event's header is not wholly in the window */
		if (ow->fe) {
			uint64_t left = b->size - off;
			size_t want = b->mem ? (left > SIZE_MAX ? SIZE_MAX : (size_t)left)
					     : (left < win->cap ? (size_t)left : win->cap);
			/* What the window already holds from off, unless that is a tail
			 * too short to be worth it: refill once per window, not per
			 * slow event. */
			if (!b->mem && off >= win->start && off - win->start < win->len &&
			    (!refill || win->start + win->len - off >= 4096))
				want = (size_t)(win->start + win->len - off);
			const uint8_t *buf = obs_window_get(win, off, want);
			if (buf) {
				fast_walk(w, ow->fe, &ow->fc, buf, off, &off, off + want, ow->stop);
				if (off >= ow->stop) break;
				wend = b->mem ? b->size : win->start + win->len;
				if (!refill && !b->mem && off + FAST_TAIL > wend && wend < b->size) break;
			}
		}
		uint64_t len = check_event(w, win, off);
		if (len == 0) {
			ow->stopped = true;
			break;
		}
		off += len; /* len <= size - off, so no overflow */
		w->cut.idx++;
	}
	ow->off = off;
}

uint64_t ovni_obs_step(ovni_obs_walker *ow)
{
	if (!ovni_obs_finished(ow)) step(ow, false);
	return ow->stopped ? ow->off : ow->off < ow->w.b->size ? ow->off : ow->w.b->size;
}

void ovni_obs_free(ovni_obs_walker *ow)
{
	if (!ow) return;
	free(ow->fe);
	fast_account(ow->w.r, &ow->fc);
	if (ow->own_win) hv_window_free(&ow->own);
	free(ow);
}

void ovni_obs_end(ovni_obs_walker *ow)
{
	if (!ow) return;
	walk *w = &ow->w;
	hv_blob *b = w->b;
	hv_report *r = w->r;
	if (!ovni_obs_finished(ow)) step(ow, true);
	w->sum->nevents = w->cut.idx;
	hv_eval(r, HV_R_OVNI_OBS_DAMAGED_REGION, true); /* once per stream: each region fails it once more */
	report_clocks(w);
	if (!hv_eval(r, HV_R_OVNI_OBS_SORT_REGION, !w->cut.in_region))
		hv_emit(r, HV_R_OVNI_OBS_SORT_REGION, b->name, w->cut.region_open_off + 1, 3, "stream.obs",
			"the OU[ sort region opened at offset 0x%" PRIx64 " is never closed by OU]", w->cut.region_open_off);
	if (!hv_eval(r, HV_R_OVNI_OBS_NO_EVENTS, w->cut.idx > 0 || ow->off < b->size))
		hv_emit(r, HV_R_OVNI_OBS_NO_EVENTS, b->name, 0, b->size, "stream.obs",
			"the stream holds only its header and no event (the thread never flushed its buffer)");
	ovni_obs_free(ow);
}

void ovni_obs_walk_to(ovni_obs_walker *ow, uint64_t stop)
{
	ow->stop = stop < ow->w.b->size ? stop : ow->w.b->size;
	if (!ovni_obs_finished(ow)) step(ow, true);
	ow->stop = ow->w.b->size;
}

void ovni_check_obs(hv_blob *b, hv_report *r, bool headerless_ok, ovni_obs_summary *out)
{
	ovni_obs_summary local;
	ovni_obs_end(ovni_obs_start(b, r, headerless_ok, out ? out : &local, NULL));
}

