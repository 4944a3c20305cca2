/* `hpcvet certify --verify CERT.json [PATH]` (see verify.c). */
#ifndef HV_VERIFY_H
#define HV_VERIFY_H

#include <stdbool.h>
#include <stdio.h>

#include "core/validate.h"

/* Verify the JSON certificate at `cert_path` against `path` (NULL: each
 * certified input at its recorded path; a relative one against `base` when
 * not NULL, else the current folder, else the certificate's folder). Prints the outcome (text, or JSON
 * when `json`) on `out`, why it could not verify on `err` (with `progress`,
 * the progress line too), and returns an exit code like the validator's: 0 the
 * certificate holds, 1 it does not, 2 usage, 3 certificate or input
 * unreadable, 4 internal error. */
int hv_cmd_verify(FILE *out, FILE *err, bool progress, const char *cert_path, const char *path, const char *base,
		  const hv_options *opt, bool json);

#endif
