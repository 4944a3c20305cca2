/* The HTML report's parts (html.c writes the page around them). */
#ifndef HV_HTML_H
#define HV_HTML_H

#include "output.h"

/* The reports as the page's JSON data, safe inside a <script> element
 * (html_data.c); false when out of memory. */
bool hv_html_write_data(FILE *out, hv_report *const *reps, size_t n, const hv_output_opts *o);

/* The page's style sheet and script: validator/output/html/report.css and
 * report.js, made C strings by the build (html/embed.sh). */
extern const char hv_html_css[];
extern const char hv_html_js[];

#endif
