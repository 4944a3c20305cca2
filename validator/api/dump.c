/* hpcvet_dump_path: `hpcvet dump` for programs. The same steps as the CLI's
 * dump (validator/cli/dump_cmd.c): validate the path, then, while its files
 * are still open, dump them with the report (validator/dump). The output
 * goes to the caller's function through a cookie stream, piece by piece as
 * it is written, so nothing holds the whole dump. */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dump_path.h"
#include "dump/dump.h"
#include "internal.h"

typedef struct sink {
	hpcvet_write_fn write;
	void *ctx;
	bool stopped; /* the caller asked for no more */
} sink;

static ssize_t sink_write(void *cookie, const char *data, size_t len)
{
	sink *s = cookie;
	if (!s->stopped && len && s->write(s->ctx, data, len) != 0) s->stopped = true;
	return (ssize_t)len; /* dropped output is not an error of the stream */
}

int hpcvet_dump_path(const char *path, const char *select, uint64_t max_items, int json, const hpcvet_options *opt,
		     hpcvet_write_fn write, void *ctx, char *why, size_t why_len)
{
	char scratch[160];
	if (!why || why_len == 0) why = scratch, why_len = sizeof scratch;
	why[0] = '\0';
	if (!path || !write) {
		snprintf(why, why_len, "no path or no write function");
		return -1;
	}
	hv_dump_opts o;
	memset(&o, 0, sizeof o);
	o.json = json != 0;
	o.max_items = max_items;
	if (select && select[0] && !hv_dump_parse_select(select, &o.sel, why, why_len)) return -1;
	hv_options hopt;
	hpcvet_report *rep = hv_api_report_new(path, opt, &hopt);
	if (!rep) {
		free((char *)o.sel.file);
		snprintf(why, why_len, "out of memory");
		return HPCVET_INTERNAL_ERROR;
	}
	o.strict = rep->strict != 0;
	sink s = {write, ctx, false};
	FILE *out = fopencookie(&s, "w", (cookie_io_functions_t){.write = sink_write});
	int verdict = HPCVET_INTERNAL_ERROR;
	if (out) {
		hv_dump_validated(out, &o, path, &hopt, &rep->r, NULL);
		verdict = (int)hpcvet_report_verdict(rep);
		if (fclose(out) != 0) verdict = HPCVET_INTERNAL_ERROR;
	} else {
		snprintf(why, why_len, "out of memory");
	}
	hpcvet_report_free(rep);
	free((char *)o.sel.file);
	return verdict;
}
