/* The hand-written ovni 1.14 event table: complete (365 events, as
 * ovni-events-1.14.md lists), sorted and unique (the lookup is a binary
 * search), every MCV printable with a known model letter, and every
 * payload a size the signatures can produce; and what ovniemu 1.14's
 * handlers do with a payload, by which the payload rules judge it. */
#include <string.h>

#include "ovni/events/events.h"
#include "tap.h"

static int count_model(char letter)
{
	int n = 0;
	for (size_t i = 0; i < ovni_event_count(); i++) n += ovni_event_at(i)->mcv[0] == letter;
	return n;
}

int main(void)
{
	CHECK(ovni_event_count() == 365, "365 events, got %zu", ovni_event_count());
	size_t bad_order = 0, bad_mcv = 0, bad_size = 0, not_found = 0;
	for (size_t i = 0; i < ovni_event_count(); i++) {
		const ovni_evspec *e = ovni_event_at(i);
		if (i && memcmp(ovni_event_at(i - 1)->mcv, e->mcv, 3) >= 0) bad_order++;
		for (int k = 0; k < 3; k++)
			if ((unsigned char)e->mcv[k] < 0x21 || (unsigned char)e->mcv[k] > 0x7e) bad_mcv++;
		if (ovni_model_by_letter((uint8_t)e->mcv[0]) < 0) bad_mcv++;
		if (!(e->payload == OVNI_EV_JUMBO_SIG || e->payload == 0 || e->payload == 4 || e->payload == 8 ||
		      e->payload == 12 || e->payload == 16))
			bad_size++;
		if (ovni_event_find((const uint8_t *)e->mcv) != e) not_found++;
	}
	CHECK(bad_order == 0, "sorted and unique (%zu out of order)", bad_order);
	CHECK(bad_mcv == 0, "printable MCVs of known models (%zu bad)", bad_mcv);
	CHECK(bad_size == 0, "payload sizes 0/4/8/12/16 or jumbo (%zu bad)", bad_size);
	CHECK(not_found == 0, "every entry found by lookup (%zu not)", not_found);
	/* per-model counts from the research sheet (events.md tally) */
	CHECK(count_model('O') == 18 && count_model('6') == 67 && count_model('V') == 72 && count_model('D') == 16,
	      "ovni 18, nanos6 67, nosv 72, nodes 16");
	CHECK(count_model('T') == 24 && count_model('M') == 98 && count_model('K') == 2 && count_model('P') == 68,
	      "tampi 24, mpi 98, kernel 2, openmp 68");
	/* a few signatures by hand */
	const ovni_evspec *e = ovni_event_find((const uint8_t *)"OHx");
	CHECK(e && e->payload == 16, "OHx(i32 cpu, i32 tid, u64 tag) is 16 bytes");
	e = ovni_event_find((const uint8_t *)"VYc");
	CHECK(e && e->payload == OVNI_EV_JUMBO_SIG, "VYc+ is jumbo");
	e = ovni_event_find((const uint8_t *)"OM=");
	CHECK(e && e->payload == 12, "OM=(i64 value, i32 type) is 12 bytes");
	CHECK(ovni_event_find((const uint8_t *)"OUj") == NULL, "OUj (used by upstream tests) is not declared");
	/* argument names (the dump names payload fields by them): a normal
	 * event's arguments fill its payload exactly, a jumbo one has some */
	size_t with_args = 0, bad_args = 0;
	for (size_t i = 0; i < ovni_event_count(); i++) {
		const ovni_evspec *x = ovni_event_at(i);
		const char *cur = x->args;
		ovni_arg a;
		unsigned sum = 0, n = 0;
		while (ovni_arg_next(&cur, &a)) {
			n++;
			sum += a.size;
			if (!a.name[0] || (a.size == 0 && x->payload != OVNI_EV_JUMBO_SIG)) bad_args++;
		}
		with_args += n > 0;
		if (x->payload == OVNI_EV_JUMBO_SIG ? n == 0 : sum != (unsigned)x->payload) bad_args++;
	}
	CHECK(with_args == 28 && bad_args == 0, "28 events with arguments, all fitting their payload (%zu, %zu bad)",
	      with_args, bad_args);
	/* what ovniemu 1.14's handlers do with a payload (the `emu` column):
	 * 26 events' handlers read one, a jumbo handler only for a '+' event,
	 * and no handler reads past the signature */
	size_t reads = 0, bad_emu = 0;
	for (size_t i = 0; i < ovni_event_count(); i++) {
		const ovni_evspec *x = ovni_event_at(i);
		reads += x->emu != OVNI_EMU_ANY;
		if ((x->emu == OVNI_EMU_JUMBO) != (x->payload == OVNI_EV_JUMBO_SIG && x->emu != OVNI_EMU_ANY)) bad_emu++;
		if ((x->emu == OVNI_EMU_MIN || x->emu == OVNI_EMU_EXACT) && (x->emu_size == 0 || x->emu_size > x->payload))
			bad_emu++;
		if (x->emu == OVNI_EMU_ANY && x->emu_size) bad_emu++;
	}
	CHECK(reads == 26 && bad_emu == 0, "26 handlers read a payload, within their signatures (%zu, %zu bad)", reads,
	      bad_emu);
	static const struct {
		const char *mcv;
		bool jumbo;
		unsigned bytes;
		ovni_payload_verdict want;
	} judge[] = {
		{"OCn", false, 8, OVNI_PAYLOAD_OK},       /* nOS-V 4.1: "ignoring old event OCn" */
		{"OCn", false, 4, OVNI_PAYLOAD_OK},       {"OCn", true, 8, OVNI_PAYLOAD_OK},
		{"OHC", false, 0, OVNI_PAYLOAD_OK},       /* read by a debug message only */
		{"VHa", false, 16, OVNI_PAYLOAD_OK},      {"OB.", true, 3, OVNI_PAYLOAD_OK},
		{"OHx", false, 16, OVNI_PAYLOAD_OK},      {"OHx", false, 4, OVNI_PAYLOAD_OK}, /* its cpu only */
		{"OHx", false, 2, OVNI_PAYLOAD_REFUSED},  {"OHx", false, 0, OVNI_PAYLOAD_REFUSED},
		{"OHx", true, 0, OVNI_PAYLOAD_MISREAD},   /* the jumbo size is its cpu */
		{"OAs", false, 4, OVNI_PAYLOAD_OK},       {"OAs", false, 8, OVNI_PAYLOAD_REFUSED},
		{"OAs", true, 0, OVNI_PAYLOAD_MISREAD},   {"OAs", true, 4, OVNI_PAYLOAD_REFUSED},
		{"OAr", false, 8, OVNI_PAYLOAD_OK},       {"OAr", false, 12, OVNI_PAYLOAD_REFUSED},
		{"OAr", true, 4, OVNI_PAYLOAD_MISREAD},   {"OM[", false, 12, OVNI_PAYLOAD_OK},
		{"OM=", false, 16, OVNI_PAYLOAD_REFUSED}, {"VTx", false, 8, OVNI_PAYLOAD_OK},
		{"VTx", false, 12, OVNI_PAYLOAD_OK},      {"VTx", false, 4, OVNI_PAYLOAD_REFUSED}, /* no body id */
		{"VTc", false, 16, OVNI_PAYLOAD_OK},      {"6Tx", false, 8, OVNI_PAYLOAD_OK},
		{"6Tc", false, 12, OVNI_PAYLOAD_REFUSED}, {"PPc", false, 4, OVNI_PAYLOAD_REFUSED},
		{"PQx", false, 2, OVNI_PAYLOAD_REFUSED},  {"VYc", false, 8, OVNI_PAYLOAD_REFUSED}, /* not jumbo */
		{"VYc", true, 2, OVNI_PAYLOAD_OK},        /* short type id: ovni.model.payload */
		{"VWC", true, 16, OVNI_PAYLOAD_OK},       {"POc", false, 0, OVNI_PAYLOAD_REFUSED},
	};
	size_t bad_judge = 0;
	for (size_t i = 0; i < sizeof judge / sizeof *judge; i++) {
		const ovni_evspec *x = ovni_event_find((const uint8_t *)judge[i].mcv);
		if (!x || ovni_payload_judge(x, judge[i].jumbo, judge[i].bytes) != judge[i].want) {
			bad_judge++;
			printf("# %s %s of %u bytes: not judged %d\n", judge[i].mcv, judge[i].jumbo ? "jumbo" : "normal",
			     judge[i].bytes, (int)judge[i].want);
		}
	}
	CHECK(bad_judge == 0, "payloads judged as ovniemu 1.14's handlers judge them (%zu wrong)", bad_judge);
	char need[96];
	ovni_payload_need(ovni_event_find((const uint8_t *)"OHx"), need, sizeof need);
	CHECK(strcmp(need, "at least 4 bytes (i32 cpu)") == 0, "OHx needs its cpu: \"%s\"", need);
	ovni_payload_need(ovni_event_find((const uint8_t *)"OM]"), need, sizeof need);
	CHECK(strcmp(need, "exactly 12 bytes (i64 value, i32 type)") == 0, "OM] needs value and type: \"%s\"", need);
	const char *cur = ovni_event_find((const uint8_t *)"OHx")->args;
	ovni_arg a1, a2, a3;
	CHECK(ovni_arg_next(&cur, &a1) && ovni_arg_next(&cur, &a2) && ovni_arg_next(&cur, &a3) && !ovni_arg_next(&cur, &a1) &&
		      strcmp(a2.name, "tid") == 0 && a2.size == 4 && a2.is_signed && strcmp(a3.name, "tag") == 0 &&
		      a3.size == 8 && !a3.is_signed,
	      "OHx's arguments: cpu (i32), tid (i32), tag (u64)");
	TAP_DONE();
}
