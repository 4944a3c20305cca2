/* ovni dump (events come next): the file as one item for now. */
#include "dump.h"

void hv_dump_ovni_stream(hv_dump_ctx *d)
{
	dw_item_begin(d->w, "file", "", 0, d->b->size);
	dw_str(d->w, "note", "no structure dump for this format yet");
	dw_item_end(d->w);
}
