/* hpcvet_validate_path: the part of the public API that reads the file
 * system. It uses the CLI's readers (validator/cli/fileio.c, linked into
 * the library for this), so fileio.c stays the only code that opens files
 * and the library reads paths exactly as the hpcvet program does
 * (validator/cli/validate_path.c is the code both share). */

#include "cli/validate_path.h"
#include "internal.h"

hpcvet_report *hpcvet_validate_path(const char *path, const hpcvet_options *opt)
{
	hv_options hopt;
	hpcvet_report *rep = hv_api_report_new(path, opt, &hopt);
	if (!rep) return NULL;
	hv_validate_path(path, &hopt, &rep->r, NULL);
	return rep;
}
