/* The hex context view under a text diagnostic: the bytes around the
 * offending field with an offset ruler, the field highlighted and marked with
 * carets, like a compiler pointing at a column.
 *
 *      offset  +0 +1 +2 +3 +4 +5 +6 +7  +8 +9 +a +b +c +d +e +f
 *      0x000000  48 50 43 54 4f 4f 4c 4b  49 54 78 65 74 61 04 00  HPCTOOLKITxeta..
 *                ^^ ^^ ^^ ^^ ^^ ^^ ^^ ^^  ^^ ^^ ^^ ^^ ^^ ^^
 *
 * At most HV_HEX_ROWS rows are shown; a longer field says how much is not.
 * The bytes come from the caller's read_bytes callback (the CLI re-reads
 * them at print time, only from a file that is still the one judged):
 * this file does no I/O. */
#include <inttypes.h>
#include <string.h>

#include "output.h"

#define ANSI_HI "\033[1;31m"
#define ANSI_DIM "\033[2m"
#define ANSI_OFF "\033[0m"

static void hex_row(FILE *out, uint64_t row, const uint8_t *bytes, size_t have, uint64_t lo, uint64_t hi, bool color)
{
	fprintf(out, "    %s0x%06" PRIx64 "%s  ", color ? ANSI_DIM : "", row, color ? ANSI_OFF : "");
	for (size_t i = 0; i < 16; i++) {
		uint64_t at = row + i;
		bool in = at >= lo && at < hi;
		if (i == 8) fputc(' ', out);
		if (i >= have) {
			fputs("   ", out);
			continue;
		}
		if (in && color) fprintf(out, ANSI_HI "%02x" ANSI_OFF " ", bytes[i]);
		else fprintf(out, "%02x ", bytes[i]);
	}
	fputc(' ', out);
	for (size_t i = 0; i < have; i++) {
		uint64_t at = row + i;
		bool in = at >= lo && at < hi;
		char c = bytes[i] >= 0x20 && bytes[i] < 0x7f ? (char)bytes[i] : '.';
		if (in && color) fprintf(out, ANSI_HI "%c" ANSI_OFF, c);
		else fputc(c, out);
	}
	fputc('\n', out);
	/* The caret line, so the field is visible without colour too. */
	bool any = false;
	for (size_t i = 0; i < have && !any; i++) any = row + i >= lo && row + i < hi;
	if (!any) return;
	char line[80];
	size_t n = 0;
	for (size_t i = 0; i < 16 && i < have; i++) {
		if (i == 8) line[n++] = ' ';
		bool in = row + i >= lo && row + i < hi;
		line[n++] = in ? '^' : ' ';
		line[n++] = in ? '^' : ' ';
		line[n++] = ' ';
	}
	while (n > 0 && line[n - 1] == ' ') n--;
	line[n] = '\0';
	fprintf(out, "              %s%s%s\n", color ? ANSI_HI : "", line, color ? ANSI_OFF : "");
}

size_t hv_hex_window(const hv_diag *d, const hv_output_opts *o, uint64_t *first_out, uint8_t buf[HV_HEX_BYTES])
{
	*first_out = 0;
	if (!o->read_bytes || !d->file) return 0;
	uint64_t lo = d->offset;
	/* A zero-length field (a missing structure, the end of a file) is marked
	 * as one position. */
	uint64_t len = d->length ? d->length : 1;
	uint64_t hi = lo + len < lo ? UINT64_MAX : lo + len;
	uint64_t first = lo & ~(uint64_t)15;
	uint64_t last_needed = hi - 1;
	uint64_t last = first + (HV_HEX_ROWS - 1) * 16;
	if ((last_needed & ~(uint64_t)15) < last) last = last_needed & ~(uint64_t)15;
	size_t want = (size_t)(last - first) + 16;
	*first_out = first;
	return o->read_bytes(o->read_ctx, d->file, first, buf, want);
}

void hv_write_hex_context(FILE *out, const hv_diag *d, const hv_output_opts *o)
{
	if (!o->read_bytes || !d->file) return;
	uint64_t lo = d->offset;
	uint64_t len = d->length ? d->length : 1;
	uint64_t hi = lo + len < lo ? UINT64_MAX : lo + len;
	uint64_t first;
	uint8_t buf[HV_HEX_BYTES];
	size_t got = hv_hex_window(d, o, &first, buf);
	if (got == HV_READ_CHANGED || got == HV_READ_UNJUDGED) {
		fputs(got == HV_READ_CHANGED
			      ? "    (the file changed after it was checked: its bytes now are not the ones judged, so none are shown)\n"
			      : "    (the file was checked by another process: the bytes judged are not at hand, so none are shown)\n",
		      out);
		return;
	}
	uint64_t last = first + (HV_HEX_ROWS - 1) * 16;
	if (((hi - 1) & ~(uint64_t)15) < last) last = (hi - 1) & ~(uint64_t)15;
	if (got == 0 || first + got <= lo) {
		fprintf(out, "    (offset 0x%" PRIx64 " is past the end of the file)\n", lo);
		return;
	}
	fprintf(out, "    %s  offset  +0 +1 +2 +3 +4 +5 +6 +7  +8 +9 +a +b +c +d +e +f%s\n", o->color ? ANSI_DIM : "",
		o->color ? ANSI_OFF : "");
	for (uint64_t row = first; row <= last && row - first < got; row += 16) {
		size_t have = got - (size_t)(row - first);
		if (have > 16) have = 16;
		hex_row(out, row, buf + (row - first), have, lo, hi, o->color);
	}
	uint64_t shown_end = first + got;
	if (hi > shown_end && hi - shown_end > 0)
		fprintf(out, "              ... field continues for %" PRIu64 " more byte%s\n", hi - shown_end,
			hi - shown_end == 1 ? "" : "s");
}
