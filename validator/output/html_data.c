/* The HTML report's data: the reports as one JSON document, which the page's
 * script reads from a <script type="application/json"> element.
 *
 * Built with cJSON (escaping is never hand-rolled) but written piece by
 * piece: the head (tool, inputs, the rules that appear, the files) as one
 * object, then each diagnostic as a short array, so 100,000 diagnostics
 * never sit in memory as one tree. Every piece passes through embed_json,
 * which writes '<', '>' and '&' as \u escapes: the text then holds no
 * "</script>" or "<!--", whatever the input's file names or messages say.
 *
 * A diagnostic is [input, rule, severity, file, offset, length,
 * path_shape, path_values, message_shape, message_values, hex]: rule and
 * file index the head's "rules" and "files" (a wide trace's 65,536 rank
 * files are named once, not once per finding), severity is hv_sev's number,
 * hex the bytes the text report's hex view shows (from offset & ~15), or
 * "changed" / "unjudged" when none are shown (output.h, HV_READ_CHANGED).
 *
 * Messages and paths are stored as a shape and values: every number
 * ("0x1b9", "737856") becomes \u0001 in the shape, which the head's
 * "shapes" list names once, and the numbers, space-separated, are the
 * values. 100,000 findings of one kind then cost their numbers, not
 * 100,000 sentences (a wide DUMPI trace's report: 24 MB as sentences,
 * about 11 MB as shapes). Cleaned strings hold no control character, so
 * \u0001 cannot be part of one; the page puts the numbers back in. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "certify.h"
#include "html.h"

static void embed_json(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("\\u003c", out); break;
		case '>': fputs("\\u003e", out); break;
		case '&': fputs("\\u0026", out); break;
		default: fputc(*s, out);
		}
	}
}

static bool embed_item(FILE *out, cJSON *item)
{
	char *s = item ? cJSON_PrintUnformatted(item) : NULL;
	cJSON_Delete(item);
	if (!s) return false;
	embed_json(out, s);
	free(s);
	return true;
}

/* Strings named by index, each once: the files the diagnostics name (a
 * report interns its own names, but two inputs may name the same file) and
 * the shapes of messages and paths. An open-addressing table of copies. */
typedef struct str_table {
	char **names;  /* in first-seen order */
	size_t n;
	size_t *slots; /* index + 1 into names, 0 empty */
	size_t cap;    /* a power of two above 2n */
} str_table;

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static bool table_grow(str_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	size_t *slots = hv_calloc(cap, sizeof *slots);
	char **names = slots ? hv_realloc(t->names, cap / 2 * sizeof *names) : NULL;
	if (!names) {
		free(slots);
		return false;
	}
	t->names = names;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = (size_t)name_hash(names[i]) & (cap - 1);
		while (slots[h]) h = (h + 1) & (cap - 1);
		slots[h] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return true;
}

/* The index of `name`, added (copied) when new; -1 when out of memory. */
static long table_index(str_table *t, const char *name)
{
	if (2 * (t->n + 1) > t->cap && !table_grow(t)) return -1;
	size_t h = (size_t)name_hash(name) & (t->cap - 1);
	while (t->slots[h]) {
		if (strcmp(t->names[t->slots[h] - 1], name) == 0) return (long)(t->slots[h] - 1);
		h = (h + 1) & (t->cap - 1);
	}
	char *copy = hv_strdup(name);
	if (!copy) return -1;
	t->names[t->n] = copy;
	t->slots[h] = ++t->n;
	return (long)(t->n - 1);
}

static void table_free(str_table *t)
{
	for (size_t i = 0; i < t->n; i++) free(t->names[i]);
	free(t->names);
	free(t->slots);
}

#define CLEAN_CAP (4 * (HV_MSG_MAX > 4096 ? HV_MSG_MAX : 4096))

/* A cleaned string split into its shape (each number replaced by \x01) and
 * its numbers, space-separated: "0x" and hex digits, or decimal digits. */
static void split_shape(const char *in, char *shape, char *values)
{
	size_t ns = 0, nv = 0;
	while (*in) {
		size_t len = 0;
		if (in[0] == '0' && in[1] == 'x' && isxdigit((unsigned char)in[2])) {
			len = 2;
			while (isxdigit((unsigned char)in[len])) len++;
		} else {
			while (isdigit((unsigned char)in[len])) len++;
		}
		if (len) {
			shape[ns++] = '\x01';
			if (nv) values[nv++] = ' ';
			memcpy(values + nv, in, len);
			nv += len;
			in += len;
		} else {
			shape[ns++] = *in++;
		}
	}
	shape[ns] = values[nv] = '\0';
}

/* Adds the shape's index and the values of `s` (cleaned first) to `arr`. */
static bool add_shaped(cJSON *arr, str_table *shapes, const char *s)
{
	char clean[CLEAN_CAP], shape[CLEAN_CAP], values[CLEAN_CAP];
	hv_out_clean(s, clean, sizeof clean);
	split_shape(clean, shape, values);
	long k = table_index(shapes, shape);
	if (k < 0) return false;
	cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)k));
	cJSON_AddItemToArray(arr, cJSON_CreateString(values));
	return true;
}

