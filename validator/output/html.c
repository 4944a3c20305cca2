/* `--format=html`: one page that opens from disk with no network. The style
 * sheet and the script are inline (html/report.css, html/report.js), the
 * reports are inline data (html_data.c), and the script draws the table and
 * the SVG pictures from that data when the page opens. Nothing here reads a
 * file or depends on threads: the same writer runs in the web page's
 * WebAssembly build, where the bytes come through o->read_bytes too. */
#include <string.h>

#include "html.h"

/* The title and the page's skeleton; the script fills it in. A page whose
 * script cannot run still says what it is and where the data is. */
static void write_title(FILE *out, hv_report *const *reps, size_t n)
{
	char buf[4096];
	fputs("<title>hpcvet report", out);
	if (n == 1) {
		hv_out_clean(reps[0]->input_path ? reps[0]->input_path : "", buf, sizeof buf);
		fputs(": ", out);
		for (const char *s = buf; *s; s++) {
			if (*s == '<') fputs("&lt;", out);
			else if (*s == '&') fputs("&amp;", out);
			else fputc(*s, out);
		}
	} else if (n > 1) {
		fprintf(out, ": %zu inputs", n);
	}
	fputs("</title>\n", out);
}

bool hv_write_html(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"hpcvet " HV_VERSION "\">\n",
	      out);
	/* no request leaves the page, whatever a message holds */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
	      out);
	write_title(out, reps, n);
	fputs("<style>\n", out);
	fputs(hv_html_css, out);
	fputs("</style>\n</head>\n<body>\n"
	      "<noscript><p>This hpcvet report is drawn by its script; the data is the JSON in the "
	      "element hv-data of this file.</p></noscript>\n"
	      "<div id=\"hv-app\"></div>\n"
	      "<script type=\"application/json\" id=\"hv-data\">",
	      out);
	bool ok = hv_html_write_data(out, reps, n, o);
	fputs("</script>\n<script>\n", out);
	fputs(hv_html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return ok;
}
