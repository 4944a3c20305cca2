/* The ovni 1.14 event table and model list (ovni-events-1.14.md,
 * ovni-model-versions-1.14.md). */
#ifndef HV_OVNI_EVENTS_H
#define HV_OVNI_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* `payload` value of events whose arguments are jumbo data ('+' signature). */
#define OVNI_EV_JUMBO_SIG (-1)

typedef struct ovni_evspec {
	char mcv[4];
	int16_t payload;
} ovni_evspec;

const ovni_evspec *ovni_event_find(const uint8_t mcv[3]);
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