static void add_clean_string(cJSON *arr, const char *s)
{
	char buf[CLEAN_CAP];
	hv_out_clean(s, buf, sizeof buf);
	cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
}

/* The text report's line for a rule's unshown failures. */
static void not_shown_line(cJSON *m, const hv_report *r, int rule)
{
	char line[HV_PATH_MAX + 2 * 4096];
	if (hv_more_line(r, rule, line, sizeof line)) hv_json_add_clean(m, "line", line);
}

static void add_parts(cJSON *o, const hv_report *r)
{
	if (r->nparts < 2) return;
	cJSON *parts = cJSON_AddArrayToObject(o, "parts");
	for (size_t k = 0; parts && k < r->nparts && k < HV_PARTS_MAX; k++) {
		const hv_part *p = &r->parts[k];
		cJSON *m = cJSON_CreateObject();
		if (!m) return;
		hv_json_add_clean(m, "name", p->name);
		hv_json_add_clean(m, "version", p->version);
		cJSON_AddNumberToObject(m, "errors", (double)p->count[HV_SEV_ERROR]);
		cJSON_AddNumberToObject(m, "warnings", (double)p->count[HV_SEV_WARNING]);
		cJSON_AddNumberToObject(m, "notes", (double)p->count[HV_SEV_NOTE]);
		cJSON_AddItemToArray(parts, m);
	}
}

static void add_certificate(cJSON *o, const hv_cert_files *cf)
{
	cJSON *c = cJSON_AddObjectToObject(o, "certificate");
	if (!c) return;
	cJSON_AddBoolToObject(c, "complete", cf->complete);
	if (cf->problem) hv_json_add_clean(c, "problem", cf->problem);
	cJSON *files = cJSON_AddArrayToObject(c, "files");
	for (size_t k = 0; files && k < cf->n; k++) {
		cJSON *f = cJSON_CreateObject();
		if (!f) return;
		hv_json_add_clean(f, "name", cf->files[k].name);
		cJSON_AddNumberToObject(f, "size", (double)cf->files[k].size);
		cJSON_AddStringToObject(f, "sha256", cf->files[k].sha256);
		cJSON_AddItemToArray(files, f);
	}
}

static cJSON *input_head(const hv_report *r, const hv_output_opts *o, size_t i)
{
	cJSON *in = cJSON_CreateObject();
	if (!in) return NULL;
	hv_json_add_identity(in, r, o->strict);
	if (r->unreadable || r->internal_error) hv_json_add_clean(in, "problem", r->problem);
	cJSON_AddNumberToObject(in, "rules_checked", (double)hv_report_rules_checked(r));
	cJSON_AddNumberToObject(in, "errors", (double)r->count[HV_SEV_ERROR]);
	cJSON_AddNumberToObject(in, "warnings", (double)r->count[HV_SEV_WARNING]);
	cJSON_AddNumberToObject(in, "notes", (double)r->count[HV_SEV_NOTE]);
	cJSON_AddNumberToObject(in, "suppressed", (double)r->suppressed);
	cJSON_AddNumberToObject(in, "max_diagnostics", (double)r->max_diags);
	cJSON *checked = cJSON_AddArrayToObject(in, "checked");
	for (int k = 0; checked && k < HV_RULE_COUNT; k++)
		if (r->evaluated[k] || r->failed[k]) cJSON_AddItemToArray(checked, cJSON_CreateString(hv_rules[k].id));
	hv_json_add_not_shown(in, r, not_shown_line);
	add_parts(in, r);
	if (o->cert_files) add_certificate(in, &o->cert_files[i]);
	return in;
}

/* The head: everything but the diagnostics. Rules are listed when some
 * diagnostic names them, with the text `hpcvet explain` prints. */
