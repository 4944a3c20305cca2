/* ovni writers for one binary stream (stream.obs / thread.TID[.obs]) and one
 * metadata document, written from ../shared/specs/ovni-trace-spec-v3.md. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "gen_ovni.h"
#include "ovni/ovni_events.h"

bool govni_is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }
bool govni_prefix(const char *rule, const char *prefix) { return rule && strncmp(rule, prefix, strlen(prefix)) == 0; }

/* Append one event; `payload` bytes of payload (normal, 0 or 2..16) or
 * `jumbo` data. Returns the event's offset. */
static size_t put_event(gen_buf *b, const char *mcv, uint64_t clock, const uint8_t *payload, size_t plen, bool jumbo)
{
	uint8_t h[16];
	size_t hl = 12;
	if (jumbo) {
		h[0] = 0x13;
		hv_put_le32(h + 12, (uint32_t)plen);
		hl = 16;
	} else {
		h[0] = (uint8_t)(plen ? plen - 1 : 0);
	}
	memcpy(h + 1, mcv, 3);
	hv_put_le64(h + 4, clock);
	size_t off = gen_buf_append(b, h, hl);
	if (plen) gen_buf_append(b, payload, plen);
	return off;
}

/* An event with the payload its signature in the 1.14 table declares. */
static size_t put_known(gen_buf *b, const char *mcv, uint64_t clock, gen_rng *rng)
{
	const ovni_evspec *s = ovni_event_find((const uint8_t *)mcv);
	uint8_t pl[16];
	for (size_t i = 0; i < sizeof pl; i++) pl[i] = (uint8_t)gen_rand(rng);
	if (s && s->payload == OVNI_EV_JUMBO_SIG) {
		uint8_t j[24];
		hv_put_le32(j, 7);
		memcpy(j + 4, "tasktype", 9);
		return put_event(b, mcv, clock, j, 13, true);
	}
	return put_event(b, mcv, clock, pl, s ? (size_t)s->payload : 0, false);
}

static void put_mark(gen_buf *b, const char *mcv, uint64_t clock, int64_t value, int32_t type)
{
	uint8_t pl[12];
	hv_put_le64(pl, (uint64_t)value);
	hv_put_le32(pl + 8, (uint32_t)type);
	put_event(b, mcv, clock, pl, 12, false);
}

static const char *const plain_o[] = {"OB.", "OHp", "OHr", "OAs", "OAr"};
static const char *const plain_v[] = {"VTc", "VTx", "VTe", "VSr", "VSs", "VYc", "VSh"};

