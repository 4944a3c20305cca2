#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"

void gen_params_default(gen_params *p)
{
	memset(p, 0, sizeof *p);
	p->what = "metadb";
	p->edition = HV_EDITION_RELEASE;
	p->seed = 1;
}

static const gen_family *family_for(const char *what)
{
	for (size_t i = 0; gen_families[i]; i++)
		for (size_t k = 0; gen_families[i]->whats[k]; k++)
			if (strcmp(gen_families[i]->whats[k], what) == 0) return gen_families[i];
	return NULL;
}

int gen_generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	return gen_generate_to(p, out, NULL, NULL, err, errlen);
}

int gen_generate_to(const gen_params *p, gen_output *out, gen_sink sink, void *ctx, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->sink = sink;
	out->sink_ctx = ctx;
	const gen_family *f = family_for(p->what);
	if (!f) {
		snprintf(err, errlen, "unknown output kind '%s'", p->what);
		return -1;
	}
	if (p->break_rule) {
		/* RULE~VARIANT: a near miss of RULE that must be accepted (e.g. a
		 * value off by just less than the tolerance); the writer decides. */
		char rule[128];
		size_t len = strcspn(p->break_rule, "~");
		snprintf(rule, sizeof rule, "%.*s", (int)(len < sizeof rule ? len : sizeof rule - 1), p->break_rule);
		if (hv_rule_find(rule) < 0) {
			snprintf(err, errlen, "no rule '%s' (see 'hpcvet rules')", p->break_rule);
			return -1;
		}
		enum hv_edition ed = p->edition == HV_EDITION_AUTO ? HV_EDITION_RELEASE : p->edition;
		if (!f->can_break(p->what, p->break_rule, ed)) {
			snprintf(err, errlen, "'%s' cannot break rule '%s' in the %s edition", p->what, p->break_rule,
				 ed == HV_EDITION_DRAFT ? "draft" : "release");
			return -1;
		}
	}
	int rc = f->generate(p, out, err, errlen);
	if (rc == 0 && out->sink_failed) {
		snprintf(err, errlen, "cannot store an output file");
		rc = -1;
	}
	if (rc != 0) gen_output_free(out);
	return rc;
}

void gen_output_free(gen_output *out)
{
	for (size_t i = 0; i < out->n; i++) free(out->files[i].data);
	out->n = 0;
}

const char *gen_breaker_for(const char *rule_id, enum hv_edition edition)
{
	for (size_t i = 0; gen_families[i]; i++)
		for (size_t k = 0; gen_families[i]->whats[k]; k++)
			if (gen_families[i]->can_break(gen_families[i]->whats[k], rule_id, edition))
				return gen_families[i]->whats[k];
	return NULL;
}

/* With a sink the file leaves at once, and the returned slot (files[0],
 * emptied) only says it was taken: no writer keeps data it has added. The
 * data is freed even when the sink fails (writers free what gen_add_file
 * refused), and gen_generate_to reports the failure at the end. */
gen_file *gen_add_file(gen_output *out, const char *name, uint8_t *data, size_t len)
{
	if (out->sink) {
		if (!out->sink_failed && out->sink(out->sink_ctx, name, data, len) != 0) out->sink_failed = true;
		free(data);
		out->sunk++;
		gen_file *f = &out->files[0];
		snprintf(f->name, sizeof f->name, "%s", name);
		f->data = NULL;
		f->len = 0;
		return f;
	}
	if (out->n >= GEN_MAX_FILES) {
		free(data);
		return NULL;
	}
	gen_file *f = &out->files[out->n++];
	snprintf(f->name, sizeof f->name, "%s", name);
	f->data = data;
	f->len = len;
	return f;
}

static void grow(gen_buf *b, size_t need)
{
	if (b->oom || need <= b->cap) return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < need) cap *= 2;
	uint8_t *d = realloc(b->data, cap);
	if (!d) {
		b->oom = true;
		return;
	}
	memset(d + b->cap, 0, cap - b->cap);
	b->data = d;
	b->cap = cap;
}

size_t gen_buf_reserve(gen_buf *b, size_t n, size_t align)
{
	size_t off = align > 1 ? (b->len + align - 1) / align * align : b->len;
	grow(b, off + n);
	if (b->oom) return 0;
	b->len = off + n;
	return off;
}

size_t gen_buf_append(gen_buf *b, const void *p, size_t n)
{
	size_t off = gen_buf_reserve(b, n, 1);
	if (!b->oom && n) memcpy(b->data + off, p, n);
	return off;
}

size_t gen_buf_str(gen_buf *b, const char *s) { return gen_buf_append(b, s, strlen(s) + 1); }

void gen_buf_printf(gen_buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0) gen_buf_append(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void gen_buf_pad(gen_buf *b, size_t align, uint8_t fill)
{
	size_t start = b->len;
	gen_buf_reserve(b, 0, align);
	if (!b->oom)
		for (size_t i = start; i < b->len; i++) b->data[i] = fill;
}

uint8_t *gen_buf_at(gen_buf *b, size_t off) { return b->data + off; }

void gen_buf_free(gen_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

uint64_t gen_rand(gen_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
