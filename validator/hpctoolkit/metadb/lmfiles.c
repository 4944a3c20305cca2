/* meta.db Load Modules, Source Files and Functions sections: three arrays
 * of fixed-stride specifications whose strings live in the Common String
 * Table, and which the context tree points at by element. Reserved flag
 * fields are not checked: hpcprof never writes the function flags, and
 * real files carry stack garbage there (research/hpctoolkit.md §3.1). */
#include <stdio.h>

#include "internal.h"

#define SZ_MODULE 0x10u
#define SZ_FILE 0x10u
#define SZ_FUNCTION 0x28u

/* One of the three list sections: its rules and names. */
typedef struct list_desc {
	enum md_sec sec;
	int r_stride, r_contained, r_aligned;
	unsigned min_stride;
	const char *arr, *szname, *structure;
	int r_path; /* Modules and Files: the pPath string rule */
} list_desc;

static const list_desc modules_desc = {MD_MODULES, HV_R_METADB_MODULES_SZMODULE, HV_R_METADB_MODULES_ARRAY_CONTAINED,
				       HV_R_METADB_MODULES_ALIGNED, SZ_MODULE, "pModules", "szModule",
				       "a Load Module Specification", HV_R_METADB_MODULES_PATH_STRING};
static const list_desc files_desc = {MD_FILES, HV_R_METADB_FILES_SZFILE, HV_R_METADB_FILES_ARRAY_CONTAINED,
				     HV_R_METADB_FILES_ALIGNED, SZ_FILE, "pFiles", "szFile",
				     "a Source File Specification", HV_R_METADB_FILES_PATH_STRING};
static const list_desc functions_desc = {MD_FUNCTIONS, HV_R_METADB_FUNCTIONS_SZFUNCTION,
					 HV_R_METADB_FUNCTIONS_ARRAY_CONTAINED, HV_R_METADB_FUNCTIONS_ALIGNED,
					 SZ_FUNCTION, "pFunctions", "szFunction", "a Function Specification", -1};

/* The common {pArray, nElements u32, szElement u16} section header. Fills
 * `a` and returns true when the array can be walked. */
static bool list_header(md_state *m, const list_desc *d, md_array *a)
{
	enum md_sec s = d->sec;
	a->ok = false;
	if (!md_check_section_size(m, s, MD_SZ_LIST_HDR)) return false;
	uint64_t p = m->lo[s];
	a->base = md_u64(m, p);
	a->count = md_u32(m, p + 8);
	a->stride = md_u16(m, p + 12);
	char path[HV_PATH_MAX];
	if (a->count == 0) {
		a->ok = true; /* nothing to point at; stride and pointer unused */
		a->stride = a->stride ? a->stride : 1;
		return true;
	}
	snprintf(path, sizeof path, "meta.db/%s/%s", md_sec_name[s], d->szname);
	if (!md_check_stride(m, d->r_stride, p + 12, 2, a->stride, d->min_stride, path, d->szname, d->structure))
		return false;
	snprintf(path, sizeof path, "meta.db/%s/%s", md_sec_name[s], d->arr);
	if (!md_check_array(m, d->r_contained, d->r_aligned, s, p, a->base, a->count, a->stride, 8, path, d->arr))
		return false;
	a->ok = true;
	return true;
}

/* Load Module and Source File Specifications: flags, then pPath @0x08 into
 * the Common String Table. */
static void check_path_list(md_state *m, const list_desc *d, md_array *a)
{
	if (!list_header(m, d, a)) return;
	char path[HV_PATH_MAX];
	for (uint64_t i = 0; i < a->count; i++) {
		uint64_t e = a->base + i * a->stride;
		snprintf(path, sizeof path, "meta.db/%s/%s[%llu]/pPath", md_sec_name[d->sec], d->arr, (unsigned long long)i);
		md_check_string(m, d->r_path, MD_STRINGS, e + 8, md_u64(m, e + 8), path, "pPath");
	}
}

void md_check_modules(md_state *m) { check_path_list(m, &modules_desc, &m->modules); }

void md_check_files(md_state *m) { check_path_list(m, &files_desc, &m->files); }

void md_check_functions(md_state *m)
{
	md_array *a = &m->functions;
	if (!list_header(m, &functions_desc, a)) return;
	char path[HV_PATH_MAX];
	for (uint64_t i = 0; i < a->count; i++) {
		uint64_t e = a->base + i * a->stride;
		uint64_t pname = md_u64(m, e), pmodule = md_u64(m, e + 8), pfile = md_u64(m, e + 0x18);
		int len = snprintf(path, sizeof path, "meta.db/Functions/pFunctions[%llu]", (unsigned long long)i);
		if (!hv_eval(m->r, HV_R_METADB_FUNCTIONS_NO_IDENTITY, pname || pmodule || pfile))
			hv_emit(m->r, HV_R_METADB_FUNCTIONS_NO_IDENTITY, m->b->name, e, 0x20, path,
				"pName, pModule and pFile are all 0: at least one must identify the function");
		snprintf(path + len, sizeof path - (size_t)len, "/pName");
		if (pname)
			md_check_string(m, HV_R_METADB_FUNCTIONS_NAME_STRING, MD_STRINGS, e, pname, path, "pName");
		snprintf(path + len, sizeof path - (size_t)len, "/pModule");
		if (pmodule)
			md_check_ref(m, HV_R_METADB_FUNCTIONS_MODULE_REF, &m->modules, e + 8, pmodule, path, "pModule",
				     "pModules");
		snprintf(path + len, sizeof path - (size_t)len, "/pFile");
		if (pfile)
			md_check_ref(m, HV_R_METADB_FUNCTIONS_FILE_REF, &m->files, e + 0x18, pfile, path, "pFile", "pFiles");
	}
}
