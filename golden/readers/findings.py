"""What the project says about each reader failure on a conforming input: the hpcvet
note that names it, or why no note can. The matrix finds the failures; these words
are the project's judgement of them, kept beside the generator so the page stays
generated. A failure no entry covers is shown as "not yet assessed"."""
import re

UNNAMED = ("named by hpcvet's note metadb.functions.reader-hazard-unnamed: a context names a function "
           "without a name (meta.db `pName` 0, which the spec allows), and the reader indexes the string "
           "table with None: TypeError (docs/reader-findings/%s)")
V1V2 = ("named by hpcvet's note ovni.tree.reader-hazard-legacy: ovni 1.14 reads v3 trees only; on a "
        "v1/v2 tree it loads no stream and exits 0 (docs/reader-findings/ovni-1.14.0-no-stream.md)")

DRAFT = ("named by hpcvet's note hpctkdb.edition.reader-hazard-draft, given on every draft-edition "
         "database (a lone file is read here inside one): no released hpcprof writes the draft layout "
         "(the early text of FORMATS.md, hpcvet's --edition=draft) and hpcviewer 2025.01, hatchet 1.4.0 "
         "and pipit read the release layout and fail on the draft's")

HATCHET_COLUMN = ("named by hpcvet's note hpctkdb.metrics.reader-hazard-hatchet-scope: a metric's scope "
                  "other than metrics/default.yaml's Sum inclusive and exclusive standard scopes whose cct.db "
                  "value at a context and profile is the last of that metric's column there and differs from "
                  "the exclusive scope's (or that one has none): hatchet 1.4.0 writes every such scope into "
                  "the metric's one exclusive column, the last one cct.db lists winning "
                  "(docs/reader-findings/hatchet-1.4.0-exclusive-column.md)")

# (reader, case-id pattern, outcome or None for any, what hpcvet does about it)
VERDICTS = [
    ("dumpi2ascii", r"y_dumpi\.rec\.reader-hazard-argvs-null", "crash",
     "named by hpcvet's note dumpi.rec.reader-hazard-argvs-null (libundumpi, sst-dumpi 13.0.0)"),
    ("ovniemu", r"require-newer|require-minor-newer", "refused",
     "a model version newer than ovni 1.14's: hpcvet warns (ovni.json.require-minor-newer), which "
     "--strict fails; forward compatibility (specs/README.md) keeps it conforming"),
    ("ovniemu", r"mcv-minor-newer", "refused",
     "an event of a newer model minor version: hpcvet warns (ovni.obs.mcv-minor-newer)"),
    ("ovnidump", r"y_ovni-trace\.v[12]|y_ovni\.tree\.reader-hazard-legacy", "misread", V1V2),
    ("ovniemu", r"y_ovni-trace\.v[12]|y_ovni\.tree\.reader-hazard-legacy", "misread", V1V2),
    ("pipit", r"^real/hpctoolkit/loops-perf", "refused",
     "pipit reads a database's trace; this one has no trace.db (hpcprof writes none when no thread "
     "took trace samples): a clean refusal, no hazard"),
    ("hatchet", r"y_hpctkdb\.taxonomy\.hatchet", None,
     "named by hpcvet's note hpctkdb.taxonomy.hatchet (hatchet 1.4.0 reads only the Sum variant's "
     "standard scopes of each root)"),
    ("hatchet", r"^real/hpctoolkit/.*nvidiapc", "crash",
     "named by hpcvet's note hpctkdb.taxonomy.hatchet (hatchet 1.4.0 reads inclusive.standard.scope)"),
]


def verdict(reader, case, result):
    if case["kind"] == "n":
        return "nonconforming: " + (", ".join(case.get("rules", [])) or "hpcvet's verdict")
    msg = result.get("message", "")
    if case.get("input_verdict") == "nonconforming":
        return ("read inside a database or trace that hpcvet finds nonconforming (this file and the "
                "other files hpcvet-gen writes with the same arguments disagree): no hazard of the case")
    if case["family"] == "hpctoolkit" and "--edition=draft" in case.get("reproducer", "") \
            and reader in ("hpcviewer", "hatchet", "pipit"):
        return DRAFT
    if reader in ("hatchet", "pipit") and "list indices must be integers or slices, not NoneType" in msg:
        return UNNAMED % ("hatchet-1.4.0-unnamed-function.md" if reader == "hatchet"
                          else "pipit-0.1.0-unnamed-function.md")
    if reader == "hatchet" and result["outcome"] == "misread" and "which hatchet writes into the same column" in msg:
        return HATCHET_COLUMN  # every difference is that one (others are listed first)
    for r, pat, outcome, text in VERDICTS:
        if text and r == reader and re.search(pat, case["id"]) and outcome in (None, result["outcome"]):
            return text
    return "not yet assessed"


NO_ADAPTER = {}

