/* The hand-written ovni 1.14 event table: complete (365 events, as
 * ovni-events-1.14.md lists), sorted and unique (the lookup is a binary
 * search), every MCV printable with a known model letter, and every
 * payload a size the signatures can produce. */
#include <string.h>

#include "ovni/ovni_events.h"
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
	const char *cur = ovni_event_find((const uint8_t *)"OHx")->args;
	ovni_arg a1, a2, a3;
	CHECK(ovni_arg_next(&cur, &a1) && ovni_arg_next(&cur, &a2) && ovni_arg_next(&cur, &a3) && !ovni_arg_next(&cur, &a1) &&
		      strcmp(a2.name, "tid") == 0 && a2.size == 4 && a2.is_signed && strcmp(a3.name, "tag") == 0 &&
		      a3.size == 8 && !a3.is_signed,
	      "OHx's arguments: cpu (i32), tid (i32), tag (u64)");
	TAP_DONE();
}
