/* Mutation dispatch: the container is opened so one member is mutated and
 * the lengths stay right; single files go to their format's mutator. */
#include "mutator.h"

#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "mutator_core.h"

size_t mutate_bytes(uint8_t *d, size_t size, size_t max, mrng *g)
{
	switch (mrng_below(g, 6)) {
	case 0: /* flip a bit */
		if (size) d[mrng_below(g, size)] ^= (uint8_t)(1u << mrng_below(g, 8));
		return size;
	case 1: /* a random byte */
		if (size) d[mrng_below(g, size)] = (uint8_t)mrng_next(g);
		return size;
	case 2: { /* an interesting value at any offset */
		unsigned w = pick_width(g);
		if (size < w) return size;
		uint8_t *p = d + mrng_below(g, size - w + 1);
		bool be = mrng_below(g, 2);
		field_put(p, w, be, interesting(g, field_get(p, w, be), w, size));
		return size;
	}
	case 3: { /* delete a chunk */
		if (size < 2) return size;
		size_t at = mrng_below(g, size), n = 1 + mrng_below(g, size - at < 64 ? size - at : 64);
		memmove(d + at, d + at + n, size - at - n);
		return size - n;
	}
	case 4: { /* duplicate a chunk */
		if (!size || size >= max) return size;
		size_t at = mrng_below(g, size), n = 1 + mrng_below(g, size - at < 64 ? size - at : 64);
		if (n > max - size) n = max - size;
		memmove(d + at + n, d + at, size - at);
		return size + n;
	}
	default: /* truncate */
		return size ? mrng_below(g, size) : 0;
	}
}

static size_t parse_container(const uint8_t *d, size_t size, mmember *m, size_t cap)
{
	size_t at = 0, n = 0;
	while (at < size) {
		if (n == cap || !hv_range_in(at, 2, size)) return 0;
		size_t nl = hv_le16(d + at);
		if (nl == 0 || nl > FUZZ_NAME_MAX || !hv_range_in(at + 2, nl + 4, size)) return 0;
		for (size_t i = 0; i < nl; i++)
			if (d[at + 2 + i] < 0x20 || d[at + 2 + i] > 0x7e) return 0;
		m[n].name_at = at + 2;
		m[n].name_len = nl;
		m[n].len_at = at + 2 + nl;
		m[n].data_at = m[n].len_at + 4;
		m[n].len = hv_le32(d + m[n].len_at);
		if (!hv_range_in(m[n].data_at, m[n].len, size)) return 0;
		at = m[n].data_at + m[n].len;
		n++;
	}
	return n;
}

bool mem_splice(uint8_t *d, size_t *size, size_t max, mmember *m, size_t n, size_t k, size_t at, size_t del,
		const uint8_t *ins, size_t nins)
{
	mmember *f = &m[k];
	if (at < f->data_at || del > f->data_at + f->len - at) return false;
	size_t len = f->len - del;
	if (nins > max || len > max - nins || *size - del > max - nins) return false;
	len += nins;
	if (f->len_at != NO_LEN_FIELD && len > UINT32_MAX) return false;
	memmove(d + at + nins, d + at + del, *size - at - del);
	if (nins) memcpy(d + at, ins, nins);
	*size = *size - del + nins;
	f->len = len;
	if (f->len_at != NO_LEN_FIELD) hv_put_le32(d + f->len_at, (uint32_t)len);
	for (size_t i = 0; i < n; i++)
		if (m[i].data_at > f->data_at) { /* files after k moved */
			m[i].name_at = m[i].name_at - del + nins;
			m[i].len_at = m[i].len_at - del + nins;
			m[i].data_at = m[i].data_at - del + nins;
		}
	return true;
}

/* A semantic mutation of whichever family the input holds (0: none). */
static size_t mutate_semantic(uint8_t *d, size_t size, size_t max, mmember *m, size_t n, mrng *g)
{
	mmember lone = {0, 0, NO_LEN_FIELD, 0, size};
	if (n == 0) {
		m = &lone;
		n = 1;
	}
	typedef size_t (*sem_fn)(uint8_t *, size_t, size_t, mmember *, size_t, mrng *);
	static const sem_fn fam[] = {sem_dumpi, sem_ovni, sem_hpctk};
	size_t first = mrng_below(g, 3);
	for (size_t i = 0; i < 3; i++) { /* the first family (from a random start) the input holds */
		size_t got = fam[(first + i) % 3](d, size, max, m, n, g);
		if (got) return got;
	}
	return 0;
}

static size_t mutate_file(uint8_t *d, size_t size, size_t max, mrng *g, hv_byte_mutator bytes);

/* Mutate one member's data in a scratch copy, then splice it back with its
 * new length; sometimes drop or duplicate a whole member instead. */
