#!/usr/bin/env bash
# Builds the conformance corpus: golden/make-cases.sh BUILD OUTDIR [NAME-REGEX]
#
# Writes OUTDIR/<family>/<case> (files, or .d/ directories), one
# <case>.expect.json beside each (hpcvet's JSON report, tool version removed,
# paths relative to OUTDIR), a <case>.content.json beside each y_ case (its
# decoded content, hpcvet dump --format=json, tool version removed) and OUTDIR/MANIFEST.json. Everything comes from
# build/hpcvet-gen with fixed seeds (plus a few recorded byte patches), so a
# second run writes identical bytes. With NAME-REGEX only the matching cases
# are written (the determinism test regenerates a sample that way).
#
# Every case is validated as it is written: the rules hpcvet reports must be
# exactly the rules the case is meant to exercise, and the verdict must match
# the case's prefix (y_ accepted, n_ rejected, i_ as decided). A mismatch
# stops the run: the corpus never records a case that does not do what its
# name says.
set -euo pipefail
export LC_ALL=C

BUILD=${1:?usage: make-cases.sh BUILD OUTDIR [NAME-REGEX]}
OUT=${2:?usage: make-cases.sh BUILD OUTDIR [NAME-REGEX]}
FILTER=${3:-}
case "$BUILD" in /*) ;; *) BUILD="$PWD/$BUILD" ;; esac
GEN="$BUILD/hpcvet-gen"
VET="$BUILD/hpcvet"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RULES="$WORK/rules.json"
"$VET" rules --format=json >"$RULES"
: >"$WORK/entries.jsonl"
problems=0

# Standard file name and corpus extension of each single-file kind.
std_name() {
	case $1 in
	metadb) echo meta.db ;; profiledb) echo profile.db ;; cctdb) echo cct.db ;; tracedb) echo trace.db ;;
	ovni-stream) echo stream.obs ;; ovni-json) echo stream.json ;;
	dumpi-bin | dumpi-bin-*) echo rank-0000.bin ;; garbage) echo garbage.bin ;;
	*) echo "" ;;
	esac
}
ext_of() { local n; n=$(std_name "$1"); echo "${n##*.}"; }

# patch FILE OFFSET OLDHEX NEWHEX: overwrite bytes, refusing if the old bytes differ.
patch_bytes() {
	local f=$1 off=$2 old=$3 new=$4 n=$((${#3} / 2)) have
	have=$(od -An -v -tx1 -j "$off" -N "$n" "$f" | tr -d ' \n')
	if [ "$have" != "$old" ]; then
		echo "make-cases: $f at $off holds $have, expected $old" >&2
		return 1
	fi
	local esc="" i
	for ((i = 0; i < ${#new}; i += 2)); do esc="$esc\\x${new:i:2}"; done
	# shellcheck disable=SC2059
	printf "$esc" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

# make_case PREFIX FAMILY NAME KIND "GEN-ARGS" "RULES" NOTE DECISION [PATCH...]
#   RULES: space-separated rule IDs the case must make hpcvet report, no more.
#   DECISION: for i_ cases, "accept|why" or "reject|why"; "" otherwise.
#   PATCH: "FILE-IN-CASE:OFFSET:OLDHEX:NEWHEX" ("." for a single-file case).
#   CLAUSE (environment, optional): a spec clause for a case no rule names.
make_case() {
	local prefix=$1 family=$2 name=$3 kind=$4 args=$5 want=$6 note=$7 decision=$8
	shift 8
	local patches=("$@")
	if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then return 0; fi
	local std verdict_want
	std=$(std_name "$kind")
	case $prefix in
	y) verdict_want=accept ;; n) verdict_want=reject ;; i) verdict_want=${decision%%|*} ;;
	esac
	local forms=(file dir)
	[ -z "$std" ] && forms=(set)
	local form rel target got_rules got_verdict ok=false
	mkdir -p "$OUT/$family"
	rm -rf "$OUT/$family/$name".*
	for form in "${forms[@]}"; do
		case $form in
		file) rel="$family/$name.$(ext_of "$kind")" target=$rel ;;
		dir) rel="$family/$name.d/$std" target="$family/$name.d" ;;
		set) rel="$family/$name.d" target=$rel ;;
		esac
		rm -rf "$OUT/$family/$name".*
		local gen_out="$OUT/$target"
		[ "$form" = dir ] && { mkdir -p "$gen_out"; gen_out="$OUT/$rel"; }
		# shellcheck disable=SC2086
		"$GEN" $args -o "$gen_out" 2>"$WORK/gen.err" || {
			echo "make-cases: $name: hpcvet-gen $args failed: $(cat "$WORK/gen.err")" >&2
			problems=$((problems + 1))
			return 0
		}
		local p
		for p in "${patches[@]}"; do
			IFS=: read -r pf po pold pnew <<<"$p"
			local pfile="$OUT/$rel"
			[ "$pf" != . ] && pfile="$OUT/$target/$pf"
			patch_bytes "$pfile" "$po" "$pold" "$pnew"
		done
		(cd "$OUT" && "$VET" --format=json "$rel" >"$WORK/report.json" 2>/dev/null) || true
		got_rules=$(jq -r '[.inputs[0].diagnostics[].rule] | unique | join(" ")' "$WORK/report.json")
		got_verdict=$(jq -r 'if .inputs[0].verdict == "conforming" then "accept" else "reject" end' "$WORK/report.json")
		local want_sorted
		want_sorted=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//')
		if [ "$got_rules" = "$want_sorted" ] && [ "$got_verdict" = "$verdict_want" ]; then
			ok=true
			break
		fi
	done
	if ! $ok; then
		echo "make-cases: $name: hpcvet reports [$got_rules] ($got_verdict), want [$want] ($verdict_want)" >&2
		problems=$((problems + 1))
		rm -rf "$OUT/$family/$name".*
		return 0
	fi
	jq 'del(.tool.version)' "$WORK/report.json" >"$OUT/$family/$name.expect.json"
	# Content conformance: what a y_ case holds, decoded (hpcvet dump), so a
	# reader can show it reads the same values, not only that it accepts.
	local content=""
	if [ "$prefix" = y ]; then
		content="$family/$name.content.json"
		(cd "$OUT" && "$VET" dump --format=json "$rel" 2>/dev/null) | sed '1s/"tool":{"name":"hpcvet","version":"[^"]*"}/"tool":{"name":"hpcvet"}/' >"$OUT/$content" || true
		jq -e '.files | length > 0' "$OUT/$content" >/dev/null || {
			echo "make-cases: $name: no content dump" >&2
			problems=$((problems + 1))
		}
	fi
	local gen_cmd="hpcvet-gen $args -o $rel"
	[ "$form" = dir ] && gen_cmd="hpcvet-gen $args -o $rel"
	jq -cn --arg name "$name" --arg path "$rel" --arg family "$family" --arg prefix "$prefix" \
		--arg verdict "$verdict_want" --arg rules "$want" --arg gen "$gen_cmd" --arg note "$note" \
		--arg decision "$decision" --arg expect "$family/$name.expect.json" --arg clause "${CLAUSE:-}" \
		--arg content "$content" --args '
		{name: $name, path: $path, family: $family, kind: $prefix, verdict: $verdict,
		 rules: ($rules | split(" ") | map(select(. != ""))),
		 expect: $expect,
		 made: {generator: $gen, patches: ($ARGS.positional | map(split(":") |
			{file: .[0], offset: (.[1] | tonumber), old: .[2], new: .[3]}))}}
		+ (if $note != "" then {note: $note} else {} end)
		+ (if $decision != "" then {decision: ($decision | split("|") | .[1:] | join("|"))} else {} end)
		+ (if $clause != "" then {clause: $clause} else {} end)
		+ (if $content != "" then {content: $content} else {} end)' \
		"${patches[@]}" >>"$WORK/entries.jsonl"
}

# ---------------------------------------------------------------- n_ cases
# One case per rule (per edition for HPCToolkit rules): the generator's
# --break writes an input that breaks exactly that rule. Error rules give n_
# cases. A warning or note does not make an input nonconforming, so its case
# cannot be an n_ case under the harness contract (n_ must be rejected):
# warnings are i_ (legal but suspicious: a reader may accept or refuse; hpcvet
# accepts, and refuses with --strict), forward-compatibility warnings
# (*minor-newer) and notes are y_ (legal, information only).
kinds_for() {
	case $1 in
	hpctoolkit*) echo metadb profiledb cctdb tracedb hpctoolkit-db ;;
	ovni*) echo ovni-stream ovni-json ovni-trace ovni-trace-v2 ovni-trace-v1 ;;
	dumpi*) echo dumpi-bin dumpi-trace ;;
	*) "$GEN" --list ;;
	esac
}
family_of() {
	case $1 in hpctoolkit*) echo hpctoolkit ;; ovni*) echo ovni ;; dumpi*) echo dumpi ;; *) echo any ;; esac
}
# The reader-hazard note every input of a kind gets, whatever else it holds
# (the hazard is the layout itself): draft-edition databases, v1/v2 ovni trees.
DRAFT_DB="hpctkdb.edition.reader-hazard-draft"
LEGACY_TREE="ovni.tree.reader-hazard-legacy"
# And the note that comes with another: the writer's lex_aware scope is
# custom (hpctkdb.values.unverifiable) and its values, unlike hpcprof's,
# differ from the function scope's, which hatchet shows in that one's column.
UNVERIFIABLE="hpctkdb.values.unverifiable"
HATCHET_SCOPE="hpctkdb.metrics.reader-hazard-hatchet-scope"
companion_for() { # RULE
	case $1 in
	"$UNVERIFIABLE") echo "$HATCHET_SCOPE" ;;
	"$HATCHET_SCOPE") echo "$UNVERIFIABLE" ;;
	esac
}
ambient_for() { # KIND EDITION
	case $1/$2 in
	hpctoolkit-db/draft) echo "$DRAFT_DB" ;;
	ovni-trace-v1/* | ovni-trace-v2/*) echo "$LEGACY_TREE" ;;
	esac
}
# Rules whose case the spec leaves open although hpcvet only notes it.
i_decision_for() {
	case $1 in
	metadb.edition.ambiguous)
		echo "accept|Both v4.0 editions say 4.0 in the header and this file fits both layouts: the spec gives no way to tell them apart. hpcvet accepts it, picks an edition and says which in a note." ;;
	*) echo "" ;;
	esac
}

while IFS=$'\t' read -r id sev fmt summary; do
	family=$(family_of "$fmt")
	prefix=n decision=""
	case $sev in
	warning) prefix=i
		decision="accept|$summary. hpcvet rates this a warning: the reference reader copes with it, but it is unusual, suspicious or not fully checkable. A reader may accept or refuse it; hpcvet accepts it, and refuses it with --strict." ;;
	note) prefix=y ;;
	esac
	[[ $id == *minor-newer* ]] && { prefix=y decision=""; }
	special=$(i_decision_for "$id")
	[ -n "$special" ] && { prefix=i decision=$special; }
	if [ -n "$FILTER" ] && ! [[ ${prefix}_${id}_01 =~ $FILTER || ${prefix}_${id}_02 =~ $FILTER ]]; then continue; fi
	eds=("")
	[ "$family" = hpctoolkit ] && eds=(release draft)
	n=0
	for ed in "${eds[@]}"; do
		for kind in $(kinds_for "$fmt"); do
			edarg=""
			[ -n "$ed" ] && edarg="--edition=$ed"
			# The generator refuses at once a rule a kind cannot break.
			rm -rf "$WORK/probe"
			# shellcheck disable=SC2086
			if "$GEN" --what="$kind" $edarg --break="$id" -o "$WORK/probe" >/dev/null 2>"$WORK/probe.err"; then
				n=$((n + 1))
				note=""
				[ -n "$ed" ] && note="$ed edition"
				amb=$(ambient_for "$kind" "$ed")
				[ "$amb" = "$id" ] && amb=""
				comp=$(companion_for "$id")
				[ -n "$comp" ] && amb="${amb:+$amb }$comp"
				make_case "$prefix" "$family" "${prefix}_${id}_$(printf %02d $n)" "$kind" \
					"--what=$kind${edarg:+ $edarg} --break=$id" "$id${amb:+ $amb}" "$note" "$decision"
				break
			elif ! grep -q 'cannot break' "$WORK/probe.err"; then
				echo "make-cases: hpcvet-gen --what=$kind --break=$id: $(cat "$WORK/probe.err")" >&2
				problems=$((problems + 1))
			fi
			rm -rf "$WORK/probe"
		done
	done
	if [ "$n" -eq 0 ]; then
		echo "make-cases: no generator kind breaks $id" >&2
		problems=$((problems + 1))
	fi
done < <(jq -r '.rules[] | [.id, .severity, .format, .summary] | @tsv' "$RULES")

# ---------------------------------------------------------------- y_ cases
# Every format, edition and version the validator supports, seeds chosen so
# the writers' seed-driven layouts (the legal oddities of the real writers)
# all appear. Newer minors (4.1, 4.2, 4.7) carry larger strides, junk in gaps,
# unknown sections and reserved bits: forward compatible, one warning each.
HK_NEWER="cctdb.hdr.minor-newer metadb.hdr.minor-newer profiledb.hdr.minor-newer tracedb.hdr.minor-newer"
# What each seed's layout exercises (checked by decoding the files once;
# every seed writes an unaligned Strings section, pStrings % 8 != 0).
hk_seed_note() { # SEED EDITION
	local leaf=""
	[ "$2" = release ] && leaf="; leaf contexts have szChildren 0 and pChildren at the writer's cursor, as hpcprof writes"
	case $1 in
	1) echo "meta.db sections in hpcprof's order; an empty thread profile with pValues == pCtxIndices; trace lines in reverse file order with reserved slack" ;;
	2) echo "meta.db sections in header order$leaf; an empty thread profile with pValues == pCtxIndices; profile.db identifier tuples before the profile infos; trace lines in file order; cct.db header bytes 0x20-0x2f hold junk (hpcprof leaves them)" ;;
	3) echo "meta.db sections shuffled (the spec promises no order)$leaf; an empty thread profile with pValues == pCtxIndices; trace lines in reverse order with slack" ;;
	4) echo "meta.db sections in hpcprof's order; cct.db header junk; trace lines in file order" ;;
	5) echo "meta.db sections in header order$leaf; profile.db identifier tuples first; trace lines in reverse order with slack" ;;
	6) echo "meta.db sections shuffled; cct.db header junk; trace lines in file order" ;;
	esac
}
# Release databases elide ctxIds as hpcprof always does: a note, no fault.
for ed in release draft; do
	ELIDED=""
	# ... and keep hpcprof's custom "lex_aware" scope, whose values cannot be
	# checked (hpctkdb.values.unverifiable, a note, as on every real database),
	# and whose values, unlike hpcprof's, differ from the function scope's, as
	# the point scope's do: hatchet 1.4.0 shows them in the exclusive column
	# (hpctkdb.metrics.reader-hazard-hatchet-scope).
	[ "$ed" = release ] && ELIDED="hpctkdb.ctx.elided $UNVERIFIABLE $HATCHET_SCOPE"
	# ... and a draft database gets the readers' hazard note (none reads the draft).
	[ "$ed" = draft ] && ELIDED="$DRAFT_DB"
	for seed in 1 2 3 4 5 6; do
		make_case y hpctoolkit "y_hpctoolkit-db.$ed.4.0_s$seed" hpctoolkit-db "--what=hpctoolkit-db --edition=$ed --seed=$seed" "$ELIDED" \
			"$ed edition, v4.0; $(hk_seed_note "$seed" "$ed")" ""
	done
	make_case y hpctoolkit "y_hpctoolkit-db.$ed.4.0.tiny" hpctoolkit-db "--what=hpctoolkit-db --edition=$ed --contexts=1 --depth=1" "$ELIDED" \
		"$ed edition, v4.0, one context" ""
	make_case y hpctoolkit "y_hpctoolkit-db.$ed.4.0.deep" hpctoolkit-db "--what=hpctoolkit-db --edition=$ed --contexts=200 --depth=12 --seed=2" "$ELIDED" \
		"$ed edition, v4.0, 200 contexts 12 deep" ""
	# trace.db bounds as hpcprof writes them (from its measurement source's
	# time range: minTimestamp 64.6 ms before the first sample): legal.
	[ "$ed" = release ] && CLAUSE="R §trace.db Context Trace Headers section (minTimestamp, maxTimestamp)" \
		make_case y hpctoolkit "y_hpctoolkit-db.release.4.0.measured-bounds" hpctoolkit-db \
		"--what=hpctoolkit-db --edition=release --trace-bounds=measurement" "$ELIDED" \
		"release edition, v4.0, trace.db minTimestamp 64.6 ms before the first sample and maxTimestamp 1.25 ms after the last, as hpcprof writes them" ""
	for m in 1 2 7; do
		make_case y hpctoolkit "y_hpctoolkit-db.$ed.4.$m" hpctoolkit-db "--what=hpctoolkit-db --edition=$ed --minor=$m --seed=$m" "$HK_NEWER $ELIDED" \
			"$ed edition, newer minor 4.$m: larger strides, junk in gaps and reserved fields, unknown sections; read as 4.0 with a warning per file" ""
	done
	if [ "$ed" = draft ]; then
		# A newer draft minor whose {PI} stride (0x38) and trace section header
		# (room for 0x20 bytes) are as wide as the release edition's, with junk
		# where release keeps flags and min/maxTimestamp: no file may be taken
		# for the release edition (only meta.db, or a footer, tells).
		make_case y hpctoolkit "y_hpctoolkit-db.draft.4.3.wide-strides" hpctoolkit-db "--what=hpctoolkit-db --edition=draft --minor=3 --seed=4" "$HK_NEWER $DRAFT_DB" \
			"draft edition, newer minor 4.3: szProfile 0x38 and a 0x25-byte trace section header (both release-sized), junk in the gaps; read in meta.db's draft edition" ""
		for k in profiledb tracedb; do
			make_case y hpctoolkit "y_$k.draft.4.3.wide-strides" "$k" "--what=$k --edition=draft --minor=3 --seed=4" "$k.hdr.minor-newer" \
				"draft edition, newer minor 4.3, alone, with release-sized strides and junk in the gaps: no edition evidence, only what both editions accept is checked" ""
		done
	fi
	for k in metadb profiledb cctdb tracedb; do
		for seed in 1 2 3; do
			make_case y hpctoolkit "y_$k.$ed.4.0_s$seed" "$k" "--what=$k --edition=$ed --seed=$seed" "" \
				"$ed edition, v4.0, alone; the file of y_hpctoolkit-db.$ed.4.0_s$seed" ""
		done
		make_case y hpctoolkit "y_$k.$ed.4.1" "$k" "--what=$k --edition=$ed --minor=1" "$k.hdr.minor-newer" \
			"$ed edition, newer minor 4.1, alone" ""
	done
done

# i_: a stride larger than the 4.0 END (and junk in the gap) at minor 0. The
# draft says sz fields are "currently" a given value; the release says
# readers must use them. hpcvet reads the stride from the file at any minor.
STRIDE_WHY="accept|A stride larger than the structure's v4.0 END at minor version 0: the spec says readers use the sz fields, and never says a 4.0 file must use the 4.0 sizes. hpcvet uses the file's stride and ignores the extra bytes, as for a newer minor."
for spec in "metadb release" "metadb draft" "profiledb release" "tracedb release" "cctdb release"; do
	set -- $spec
	CLAUSE="R,D §Reader compatibility (sz fields); specs/README.md §Forward compatibility" \
		make_case i hpctoolkit "i_$1.$2.stride-larger-minor0" "$1" "--what=$1 --edition=$2 --minor=1" "" \
		"written as 4.1 (larger strides, junk in gaps) then minorVersion patched to 0" "$STRIDE_WHY" ".:15:01:00"
done

# i_: derived values off by just less than the tolerance of hpctkdb.values.*
# (1e-9 of |found| + sum of |terms|): thread 1's execution value at the global
# context, and a summary statistic there, scaled by 1 + 1.5e-9.
for r in execution summary; do
	CLAUSE="R §meta.db Performance Metrics section; hpctoolkit/values/rules.def (tolerance)" \
		make_case i hpctoolkit "i_hpctkdb.values.$r.inside-tolerance" hpctoolkit-db \
		"--what=hpctoolkit-db --break=hpctkdb.values.$r~inside-tolerance" "" \
		"one $r-derived value at the global context scaled by 1 + 1.5e-9 (about 3/4 of the tolerance)" \
		"accept|hpcprof sums doubles in an order the file does not record, so a derived value may differ from the sum of its terms by rounding. hpcvet accepts a difference up to 1e-300 + 1e-9 * (|found| + sum of |terms|) and rejects a larger one (n_hpctkdb.values.${r}_01 is 50% off)."
done

# The metric taxonomy's one-change variants, as hpcviewer 2025.01 and hatchet
# 1.4.0 were measured on them (hpctoolkit/taxonomy/rules.def): more ways to break a rule
# than its own --break, and the near miss of hpcviewer's alias cap.
TX="--what=hpctoolkit-db --edition=release --break=hpctkdb.taxonomy"
TXC="METRICS inputs:, variants:; hpcviewer 2025.01 (hpcdata 8.4.4) MetricYamlParser"
CLAUSE="$TXC" make_case n hpctoolkit "n_hpctkdb.taxonomy.viewer-input_no-formula" hpctoolkit-db "$TX.viewer-input~no-formula" \
	"hpctkdb.taxonomy.viewer-input" "an input without formula: (the spec's default \$\$): hpcviewer refuses it (IllegalStateException: .../null: metric does not exist)" ""
CLAUSE="$TXC" make_case n hpctoolkit "n_hpctkdb.taxonomy.viewer-formula_string" hpctoolkit-db "$TX.viewer-formula~string" \
	"hpctkdb.taxonomy.viewer-formula" "a standard: formula given as text, '2 * 3' (the spec's scalar form): hpcviewer refuses it (ClassCastException)" ""
CLAUSE="$TXC" make_case n hpctoolkit "n_hpctkdb.taxonomy.viewer-formula_three-args" hpctoolkit-db "$TX.viewer-formula~three-args" \
	"hpctkdb.taxonomy.viewer-formula" "{+: [a, 0, 0]}: hpcviewer refuses a function of three arguments (IllegalStateException: Formula has 3 subs)" ""
for v in render-number percentage not-sum renamed nested expression; do
	case $v in
	render-number) what="the Sum variant rendered [number] (no percent)" ;;
	percentage) what="the Sum variant rendered [number, percentage] (the word in the spec's comment; hatchet and hpcviewer look for percent)" ;;
	not-sum) what="the first metric's Sum variant named Total" ;;
	renamed) what="the first root named otherwise than its meta.db metric" ;;
	nested) what="the first metric under children: of a parent root" ;;
	expression) what="the Sum variant's inclusive standard: an expression, {*: [1, a]}, as hpcprof writes for derived GPU metrics" ;;
	esac
	CLAUSE="$TXC; hatchet 1.4.0 hpctoolkit_v4_reader" make_case y hpctoolkit "y_hpctkdb.taxonomy.hatchet.$v" hpctoolkit-db "$TX.hatchet~$v" \
		"hpctkdb.taxonomy.hatchet" "$what: hpcviewer reads it; hatchet 1.4.0 fails or misreads the metric (one note)" ""
done
CLAUSE="$TXC" make_case i hpctoolkit "i_hpctkdb.taxonomy.variant.render-string" hpctoolkit-db "$TX.variant~render-string" "" \
	"the Sum variant rendered 'percent', one string instead of a list" \
	"accept|The spec allows render: as one string; hpcprof writes a list. hpcviewer 2025.01 loads render: number and render: percent alike, and hatchet 1.4.0 finds percent in the string, so hpcvet accepts it without a note."
CLAUSE="$TXC (SnakeYAML maxAliasesForCollections 10000)" make_case i hpctoolkit "i_hpctkdb.taxonomy.viewer-alias-cap.at-cap" hpctoolkit-db \
	"$TX.viewer-alias-cap~at-cap" "" "exactly 10000 aliases of maps in all (n_hpctkdb.taxonomy.viewer-alias-cap_01 has 10001)" \
	"accept|hpcviewer 2025.01 loads a taxonomy with at most 10000 aliases of maps or sequences (HPCVIEWER_MAX_ALIASES changes the cap) and refuses more; exactly 10000 loads, so hpcvet accepts it without a note."
CLAUSE="$TXC (SnakeYAML codePointLimit 3 Mi)" make_case i hpctoolkit "i_hpctkdb.taxonomy.viewer-size.at-cap" hpctoolkit-db \
	"$TX.viewer-size~at-cap" "" "exactly 3 Mi (3,145,728) characters up to the end of the last token's scan, then a comment (n_hpctkdb.taxonomy.viewer-size_01 has one character more and no comment)" \
	"accept|hpcviewer's data layer, with SnakeYAML 1.32 or later, refuses a taxonomy once it has read more than 3,145,728 characters when it starts to scan a token; the comment after the last token is read after the last check. Exactly 3,145,728 loads, so hpcvet accepts it without a note."

# i_: an OpenMP task nested over the running one without a pause: the OpenMP
# model has no pause event, so this is how OpenMP runs included and
# undeferred tasks (upstream's openmp-nested-task test trace does it).
CLAUSE="EV PPx; ovni/model/rules.def (ovni.model.body-nest)" \
	make_case i ovni "i_ovni.model.body-nest.openmp" ovni-trace \
	"--what=ovni-trace --break=ovni.model.body-nest~openmp" "" \
	"an OpenMP task body (PPx) starts over the running body of its parent" \
	"accept|ovniemu 1.14 warns \"deprecated nesting\" for every model that relaxes nesting, but OpenMP has no pause event, so a task that runs at once on the encountering thread always nests over the running one. Nanos6, which can pause first (6Tp), gets ovni.model.body-nest-deprecated (i_ovni.model.body-nest-deprecated_01); nOS-V refuses nesting (n_ovni.model.body-nest_01)."

# Reserved flag bits on consecutive events, and on every event: ovniemu 1.14
# and ovnidump size an event from the jumbo bit and the low nibble alone, so
# such a stream reads as the same stream without them (notes, no region).
RF="--what=ovni-stream --break=ovni.obs.reserved-flags"
make_case y ovni "y_ovni.obs.reserved-flags.consecutive" ovni-stream "$RF~consecutive" "ovni.obs.reserved-flags" \
	"three events in a row with 0x20, 0x40 and 0x80 set: one note each, no damaged region" ""
make_case y ovni "y_ovni.obs.reserved-flags.every" ovni-stream "$RF~every" "ovni.obs.reserved-flags" \
	"0xe0 set on every event of the stream: one note per event (ten listed, the rest counted), no damaged region" ""

# i_: leaf contexts with szChildren 0 but a non-zero pChildren. The spec
# describes pChildren as the pointer to the children array and says nothing
# of its value for an empty one; hpcprof writes its layout cursor there.
CLAUSE="R §meta.db Context Tree section (szChildren, pChildren)" \
	make_case i hpctoolkit "i_metadb.release.leaf-pchildren-nonzero" metadb "--what=metadb --edition=release --seed=2" "" \
	"every leaf context has szChildren 0 and pChildren pointing just past itself (the writer's cursor)" \
	"accept|An empty children array (szChildren 0) with a non-zero pChildren: the spec does not say what pChildren holds when there are no children, and hpcprof writes its cursor there for every leaf. hpcvet accepts it and never dereferences an empty array; only pChildren 0 with szChildren > 0 is an error (metadb.ctx.children-null)."

# meta.db ctxIds far apart: one id near 2^32 makes the ids too sparse for
# a bitmap, so uniqueness is decided by sorting (hpctoolkit/metadb/ctxids.c). A valid
# file, and the same id given twice (an entry point and the last context).
CLAUSE="R §meta.db Context Tree section (ctxId)" \
	make_case y hpctoolkit "y_metadb.release.ctxids-sparse" metadb "--what=metadb --edition=release --seed=1" "" \
	"the entry point's ctxId patched from 44 to 0xfffffff0: unique, but far from the others" "" ".:5408:2c000000:f0ffffff"
make_case n hpctoolkit "n_metadb.ctx.ctxid-unique_sparse" metadb "--what=metadb --edition=release --seed=1" \
	"metadb.ctx.ctxid-unique" "a context's ctxId (33) and the entry point's (44) both patched to 0xfffffff0" "" \
	".:2816:21000000:f0ffffff" ".:5408:2c000000:f0ffffff"

# ovni: v3 trees (one or two looms, one or two processes, with and without
# clock-offsets.txt), v2 and v1 trees (v1 with and without the 8-byte stream
# header and the .obs extension), single streams and stream.json documents.
for seed in 1 2 3 4; do
	make_case y ovni "y_ovni-trace.v3_s$seed" ovni-trace "--what=ovni-trace --seed=$seed" "" \
		"v3 tree; looms/processes and clock-offsets.txt vary with the seed" ""
done
make_case y ovni "y_ovni-trace.v3.mix" ovni-trace-mix "--what=ovni-trace-mix --trace-len=120" "" \
	"v3 tree shaped like real traces: one thread per loom, nOS-V, MPI, Nanos6 and TAMPI loops" ""
make_case y ovni "y_ovni-trace.v3.runtime" ovni-trace-runtime "--what=ovni-trace-runtime --trace-len=200" "" \
	"v3 tree shaped like a runtime's one-loom trace: nOS-V and Nanos6 workers, nested, paused and handed tasks, CPU hand-offs" ""
make_case y ovni "y_ovni-trace.v3.require-newer" ovni-trace "--what=ovni-trace --minor=1" "ovni.json.require-minor-newer" \
	"v3 tree requiring a newer nOS-V model minor" ""
for seed in 1 2; do
	make_case y ovni "y_ovni-trace.v2_s$seed" ovni-trace-v2 "--what=ovni-trace-v2 --seed=$seed" "$LEGACY_TREE" "v2 tree" ""
done
make_case y ovni "y_ovni-trace.v1.no-header" ovni-trace-v1 "--what=ovni-trace-v1 --seed=1" "$LEGACY_TREE" \
	"v1 tree, thread.TID files without the 8-byte ovni header (the v1 text shows none)" ""
make_case y ovni "y_ovni-trace.v1.header" ovni-trace-v1 "--what=ovni-trace-v1 --seed=2" "$LEGACY_TREE" \
	"v1 tree, thread.TID.obs files with the 8-byte header (libovni >= 1.0 writes it)" ""
make_case y ovni "y_ovni-trace.v1.newer-event" ovni-trace-v1 "--what=ovni-trace-v1 --minor=1" "ovni.obs.mcv-minor-newer $LEGACY_TREE" \
	"v1 tree with an event of a newer model version" ""
for seed in 1 2; do
	make_case y ovni "y_ovni-stream_s$seed" ovni-stream "--what=ovni-stream --seed=$seed" "" "a stream.obs alone" ""
	make_case y ovni "y_ovni-json_s$seed" ovni-json "--what=ovni-json --seed=$seed" "" "a stream.json alone" ""
done

# DUMPI: traces of 8.1.0 (like the real ones) and newer versions, one to
# three threads, with and without perf counters, keyval index 0 (libdumpi
# never writes the keyval record's offset).
for seed in 1 2 3; do
	make_case y dumpi "y_dumpi-trace.8.1.0_s$seed" dumpi-trace "--what=dumpi-trace --seed=$seed" "" \
		"4 ranks, version 8.1.0, keyval index 0; threads and perf counters vary with the seed" ""
done
make_case y dumpi "y_dumpi-trace.8.1.0.all-functions" dumpi-trace "--what=dumpi-trace --functions=1" "dumpi.trace.mpi-library" \
	"every MPI function's record at least once, every peer Open MPI's MPI_PROC_NULL (-2)" ""
# The MPI libraries' habits, and calls libdumpi does not record (notes only).
CLAUSE="sst-dumpi libdumpi/mpibindings.h" make_case y dumpi "y_dumpi-trace.mpich" dumpi-trace \
	"--what=dumpi-trace --mpi=mpich --contexts=200" "dumpi.trace.mpi-library" \
	"4 ranks under MPICH: MPI_PROC_NULL is -1, receives from it complete with an empty status, completed requests share a handle" ""
CLAUSE="sst-dumpi libdumpi/mpibindings.h" make_case y dumpi "y_dumpi-trace.openmpi" dumpi-trace \
	"--what=dumpi-trace --mpi=openmpi --contexts=200" "dumpi.trace.mpi-library" \
	"4 ranks under Open MPI: MPI_PROC_NULL is -2, sends that completed at once share a handle" ""
CLAUSE="MPI-3.1 §5.12, §3.8.2, §6.4.2" make_case y dumpi "y_dumpi-trace.mpich.unrecorded" dumpi-trace \
	"--what=dumpi-trace --mpi=mpich --unrecorded --contexts=200" \
	"dumpi.trace.mpi-library dumpi.mpi.request-unrecorded dumpi.mpi.handle-freed dumpi.mpi.send-unmatched" \
	"4 ranks under MPICH making calls libdumpi does not record (MPI_Ibarrier on a recycled request, MPI_Mprobe/MPI_Mrecv, MPI_Comm_split_type and MPI_Type_create_hindexed_block on freed handles): notes only" ""
make_case y dumpi "y_dumpi-trace.13.2.0" dumpi-trace "--what=dumpi-trace --minor=1" "dumpi.hdr.minor-newer" \
	"a newer version than the newest known (13.1.0)" ""
# i_: dumpi.mpi.coll-count in every kind of counted collective: one count
# bent on rank 0 (a warning, like every dumpi.mpi rule: a faithful trace of a
# buggy program is a correct trace); and the near miss, the same collectives
# consistent with rank 0's send sides MPI_IN_PLACE-like, which must pass.
for v in alltoall gatherv scatterv allgatherv alltoallv alltoallv-twice alltoallw exscan reduce-scatter; do
	CLAUSE="MPI-3.1 §5.1, §5.5-5.11 (type signatures of collectives)" \
		make_case i dumpi "i_dumpi.mpi.coll-count.$v" dumpi-trace "--what=dumpi-trace --break=dumpi.mpi.coll-count~$v" \
		"dumpi.mpi.coll-count" "4 ranks; rank 0 passes one count of this collective that the other end does not match" \
		"accept|The members' counts of one collective do not pair up with the same built-in datatype: erroneous MPI, but a faithful trace of it. hpcvet warns on the member whose count differs (the majority is the reference; a v-variant's wrong block is located by its sums), and refuses it with --strict."
done
CLAUSE="MPI-3.1 §5.2.1 (MPI_IN_PLACE)" \
	make_case i dumpi "i_dumpi.mpi.coll-count.in-place" dumpi-trace "--what=dumpi-trace --break=dumpi.mpi.coll-count~in-place" "" \
	"4 ranks; every counted collective consistent, rank 0's send sides with count 0 or MPI_DATATYPE_NULL" \
	"accept|With MPI_IN_PLACE MPI ignores the send count and datatype, and DUMPI does not record the buffer, so a send side with count 0 or MPI_DATATYPE_NULL may be in place. hpcvet does not compare it (near miss of i_dumpi.mpi.coll-count.*)."
# Older and the newest known versions: the seed-1 rank file with its header
# version bytes patched (the record layouts are the same from 0.6.9 on).
for v in 0.6.9:000609 1.0.0:010000 13.1.0:0d0100; do
	CLAUSE="R §1.5, §2 (header version)" make_case y dumpi "y_dumpi-bin.${v%%:*}" dumpi-bin "--what=dumpi-bin --seed=1" "" \
		"the header version (at the offset the index's header entry gives) patched from 8.1.0 to ${v%%:*}" "" ".:2182:080100:${v#*:}"
done
for seed in 1 2; do
	make_case y dumpi "y_dumpi-bin.8.1.0_s$seed" dumpi-bin "--what=dumpi-bin --seed=$seed" "" "one rank file alone" ""
done
# Writers before 0.6.6: their shorter index (no sizelbl; before 0.4 no
# addrlbl, before 0.3 no perflbl) and version-dependent record fields.
for v in 0.6.5:56 0.3.0:48 0.2.0:40; do
	make_case y dumpi "y_dumpi-bin.${v%%:*}" "dumpi-bin-${v%%:*}" "--what=dumpi-bin-${v%%:*} --functions=1" "dumpi.index.legacy-layout dumpi.trace.mpi-library" \
		"a ${v%%:*} rank file with every function id: ${v#*:}-byte index, read as libundumpi reads it" ""
done

# ---------------------------------------------------------------- manifest
# Regenerating a sample writes its entries to MANIFEST.sample.json instead,
# so the checked-in manifest is only ever written whole.
manifest="$OUT/MANIFEST.json"
[ -n "$FILTER" ] && manifest="$OUT/MANIFEST.sample.json"
jq -s --slurpfile rules "$RULES" '
	($rules[0].rules | map({key: .id, value: .clause}) | from_entries) as $clause |
	{corpus: "hpcvet conformance corpus",
	 contract: "y_ must be accepted, n_ must be rejected, i_ is left open by the spec (verdict: the decision hpcvet takes). A reader accepts by exiting 0 and rejects by exiting 1.",
	 regenerate: "make golden",
	 content: "y_ cases list a content file: what the case holds, decoded by hpcvet dump --format=json (shape: docs/dump.schema.json). golden/run-reader.sh --content compares a reader'"'"'s decoded values with it.",
	 cases: map(. + {clauses: ([.rules[] | $clause[.] // empty] + [.clause // empty] | unique)} | del(.clause))}' \
	"$WORK/entries.jsonl" >"$manifest"
if [ "$problems" -ne 0 ]; then
	echo "make-cases: $problems problem(s)" >&2
	exit 1
fi
