/* meta.db writer (scaffold: header, empty sections, footer).
 * TODO(metadb-gen): full writer for both editions with every break. */
#include <stdlib.h>
#include <string.h>

#include "core/hv_int.h"
#include "gen.h"

static const char *const whats[] = {"metadb", NULL};

static const char *const breakable[] = {
	"metadb.hdr.truncated", "metadb.hdr.magic", "metadb.hdr.major", "metadb.hdr.minor-newer",
	"metadb.hdr.footer", "metadb.sec.contained", "metadb.sec.aligned", "metadb.sec.overlap", NULL,
};

static bool is(const char *a, const char *b) { return a && strcmp(a, b) == 0; }

static int generate(const gen_params *p, gen_output *out, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	gen_buf b = {0};
	size_t hdr = gen_buf_reserve(&b, 0x90, 8);
	memcpy(gen_buf_at(&b, hdr), "HPCTOOLKITmeta", 14);
	gen_buf_at(&b, hdr)[14] = 4;
	gen_buf_at(&b, hdr)[15] = (uint8_t)p->minor;
	for (int i = 0; i < 8; i++) {
		size_t at = gen_buf_reserve(&b, 16, 8);
		memset(gen_buf_at(&b, at), 0, 16);
		hv_put_le64(gen_buf_at(&b, 0x10 + 16 * i), 16);
		hv_put_le64(gen_buf_at(&b, 0x18 + 16 * i), at);
	}
	gen_buf_append(&b, "_meta.db", 8);
	if (b.oom) return -1;
	uint8_t *d = b.data;
	const char *r = p->break_rule;
	if (is(r, "metadb.hdr.magic")) d[10] = 'X';
	if (is(r, "metadb.hdr.major")) d[14] = 5;
	if (is(r, "metadb.hdr.minor-newer")) d[15] = 1;
	if (is(r, "metadb.hdr.footer")) d[b.len - 1] = 'x';
	if (is(r, "metadb.sec.contained")) hv_put_le64(d + 0x10, b.len); /* General runs past EOF */
	if (is(r, "metadb.sec.aligned")) {                                 /* Modules moved by 4 */
		hv_put_le64(d + 0x68, hv_le64(d + 0x68) + 4);
		hv_put_le64(d + 0x60, 8);
	}
	if (is(r, "metadb.sec.overlap")) hv_put_le64(d + 0x18, hv_le64(d + 0x28)); /* General onto IdNames */
	if (is(r, "metadb.hdr.truncated")) b.len = 0x80;
	gen_add_file(out, "meta.db", b.data, b.len);
	return 0;
}

static bool can_break(const char *what, const char *rule_id, enum hv_edition edition)
{
	(void)what;
	(void)edition;
	for (size_t i = 0; breakable[i]; i++)
		if (strcmp(breakable[i], rule_id) == 0) return true;
	return false;
}

const gen_family gen_family_hpctoolkit = {"hpctoolkit", whats, generate, can_break, false};
