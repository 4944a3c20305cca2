/* Where events start again: a stream.obs carries no sync marker, so the
 * place where events parse again is the first offset at which SYNC_CHAIN
 * events in a row parse as valid ones (a known MCV, a well-formed jumbo
 * header, a payload ovniemu 1.14 takes as the signature lays it out:
 * ovni_payload_judge), or a shorter chain ends exactly at the stream's end.
 * The reserved flag bits (0x20, 0x40, 0x80) do not count: ovni's readers
 * size and read an event whatever they hold.
 * Two walks need it: a chunk of a split stream looking for its first event
 * (split.c), and the walk meeting a damaged region (obs.c), which
 * reports the region once and goes on from there. Both find the same
 * offset for the same bytes, so a region crossing a chunk's cut is
 * reported once, by the walk that entered it. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/hv_int.h"
#include "walk.h"

#define SYNC_CHAIN 16u
#define SYNC_WINDOW 4096u
#define SCAN_WINDOW (1u << 20)

static inline unsigned graph(uint8_t c) { return (uint8_t)(c - 0x21u) < 94u; }

/* The first four bytes could start a valid event: a printable MCV (byte 0,
 * the flags, may hold anything a reader decodes). Branch-free, so a block
 * of candidates is tested at once. */
static inline unsigned quick(const uint8_t *p)
{
	return graph(p[1]) & graph(p[2]) & graph(p[3]);
}

/* The length of the event at p (`left` bytes to the stream's end, at
 * least 12, and p holds min(left, 16) of them) when it is plausible, else 0. */
static uint64_t plausible_at(const uint8_t *p, uint64_t left)
{
	if (!quick(p) || ovni_model_by_letter(p[1]) < 0) return 0; /* the letter first: a switch, not a search */
	const ovni_evspec *s = ovni_event_find(p + 1);
	if (!s) return 0;
	unsigned nibble = p[0] & 0x0fu;
	uint64_t len;
	if (p[0] & 0x10u) {
		if (nibble != 3 || left < 16 || hv_le32(p + 12) > OVNI_JUMBO_MAX ||
		    ovni_payload_judge(s, true, hv_le32(p + 12)) != OVNI_PAYLOAD_OK)
			return 0;
		len = 16u + hv_le32(p + 12);
	} else {
		uint64_t payload = nibble ? nibble + 1u : 0u;
		if (ovni_payload_judge(s, false, payload) != OVNI_PAYLOAD_OK) return 0;
		len = 12u + payload;
	}
	return len <= left ? len : 0;
}

uint64_t ovni_obs_plausible(hv_window *win, uint64_t off, uint64_t size)
{
	uint64_t left = size - off;
	if (left < 12) return 0;
	const uint8_t *p = hv_window_get(win, off, left < 16 ? 12 : 16);
	return p ? plausible_at(p, left) : 0;
}

/* chain_at on the bytes in memory from c (p, `avail` of them): 1 a chain,
 * 0 none, -1 the chain runs past what is in memory (ask the window). */
static int chain_mem(const uint8_t *p, size_t avail, uint64_t c, uint64_t size)
{
	uint64_t o = 0, len;
	unsigned k = 0;
	while (k < SYNC_CHAIN && c + o < size) {
		uint64_t left = size - c - o;
		if (o + (left < 16 ? left : 16) > avail) return -1;
		if (left < 12 || (len = plausible_at(p + o, left)) == 0) break;
		o += len;
		k++;
	}
	return k == SYNC_CHAIN || (k > 0 && c + o == size);
}

static bool chain_at(hv_window *win, hv_blob *b, uint64_t c)
{
	uint64_t o = c, len;
	unsigned k = 0;
	while (k < SYNC_CHAIN && o < b->size && (len = ovni_obs_plausible(win, o, b->size)) != 0) {
		o += len;
		k++;
	}
	return k == SYNC_CHAIN || (k > 0 && o == b->size);
}

bool ovni_obs_chain_at(hv_blob *b, uint64_t off)
{
	hv_window win;
	if (!hv_window_init(&win, b, SYNC_WINDOW)) return false;
	bool ok = chain_at(&win, b, off);
	hv_window_free(&win);
	return ok;
}

/* The model letters (ovni_model_by_letter), at most 16, for the block test. */
typedef struct letters {
	uint8_t c[16];
	unsigned n;
} letters;

static void get_letters(letters *l)
{
	l->n = 0;
	for (unsigned c = 0x21; c < 0x7f && l->n < 16; c++)
		if (ovni_model_by_letter((uint8_t)c) >= 0) l->c[l->n++] = (uint8_t)c;
}

/* Bit j set: position j (of 32) could start a valid event (quick, and its
 * model letter is known). Reads p[0..34]. */
