/* Text inputs: ovni stream.json / metadata.json and the DUMPI .meta
 * (key=value lines). Mutations replace a number with a boundary value,
 * a quoted string or key with one the formats know, or a value with a
 * different JSON type / a deep nesting; the rest of the text stays. A
 * fourth kind grows the text by a shape repeated up to thousands of times
 * (openers of deep nesting, items of a wide collection, keys, lines): the
 * shapes whose cost per byte a parser may multiply, which byte-level
 * mutation would need thousands of lucky steps to build. */
#include <stdio.h>
#include <string.h>

#include "mutator_core.h"

static const char *const numbers[] = {
	"0", "-1", "1", "2", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
	"-9223372036854775808", "9223372036854775807", "1e308", "-0", "1.5", "65535", "65536", "1000000000",
};
static const char *const words[] = {
	"\"version\"", "\"ovni\"", "\"nosv\"", "\"nanos6\"", "\"loom\"", "\"app_id\"", "\"pid\"", "\"tid\"",
	"\"rank\"", "\"nranks\"", "\"cpus\"", "\"index\"", "\"phyid\"", "\"finished\"", "\"part_model\"",
	"\"require\"", "\"model_version\"", "\"clkoff\"", "\"thread\"", "\"proc\"", "\"1.0.0\"", "\"9.9.9\"",
	"\"\"", "null", "true", "[]", "{}", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "numprocs", "fileprefix",
	"hostname", "username", "startime", "starttime", "version", "subversion", "subsubversion", "pid",
};

static const char *const units[] = {
	"[", "{", "{\"a\": ", "{a: ", "- ", "  ", "a, ", "[a], ", "\"k\": 1, ", "&a x, *a, ", "*a, ", "x=1\n", "#\n",
};

/* Insert `s` repeated 2..2^16 times at `at`, within `max`. */
static size_t grow(uint8_t *d, size_t size, size_t max, size_t at, const char *s, mrng *g)
{
	size_t sl = strlen(s), reps = (size_t)2 << mrng_below(g, 16);
	if (max <= size) return 0;
	if (reps > (max - size) / sl) reps = (max - size) / sl;
	if (reps == 0) return 0;
	memmove(d + at + reps * sl, d + at, size - at);
	for (size_t r = 0; r < reps; r++) memcpy(d + at + r * sl, s, sl);
	return size + reps * sl;
}

/* Replace [at, at+n) with `s` when it fits in `max`. */
static size_t splice(uint8_t *d, size_t size, size_t max, size_t at, size_t n, const char *s)
{
	size_t sl = strlen(s);
	if (size - n + sl > max) return 0;
	memmove(d + at + sl, d + at + n, size - at - n);
	memcpy(d + at, s, sl);
	return size - n + sl;
}

static bool is_num(uint8_t c) { return (c >= '0' && c <= '9') || c == '-' || c == '.' || c == 'e' || c == '+'; }

size_t mutate_text(uint8_t *d, size_t size, size_t max, mrng *g)
{
	if (size == 0) return 0;
	size_t start = mrng_below(g, size);
	unsigned op = (unsigned)mrng_below(g, 4);
	if (op == 3) return grow(d, size, max, start, units[mrng_below(g, sizeof units / sizeof units[0])], g);
	for (size_t k = 0; k < size; k++) {
		size_t i = (start + k) % size;
		if (op == 0 && d[i] >= '0' && d[i] <= '9') { /* a number */
			size_t a = i, b = i;
			while (a > 0 && is_num(d[a - 1])) a--;
			while (b < size && is_num(d[b])) b++;
			return splice(d, size, max, a, b - a, numbers[mrng_below(g, sizeof numbers / sizeof numbers[0])]);
		}
		if (op == 1 && d[i] == '"') { /* a string or key, with its quotes */
			size_t b = i + 1;
			while (b < size && d[b] != '"' && d[b] != '\n') b++;
			if (b >= size || d[b] != '"') continue;
			return splice(d, size, max, i, b + 1 - i, words[mrng_below(g, sizeof words / sizeof words[0])]);
		}
		if (op == 2 && (d[i] == ':' || d[i] == '=')) { /* a whole value, up to , } or end of line */
			size_t b = i + 1;
			while (b < size && d[b] != ',' && d[b] != '}' && d[b] != '\n') b++;
			const char *w = mrng_below(g, 2) ? words[mrng_below(g, sizeof words / sizeof words[0])]
							 : numbers[mrng_below(g, sizeof numbers / sizeof numbers[0])];
			return splice(d, size, max, i + 1, b - i - 1, w);
		}
	}
	return 0;
}
