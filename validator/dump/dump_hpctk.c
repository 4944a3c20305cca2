/* HPCToolkit dump (sections come next): the file as one item for now. */
#include "dump.h"

void hv_dump_hpctk(hv_dump_ctx *d, const char *file_kind)
{
	(void)file_kind;
	dw_item_begin(d->w, "file", "", 0, d->b->size);
	dw_str(d->w, "note", "no structure dump for this format yet");
	dw_item_end(d->w);
}
