/* Reading a JSON certificate (`hpcvet certify --format=json`) and comparing
 * what it binds with what is found now, from memory: the certificate's
 * bytes in, the reasons it does not hold out. `certify --verify`
 * (cli/verify.c) reads the file and validates the inputs again; the fuzz
 * target fuzz/fuzz_certify.c feeds it bytes a stranger wrote. No I/O here. */
#ifndef HV_CERT_CHECK_H
#define HV_CERT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "certify.h"

struct cJSON;

/* A parsed certificate: `inputs` is an array, `table` the rule table
 * version it records. */
typedef struct hv_cert {
	struct cJSON *root;
	const struct cJSON *inputs;
	const char *table;
} hv_cert;

/* Parse `len` bytes; false (and nothing to free) when they are not JSON
 * or not an hpcvet JSON certificate (no inputs array or rule table version). */
bool hv_cert_parse(const void *bytes, size_t len, hv_cert *c);
void hv_cert_free(hv_cert *c);

/* One certified input's recorded fields (NULL where absent or not strings). */
const char *hv_cert_input_path(const struct cJSON *in);
const char *hv_cert_input_verdict(const struct cJSON *in);
bool hv_cert_input_strict(const struct cJSON *in);

/* Why a certificate does not hold for one input: a list of messages. */
typedef struct hv_cert_reasons {
	char **v;
	size_t n, cap;
} hv_cert_reasons;

void hv_cert_reasons_free(hv_cert_reasons *rs);

/* Compare certified input `in` with what was found now: the rule table
 * (table_cert vs table_now), the files (unless `problem` says the input was
 * unreadable now: that is the reason then), the verdict. Appends a reason
 * per difference; none: the certificate holds for this input. */
void hv_cert_check_input(const struct cJSON *in, const char *table_cert, const char *table_now,
			 const hv_cert_files *now, const char *unreadable_problem, const char *path,
			 const char *verdict_now, hv_cert_reasons *rs);

#endif