void govni_write_obs(const govni_stream *s, gen_buf *b)
{
	const char *brk = s->brk;
	if (govni_is(brk, "ovni.obs.empty")) return;
	if (s->header || brk) {
		uint8_t h[8];
		memcpy(h, govni_is(brk, "ovni.obs.magic") ? "ovnj" : "ovni", 4);
		hv_put_le32(h + 4, govni_is(brk, "ovni.obs.version") ? 2 : 1);
		gen_buf_append(b, h, govni_is(brk, "ovni.obs.header-truncated") ? 5 : 8);
	}
	if (govni_prefix(brk, "ovni.obs.") && (govni_is(brk, "ovni.obs.header-truncated") ||
					       govni_is(brk, "ovni.obs.no-events") || govni_is(brk, "ovni.obs.magic") ||
					       govni_is(brk, "ovni.obs.version")))
		return;
	gen_rng rng = {s->seed * 7919 + 11};
	uint64_t clock = s->clock0;
	size_t last_off = 0;
	put_known(b, "OHx", clock, &rng);
	unsigned n = s->nevents < 4 ? 4 : s->nevents;
	for (unsigned i = 1; i + 1 < n; i++) {
		clock += gen_below(&rng, 1000); /* equal clocks are legal */
		unsigned pick = (unsigned)gen_below(&rng, 10);
		if (pick == 0) { /* a flush: OF[ OF] around a write */
			put_known(b, "OF[", clock, &rng);
			clock += 5;
			put_known(b, "OF]", clock, &rng);
		} else if (pick == 1) { /* a sort region with its own sorted events */
			put_known(b, "OU[", clock, &rng);
			put_known(b, "OB.", clock, &rng);
			clock += 3;
			put_known(b, "OU]", clock, &rng);
		} else if (pick == 2 && s->mark_type >= 0) { /* a mark region */
			put_mark(b, "OM[", clock, 1, s->mark_type);
			put_mark(b, "OM=", clock, 2, s->mark_type);
			clock += 1;
			put_mark(b, "OM]", clock, 1, s->mark_type);
		} else if (pick < 5 || !s->nosv_events) {
			put_known(b, plain_o[gen_below(&rng, 5)], clock, &rng);
		} else {
			put_known(b, plain_v[gen_below(&rng, 7)], clock, &rng);
		}
	}
	if (s->newer_event) put_event(b, "OX!", clock, NULL, 0, false);
	if (s->undeclared_mark >= 0) put_mark(b, "OM=", clock, 5, s->undeclared_mark);
	if (govni_is(brk, "ovni.obs.mark-value")) put_mark(b, "OM=", clock, 0, 3);
	/* The single-rule breaks, placed after the valid events. */
	if (govni_is(brk, "ovni.obs.reserved-flags")) put_event(b, "OB.", clock, NULL, 0, false), b->data[b->len - 12] |= 0x80;
	if (govni_is(brk, "ovni.obs.jumbo-nibble")) {
		uint8_t d[4] = {1, 2, 3, 4};
		size_t o = put_event(b, "OB.", clock, d, 4, true);
		b->data[o] = 0x10; /* jumbo flag, nibble 0: readers accept it, the spec says 3 */
		/* keep the signature check quiet: OB. ignores payloads anyway, so use a jumbo MCV */
		memcpy(b->data + o + 1, "VYc", 3);
	}
	if (govni_is(brk, "ovni.obs.jumbo-too-large")) {
		size_t big = 2097136;
		uint8_t *d = calloc(1, big);
		if (d) {
			put_event(b, "VYc", clock, d, big, true);
			free(d);
		}
	}
	if (govni_is(brk, "ovni.obs.mcv-printable")) put_event(b, "O\x01.", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.model-unknown")) put_event(b, "Zab", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.mcv-minor-newer")) put_event(b, "OX!", clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.payload-signature")) {
		uint8_t d[8] = {0};
		put_event(b, "OHx", clock, d, 8, false); /* OHx wants 16 bytes */
	}
	if (govni_is(brk, "ovni.obs.clock-monotonic")) put_event(b, "OB.", clock > 100 ? clock - 100 : 0, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.sort-region")) put_event(b, "OU]", clock, NULL, 0, false);
	uint64_t end_clock = govni_is(brk, "ovni.obs.clock-signed") ? (1ull << 63) + clock : clock + 10;
	if (govni_is(brk, "ovni.obs.clock-monotonic")) end_clock = clock + 10;
	last_off = put_event(b, "OHe", end_clock, NULL, 0, false);
	if (govni_is(brk, "ovni.obs.event-truncated")) b->len -= 3;
	(void)last_off;
}

/* ---- JSON ---- */

