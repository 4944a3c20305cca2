/* What SnakeYAML counts of a taxonomy against its codePointLimit
 * (yd_extent_of, hpctkdb.taxonomy.viewer-size): characters up to where the
 * last token's scan stops, on small documents whose count is known by hand,
 * each through a blob in memory and through one read a few bytes at a time
 * (a database's taxonomy past 1 MiB is read through fetch), with a small cap
 * to see where the excess starts. The 3 Mi cases with the real reader's
 * answers are in tests/taxonomy.test.sh and the corpus. */
#include <stdlib.h>
#include <string.h>

#include "hpctoolkit/taxonomy/yamldoc.h"
#include "tap.h"

typedef struct mem_io {
	const uint8_t *p;
	size_t n;
} mem_io;

/* at most 5 bytes a read: characters and the window cross reads */
static bool small_fetch(void *io, uint64_t off, void *dst, size_t len)
{
	const mem_io *m = io;
	if (off > m->n || len > m->n - off) return false;
	for (size_t done = 0; done < len;) {
		size_t k = len - done < 5 ? len - done : 5;
		memcpy((uint8_t *)dst + done, m->p + off + done, k);
		done += k;
	}
	return true;
}

/* extent of `text` (n bytes) with cap `cap`: chars, over_off, end_off, each
 * way of reading; both must agree */
static void expect(const char *what, const void *text, size_t n, uint64_t cap, uint64_t chars, uint64_t over_off,
		   uint64_t end_off)
{
	mem_io io = {text, n};
	hv_blob a = hv_blob_from_memory("t.yaml", text, n);
	hv_blob b = {.name = "t.yaml", .size = n, .fetch = small_fetch, .io = &io};
	hv_blob *blobs[2] = {&a, &b};
	for (int i = 0; i < 2; i++) {
		yd_extent e;
		bool ok = yd_extent_of(blobs[i], cap, &e);
		CHECK(ok && e.chars == chars && e.over_off == over_off && e.end_off == end_off,
		      "%s (%s): got %d %llu chars, from %llu to %llu; want %llu, %llu, %llu", what, i ? "fetch" : "memory",
		      ok, (unsigned long long)e.chars, (unsigned long long)e.over_off, (unsigned long long)e.end_off,
		      (unsigned long long)chars, (unsigned long long)over_off, (unsigned long long)end_off);
	}
}

#define T(what, s, cap, chars, over, end) expect(what, s, sizeof s - 1, cap, chars, over, end)

/* s as UTF-16 (little- or big-endian) after its byte order mark; ASCII and
 * U+1F600 (written \x01 in s: a surrogate pair) */
static size_t utf16(const char *s, bool le, uint8_t *out)
{
	size_t k = 0;
	uint16_t units[2];
	out[k++] = le ? 0xff : 0xfe;
	out[k++] = le ? 0xfe : 0xff;
	for (; *s; s++) {
		int nu = 1;
		units[0] = (uint8_t)*s;
		if (*s == '\x01') units[0] = 0xd83d, units[1] = 0xde00, nu = 2;
		for (int u = 0; u < nu; u++) {
			out[k++] = (uint8_t)(le ? units[u] & 0xff : units[u] >> 8);
			out[k++] = (uint8_t)(le ? units[u] >> 8 : units[u] & 0xff);
		}
	}
	return k;
}

int main(void)
{
	/* a plain scalar swallows its line break */
	T("plain", "a: xyz\n", 100, 7, 7, 7);
	/* ... the blanks and breaks after it, and stops at a comment */
	T("plain, blanks and a comment", "a: xyz \t\n\n  \n# c\n", 100, 13, 13, 13);
	/* a quoted scalar stops at its quote; the comment line after is not read */
	T("quoted", "a: 'xyz'\n# c\n", 100, 8, 8, 8);
	T("flow sequence", "a: [x, y]\n# c\n", 100, 9, 9, 9);
	T("explicit document end", "a: x\n...\n# c\n", 100, 8, 8, 8);
	T("an empty value: the indicator", "a:\n# c\n", 100, 2, 2, 2);
	T("an explicit key without a value", "? k\n# c\n", 100, 4, 4, 4);
	T("CR LF: two characters", "a: x\r\n# c\r\n", 100, 6, 6, 6);
	T("UTF-8 byte order mark: not counted", "\xef\xbb\xbf" "a: x\n", 100, 5, 8, 8);
	/* the excess: character number `cap` (from 0) to the end of the count */
	T("past a cap of 3", "a: xyz\n", 3, 7, 3, 7);
	T("2-byte characters", "a: \xc3\xa9\xc3\xa9\n", 4, 6, 5, 8);
	T("a 4-byte character is one", "a: \xf0\x9f\x98\x80\n", 3, 5, 3, 8);
	T("a BOM before the cap's character", "\xef\xbb\xbf" "a: xyz\n", 3, 7, 6, 10);
	T("exactly at the cap", "a: xyz\n", 7, 7, 7, 7);
	uint8_t u[64];
	size_t n = utf16("a: x\x01y\n# c\n", true, u);
	expect("UTF-16LE, a surrogate pair is one", u, n, 4, 7, 2 + 2 * 4, 2 + 2 * 8);
	n = utf16("a: 'x\x01'\n", false, u);
	expect("UTF-16BE, quoted", u, n, 100, 7, 2 + 2 * 8, 2 + 2 * 8);
	TAP_DONE();
}