static uint32_t block_mask(const uint8_t *p, const letters *l)
{
#if defined(__SSE2__)
	uint32_t m = 0;
	for (unsigned h = 0; h < 2; h++) {
		const uint8_t *q = p + 16 * h;
		__m128i b1 = _mm_loadu_si128((const __m128i *)(q + 1));
		__m128i b2 = _mm_loadu_si128((const __m128i *)(q + 2)), b3 = _mm_loadu_si128((const __m128i *)(q + 3));
		/* graph: c - 0x21 < 94 unsigned, i.e. (c + 0x5f) as signed < -34 */
		const __m128i sh = _mm_set1_epi8(0x5f), lim = _mm_set1_epi8(-34);
		__m128i ok = _mm_cmplt_epi8(_mm_add_epi8(b2, sh), lim);
		ok = _mm_and_si128(ok, _mm_cmplt_epi8(_mm_add_epi8(b3, sh), lim));
		/* the model letter within [first, last letter], the same way: with
		 * byte 0 free, this is what keeps garbage off the letter loop */
		ok = _mm_and_si128(ok, _mm_cmplt_epi8(_mm_add_epi8(b1, _mm_set1_epi8((char)(0x80 - l->c[0]))),
						      _mm_set1_epi8((char)(-128 + (l->c[l->n - 1] - l->c[0]) + 1))));
		if (_mm_movemask_epi8(ok) == 0) continue; /* zero fill: no letter to test */
		__m128i lt = _mm_setzero_si128();
		for (unsigned k = 0; k < l->n; k++) lt = _mm_or_si128(lt, _mm_cmpeq_epi8(b1, _mm_set1_epi8((char)l->c[k])));
		m |= (uint32_t)_mm_movemask_epi8(_mm_and_si128(ok, lt)) << (16 * h);
	}
	return m;
#else
	(void)l;
	uint32_t m = 0;
	for (unsigned j = 0; j < 32; j++) m |= (uint32_t)(quick(p + j) && ovni_model_by_letter(p[j + 1]) >= 0) << j;
	return m;
#endif
}

/* The event headers starting in [cn->h, limit), by the lengths they
 * declare (byte 0; a jumbo event's size at 12..15), counted into cn->n;
 * cn->h is left at the first header at or beyond limit. p holds the
 * stream's bytes [ps, ps + plen); others are read through win. */
static void count_headers(ovni_obs_count *cn, uint64_t limit, const uint8_t *p, uint64_t ps, size_t plen, hv_window *win,
			  hv_blob *b)
{
	while (cn->h < limit) {
		uint64_t h = cn->h, left = b->size - h;
		const uint8_t *q = h >= ps && h - ps + 16 <= plen ? p + (h - ps) : hv_window_get(win, h, left < 16 ? (size_t)left : 16);
		cn->n++;
		if (!q || ((q[0] & 0x10u) && left < 16)) {
			cn->h = b->size; /* a jumbo header cut by the end: nothing follows */
			return;
		}
		uint64_t len = (q[0] & 0x10u) ? 16u + (uint64_t)hv_le32(q + 12) : 12u + (q[0] & 0x0fu) + ((q[0] & 0x0fu) != 0);
		cn->h = len < left ? h + len : b->size;
	}
}

uint64_t ovni_obs_resync(hv_blob *b, uint64_t from, uint64_t last, ovni_obs_count *cn)
{
	letters lt;
	get_letters(&lt);
	if (last > b->size) last = b->size;
	hv_window scan, win;
	if (!hv_window_init(&win, b, SYNC_WINDOW)) return UINT64_MAX;
	if (!hv_window_init(&scan, b, SCAN_WINDOW)) {
		hv_window_free(&win);
		return UINT64_MAX;
	}
	uint64_t found = UINT64_MAX, c = from;
	/* an event needs 12 bytes: no chain starts in the last 11 */
	while (found == UINT64_MAX && c < last && b->size - c >= 12 && !b->io_failed) {
		uint64_t left = b->size - c;
		size_t want = left < SCAN_WINDOW ? (size_t)left : SCAN_WINDOW;
		const uint8_t *p = hv_window_get(&scan, c, want);
		if (!p) break;
		/* candidates i with i + 4 <= want, below `last` */
		size_t n = want - 3;
		if (last - c < n) n = (size_t)(last - c);
		size_t i = 0;
		while (i < n && found == UINT64_MAX) {
			/* the candidates among the next 32 positions as a mask, then
			 * each of them: most blocks of garbage hold none */
			uint32_t m = 0;
			size_t k = n - i < 32 ? n - i : 32;
			if (k == 32 && i + 32 + 3 <= want) {
				m = block_mask(p + i, &lt);
			} else {
				for (unsigned j = 0; j < k; j++) m |= (uint32_t)quick(p + i + j) << j;
			}
			while (m) {
				unsigned j = (unsigned)__builtin_ctz(m);
				m &= m - 1;
				int ch = chain_mem(p + i + j, want - i - j, c + i + j, b->size);
				if (ch == 1 || (ch < 0 && chain_at(&win, b, c + i + j))) {
					found = c + i + j;
					break;
				}
			}
			i += k;
		}
		/* the headers of what this buffer scanned, while it is in memory */
		if (cn) count_headers(cn, found != UINT64_MAX ? found : c + i, p, c, want, &win, b);
		c += i;
	}
	if (cn) count_headers(cn, found != UINT64_MAX ? found : last, NULL, 0, 0, &win, b);
	hv_window_free(&scan);
	hv_window_free(&win);
	return found;
}