static void jprintf(gen_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jprintf(gen_buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0) gen_buf_append(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_cpus(gen_buf *b, const char *indent, unsigned n, int shift, bool clash, bool empty)
{
	jprintf(b, "[");
	for (unsigned i = 0; !empty && i < n; i++) {
		long long idx = (long long)i + shift;
		if (clash && i == 0) idx = 1;
		jprintf(b, "%s\n%s    {\n%s        \"index\": %lld,\n%s        \"phyid\": %u\n%s    }", i ? "," : "", indent,
			indent, idx, indent, i, indent);
	}
	jprintf(b, "\n%s]", indent);
}

void govni_write_meta(const govni_meta *m, gen_buf *b)
{
	const char *r = m->brk;
	bool v3 = m->version == 3;
	if (govni_is(r, "ovni.json.root-object")) {
		jprintf(b, "[\n    3\n]\n");
		return;
	}
	if (govni_is(r, "ovni.json.comment")) jprintf(b, "// written by hpcvet-gen\n");
	jprintf(b, "{\n    \"version\": %d,\n    \"ovni\": {\n", govni_is(r, "ovni.json.version") ? 2 : m->version);
	jprintf(b, "        \"lib\": {\n            \"version\": \"1.14.0\"%s\n        },\n",
		govni_is(r, "ovni.json.lib") ? "" : ",\n            \"commit\": \"cf025e2\"");
	if (v3 && !govni_is(r, "ovni.json.part"))
		jprintf(b, "        \"part\": \"%s\",\n", govni_is(r, "ovni.json.part-unknown") ? "process" : "thread");
	if (v3) {
		jprintf(b, "        \"tid\": %lld,\n", govni_is(r, "ovni.json.tid") ? -5 : m->tid);
		if (govni_is(r, "ovni.json.duplicate-key")) jprintf(b, "        \"tid\": %lld,\n", m->tid);
		jprintf(b, "        \"pid\": %lld,\n", govni_is(r, "ovni.json.pid") ? 0 : m->pid);
		jprintf(b, "        \"loom\": \"%s\",\n", govni_is(r, "ovni.json.loom") ? "vm/0" : m->loom);
		if (m->with_app_id) {
			if (govni_is(r, "ovni.json.non-integer")) jprintf(b, "        \"app_id\": %lld.5,\n", m->app_id);
			else jprintf(b, "        \"app_id\": %lld,\n", govni_is(r, "ovni.json.app-id") ? 0 : m->app_id);
		}
		if (m->with_rank)
			jprintf(b, "        \"rank\": %lld,\n        \"nranks\": %lld,\n",
				govni_is(r, "ovni.json.rank") ? m->nranks + 3 : m->rank, m->nranks);
		if (m->with_cpus) {
			jprintf(b, "        \"loom_cpus\": ");
			put_cpus(b, "        ", m->ncpus, m->cpu_index_shift, m->cpu_phyid_clash, govni_is(r, "ovni.json.loom-cpus"));
			jprintf(b, ",\n");
		}
	}
	if (m->mark_decl) {
		const char *title = m->mark_other_title ? "Other phase" : "Phase";
		const char *ct = govni_is(r, "ovni.json.mark") ? "queue" : "stack";
		jprintf(b, "        \"mark\": {\n            \"3\": {\n                \"title\": \"%s\",\n"
			   "                \"chan_type\": \"%s\",\n                \"labels\": {\n", title, ct);
		if (m->mark_decl == 1) jprintf(b, "                    \"1\": \"init\",\n");
		jprintf(b, "                    \"2\": \"compute\"\n                }\n            }\n        },\n");
	}
	if (!govni_is(r, "ovni.json.require-missing")) {
		const char *ov = govni_is(r, "ovni.json.require-syntax") ? "1.1" : govni_is(r, "ovni.json.require-major") ? "2.0.0" : "1.1.0";
		jprintf(b, "        \"require\": {\n            \"ovni\": \"%s\"", ov);
		unsigned nm = govni_is(r, "ovni.json.require-minor-newer") ? 8 : m->nosv_minor;
		if (m->require_nosv) jprintf(b, ",\n            \"nosv\": \"2.%u.0\"", nm);
		if (govni_is(r, "ovni.json.require-unknown-model")) jprintf(b, ",\n            \"fpga\": \"1.0.0\"");
		jprintf(b, "\n        },\n");
	}
	jprintf(b, "        \"finished\": %d\n    }\n}\n", govni_is(r, "ovni.json.finished") ? 0 : 1);
	if (govni_is(r, "ovni.json.syntax")) b->len -= 2; /* drop the closing brace */
	if (govni_is(r, "ovni.json.trailing-garbage")) jprintf(b, "}\n");
}

void govni_write_proc(int version, long long app_id, long long rank, long long nranks, unsigned ncpus, const char *brk,
		      gen_buf *b)
{
	jprintf(b, "{\n    \"version\": %d,\n", version);
	/* The break writes the value of the documentation's example, which v1 readers refused. */
	if (version == 1)
		jprintf(b, "    \"model_version\": \"O1 V1 T1 M1 D1 K1%s\",\n",
			govni_is(brk, "ovni.json.model-version") ? "" : " 61");
	if (app_id > 0) jprintf(b, "    \"app_id\": %lld,\n", app_id);
	if (rank >= 0) jprintf(b, "    \"rank\": %lld,\n    \"nranks\": %lld,\n", rank, nranks);
	if (ncpus) {
		jprintf(b, "    \"cpus\": ");
		put_cpus(b, "    ", ncpus, 0, false, false);
		jprintf(b, ",\n");
	}
	/* no trailing comma before the closing brace */
	if (b->len >= 2 && b->data[b->len - 2] == ',') {
		b->data[b->len - 2] = '\n';
		b->len--;
	}
	jprintf(b, "}\n");
}