static size_t mutate_container(uint8_t *d, size_t size, size_t max, const mmember *m, size_t n, mrng *g,
			       hv_byte_mutator bytes)
{
	const mmember *k = &m[mrng_below(g, n)];
	size_t entry_start = k == m ? 0 : k[-1].data_at + k[-1].len;
	size_t entry_end = k->data_at + k->len;
	unsigned op = (unsigned)mrng_below(g, 20);
	if (op == 0 && n > 1) { /* drop the member: a file missing from the set */
		memmove(d + entry_start, d + entry_end, size - entry_end);
		return size - (entry_end - entry_start);
	}
	if (op == 1 && size + (entry_end - entry_start) <= max) { /* the member twice */
		size_t len = entry_end - entry_start;
		memmove(d + entry_end + len, d + entry_end, size - entry_end);
		memmove(d + entry_end, d + entry_start, len);
		return size + len;
	}
	size_t other = size - k->len;
	if (other > max || max - other > UINT32_MAX) return size;
	size_t cap = max - other;
	uint8_t *tmp = malloc(cap ? cap : 1);
	if (!tmp) return size;
	memcpy(tmp, d + k->data_at, k->len);
	size_t nl = mutate_file(tmp, k->len, cap, g, bytes);
	if (nl > cap) nl = cap;
	memmove(d + k->data_at + nl, d + entry_end, size - entry_end);
	memcpy(d + k->data_at, tmp, nl);
	hv_put_le32(d + k->len_at, (uint32_t)nl);
	free(tmp);
	return other + nl;
}

static bool looks_text(const uint8_t *d, size_t size)
{
	size_t i = 0;
	while (i < size && (d[i] == ' ' || d[i] == '\n' || d[i] == '\t' || d[i] == '\r')) i++;
	if (i < size && d[i] == '{') return true;
	for (size_t j = 0; j < size && j < 64; j++)
		if (d[j] == '=') return true;
	return false;
}

static const uint8_t dumpi_magic[8] = {0xff, 0xaa, 0xdd, 'D', 'U', 'M', 'P', 'I'};

static size_t mutate_file(uint8_t *d, size_t size, size_t max, mrng *g, hv_byte_mutator bytes)
{
	size_t got = 0;
	/* One in four mutations stays byte-level even on a recognised format:
	 * damage the structural mutator would never produce (broken magics,
	 * torn headers) must stay reachable. */
	if (mrng_below(g, 4) != 0) {
		/* A third of the structure-aware calls change meaning, not layout. */
		if (mrng_below(g, 3) == 0) got = mutate_semantic(d, size, max, NULL, 0, g);
		if (got) return got;
		if (size >= 32 && memcmp(d, "HPCTOOLKIT", 10) == 0)
			got = mutate_hpctk(d, size, max, g);
		else if (size >= 72 && memcmp(d, dumpi_magic, 8) == 0)
			got = mutate_dumpi_bin(d, size, max, g);
		else if (size >= 20 && memcmp(d, "ovni", 4) == 0)
			got = mutate_ovni_obs(d, size, max, g);
		else if (looks_text(d, size))
			got = mutate_text(d, size, max, g);
	}
	if (got) return got;
	return bytes ? bytes(d, size, max) : mutate_bytes(d, size, max, g);
}

size_t hv_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, hv_byte_mutator bytes)
{
	mrng g = {seed ^ 0x6876766574ull};
	if (size > max_size) size = max_size;
	mmember m[FUZZ_MAX_FILES];
	size_t n = parse_container(data, size, m, FUZZ_MAX_FILES), out = 0;
	/* On a container, a quarter of the calls are semantic (across its
	 * files); the rest mutate one file, a third of whose structure-aware
	 * calls are semantic again (within that file). Together: 42% of the
	 * calls, half of the structure-aware ones (83%), on a container of
	 * binary files; 33% and 40% on an ovni trace, half of whose files are
	 * JSON. */
	if (n && mrng_below(&g, 4) == 0) out = mutate_semantic(data, size, max_size, m, n, &g);
	if (!out)
		out = n ? mutate_container(data, size, max_size, m, n, &g, bytes) : mutate_file(data, size, max_size, &g, bytes);
	return out > max_size ? max_size : out;
}

size_t hv_fuzz_mutate_semantic(uint8_t *data, size_t size, size_t max_size, uint64_t seed)
{
	mrng g = {seed ^ 0x73656d616e746963ull};
	if (size > max_size) size = max_size;
	mmember m[FUZZ_MAX_FILES];
	size_t n = parse_container(data, size, m, FUZZ_MAX_FILES);
	size_t out = mutate_semantic(data, size, max_size, m, n, &g);
	return out > max_size ? max_size : out;
}
