/* A tree's streams as data (tree.h): a stream's identity and the path it
 * is shown by, which the trace's walk, the fused pass and the model share. */
#include <string.h>

#include "tree.h"

/* The display path of a file: relative to the input directory. */
const char *ovni_relpath(const hv_report *r, const char *name)
{
	const char *root = r->input_path;
	size_t n = root ? strlen(root) : 0;
	if (n && strncmp(name, root, n) == 0 && name[n] == '/') return name + n + 1;
	return name;
}

/* A v3 stream's identity is what its stream.json says. */
void ovni_stream_ids_from_meta(ovni_stream *s)
{
	s->tid_ok = s->meta.has_tid;
	s->pid_ok = s->meta.has_pid;
	s->loom_ok = s->meta.has_loom;
	s->tid = s->meta.tid;
	s->pid = s->meta.pid;
	memcpy(s->loom, s->meta.loom, sizeof s->loom);
	s->thread = s->tid_ok && s->pid_ok && s->loom_ok;
}
