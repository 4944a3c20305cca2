/* The ovni 1.14 event table and model list (ovni-events-1.14.md,
 * ovni-model-versions-1.14.md). */
#ifndef HV_OVNI_EVENTS_H
#define HV_OVNI_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `payload` value of events whose arguments are jumbo data ('+' signature). */
#define OVNI_EV_JUMBO_SIG (-1)

/* What ovniemu 1.14 does with an event's payload: what its model's handler
 * (src/emu/<model>/event.c, ovni/mark.c, nosv/hwc.c) checks and reads. The
 * payload rules judge each event by this, no more strictly. A handler sees
 * a jumbo event as 4 + data bytes of payload (the u32 jumbo size first). */
enum ovni_emu_payload {
	OVNI_EMU_ANY,   /* never read: any size, normal or jumbo, is taken (most events;
			   OCn, "ignoring old event OCn"; OHC, read by a debug message only) */
	OVNI_EMU_MIN,   /* fewer than `emu_size` bytes refused; the first `emu_size` read */
	OVNI_EMU_EXACT, /* any size but `emu_size` refused */
	OVNI_EMU_JUMBO, /* a normal event refused ("expecting a jumbo event"); the first
			   `emu_size` bytes of the jumbo data read, whatever their number */
};

/* `args`: the signature's arguments, "TYPE NAME" joined by ", " (TYPE one
 * of u32 i32 u64 i64 str, packed in this order in the payload, or in the
 * jumbo data for '+' events), NULL for events without arguments. `emu`,
 * `emu_size`: what ovniemu 1.14 does with the payload (enum ovni_emu_payload). */
typedef struct ovni_evspec {
	char mcv[4];
	int16_t payload;
	const char *args;
	uint8_t emu, emu_size;
} ovni_evspec;

const ovni_evspec *ovni_event_find(const uint8_t mcv[3]);

/* How ovniemu 1.14 takes an event of spec s carrying `bytes` bytes of
 * payload, or of jumbo data when `jumbo`. */
typedef enum ovni_payload_verdict {
	OVNI_PAYLOAD_OK,      /* taken, and what the handler reads is where the signature puts it */
	OVNI_PAYLOAD_MISREAD, /* taken, but a handler that reads a normal payload gets a jumbo
				 event: its first argument is the jumbo size */
	OVNI_PAYLOAD_REFUSED, /* the handler stops on it */
} ovni_payload_verdict;
ovni_payload_verdict ovni_payload_judge(const ovni_evspec *s, bool jumbo, uint64_t bytes);

/* What the handler of s needs, for a message: "exactly 8 bytes (i32 cpu, i32 tid)",
 * "at least 4 bytes (i32 cpu)", "a jumbo event". */
void ovni_payload_need(const ovni_evspec *s, char *out, size_t n);

/* One argument of a signature: its name, and its size in bytes (4 or 8;
 * 0 for a NUL-terminated string, which takes the rest of the data). */
typedef struct ovni_arg {
	char name[32];
	unsigned size;
	bool is_signed;
} ovni_arg;
/* The next argument of an `args` string, advancing *cur; false at its end. */
bool ovni_arg_next(const char **cur, ovni_arg *a);
size_t ovni_event_count(void);
const ovni_evspec *ovni_event_at(size_t i);

/* Models ovni 1.14 registers, with the model versions it implements. */
typedef struct ovni_model {
	char letter;
	const char *name;
	unsigned major, minor, patch;
} ovni_model;

#define OVNI_NMODELS 8
extern const ovni_model ovni_models[OVNI_NMODELS];

/* Index into ovni_models, or -1. */
int ovni_model_by_letter(uint8_t c);
int ovni_model_by_name(const char *name);

#endif