SEVERITY = {
    "ovni": "The v1/v2 tree rules (ovni.json.model-version, ovni.tree.v2-path, cpus-repeated, "
            "metadata-missing, mixed-versions) cannot be backed by a reader here: ovni 1.14 reads no "
            "v1/v2 tree at all; they rest on the v1 spec's text (S1) and ovni 1.10, the last emulator "
            "that read such trees. ovni.obs.jumbo-nibble rests on S3 (\"always 4 with value 0x3\"); "
            "ovniemu 1.14 reads it, and specs/README.md's ovni line says what ovniemu accepts passes "
            "--strict: the error goes against that line, with the spec's text for it. Proposed for "
            "review, not changed here. (ovni.obs.reserved-flags, once an error on libovni's header "
            "alone, is a note: S3 defines no flag bit but jumbo, and ovniemu 1.14 and ovnidump size "
            "each event from the jumbo bit and the low nibble only, so they read an event with 0x20, "
            "0x40 or 0x80 set exactly as without them; hpcvet decodes such events as they do, one "
            "after another or every event of a stream, never as ovni.obs.damaged-region.)",
    "dumpi": "DUMPI has no spec text beyond sst-dumpi's notes, which defer to its code (specs/README.md), "
             "so these rules cite libdumpi's writer. dumpi2ascii reads no .meta file (SST-macro's trace "
             "reader does; it is not in the matrix), so the dumpi.meta rules have no reader here. The "
             "others are files libdumpi cannot write that libundumpi 13.0.0 reads without a word, "
             "printing the inconsistent values as they are (a stop time before its start, nanoseconds "
             "past 10^9, footer counts that disagree with the records): errors under specs/README.md "
             "only as misreads of what the trace says. Kept; listed for review.",
    "hpctoolkit": "All cite FORMATS.md (R, D) or METRICS.yaml, or the reference reader's refusal. "
                  "Decided under specs/README.md's severity decisions: an alias bomb or a nesting that "
                  "rested on hpcvet's own limits is an error only where hpcviewer 2025.01 refuses or "
                  "hangs (hpctkdb.taxonomy.bounds: a bomb in an input, a formula map or children:, where "
                  "it does not finish; hpctkdb.taxonomy.depth: a node past level 51, SnakeYAML's "
                  "\"Nesting Depth exceeded max 50\"); a bomb under a key no reader walks, which both "
                  "readers load, and hpcvet's other size and walk limits are hpctkdb.taxonomy.limit, a "
                  "warning (what the validator cannot check). hpctkdb.edition.agree stays an error on the "
                  "spec's text: both editions call their layout 4.0 with one major version across a "
                  "database's files, so a database of both breaks whichever text is its 4.0 in some file "
                  "(a draft trace.db has no footer under the release text); hpcviewer and pipit read the "
                  "_01 case without a word.",
}

PAGE_NOTES = """## Reader bugs

Each reader bug the matrix found, written up as one would file it upstream (reader, version,
reproducer, what happens, what the spec says), in [docs/reader-findings/](reader-findings/):

- [hatchet-1.4.0-unnamed-function.md](reader-findings/hatchet-1.4.0-unnamed-function.md),
  [pipit-0.1.0-unnamed-function.md](reader-findings/pipit-0.1.0-unnamed-function.md): a function
  without a name (legal) stops both readers with a TypeError (hpcvet's note
  `metadb.functions.reader-hazard-unnamed`);
- [ovni-1.14.0-no-stream.md](reader-findings/ovni-1.14.0-no-stream.md): ovniemu and ovnidump
  succeed on a trace in which they find no stream (every v1/v2 tree; hpcvet's note
  `ovni.tree.reader-hazard-legacy`);
- [hatchet-1.4.0-exclusive-column.md](reader-findings/hatchet-1.4.0-exclusive-column.md): a
  metric's exclusive column holds the value of another of its scopes (`lex_aware`, `point`)
  wherever cct.db lists one after the exclusive scope's (hpcvet's note
  `hpctkdb.metrics.reader-hazard-hatchet-scope`);
- [hpcviewer-2025.01-malformed-databases.md](reader-findings/hpcviewer-2025.01-malformed-databases.md),
  [hatchet-pipit-malformed-databases.md](reader-findings/hatchet-pipit-malformed-databases.md),
  [sst-dumpi-13.0.0-malformed-files.md](reader-findings/sst-dumpi-13.0.0-malformed-files.md):
  crashes and hangs instead of an error on nonconforming files.

Already named by hpcvet notes and seen again here: libundumpi's SIGSEGV on `MPI_ARGVS_NULL`
(`dumpi.rec.reader-hazard-argvs-null`) and hatchet's `KeyError: 'scope'` on the GPU
databases' taxonomies (`hpctkdb.taxonomy.hatchet`). The readers' failures on every draft-edition
database are named by `hpctkdb.edition.reader-hazard-draft`."""
