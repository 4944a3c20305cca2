#include "validate.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"

const char *hv_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

const hv_format *hv_detect(hv_blob *b, bool *by_name)
{
	*by_name = false;
	for (size_t i = 0; hv_formats[i]; i++)
		if (hv_formats[i]->sniff(b)) return hv_formats[i];
	const char *base = b->name ? hv_basename(b->name) : "";
	for (size_t i = 0; hv_formats[i]; i++)
		if (hv_formats[i]->file_name && strcmp(hv_formats[i]->file_name, base) == 0) {
			*by_name = true;
			return hv_formats[i];
		}
	return NULL;
}

static void report_unrecognized(hv_report *r, hv_blob *b)
{
	snprintf(r->format, sizeof r->format, "unknown");
	hv_eval(r, HV_R_INPUT_UNRECOGNIZED, false);
	hv_emit(r, HV_R_INPUT_UNRECOGNIZED, b->name, 0, b->size < 16 ? b->size : 16, "",
		"no supported format recognised (not an HPCToolkit .db, ovni stream or DUMPI trace)");
}

void hv_validate_scope_end(hv_fault_scope *s, hv_report *r)
{
	hv_fault_scope_leave(s);
	if (!atomic_load(&s->failed)) return;
	size_t bytes = atomic_load(&s->bytes);
	char want[48] = "";
	if (bytes) snprintf(want, sizeof want, " of %zu bytes", bytes);
	hv_report_internal(r,
			   "out of memory: an allocation%s failed while checking this %s, so not every rule was "
			   "checked and there is no verdict",
			   want, r->format[0] ? r->format : "input");
}

static void validate_blob(const hv_options *opt, hv_blob *b, hv_report *r);

void hv_validate_blob(const hv_options *opt, hv_blob *b, hv_report *r)
{
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	validate_blob(opt, b, r);
	hv_validate_scope_end(&s, r);
}

static void validate_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r);

void hv_validate_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	hv_fault_scope s;
	hv_fault_scope_enter(&s);
	validate_set(opt, files, n, r);
	hv_validate_scope_end(&s, r);
}

static void validate_blob(const hv_options *opt, hv_blob *b, hv_report *r)
{
	bool by_name;
	const hv_format *f = hv_detect(b, &by_name);
	if (!f) {
		if (b->io_failed)
			hv_report_unreadable(r, "%s: read error", b->name);
		else
			report_unrecognized(r, b);
		return;
	}
	snprintf(r->format, sizeof r->format, "%s", f->name);
	f->check(opt, b, r);
	if (b->io_failed && !r->unreadable) hv_report_unreadable(r, "%s: read error while checking", b->name);
}

static void validate_set(const hv_options *opt, hv_blob *files, size_t n, hv_report *r)
{
	for (size_t i = 0; hv_families[i]; i++) {
		for (size_t k = 0; k < n; k++) {
			if (hv_families[i]->claims(&files[k])) {
				hv_families[i]->check_set(opt, files, n, r);
				hv_report_fold_file_notes(r);
				for (size_t j = 0; j < n; j++)
					if (files[j].io_failed && !r->unreadable)
						hv_report_unreadable(r, "%s: read error while checking", files[j].name);
				return;
			}
		}
	}
	snprintf(r->format, sizeof r->format, "unknown");
	hv_eval(r, HV_R_INPUT_UNRECOGNIZED, false);
	hv_emit(r, HV_R_INPUT_UNRECOGNIZED, r->input_path, 0, 0, "",
		"the directory holds no file of a supported format (HPCToolkit database, ovni trace, DUMPI trace)");
}
