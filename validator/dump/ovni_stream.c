/* ovni stream.obs dump: the header, then every event with its MCV, clock,
 * the model it belongs to (by the model letter, from the 1.14 model list),
 * its category and value characters, whether the 1.14 event table knows it
 * and with which payload size, its payload bytes and, for the events whose
 * signature has arguments, the payload's fields by name. Event sizes are
 * computed in 64 bits as the validator does (obs.c), so a hostile jumbo
 * size cannot make the walk loop or overrun. */
#include <string.h>

#include "core/hv_int.h"
#include "ovni/ovni.h"
#include "dumpers.h"

#define OBS_HDR 8u
#define EV_HDR 12u
#define JUMBO_HDR 16u
#define FLAG_JUMBO 0x10u
#define PAYLOAD_SHOWN 1024u /* jumbo payloads beyond this show their length only */

static bool is_graph(uint8_t c) { return c >= 0x21 && c <= 0x7e; }

static void char_or_code(hv_dump_out *w, const char *key, uint8_t c)
{
	char s[8];
	if (is_graph(c)) snprintf(s, sizeof s, "%c", c);
	else snprintf(s, sizeof s, "\\x%02x", c);
	dw_str(w, key, s);
}

/* The payload's fields by the 1.14 signature's names ("args": {"taskid":
 * 12, ...}), little-endian as the stream is written; a payload shorter
 * than the signature says so ("args_incomplete") instead of guessing. */
static void args(hv_dump_ctx *d, const char *sig, uint64_t at, uint64_t len)
{
	hv_dump_out *w = d->w;
	ovni_arg a;
	uint64_t pos = 0;
	bool complete = true;
	dw_obj_begin(w, "args");
	while (ovni_arg_next(&sig, &a)) {
		if (a.size == 0) {
			uint64_t left = len - pos;
			size_t look = left > HV_DUMP_STR_MAX ? HV_DUMP_STR_MAX : (size_t)left;
			const uint8_t *s = look ? hv_window_get(&d->win, at + pos, look) : NULL;
			const uint8_t *nul = s ? memchr(s, 0, look) : NULL;
			if (!nul) {
				complete = false;
				break;
			}
			dw_strn(w, a.name, s, (size_t)(nul - s));
			pos += (uint64_t)(nul - s) + 1;
			continue;
		}
		uint64_t v;
		if (len - pos < a.size || !hv_dump_le(d, at + pos, a.size, &v)) {
			complete = false;
			break;
		}
		if (a.is_signed) dw_i64(w, a.name, a.size == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v);
		else dw_u64(w, a.name, v);
		pos += a.size;
	}
	dw_obj_end(w);
	if (!complete) dw_bool(w, "args_incomplete", true);
}

void hv_dump_ovni_stream(hv_dump_ctx *d)
{
	hv_dump_out *w = d->w;
	uint64_t size = d->b->size, v;
	const uint8_t *h = hv_window_get(&d->win, 0, OBS_HDR);
	if (!h || memcmp(h, "ovni", 4) != 0) {
		hv_dump_stop(d, 0, "no 8-byte header with the magic \"ovni\": the events cannot be found");
		return;
	}
	dw_item_begin(w, "stream-header", "stream.obs/header", 0, OBS_HDR);
	dw_str(w, "magic", "ovni");
	dw_u64(w, "version", hv_le32(h + 4));
	dw_item_end(w);
	uint64_t off = OBS_HDR;
	for (uint64_t i = 0; off < size && !dw_full(w); i++) {
		uint64_t left = size - off;
		const uint8_t *p = hv_window_get(&d->win, off, left < JUMBO_HDR ? EV_HDR : JUMBO_HDR);
		if (left < EV_HDR || !p) {
			hv_dump_stop(d, off, "the stream ends inside an event header (ovni.obs.event-truncated)");
			return;
		}
		bool jumbo = p[0] & FLAG_JUMBO;
		uint64_t payload, hdr = jumbo ? JUMBO_HDR : EV_HDR;
		if (jumbo && left < JUMBO_HDR) {
			hv_dump_stop(d, off, "the stream ends inside a jumbo event header (ovni.obs.event-truncated)");
			return;
		}
		payload = jumbo ? hv_le32(p + EV_HDR) : (p[0] & 0x0fu) ? (p[0] & 0x0fu) + 1u : 0u;
		uint64_t evlen = hdr + payload;
		if (evlen > left) {
			hv_dump_stop(d, off, "the stream ends inside an event's payload (ovni.obs.event-truncated)");
			return;
		}
		if (d->o->sel.have_range && i > d->o->sel.last) return;
		if (hv_dump_in_range(d, i)) {
			uint8_t mcv[3] = {p[1], p[2], p[3]};
			uint64_t clock = hv_le64(p + 4);
			snprintf(d->path, sizeof d->path, "stream.obs/event[%llu]", (unsigned long long)i);
			dw_item_begin(w, "event", d->path, off, evlen);
			dw_u64(w, "index", i);
			char m[16];
			if (is_graph(mcv[0]) && is_graph(mcv[1]) && is_graph(mcv[2])) snprintf(m, sizeof m, "%c%c%c", mcv[0], mcv[1], mcv[2]);
			else snprintf(m, sizeof m, "???");
			dw_str(w, "mcv", m);
			dw_u64(w, "flags", p[0]);
			dw_u64(w, "clock", clock);
			int model = ovni_model_by_letter(mcv[0]);
			if (model >= 0) dw_str(w, "model", ovni_models[model].name);
			else dw_null(w, "model");
			char_or_code(w, "category", mcv[1]);
			char_or_code(w, "value", mcv[2]);
			const ovni_evspec *spec = ovni_event_find(mcv);
			dw_bool(w, "known", spec != NULL);
			if (spec && spec->payload == OVNI_EV_JUMBO_SIG) dw_str(w, "signature_payload", "jumbo");
			else if (spec) dw_u64(w, "signature_payload", (uint64_t)spec->payload);
			if (jumbo) dw_u64(w, "jumbo", payload);
			dw_arr_begin(w, "payload");
			uint64_t shown = payload < PAYLOAD_SHOWN ? payload : PAYLOAD_SHOWN;
			const uint8_t *q = shown ? hv_window_get(&d->win, off + hdr, (size_t)shown) : NULL;
			for (uint64_t k = 0; q && k < shown; k++) dw_u64(w, NULL, q[k]);
			dw_arr_end(w);
			if (spec && spec->args) args(d, spec->args, off + hdr, payload);
			dw_item_end(w);
		}
		off += evlen;
		(void)v;
	}
}
