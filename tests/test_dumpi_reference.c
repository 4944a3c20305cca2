/* Decode sst-dumpi's own test trace record by record and compare function
 * names, thread ids and all four times with the reference dump that
 * dumpi2ascii wrote for it (testtrace-0000.txt, shipped with sst-dumpi).
 * Skips cleanly when ../shared (the real samples) is absent. */
#include <stdlib.h>

#include "dumpi/dumpi.h"
#include "tap.h"
#include "testlib.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, cap + 1);
			if (!nb) break;
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		if (got == 0) break;
		n += got;
	}
	fclose(f);
	if (buf) buf[n] = '\0';
	*len = n;
	return buf;
}

/* One "entering"/"returning" line pair of the reference dump. */
typedef struct ref_call {
	char name[64];
	char wall_in[32], cpu_in[32], wall_out[32], cpu_out[32];
	unsigned thread;
} ref_call;

static size_t parse_reference(char *text, ref_call *calls, size_t max)
{
	size_t n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64], wall[32], cpu[32];
		unsigned thread;
		if (sscanf(line, "%63s entering at walltime %31[0-9.], cputime %31[0-9.] seconds in thread %u.", name, wall,
			   cpu, &thread) == 4 &&
		    n < max) {
			snprintf(calls[n].name, sizeof calls[n].name, "%s", name);
			snprintf(calls[n].wall_in, sizeof calls[n].wall_in, "%s", wall);
			snprintf(calls[n].cpu_in, sizeof calls[n].cpu_in, "%s", cpu);
			calls[n].thread = thread;
			n++;
		} else if (sscanf(line, "%63s returning at walltime %31[0-9.], cputime %31[0-9.] seconds", name, wall, cpu) ==
				   3 &&
			   n > 0) {
			snprintf(calls[n - 1].wall_out, sizeof calls[n - 1].wall_out, "%s", wall);
			snprintf(calls[n - 1].cpu_out, sizeof calls[n - 1].cpu_out, "%s", cpu);
		}
	}
	return n;
}

/* libundumpi prints sec + bias, then nine digits of nanoseconds. */
static void fmt_time(char *out, size_t len, uint32_t bias, dumpi_clock c)
{
	snprintf(out, len, "%llu.%09u", (unsigned long long)bias + c.sec, c.nsec);
}

int main(void)
{
	const char *shared = getenv("HV_SHARED") ? getenv("HV_SHARED") : "../shared";
	char bin_path[512], txt_path[512];
	snprintf(bin_path, sizeof bin_path, "%s/real-samples/dumpi/sst-dumpi-testtrace/testtrace-0000.bin", shared);
	snprintf(txt_path, sizeof txt_path, "%s/real-samples/dumpi/sst-dumpi-testtrace/testtrace-0000.txt", shared);
	size_t blen, tlen;
	char *bin = slurp(bin_path, &blen);
	char *txt = slurp(txt_path, &tlen);
	if (!bin || !txt) {
		printf("skipping: %s not present\n", bin_path);
		free(bin);
		free(txt);
		printf("0 passed, 0 failed, 1 skipped\n");
		return 0;
	}
	ref_call calls[64];
	size_t ncalls = parse_reference(txt, calls, 64);
	CHECK(ncalls == 9, "reference dump has %zu calls, want 9", ncalls);

	hv_blob b = hv_blob_from_memory("testtrace-0000.bin", (const uint8_t *)bin, blen);
	hv_report r;
	hv_report_init(&r, "testtrace-0000.bin", 100);
	dumpi_bin_info info;
	dumpi_check_bin(&(hv_options){.max_diags = 100}, &b, &r, &info);
	CHECK(hv_report_exit_code(&r, false) == 0, "testtrace-0000.bin conforms");
	CHECK(info.index_ok && info.header_ok, "index and header decoded");
	CHECK(info.version[0] == 1 && info.version[1] == 0 && info.version[2] == 0, "version 1.0.0");
	hv_report_free(&r);

	dumpi_iter it;
	CHECK(dumpi_iter_init(&it, &b, info.off[DS_BODY] + 8, info.off[DS_HEADER], info.version), "iterator");
	dumpi_record rec;
	size_t i = 0;
	while (dumpi_iter_next(&it, &rec)) {
		if (i >= ncalls) {
			i++;
			continue;
		}
		ref_call *c = &calls[i++];
		char t[32];
		CHECK(strcmp(dumpi_function_name(rec.fn), c->name) == 0, "record %zu: %s, reference %s", i,
		      dumpi_function_name(rec.fn), c->name);
		CHECK(rec.thread == c->thread, "record %zu: thread %u, reference %u", i, rec.thread, c->thread);
		fmt_time(t, sizeof t, info.wall_bias, rec.wall_start);
		CHECK(strcmp(t, c->wall_in) == 0, "record %zu %s: wall start %s, reference %s", i, c->name, t, c->wall_in);
		fmt_time(t, sizeof t, info.wall_bias, rec.wall_stop);
		CHECK(strcmp(t, c->wall_out) == 0, "record %zu %s: wall stop %s, reference %s", i, c->name, t,
		      c->wall_out);
		fmt_time(t, sizeof t, info.cpu_bias, rec.cpu_start);
		CHECK(strcmp(t, c->cpu_in) == 0, "record %zu %s: cpu start %s, reference %s", i, c->name, t, c->cpu_in);
		fmt_time(t, sizeof t, info.cpu_bias, rec.cpu_stop);
		CHECK(strcmp(t, c->cpu_out) == 0, "record %zu %s: cpu stop %s, reference %s", i, c->name, t, c->cpu_out);
	}
	CHECK(it.at_end && it.failure == 0, "the stream ends with DUMPI_END_OF_STREAM");
	CHECK(it.cur.pos == info.off[DS_HEADER], "the end label sits just before the header");
	CHECK(i == ncalls, "%zu records decoded, reference has %zu", i, ncalls);
	dumpi_iter_free(&it);
	free(bin);
	free(txt);
	TAP_DONE();
}