static cJSON *head_json(hv_report *const *reps, size_t n, const hv_output_opts *o, const str_table *files,
			const str_table *shapes, const long *rule_slot)
{
	cJSON *root = cJSON_CreateObject();
	if (!root) return NULL;
	hv_json_add_tool(root, "tool");
	char table[32];
	cJSON_AddStringToObject(root, "rule_table_version", hv_rule_table_version(table, sizeof table));
	cJSON_AddBoolToObject(root, "strict", o->strict);
	cJSON_AddBoolToObject(root, "certify", o->cert_files != NULL);
	cJSON_AddBoolToObject(root, "bytes", o->read_bytes != NULL);
	cJSON *sev = cJSON_AddArrayToObject(root, "severities");
	for (int s = 0; sev && s < 3; s++) cJSON_AddItemToArray(sev, cJSON_CreateString(hv_sev_name((enum hv_sev)s)));
	cJSON *inputs = cJSON_AddArrayToObject(root, "inputs");
	for (size_t i = 0; inputs && i < n; i++) {
		cJSON *in = input_head(reps[i], o, i);
		if (!in) {
			cJSON_Delete(root);
			return NULL;
		}
		cJSON_AddItemToArray(inputs, in);
	}
	cJSON *rules = cJSON_AddArrayToObject(root, "rules");
	/* the rules by slot, in one pass over the table (not a search of it per slot) */
	int by_slot[HV_RULE_COUNT];
	long nrules = 0;
	for (int k = 0; k < HV_RULE_COUNT; k++)
		if (rule_slot[k] >= 0 && rule_slot[k] < HV_RULE_COUNT) by_slot[rule_slot[k]] = k, nrules++;
	for (long slot = 0; rules && slot < nrules; slot++) {
		int k = by_slot[slot];
		cJSON *ru = cJSON_CreateObject();
		char *ex = hv_rule_explain_text(k);
		if (!ru || !ex) {
			cJSON_Delete(ru);
			free(ex);
			cJSON_Delete(root);
			return NULL;
		}
		cJSON_AddStringToObject(ru, "id", hv_rules[k].id);
		cJSON_AddStringToObject(ru, "severity", hv_sev_name(hv_rules[k].severity));
		cJSON_AddStringToObject(ru, "format", hv_rules[k].format);
		cJSON_AddStringToObject(ru, "summary", hv_rules[k].summary);
		cJSON_AddStringToObject(ru, "explain", ex);
		free(ex);
		cJSON_AddItemToArray(rules, ru);
	}
	cJSON *fa = cJSON_AddArrayToObject(root, "files");
	for (size_t f = 0; fa && f < files->n; f++) add_clean_string(fa, files->names[f]);
	cJSON *sa = cJSON_AddArrayToObject(root, "shapes");
	for (size_t f = 0; sa && f < shapes->n; f++) cJSON_AddItemToArray(sa, cJSON_CreateString(shapes->names[f]));
	if (!sev || !inputs || !rules || !fa || !sa) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static cJSON *diag_row(const hv_diag *d, size_t input, long rule, long file, str_table *shapes,
		       const hv_output_opts *o)
{
	cJSON *a = cJSON_CreateArray();
	if (!a) return NULL;
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)input));
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)rule));
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)d->sev));
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)file));
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)d->offset));
	cJSON_AddItemToArray(a, cJSON_CreateNumber((double)d->length));
	if (!add_shaped(a, shapes, d->path) || !add_shaped(a, shapes, d->msg)) {
		cJSON_Delete(a);
		return NULL;
	}
	uint64_t first = 0;
	uint8_t buf[HV_HEX_BYTES];
	size_t got = hv_diag_whole(d) ? 0 : hv_hex_window(d, o, &first, buf);
	if (got == HV_READ_CHANGED || got == HV_READ_UNJUDGED) {
		/* no bytes: the page says why */
		cJSON_AddItemToArray(a, cJSON_CreateString(got == HV_READ_CHANGED ? "changed" : "unjudged"));
		return a;
	}
	if (got > sizeof buf) got = sizeof buf;
	char hex[2 * HV_HEX_BYTES + 1];
	static const char digits[] = "0123456789abcdef";
	for (size_t k = 0; k < got; k++) {
		hex[2 * k] = digits[buf[k] >> 4];
		hex[2 * k + 1] = digits[buf[k] & 15];
	}
	hex[2 * got] = '\0';
	cJSON_AddItemToArray(a, cJSON_CreateString(hex));
	return a;
}

/* The rows first, into memory, since the head names the shapes they use;
 * then the head and the rows. */
bool hv_html_write_data(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	str_table files = {0}, shapes = {0};
	long rule_slot[HV_RULE_COUNT];
	long nrules = 0;
	bool ok = true;
	for (int k = 0; k < HV_RULE_COUNT; k++) rule_slot[k] = -1;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) total += reps[i]->ndiags;
	char **rows = hv_calloc(total ? total : 1, sizeof *rows);
	ok = rows != NULL;
	/* the rules and files in first-seen order, so the page's lists start
	 * where the report starts */
	size_t r = 0;
	for (size_t i = 0; ok && i < n; i++)
		for (size_t k = 0; ok && k < reps[i]->ndiags; k++, r++) {
			const hv_diag *d = &reps[i]->diags[k];
			if (d->rule >= 0 && d->rule < HV_RULE_COUNT && rule_slot[d->rule] < 0) rule_slot[d->rule] = nrules++;
			long rule = d->rule >= 0 && d->rule < HV_RULE_COUNT ? rule_slot[d->rule] : -1;
			long file = table_index(&files, d->file ? d->file : "");
			cJSON *row = file >= 0 ? diag_row(d, i, rule, file, &shapes, o) : NULL;
			rows[r] = row ? cJSON_PrintUnformatted(row) : NULL;
			cJSON_Delete(row);
			ok = rows[r] != NULL;
		}
	cJSON *head = ok ? head_json(reps, n, o, &files, &shapes, rule_slot) : NULL;
	fputs("{\"head\":", out);
	ok = embed_item(out, head);
	fputs(",\n\"diags\":[", out);
	for (size_t k = 0; ok && k < total; k++) {
		if (k) fputs(",\n", out);
		embed_json(out, rows[k]);
	}
	fputs("]}", out);
	for (size_t k = 0; rows && k < total; k++) free(rows[k]);
	free(rows);
	table_free(&files);
	table_free(&shapes);
	return ok;
}
