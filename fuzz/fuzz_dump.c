/* Fuzz target: hpcvet dump of any single file, format detected by content,
 * as `hpcvet dump PATH` does it (validate, then dump with the report). The
 * JSON dump is written to memory and must parse as JSON (the dumper writes
 * its JSON by hand, as it streams); the text dump goes to /dev/null. The
 * input's last byte picks a --select text, read by the CLI's parser (none,
 * a record range, a profile, a rank, a file, a context, a subtree, or text
 * the parser refuses) and an output budget, odd sizes reach the dumpers as
 * windowed blobs (the path of big files). */
#include <cjson/cJSON.h>

#include "dump/dump.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hv_options opt = {.edition = HV_EDITION_AUTO, .max_diags = FUZZ_MAX_DIAGS};
	fuzz_mem_io io;
	hv_blob b = (size & 1) ? fuzz_blob("fuzz-0001.bin", data, size, &io)
			       : hv_blob_from_memory("fuzz-0001.bin", data, size);
	hv_report r;
	hv_report_init(&r, "fuzz-0001.bin", opt.max_diags);
	hv_validate_blob(&opt, &b, &r);
	fuzz_check_report(&r);
	hv_dump_opts o = {.json = true};
	uint8_t pick = size ? data[size - 1] : 0;
	/* the selection as --select=TEXT gives it, through the CLI's parser:
	 * a record range (and a profile), a rank (and a file), a context, a
	 * subtree (the meta.db pre-walk too), or text the parser must refuse
	 * (then nothing is selected) */
	static const char *const odd[8] = {"context=1,subtree=2", "records", "bogus=1", "records=3-1",
					   "rank=x", "records=99999999999999999999999", "context=", "file=fuzz,items=1-2,"};
	char text[96] = "";
	if (pick % 4 == 1)
		snprintf(text, sizeof text, "%s=%u-%u%s", pick & 0x20 ? "events" : "records", pick / 16u, pick / 16u + pick % 8u,
			 pick & 0x80 ? ",profile=1" : "");
	if (pick % 4 == 2) snprintf(text, sizeof text, "rank=1%s", pick & 0x20 ? ",file=fuzz" : "");
	if (pick % 8 == 3) snprintf(text, sizeof text, "context=%u", pick / 4u);
	if (pick % 8 == 7) snprintf(text, sizeof text, "subtree=%u", pick / 8u);
	if (pick % 4 == 0 && (pick & 0x80)) snprintf(text, sizeof text, "%s", odd[(pick >> 2) & 7]);
	char why[512];
	if (text[0] && !hv_dump_parse_select(text, &o.sel, why, sizeof why)) {
		free((char *)o.sel.file);
		o.sel = (hv_dump_select){0};
	}
	if (pick & 0x40) o.max_items = 1 + pick % 5; /* the output budget cuts the dump anywhere */
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (mem) {
		hv_dump(mem, &o, "fuzz-0001.bin", &b, 1, &r, NULL);
		fclose(mem);
		cJSON *doc = cJSON_ParseWithLength(buf, len);
		/* an out-of-memory parse proves nothing; anything else must parse */
		if (!doc && len < (64u << 20)) {
			const char *at = cJSON_GetErrorPtr();
			fprintf(stderr, "dump is not JSON near: %.80s\n", at ? at : "?");
			abort();
		}
		cJSON_Delete(doc);
		free(buf);
	}
	static FILE *sink;
	if (!sink) sink = fopen("/dev/null", "w");
	if (sink) {
		o.json = false;
		hv_dump(sink, &o, "fuzz-0001.bin", &b, 1, &r, NULL);
	}
	free((char *)o.sel.file);
	hv_blob_release(&b);
	hv_report_free(&r);
	return 0;
}
