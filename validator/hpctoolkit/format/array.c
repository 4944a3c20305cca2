#include "array.h"

#include <stdio.h>

#include "core/hv_int.h"

bool hpctk_check_array(const hpctk_array_desc *d, hv_blob *b, hv_report *r, const hpctk_header *h, unsigned shdr,
		       uint8_t *sh, unsigned min_stride, const char *shdr_note, const char *stride_note, hpctk_array *a)
{
	char path[HV_PATH_MAX];
	uint64_t ps = h->p[0], pz = h->sz[0];
	*a = (hpctk_array){0};
	if (!hv_eval(r, d->r_short, pz >= shdr)) {
		hv_emit(r, d->r_short, b->name, 0x10, 8, d->section,
			"%s is %llu, smaller than the %u-byte section header%s", d->size_name, (unsigned long long)pz, shdr,
			shdr_note);
		return false;
	}
	if (shdr > 32 || !hv_blob_read(b, ps, sh, shdr)) return false;
	a->p = hv_le64(sh);
	a->n = hv_le32(sh + 8);
	a->sz = sh[0x0c];
	snprintf(path, sizeof path, "%s/%s", d->section, d->p_name);
	if (!hv_eval(r, d->r_aligned, hv_aligned(a->p, 8)))
		hv_emit(r, d->r_aligned, b->name, ps, 8, path, "%s = 0x%llx is not 8-byte aligned", d->p_name,
			(unsigned long long)a->p);
	bool inside = hv_range_within(a->p, hv_mul_sat(a->n, a->sz), ps + shdr, pz - shdr);
	if (!hv_eval(r, d->r_contained, inside))
		hv_emit(r, d->r_contained, b->name, ps, 0x0d, path,
			"%s [0x%llx, +%u x %u bytes) is not inside %s [0x%llx, 0x%llx)", d->what, (unsigned long long)a->p,
			a->n, a->sz, d->body, (unsigned long long)(ps + shdr), (unsigned long long)(ps + pz));
	snprintf(path, sizeof path, "%s/%s", d->section, d->sz_name);
	bool stride_ok = a->sz >= min_stride;
	if (!hv_eval(r, d->r_stride, stride_ok))
		hv_emit(r, d->r_stride, b->name, ps + 0x0c, 1, path, "%s is 0x%x, smaller than %s (0x%x%s)", d->sz_name, a->sz,
			d->structure, min_stride, stride_note);
	a->ok = inside && stride_ok;
	return true;
}

void hpctk_name_file(hv_report *r, const hpctk_header *h, enum hv_edition ed)
{
	if (h->major) snprintf(r->version, sizeof r->version, "%u.%u", h->major, h->minor);
	else snprintf(r->version, sizeof r->version, "4.0");
	if (ed != HV_EDITION_AUTO) snprintf(r->edition, sizeof r->edition, "%s", ed == HV_EDITION_DRAFT ? "draft" : "release");
}
