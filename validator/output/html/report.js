/* hpcvet's HTML report: draws the page from the JSON in #hv-data (html_data.c).
 * No request leaves the page. The diagnostics list is virtual: only the rows
 * in view are in the document, so 100,000 diagnostics scroll like 100.
 * window.hvReport exposes the model to tests and to anyone scripting the page. */
"use strict";
(function () {
	var D = JSON.parse(document.getElementById("hv-data").textContent);
	var H = D.head, ROWS = D.diags;
	/* Stored: [input, rule, severity, file, offset, length, path_shape, path_values,
	 * message_shape, message_values, hex (or "changed"/"unjudged": none shown)], a shape's \u0001 standing for each of
	 * the values in turn (html_data.c). Read once into
	 * [input, rule, severity, file, offset, length, struct_path, message, hex_first, hex]. */
	function unshape(k, values) {
		var parts = H.shapes[k].split("\u0001"), v = values ? values.split(" ") : [], out = parts[0];
		for (var j = 1; j < parts.length; j++) out += (v[j - 1] || "") + parts[j];
		return out;
	}
	ROWS.forEach(function (d) {
		var hx = d[10];
		d[6] = unshape(d[6], d[7]);
		d[7] = unshape(d[8], d[9]);
		d[8] = d[4] - d[4] % 16;
		d[9] = hx;
		d.length = 10;
	});
	var I_IN = 0, I_RULE = 1, I_SEV = 2, I_FILE = 3, I_OFF = 4, I_LEN = 5, I_PATH = 6, I_MSG = 7, I_HX0 = 8, I_HEX = 9;
	var SEV = H.severities; /* by number: 0 note, 1 warning, 2 error */
	var SHAPE = ["circle", "triangle", "square"];
	var ROW_H = 26, MAX_MARK_LANES = 64;
	var W = 760, LEFT = 150, RIGHT = 10, TOP = 18; /* the pictures' geometry */

	function el(tag, attrs, kids) {
		var e = document.createElement(tag);
		if (attrs) for (var k in attrs) {
			if (k === "text") e.textContent = attrs[k];
			else if (k === "html") e.innerHTML = attrs[k];
			else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
			else e.setAttribute(k, attrs[k]);
		}
		(kids || []).forEach(function (c) { if (c != null) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
		return e;
	}
	function esc(s) {
		return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
	}
	function hex(n) { return "0x" + n.toString(16); }
	function plural(n, w) { return n.toLocaleString("en-US") + " " + w + (n === 1 ? "" : "s"); }
	function ruleId(d) { var r = H.rules[d[I_RULE]]; return r ? r.id : "?"; }
	function fileOf(d) { return H.files[d[I_FILE]]; }
	/* about its file or folder as a whole, not bytes of it (hv_diag_whole) */
	function whole(d) { return d[I_OFF] === 0 && d[I_LEN] === 0; }
	function located(d) { return fileOf(d) !== "" && !whole(d); }
	function place(d) { var f = fileOf(d); return whole(d) ? f : f + ":" + hex(d[I_OFF]); }

	/* ---------------- where a finding is: what the diagnostics carry ---------------- */
	/* DUMPI: the rank is in the rank file's name (PREFIX-NNNN.bin). */
	function dumpiRank(d) {
		var m = /-(\d+)\.bin$/.exec(fileOf(d));
		return m ? parseInt(m[1], 10) : -1;
	}
	/* ovni: the stream is loom.X/proc.Y/thread.Z in the file's path. */
	function ovniStream(d) {
		var m = /(?:^|\/)(loom\.[^/]+)\/(proc\.[^/]+)\/(thread\.[^/.]+)/.exec(fileOf(d));
		return m ? [m[1], m[2], m[3]] : null;
	}
	/* HPCToolkit: profile[N] / trace[N] and ctx[N] in the structural path,
	 * "ctxId N" or "(context N)" in the message. */
	function hpctkProfile(d) {
		var m = /(?:profile|trace)\[(\d+)\]/.exec(d[I_PATH]);
		return m ? parseInt(m[1], 10) : -1;
	}
	function hpctkContext(d) {
		var m = /(?:^|\/)ctx\[(\d+)\]/.exec(d[I_PATH]) || /\bctxId (\d+)\b/.exec(d[I_MSG]) || /\(context (\d+)\)/.exec(d[I_MSG]);
		return m ? parseInt(m[1], 10) : -1;
	}
	function family(input) {
		var f = (input.format || "").toLowerCase();
		if (f.indexOf("dumpi") === 0) return "dumpi";
		if (f.indexOf("ovni") === 0) return "ovni";
		if (f.indexOf("hpctoolkit") === 0) return "hpctoolkit";
		return "";
	}

	/* ---------------- state ---------------- */
	var state = { sev: [true, true, true], rule: -1, file: -1, input: -1, q: "", sort: "report", group: false, pick: null, sel: -1 };
	var view = [];      /* indices into ROWS after filters and sort */
	var items = [];     /* view with group headers: {g: ruleIndex, n} or a row index */
	var byInput = [];
	ROWS.forEach(function (d, i) { (byInput[d[I_IN]] = byInput[d[I_IN]] || []).push(i); });

	function matches(i) {
		var d = ROWS[i];
		if (!state.sev[d[I_SEV]]) return false;
		if (state.rule >= 0 && d[I_RULE] !== state.rule) return false;
		if (state.file >= 0 && d[I_FILE] !== state.file) return false;
		if (state.input >= 0 && d[I_IN] !== state.input) return false;
		if (state.q) {
			var hay = (ruleId(d) + " " + fileOf(d) + " " + d[I_PATH] + " " + d[I_MSG] + " " + hex(d[I_OFF])).toLowerCase();
			if (hay.indexOf(state.q) < 0) return false;
		}
		return true;
	}
	var cmp = {
		report: null,
		severity: function (a, b) { return ROWS[b][I_SEV] - ROWS[a][I_SEV] || a - b; },
		rule: function (a, b) { return ruleId(ROWS[a]) < ruleId(ROWS[b]) ? -1 : ruleId(ROWS[a]) > ruleId(ROWS[b]) ? 1 : a - b; },
		file: function (a, b) {
			var fa = fileOf(ROWS[a]), fb = fileOf(ROWS[b]);
			return fa < fb ? -1 : fa > fb ? 1 : ROWS[a][I_OFF] - ROWS[b][I_OFF] || a - b;
		},
		offset: function (a, b) { return ROWS[a][I_OFF] - ROWS[b][I_OFF] || a - b; },
		message: function (a, b) { return ROWS[a][I_MSG] < ROWS[b][I_MSG] ? -1 : ROWS[a][I_MSG] > ROWS[b][I_MSG] ? 1 : a - b; }
	};
	function refilter() {
		view = [];
		if (state.pick) view = state.pick.slice();
		else for (var i = 0; i < ROWS.length; i++) if (matches(i)) view.push(i);
		var c = state.group ? cmp.rule : cmp[state.sort];
		if (c) view.sort(c);
		items = [];
		if (state.group) {
			var last = -2, head = null;
			view.forEach(function (i) {
				var r = ROWS[i][I_RULE];
				if (r !== last) { head = { g: r, n: 0 }; items.push(head); last = r; }
				head.n++;
				items.push(i);
			});
		} else items = view;
		if (view.indexOf(state.sel) < 0) state.sel = view.length ? view[0] : -1;
		drawCount();
		drawRules();
		list.scrollTop = 0;
		drawList();
		drawDetail();
	}

	/* ---------------- page ---------------- */
	var app = document.getElementById("hv-app");
	var total = [0, 0, 0];
	H.inputs.forEach(function (inp) { total[2] += inp.errors; total[1] += inp.warnings; total[0] += inp.notes; });
	app.appendChild(el("h1", { text: "hpcvet report" }));
	app.appendChild(el("p", { "class": "meta", text: "hpcvet " + H.tool.version + " \u00b7 rule table " + H.rule_table_version +
		" \u00b7 " + plural(H.inputs.length, "input") + " \u00b7 " + plural(ROWS.length, "diagnostic") + " shown" +
		(H.strict ? " \u00b7 --strict: warnings fail" : "") }));

	/* inputs */
	app.appendChild(el("h2", { text: "Inputs" }));
	H.inputs.forEach(function (inp, k) { app.appendChild(inputCard(inp, k)); });

	function inputCard(inp, k) {
		var nd = (byInput[k] || []).length;
		var box = el("details", { "class": "input", id: "input-" + k });
		box.open = H.inputs.length <= 8;
		box.appendChild(el("summary", null, [el("span", { "class": "verdict v-" + inp.verdict, text: inp.verdict }), " ",
			el("span", { "class": "mono", text: inp.path })]));
		var facts = el("dl", { "class": "facts" });
		function fact(k2, v) { facts.appendChild(el("dt", { text: k2 })); facts.appendChild(el("dd", null, [v])); }
		fact("format", inp.format);
		fact("edition", inp.edition || "\u2014");
		fact("version", inp.version || "\u2014");
		fact("findings", el("span", null, [el("span", { "class": "sev sev-2", text: plural(inp.errors, "error") }), ", ",
			el("span", { "class": "sev sev-1", text: plural(inp.warnings, "warning") }), ", ",
			el("span", { "class": "sev sev-0", text: plural(inp.notes, "note") }),
			inp.suppressed ? " (" + plural(inp.suppressed, "diagnostic") + " not stored: --max-diagnostics=" + inp.max_diagnostics + ")" : ""]));
		var ck = el("details", null, [el("summary", { text: plural(inp.rules_checked, "rule") + " checked" }),
			el("div", { "class": "checked-list mono" }, inp.checked.map(function (id) { return el("div", { text: id }); }))]);
		fact("rules checked", ck);
		if (inp.problem) fact("problem", inp.problem);
		box.appendChild(facts);
		if (inp.parts) {
			var pt = el("table", { "class": "small" }, [el("tr", null, ["trace", "version", "errors", "warnings", "notes"].map(function (h) { return el("th", { text: h }); }))]);
			inp.parts.forEach(function (p) {
				pt.appendChild(el("tr", null, [p.name, p.version, p.errors, p.warnings, p.notes].map(function (v) { return el("td", { text: String(v) }); })));
			});
			box.appendChild(pt);
		}
		if (inp.not_shown) {
			box.appendChild(el("div", { "class": "notshown" }, [el("b", { text: "Counted, not listed (beyond --max-per-rule):" }),
				el("ul", null, inp.not_shown.map(function (m) { return el("li", { "class": "mono", text: m.line || (m.count + " more " + m.rule) }); }))]));
		}
		if (inp.certificate) {
			var c = inp.certificate;
			var ct = el("table", { "class": "small mono" }, [el("tr", null, ["file", "bytes", "SHA-256"].map(function (h) { return el("th", { text: h }); }))]);
			c.files.forEach(function (f) {
				ct.appendChild(el("tr", null, [el("td", { text: f.name || "." }), el("td", { text: f.size.toLocaleString("en-US") }), el("td", { text: f.sha256 })]));
			});
			box.appendChild(el("h3", { text: "Certificate: the files' digests" + (c.complete ? "" : " (incomplete: " + (c.problem || "?") + ")") }));
			box.appendChild(ct);
		}
		var pics = el("div", { "class": "pictures" });
		box.appendChild(el("h3", { text: "Where the findings are" }));
		box.appendChild(pics);
		var drawn = false;
		function draw() {
			if (drawn || !box.open) return;
			drawn = true;
			drawPictures(inp, k, pics);
		}
		/* a picture of 100,000 marks is drawn when its input is opened */
		box.addEventListener("toggle", draw);
		if (nd <= 20000) draw();
		else pics.appendChild(el("p", { "class": "muted", text: plural(nd, "diagnostic") + ": the pictures are drawn when this input is opened." }));
		if (nd > 20000) box.open = false;
		return box;
	}

	/* ---------------- pictures ---------------- */

	function markSvg(i, x, y) {
		var s = ROWS[i][I_SEV], a = ' class="mk s' + s + '" data-i="' + i + '"';
		x = Math.round(x * 10) / 10; y = Math.round(y * 10) / 10;
		if (s === 2) return "<rect" + a + ' x="' + (x - 4) + '" y="' + (y - 4) + '" width="8" height="8"/>';
		if (s === 1) return "<path" + a + ' d="M' + x + " " + (y - 5) + "L" + (x + 5) + " " + (y + 4) + "L" + (x - 5) + " " + (y + 4) + 'Z"/>';
		return "<circle" + a + ' cx="' + x + '" cy="' + y + '" r="4"/>';
	}
	function tip(i) { var d = ROWS[i]; return SEV[d[I_SEV]] + " " + ruleId(d) + " at " + place(d); }
	function legendSev() {
		return '<div class="legend"><span class="sev sev-2">error (square)</span><span class="sev sev-1">warning (triangle)</span>' +
			'<span class="sev sev-0">note (circle)</span></div>';
	}
	/* lanes: [{label, rows: [i...], x: function(i) -> 0..1}] */
	function lanePicture(kind, title, lanes, axis, legend) {
		var n = lanes.length, lh = n > 24 ? 10 : 18, h = TOP + n * lh + 24, plot = W - LEFT - RIGHT, marks = 0;
		var s = ['<svg class="map" role="img" tabindex="0" data-picture="' + kind + '" viewBox="0 0 ' + W + " " + h + '" width="' + W + '" height="' + h + '">'];
		s.push("<title>" + esc(title) + "</title>");
		lanes.forEach(function (ln, r) {
			var y = TOP + r * lh;
			s.push('<rect class="lane' + (r % 2 ? " alt" : "") + '" x="' + LEFT + '" y="' + y + '" width="' + plot + '" height="' + lh + '"/>');
			if (n <= 24 || r % Math.ceil(n / 24) === 0) s.push('<text x="' + (LEFT - 4) + '" y="' + (y + lh / 2 + 3) + '" text-anchor="end">' + esc(ln.label) + "</text>");
		});
		lanes.forEach(function (ln, r) {
			var y = TOP + r * lh + lh / 2;
			ln.rows.forEach(function (i) { s.push(markSvg(i, LEFT + 5 + ln.x(i) * (plot - 10), y)); marks++; });
		});
		var yb = TOP + n * lh;
		s.push('<line class="axis" x1="' + LEFT + '" x2="' + (W - RIGHT) + '" y1="' + yb + '" y2="' + yb + '"/>');
		s.push('<text x="' + LEFT + '" y="' + (yb + 14) + '">' + esc(axis[0]) + '</text><text x="' + (W - RIGHT) + '" y="' + (yb + 14) + '" text-anchor="end">' + esc(axis[1]) + "</text>");
		s.push('<text x="' + LEFT + '" y="11">' + esc(axis[2] || "") + "</text>");
		s.push("</svg>");
		var fig = el("figure", { "class": "pic", "data-marks": String(marks) });
		fig.innerHTML = s.join("") + "<figcaption><b>" + esc(title) + ".</b> " + esc(legend) + legendSev() + "</figcaption>";
		return fig;
	}
	/* groups of consecutive keys when there are more lanes than fit */
	function binLanes(keys, name) {
		if (keys.length <= MAX_MARK_LANES) return keys.map(function (k) { return { keys: [k], label: name(k) }; });
		var per = Math.ceil(keys.length / MAX_MARK_LANES), out = [];
		for (var b = 0; b < keys.length; b += per) {
			var ks = keys.slice(b, b + per);
			out.push({ keys: ks, label: ks.length > 1 ? name(ks[0]) + "\u2013" + name(ks[ks.length - 1]).replace(/^\D+/, "") : name(ks[0]) });
		}
		return out;
	}
	function extentOf(rows) {
		var e = 1;
		rows.forEach(function (i) { var d = ROWS[i]; e = Math.max(e, d[I_OFF] + Math.max(d[I_LEN], 1)); });
		return e;
	}
	function fileSizes(inp) {
		var m = {};
		if (!inp.certificate) return m;
		inp.certificate.files.forEach(function (f) {
			var full = f.name ? inp.path.replace(/\/+$/, "") + "/" + f.name : inp.path;
			m[full] = f.size;
			m[full.replace(/^\.\//, "")] = f.size;
		});
		/* a file given by itself: the certificate names it by its base name */
		if (inp.certificate.files.length === 1 && m[inp.path] == null) m[inp.path] = inp.certificate.files[0].size;
		return m;
	}

	function drawPictures(inp, k, into) {
		var rows = byInput[k] || [];
		var fam = family(inp), figs = [];
		if (fam === "dumpi") figs.push(dumpiPicture(rows));
		if (fam === "ovni") figs.push(ovniPicture(rows));
		if (fam === "hpctoolkit") figs.push(hpctkPicture(rows));
		figs.push(bytePicture(inp, rows));
		figs.forEach(function (f) { if (f) into.appendChild(f); });
		if (!into.children.length) into.appendChild(el("p", { "class": "muted", text: "No finding of this input has a place in a file." }));
		into.querySelectorAll("svg.map").forEach(wireSvg);
	}
	function byKey(rows, key) {
		var m = new Map();
		rows.forEach(function (i) {
			var kk = key(ROWS[i]);
			if (kk == null || kk === -1) return;
			if (!m.has(kk)) m.set(kk, []);
			m.get(kk).push(i);
		});
		return m;
	}
	function lanesFrom(m, keys, name, x) {
		return binLanes(keys, name).map(function (b) {
			var rs = [];
			b.keys.forEach(function (kk) { Array.prototype.push.apply(rs, m.get(kk)); });
			return { label: b.label, rows: rs, x: x };
		});
	}
	function dumpiPicture(rows) {
		var m = byKey(rows, dumpiRank);
		if (!m.size) return null;
		var ranks = Array.from(m.keys()).sort(function (a, b) { return a - b; });
		var inRank = [];
		m.forEach(function (v) { Array.prototype.push.apply(inRank, v); });
		var ext = extentOf(inRank);
		var lanes = lanesFrom(m, ranks, function (r) { return "rank " + r; }, function (i) { return ROWS[i][I_OFF] / ext; });
		return lanePicture("dumpi-ranks", "DUMPI ranks by time", lanes, ["start of the run", "end (byte " + hex(ext) + ")", "ranks \u2193, time \u2192"],
			"One lane per rank with findings" + (lanes.length < ranks.length ? " (" + ranks.length + " ranks binned into " + lanes.length + " lanes)" : "") +
			". Time is read from each finding's byte offset in its rank file: a rank's records are written in the order they happened, " +
			"and the diagnostics carry no timestamps, so the axis orders findings in time without a clock scale.");
	}
	function ovniPicture(rows) {
		var m = byKey(rows, function (d) { var s = ovniStream(d); return s ? s.join("/") : null; });
		if (!m.size) return null;
		var keys = Array.from(m.keys()).sort();
		var obs = [];
		m.forEach(function (v) { v.forEach(function (i) { if (/\.obs$/.test(fileOf(ROWS[i]))) obs.push(i); }); });
		var ext = extentOf(obs);
		var lanes = lanesFrom(m, keys, function (s) { return s.replace(/^loom\./, "").replace(/proc\./, "p").replace(/thread\./, "t"); },
			function (i) { return /\.obs$/.test(fileOf(ROWS[i])) ? ROWS[i][I_OFF] / ext : 0; });
		var looms = new Set(keys.map(function (s) { return s.split("/")[0]; })).size;
		return lanePicture("ovni-streams", "ovni streams by clock", lanes, ["first event", "last (byte " + hex(ext) + ")", "loom/process/thread \u2193, clock \u2192"],
			"One lane per stream (loom/proc/thread; " + plural(looms, "loom") + ", " + plural(keys.length, "stream") + " with findings" +
			(lanes.length < keys.length ? ", binned into " + lanes.length + " lanes" : "") + "). A stream's clock never goes backwards, so the byte offset " +
			"of an event orders it by clock; the diagnostics carry no clock values. Findings in a stream's JSON documents sit at the left edge.");
	}
	function hpctkPicture(rows) {
		var pts = [];
		rows.forEach(function (i) {
			var p = hpctkProfile(ROWS[i]), c = hpctkContext(ROWS[i]);
			if (p >= 0 || c >= 0) pts.push([i, p, c]);
		});
		if (!pts.length) return null;
		var profs = Array.from(new Set(pts.map(function (t) { return t[1]; }))).sort(function (a, b) { return a - b; });
		var maxc = Math.max.apply(null, pts.map(function (t) { return t[2]; }).concat([0]));
		var m = new Map();
		pts.forEach(function (t) { if (!m.has(t[1])) m.set(t[1], []); m.get(t[1]).push(t[0]); });
		var ctxOf = {};
		pts.forEach(function (t) { ctxOf[t[0]] = t[2]; });
		var lanes = lanesFrom(m, profs, function (p) { return p < 0 ? "no profile" : "profile " + p; }, function (i) {
			return ctxOf[i] < 0 ? 0 : (ctxOf[i] + 1) / (maxc + 2);
		});
		return lanePicture("hpctoolkit-profiles", "HPCToolkit profiles and contexts", lanes, ["ctx 0", "ctx " + maxc, "profiles (profile.db, trace.db) \u2193, contexts \u2192"],
			"One lane per profile (profile[N] of profile.db, trace[N] of trace.db), a mark at the context the finding names (ctx[N], ctxId N); " +
			"findings without a profile are in the lane \u201cno profile\u201d, those without a context at the left edge.");
	}
	function bytePicture(inp, rows) {
		var loc = rows.filter(function (i) { return located(ROWS[i]); });
		if (!loc.length) return null;
		var m = byKey(loc, function (d) { return d[I_FILE]; });
		var files = Array.from(m.keys()).sort(function (a, b) { return H.files[a] < H.files[b] ? -1 : H.files[a] > H.files[b] ? 1 : 0; });
		var sizes = fileSizes(inp), ext = {}, sized = 0;
		files.forEach(function (f) {
			var name = H.files[f];
			if (sizes[name] != null) { ext[f] = Math.max(sizes[name], 1); sized++; }
			else ext[f] = extentOf(m.get(f));
		});
		var prefix = inp.path.replace(/\/+$/, "") + "/";
		var lanes = lanesFrom(m, files, function (f) {
			var n = H.files[f];
			n = n.indexOf(prefix) === 0 ? n.slice(prefix.length) : n.replace(/^.*\//, "");
			return n.length > 22 ? "\u2026" + n.slice(-21) : n;
		}, function (i) { var d = ROWS[i]; return Math.min(1, d[I_OFF] / ext[d[I_FILE]]); });
		return lanePicture("bytes", "Byte map", lanes, ["byte 0", sized === files.length ? "end of file" : "last finding", "files \u2193, bytes \u2192"],
			"One lane per file, a mark at each finding's byte offset" + (lanes.length < files.length ? " (" + files.length + " files binned into " + lanes.length + " lanes)" : "") +
			(sized === files.length ? "; the scale is the file's size (from the certificate)." : "; the scale ends at the last finding's end in that file (the report does not hold file sizes unless certifying).") +
			" Findings about a file or folder as a whole have no byte and no mark.");
	}
	function wireSvg(svg) {
		/* one tooltip for the picture, set from the mark under the pointer
		 * (a <title> in each of 100,000 marks doubles the drawing time) */
		var tipEl = svg.querySelector("title");
		var title0 = tipEl ? tipEl.textContent : "";
		svg.addEventListener("mouseover", function (e) {
			var t = e.target.closest(".mk");
			if (tipEl) tipEl.textContent = t ? tip(+t.getAttribute("data-i")) : title0;
		});
		svg.addEventListener("click", function (e) {
			var t = e.target.closest(".mk");
			if (t) pickMarks([+t.getAttribute("data-i")]);
		});
		/* keyboard: arrows step through the marks, Enter shows the mark's rows */
		var at = -1;
		svg.addEventListener("keydown", function (e) {
			var mks = svg.querySelectorAll(".mk");
			if (!mks.length) return;
			if (e.key === "ArrowRight" || e.key === "ArrowDown") at = Math.min(mks.length - 1, at + 1);
			else if (e.key === "ArrowLeft" || e.key === "ArrowUp") at = Math.max(0, at - 1);
			else if (e.key === "Enter" && at >= 0) { pickMarks([+mks[at].getAttribute("data-i")]); e.preventDefault(); return; }
			else return;
			e.preventDefault();
			svg.querySelectorAll(".mk.on").forEach(function (x) { x.classList.remove("on"); });
			mks[at].classList.add("on");
			svg.setAttribute("aria-label", tip(+mks[at].getAttribute("data-i")));
		});
	}
	function pickMarks(is) {
		state.pick = is;
		state.sel = is[0];
		refilter();
		document.getElementById("diagnostics").scrollIntoView();
		list.focus();
	}

	/* ---------------- diagnostics ---------------- */
	app.appendChild(el("h2", { id: "diagnostics", text: "Diagnostics" }));
	var bar = el("div", { "class": "toolbar", role: "search" });
	app.appendChild(bar);
	[2, 1, 0].forEach(function (s) {
		var cb = el("input", { type: "checkbox", id: "sev-" + SEV[s], "data-sev": String(s) });
		cb.checked = true;
		cb.addEventListener("change", function () { state.sev[s] = cb.checked; state.pick = null; refilter(); });
		bar.appendChild(el("label", { "class": "sev sev-" + s }, [cb, " " + SEV[s] + " (" + ROWS.filter(function (d) { return d[I_SEV] === s; }).length + ")"]));
	});
	var ruleSel = el("select", { id: "f-rule", "aria-label": "rule" }, [el("option", { value: "-1", text: "every rule" })]);
	H.rules.forEach(function (r, k) { ruleSel.appendChild(el("option", { value: String(k), text: r.id })); });
	ruleSel.addEventListener("change", function () { state.rule = +ruleSel.value; state.pick = null; refilter(); });
	bar.appendChild(el("label", null, ["rule ", ruleSel]));
	var fileSel = null, fileBox = null;
	if (H.files.length <= 2000) {
		fileSel = el("select", { id: "f-file", "aria-label": "file" }, [el("option", { value: "-1", text: "every file" })]);
		H.files.map(function (f, k) { return [f, k]; }).sort().forEach(function (p) { fileSel.appendChild(el("option", { value: String(p[1]), text: p[0] || "(no file)" })); });
		fileSel.addEventListener("change", function () { state.file = +fileSel.value; state.pick = null; refilter(); });
		bar.appendChild(el("label", null, ["file ", fileSel]));
	} else {
		/* too many files for a list: the file is typed (exact name) */
		fileBox = el("input", { type: "search", id: "f-file", placeholder: "file (exact name)", "aria-label": "file" });
		var fidx = new Map();
		H.files.forEach(function (f, k) { fidx.set(f, k); });
		fileBox.addEventListener("change", function () {
			state.file = fileBox.value ? (fidx.has(fileBox.value) ? fidx.get(fileBox.value) : -2) : -1;
			state.pick = null; refilter();
		});
		bar.appendChild(el("label", null, ["file ", fileBox]));
	}
	if (H.inputs.length > 1) {
		var inSel = el("select", { id: "f-input", "aria-label": "input" }, [el("option", { value: "-1", text: "every input" })]);
		H.inputs.forEach(function (inp, k) { inSel.appendChild(el("option", { value: String(k), text: inp.path })); });
		inSel.addEventListener("change", function () { state.input = +inSel.value; state.pick = null; refilter(); });
		bar.appendChild(el("label", null, ["input ", inSel]));
	}
	var search = el("input", { type: "search", id: "f-search", placeholder: "search  ( / )", "aria-label": "search" });
	var qTimer = 0;
	search.addEventListener("input", function () {
		clearTimeout(qTimer);
		qTimer = setTimeout(function () { state.q = search.value.trim().toLowerCase(); state.pick = null; refilter(); }, ROWS.length > 20000 ? 200 : 0);
	});
	bar.appendChild(search);
	var sortSel = el("select", { id: "f-sort", "aria-label": "sort" }, ["report", "severity", "rule", "file", "offset", "message"].map(function (s) {
		return el("option", { value: s, text: s === "report" ? "report order" : s });
	}));
	sortSel.addEventListener("change", function () { state.sort = sortSel.value; refilter(); });
	bar.appendChild(el("label", null, ["sort ", sortSel]));
	var grp = el("input", { type: "checkbox", id: "f-group" });
	grp.addEventListener("change", function () { state.group = grp.checked; refilter(); });
	bar.appendChild(el("label", null, [grp, " group by rule"]));
	var countEl = el("span", { "class": "count", id: "count", "aria-live": "polite" });
	bar.appendChild(countEl);
	var chip = el("span", { "class": "chip", hidden: "" });
	bar.appendChild(chip);
	app.appendChild(el("p", { "class": "keys", html: "Keys: <kbd>/</kbd> search, <kbd>\u2191</kbd><kbd>\u2193</kbd> or <kbd>j</kbd><kbd>k</kbd> move, " +
		"<kbd>PgUp</kbd><kbd>PgDn</kbd><kbd>Home</kbd><kbd>End</kbd>, <kbd>Esc</kbd> clears the search and the picked marks; " +
		"in a picture, <kbd>\u2190</kbd><kbd>\u2192</kbd> step through the marks and <kbd>Enter</kbd> shows a mark's row." }));

	var layout = el("div", { "class": "layout" });
	app.appendChild(layout);
	var rulesBox = el("div", { "class": "rules", id: "rules" });
	layout.appendChild(rulesBox);
	var right = el("div");
	layout.appendChild(right);
	var list = el("div", { "class": "list", id: "list", tabindex: "0", role: "listbox", "aria-label": "diagnostics" });
	var spacer = el("div", { "class": "spacer" });
	list.appendChild(spacer);
	right.appendChild(list);
	var detail = el("div", { "class": "detail", id: "detail", "aria-live": "polite" });
	right.appendChild(detail);
	var printList = el("div", { "class": "printlist", id: "printlist" });
	app.appendChild(printList);

	function drawCount() {
		countEl.textContent = view.length.toLocaleString("en-US") + " of " + plural(ROWS.length, "diagnostic");
		if (state.pick) {
			chip.hidden = false;
			chip.innerHTML = "";
			chip.appendChild(document.createTextNode(plural(state.pick.length, "row") + " picked in a picture "));
			chip.appendChild(el("button", { type: "button", "aria-label": "clear", text: "\u2715", onclick: function () { state.pick = null; refilter(); } }));
		} else chip.hidden = true;
	}
	/* grouped by rule, with counts: the rules of the current severity, file and search filters */
	function drawRules() {
		var n = new Map();
		for (var i = 0; i < ROWS.length; i++) {
			var d = ROWS[i];
			if (!state.sev[d[I_SEV]] || (state.file >= 0 && d[I_FILE] !== state.file) || (state.input >= 0 && d[I_IN] !== state.input)) continue;
			n.set(d[I_RULE], (n.get(d[I_RULE]) || 0) + 1);
		}
		var t = el("table");
		t.appendChild(el("tr", { "class": state.rule < 0 ? "on" : "" }, [el("td", { text: "every rule" }), el("td", { "class": "n", text: String(Array.from(n.values()).reduce(function (a, b) { return a + b; }, 0)) })]));
		var NO_RULE = { id: "?", severity: "error", summary: "" };
		Array.from(n.keys()).sort(function (a, b) { return n.get(b) - n.get(a) || ((H.rules[a] || NO_RULE).id < (H.rules[b] || NO_RULE).id ? -1 : 1); }).forEach(function (r) {
			var ru = H.rules[r] || NO_RULE;
			var tr = el("tr", { "class": (state.rule === r ? "on" : ""), "data-rule": ru.id, title: ru.summary }, [
				el("td", null, [el("span", { "class": "sev sev-" + SEV.indexOf(ru.severity) }), el("span", { "class": "mono", text: ru.id })]),
				el("td", { "class": "n", text: n.get(r).toLocaleString("en-US") })]);
			t.appendChild(tr);
		});
		t.addEventListener("click", function (e) {
			var tr = e.target.closest("tr");
			if (!tr) return;
			var id = tr.getAttribute("data-rule");
			state.rule = id ? H.rules.findIndex(function (x) { return x.id === id; }) : -1;
			ruleSel.value = String(state.rule);
			state.pick = null;
			refilter();
		});
		rulesBox.innerHTML = "";
		rulesBox.appendChild(t);
	}
	function rowEl(it, top) {
		if (typeof it === "object") {
			var r = H.rules[it.g];
			return el("div", { "class": "row group", style: "top:" + top + "px", "data-group": r ? r.id : "?" }, [
				el("span", { text: (r ? r.id : "?") + " \u2014 " + plural(it.n, "diagnostic") + (r ? " \u2014 " + r.summary : "") })]);
		}
		var d = ROWS[it];
		var row = el("div", { "class": "row" + (it === state.sel ? " sel" : ""), style: "top:" + top + "px", role: "option", "data-i": String(it),
			"aria-selected": it === state.sel ? "true" : "false" }, [
			el("span", { "class": "c-sev sev sev-" + d[I_SEV], text: SEV[d[I_SEV]] }),
			el("span", { "class": "c-rule mono", text: ruleId(d) }),
			el("span", { "class": "c-file mono", text: fileOf(d), title: fileOf(d) }),
			el("span", { "class": "c-off mono", text: whole(d) ? "" : hex(d[I_OFF]), "data-offset": String(d[I_OFF]) }),
			el("span", { "class": "c-msg", text: d[I_MSG], title: d[I_MSG] })]);
		return row;
	}
	function drawList() {
		spacer.style.height = items.length * ROW_H + "px";
		/* a short list takes the room it needs, a long one scrolls */
		list.style.height = "min(60vh, " + (Math.max(items.length, 3) * ROW_H + 2) + "px)";
		var first = Math.max(0, Math.floor(list.scrollTop / ROW_H) - 10);
		var last = Math.min(items.length, Math.ceil((list.scrollTop + (list.clientHeight || 600)) / ROW_H) + 10);
		var frag = document.createDocumentFragment();
		for (var k = first; k < last; k++) frag.appendChild(rowEl(items[k], k * ROW_H));
		spacer.innerHTML = "";
		spacer.appendChild(frag);
	}
	list.addEventListener("scroll", drawList);
	list.addEventListener("click", function (e) {
		var r = e.target.closest(".row[data-i]");
		if (r) select(+r.getAttribute("data-i"), false);
	});
	function select(i, scroll) {
		state.sel = i;
		if (scroll) {
			var k = items.indexOf(i), top = k * ROW_H;
			if (top < list.scrollTop) list.scrollTop = top;
			else if (top + ROW_H > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW_H - list.clientHeight;
		}
		drawList();
		drawDetail();
	}
	list.addEventListener("keydown", function (e) {
		if (!view.length) return;
		var k = view.indexOf(state.sel), page = Math.max(1, Math.floor(list.clientHeight / ROW_H) - 1);
		if (e.key === "ArrowDown" || e.key === "j") k++;
		else if (e.key === "ArrowUp" || e.key === "k") k--;
		else if (e.key === "PageDown") k += page;
		else if (e.key === "PageUp") k -= page;
		else if (e.key === "Home") k = 0;
		else if (e.key === "End") k = view.length - 1;
		else return;
		e.preventDefault();
		k = Math.max(0, Math.min(view.length - 1, k));
		select(view[k], true);
	});
	document.addEventListener("keydown", function (e) {
		var tag = (e.target.tagName || "").toLowerCase();
		if (e.key === "/" && tag !== "input" && tag !== "select") { e.preventDefault(); search.focus(); }
		else if (e.key === "Escape") {
			search.value = ""; state.q = ""; state.pick = null; refilter();
			list.focus();
		}
	});

	/* why a finding's bytes are not shown (html_data.c): the file is not
	 * the one checked any more, or another process checked it */
	var NO_BYTES = {
		changed: "(the file changed after it was checked: its bytes now are not the ones judged, so none are shown)",
		unjudged: "(the file was checked by another process: the bytes judged are not at hand, so none are shown)"
	};
	/* the bytes, as the text report's hex view shows them */
	function hexView(d) {
		if (!d[I_HEX] || !/^[0-9a-f]+$/.test(d[I_HEX])) return null;
		var first = d[I_HX0], bytes = d[I_HEX], lo = d[I_OFF], hi = lo + Math.max(d[I_LEN], 1);
		var out = "  offset  +0 +1 +2 +3 +4 +5 +6 +7  +8 +9 +a +b +c +d +e +f\n";
		for (var r = 0; r * 32 < bytes.length; r++) {
			var row = first + r * 16, line = ("000000" + row.toString(16)).slice(-6), asc = "", caret = "", any = false;
			out += "0x" + esc(line) + "  ";
			for (var c = 0; c < 16; c++) {
				var p = r * 32 + c * 2, at = row + c, inF = at >= lo && at < hi;
				if (c === 8) { out += " "; caret += " "; }
				if (p >= bytes.length) { out += "   "; continue; }
				var b = bytes.substr(p, 2), v = parseInt(b, 16), ch = v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : ".";
				out += (inF ? "<mark>" + b + "</mark>" : b) + " ";
				asc += inF ? "<mark>" + esc(ch) + "</mark>" : esc(ch);
				caret += inF ? "^^ " : "   ";
				any = any || inF;
			}
			out += " " + asc + "\n";
			if (any) out += "          " + caret.replace(/\s+$/, "") + "\n";
		}
		var shownEnd = first + bytes.length / 2;
		if (hi > shownEnd) out += "          ... field continues for " + plural(hi - shownEnd, "more byte") + "\n";
		return out;
	}
	function drawDetail() {
		detail.innerHTML = "";
		if (state.sel < 0) { detail.appendChild(el("p", { "class": "muted", text: "No diagnostic matches." })); return; }
		var d = ROWS[state.sel], ru = H.rules[d[I_RULE]];
		detail.appendChild(el("div", null, [el("span", { "class": "sev sev-" + d[I_SEV], text: SEV[d[I_SEV]] }), " ",
			el("b", { "class": "mono", text: ruleId(d) }), " ", el("span", { "class": "mono", text: place(d) }),
			d[I_LEN] ? el("span", { "class": "muted", text: " (" + plural(d[I_LEN], "byte") + ")" }) : null]));
		detail.appendChild(el("p", { text: d[I_MSG] }));
		if (d[I_PATH]) detail.appendChild(el("p", { "class": "muted" }, ["structure: ", el("code", { text: d[I_PATH] })]));
		var hv = hexView(d);
		if (hv) detail.appendChild(el("pre", { "class": "hex", html: hv }));
		else if (!whole(d) && H.bytes) detail.appendChild(el("p", { "class": "muted", text: NO_BYTES[d[I_HEX]] || "(offset " + hex(d[I_OFF]) + " is past the end of the file)" }));
		if (ru) detail.appendChild(el("details", { open: "" }, [el("summary", { text: "hpcvet explain " + ru.id }), el("pre", { text: ru.explain })]));
		var marks = document.querySelectorAll('.mk.on');
		marks.forEach(function (x) { x.classList.remove("on"); });
		document.querySelectorAll('.mk[data-i="' + state.sel + '"]').forEach(function (x) { x.classList.add("on"); });
	}

	/* printing: the filtered rows as a plain table (at most 5,000) instead of the scrolling list */
	window.addEventListener("beforeprint", function () {
		/* every input's facts and pictures on paper (closed <details> print closed) */
		document.querySelectorAll("details.input").forEach(function (box, k) {
			if ((byInput[k] || []).length <= 20000 && !box.open) { box.open = true; box.dispatchEvent(new Event("toggle")); }
		});
		var t = el("table", null, [el("tr", null, ["severity", "rule", "file", "offset", "message"].map(function (h) { return el("th", { text: h }); }))]);
		view.slice(0, 5000).forEach(function (i) {
			var d = ROWS[i];
			t.appendChild(el("tr", null, [SEV[d[I_SEV]], ruleId(d), fileOf(d), whole(d) ? "" : hex(d[I_OFF]), d[I_MSG]].map(function (v) { return el("td", { text: v }); })));
		});
		printList.innerHTML = "";
		if (view.length > 5000) printList.appendChild(el("p", { text: "The first 5,000 of " + plural(view.length, "diagnostic") + " (filter the page to print others)." }));
		printList.appendChild(t);
	});

	refilter();

	window.hvReport = {
		data: D,
		/* the rows the list shows now (filters, sort), as the JSON report names their fields */
		rows: function () {
			return view.map(function (i) {
				var d = ROWS[i];
				return { input: d[I_IN], rule: ruleId(d), severity: SEV[d[I_SEV]], file: fileOf(d), offset: d[I_OFF], length: d[I_LEN], struct_path: d[I_PATH], message: d[I_MSG] };
			});
		},
		located: located, dumpiRank: dumpiRank, ovniStream: ovniStream, hpctkProfile: hpctkProfile, hpctkContext: hpctkContext,
		setRule: function (id) { ruleSel.value = String(H.rules.findIndex(function (x) { return x.id === id; })); ruleSel.dispatchEvent(new Event("change")); }
	};
})();
