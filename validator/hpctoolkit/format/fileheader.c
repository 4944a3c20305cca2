#include "fileheader.h"

#include <stdio.h>
#include <string.h>

#include "core/hv_int.h"

bool hpctk_sniff(hv_blob *b, const char code[4])
{
	uint8_t id[14];
	if (!hv_blob_read(b, 0, id, sizeof id)) return false;
	return memcmp(id, "HPCTOOLKIT", 10) == 0 && memcmp(id + 10, code, 4) == 0;
}

static void printable(char *out, const uint8_t *in, size_t n)
{
	for (size_t i = 0; i < n; i++) out[i] = (in[i] >= 0x20 && in[i] < 0x7f) ? (char)in[i] : '.';
	out[n] = '\0';
}

static void check_sections(const hpctk_file_desc *d, hv_blob *b, hv_report *r, const uint8_t *hdr, hpctk_header *h)
{
	char path[HV_PATH_MAX];
	uint64_t hsize = hpctk_header_size(d);
	for (unsigned i = 0; i < d->nsections; i++) {
		const hpctk_section_desc *s = &d->sections[i];
		uint64_t at = 16u + 16u * i;
		h->sz[i] = hv_le64(hdr + at);
		h->p[i] = hv_le64(hdr + at + 8);
		snprintf(path, sizeof path, "%s/header/{sz,p}%s", d->file, s->name);
		bool inside = h->p[i] >= hsize && hv_range_in(h->p[i], h->sz[i], h->body_end);
		if (!hv_eval(r, d->r_sec_contained, inside))
			hv_emit(r, d->r_sec_contained, b->name, at, 16, path,
				"section %s [0x%llx, +0x%llx) is not inside the file body [0x%llx, 0x%llx) "
				"between the header and the footer",
				s->name, (unsigned long long)h->p[i], (unsigned long long)h->sz[i],
				(unsigned long long)hsize, (unsigned long long)h->body_end);
		h->sec_ok[i] = inside;
		if (!hv_eval(r, d->r_sec_aligned, hv_aligned(h->p[i], s->align)))
			hv_emit(r, d->r_sec_aligned, b->name, at + 8, 8, path,
				"section %s starts at 0x%llx, which is not %u-byte aligned", s->name,
				(unsigned long long)h->p[i], s->align);
	}
	/* Overlap among sections, independent of their order in the file. */
	for (unsigned i = 0; i < d->nsections; i++)
		for (unsigned j = i + 1; j < d->nsections; j++) {
			if (!h->sec_ok[i] || !h->sec_ok[j]) continue;
			bool ov = hv_ranges_overlap(h->p[i], h->sz[i], h->p[j], h->sz[j]);
			snprintf(path, sizeof path, "%s/header/{sz,p}%s", d->file, d->sections[j].name);
			if (!hv_eval(r, d->r_sec_overlap, !ov))
				hv_emit(r, d->r_sec_overlap, b->name, 16u + 16u * j, 16, path,
					"section %s [0x%llx, +0x%llx) overlaps section %s [0x%llx, +0x%llx)",
					d->sections[j].name, (unsigned long long)h->p[j], (unsigned long long)h->sz[j],
					d->sections[i].name, (unsigned long long)h->p[i], (unsigned long long)h->sz[i]);
		}
}

bool hpctk_check_header(const hpctk_file_desc *d, hv_blob *b, hv_report *r, bool expect_footer, hpctk_header *h)
{
	char path[HV_PATH_MAX];
	memset(h, 0, sizeof *h);
	uint64_t hsize = hpctk_header_size(d);
	uint64_t minsize = hsize + (expect_footer ? 8u : 0u);
	uint8_t hdr[16 + 16 * HPCTK_MAX_SECTIONS];

	snprintf(path, sizeof path, "%s/header", d->file);
	if (!hv_eval(r, d->r_truncated, b->size >= minsize)) {
		hv_emit(r, d->r_truncated, b->name, 0, b->size, path,
			"file is %llu bytes, shorter than the %llu bytes of its header%s",
			(unsigned long long)b->size, (unsigned long long)hsize, expect_footer ? " and footer" : "");
		/* Whatever the last 8 bytes of a cut file are, they are not a footer
		 * slot, so report the truncation alone. */
		expect_footer = false;
		if (b->size < 16) return false;
	}
	size_t have = b->size < hsize ? (size_t)b->size : (size_t)hsize;
	memset(hdr, 0, sizeof hdr);
	if (!hv_blob_read(b, 0, hdr, have)) return false;

	char shown[15];
	printable(shown, hdr, 14);
	snprintf(path, sizeof path, "%s/header/magic", d->file);
	bool magic_ok = memcmp(hdr, "HPCTOOLKIT", 10) == 0 && memcmp(hdr + 10, d->code, 4) == 0;
	if (!hv_eval(r, d->r_magic, magic_ok))
		hv_emit(r, d->r_magic, b->name, 0, 14, path, "identification reads \"%s\", expected \"HPCTOOLKIT%s\"",
			shown, d->code);

	h->major = hdr[14];
	h->minor = hdr[15];
	snprintf(path, sizeof path, "%s/header/majorVersion", d->file);
	bool major_ok = h->major == HPCTK_MAJOR;
	if (!hv_eval(r, d->r_major, major_ok))
		hv_emit(r, d->r_major, b->name, 14, 1, path,
			"major version %u; this validator knows major version %u only, and a different major "
			"version means an incompatible layout",
			h->major, HPCTK_MAJOR);
	h->newer_minor = h->minor > HPCTK_KNOWN_MINOR;
	snprintf(path, sizeof path, "%s/header/minorVersion", d->file);
	if (!hv_eval(r, d->r_minor_newer, !h->newer_minor))
		hv_emit(r, d->r_minor_newer, b->name, 15, 1, path,
			"minor version %u is newer than the %u.%u this validator knows: fields added since are not "
			"checked, strides from the file are honoured",
			h->minor, HPCTK_MAJOR, HPCTK_KNOWN_MINOR);

	h->body_end = b->size;
	if (expect_footer && b->size >= 8) {
		uint8_t foot[8];
		if (!hv_blob_read(b, b->size - 8, foot, 8)) return false;
		bool foot_ok = memcmp(foot, d->footer, 8) == 0;
		char fshown[9];
		printable(fshown, foot, 8);
		snprintf(path, sizeof path, "%s/footer", d->file);
		if (!hv_eval(r, d->r_footer, foot_ok))
			hv_emit(r, d->r_footer, b->name, b->size - 8, 8, path,
				"last 8 bytes read \"%s\", expected the footer \"%s\" (a missing footer usually means "
				"the writer did not finish)",
				fshown, d->footer);
		h->body_end = b->size - 8;
	}
	if (b->size < hsize) return false;
	h->usable = magic_ok && major_ok;
	if (h->usable) check_sections(d, b, r, hdr, h);
	return h->usable;
}
