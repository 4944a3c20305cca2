/* The ovni 1.14 event table and model list (ovni-events-1.14.md,
 * ovni-model-versions-1.14.md). */
#ifndef HV_OVNI_EVENTS_H
#define HV_OVNI_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `payload` value of events whose arguments are jumbo data ('+' signature). */
#define OVNI_EV_JUMBO_SIG (-1)

/* `args`: the signature's arguments, "TYPE NAME" joined by ", " (TYPE one
 * of u32 i32 u64 i64 str, packed in this order in the payload, or in the
 * jumbo data for '+' events), NULL for events without arguments. */
typedef struct ovni_evspec {
	char mcv[4];
	int16_t payload;
	const char *args;
} ovni_evspec;

const ovni_evspec *ovni_event_find(const uint8_t mcv[3]);

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
