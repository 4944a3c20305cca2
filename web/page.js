// The page: turns what the user dropped or picked into inputs, as the
// command line would be given them, hands them to the worker (worker.js)
// and shows the report it sends back.
//
// Inputs, as `hpcvet PATH...` sees its paths:
// - a folder is one input, its files validated together (names keep the
//   path below it, "db/meta.db"; files and folders whose names start
//   with '.' are left out, as the command line's walk leaves them out);
// - a loose DUMPI .meta is its folder's trace: the loose files given with
//   it, named "./NAME" (as `hpcvet X.meta` run in that folder names them);
// - any other loose file is one input.
'use strict';

const $ = (id) => document.getElementById(id);
// index.html?read=jspi|ahead|sync: the way the worker reads files (worker.js)
const readWay = new URLSearchParams(location.search).get('read');
const worker = new Worker(readWay ? 'worker.js?read=' + encodeURIComponent(readWay) : 'worker.js');
let formats = [];
let busy = false;

function setState(state, message) {
	document.body.dataset.state = state;
	if (message !== undefined) $('message').textContent = message;
}

// The command line walks a folder down to this depth (fileio.h's
// HV_DIR_MAX_DEPTH): a folder below it makes the input unreadable, with
// the command line's words.
const MAX_DEPTH = 64;
const tooDeep = (path) => `${path}: deeper than ${MAX_DEPTH} directories`;

// [{path, file}] of a folder, from the folder picker or a drop; `deep`:
// the folders a drop's walk found below MAX_DEPTH (walkEntry).
function folderInputs(entries, deep = []) {
	const byTop = new Map();
	const top = (name) => {
		if (!byTop.has(name)) byTop.set(name, {label: name, set: true, files: []});
		return byTop.get(name);
	};
	for (const {path, file} of entries) {
		const parts = path.split('/');
		if (parts.slice(1).some((p) => p.startsWith('.'))) continue;
		const input = top(parts[0]);
		input.files.push({name: path, file});
		// the picker lists files only: their folders' depth is in their path
		if (parts.length - 2 > MAX_DEPTH) deep.push(parts.slice(0, MAX_DEPTH + 2).join('/'));
	}
	for (const path of deep.sort()) {
		const input = top(path.split('/')[0]);
		if (!input.problem) input.problem = tooDeep(path);
	}
	return [...byTop.values()];
}

function looseInputs(list) {
	const metas = list.filter((f) => f.name.endsWith('.meta') && f.name.length > 5);
	if (metas.length)
		return metas.map((m) => ({label: m.name, set: true, files: list.map((f) => ({name: './' + f.name, file: f}))}));
	return list.map((f) => ({label: f.name, set: false, files: [{name: f.name, file: f}]}));
}

// A dropped folder, walked without recursion (readEntries hands out a
// folder's entries in batches until it returns none), as the command
// line walks one: entries named with a leading '.' left out, and no
// further than MAX_DEPTH folders down (the deeper ones in `deep`).
async function walkEntry(root, deep) {
	const out = [];
	const stack = [[root, 0]];
	while (stack.length) {
		const [entry, depth] = stack.pop();
		if (entry !== root && entry.name.startsWith('.')) continue;
		if (entry.isFile) {
			const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
			out.push({path: entry.fullPath.replace(/^\//, ''), file});
		} else if (entry.isDirectory) {
			if (depth > MAX_DEPTH) {
				deep.push(entry.fullPath.replace(/^\//, ''));
				continue;
			}
			const r = entry.createReader();
			for (;;) {
				const batch = await new Promise((resolve, reject) => r.readEntries(resolve, reject));
				if (!batch.length) break;
				stack.push(...batch.map((e) => [e, depth + 1]));
			}
		}
	}
	return out;
}

function options() {
	return {
		strict: $('opt-strict').checked ? 1 : 0,
		edition: $('opt-edition').value,
		mpi: $('opt-mpi').value,
		'mpi-replay': $('opt-mpi-replay').checked ? 1 : 0,
		'ovni-all-models': $('opt-ovni-all-models').checked ? 1 : 0,
	};
}

function run(inputs) {
	if (busy || !inputs.length) return;
	busy = true;
	$('result').hidden = true;
	$('progress').hidden = false;
	$('progress').value = 0;
	const n = inputs.reduce((s, i) => s + i.files.length, 0);
	setState('running', `validating ${inputs.length} input${inputs.length > 1 ? 's' : ''} (${n} file${n > 1 ? 's' : ''})…`);
	worker.postMessage({type: 'validate', inputs, options: options(), certify: $('opt-certify').checked});
}

$('pick-files').addEventListener('change', (e) => {
	run(looseInputs([...e.target.files]));
	e.target.value = '';
});
$('pick-folder').addEventListener('change', (e) => {
	run(folderInputs([...e.target.files].map((file) => ({path: file.webkitRelativePath || file.name, file}))));
	e.target.value = '';
});

const drop = $('drop');
for (const type of ['dragenter', 'dragover'])
	drop.addEventListener(type, (e) => {
		e.preventDefault();
		drop.classList.add('over');
	});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
	e.preventDefault();
	drop.classList.remove('over');
	// taken before the first await: the drop's items are readable only
	// while the event is dispatched. An item with no file-system entry (a
	// file a script put in the DataTransfer) is taken as a file.
	const items = [...e.dataTransfer.items].filter((i) => i.kind === 'file');
	const entries = items.map((i) => (i.webkitGetAsEntry && i.webkitGetAsEntry()) || i.getAsFile()).filter(Boolean);
	const loose = [], inputs = [];
	for (const entry of entries) {
		const deep = [];
		if (entry instanceof File) loose.push(entry);
		else if (entry.isDirectory) inputs.push(...folderInputs(await walkEntry(entry, deep), deep));
		else loose.push(...(await walkEntry(entry, deep)).map((x) => x.file));
	}
	run([...inputs, ...looseInputs(loose)]);
});

// The object URLs of the report on show (its frame and download links): a
// blob URL holds its bytes until revoked, so each new report frees the last
// one's, which a session validating many inputs would otherwise keep.
let reportUrls = [];
function reportUrl(text, type) {
	const url = URL.createObjectURL(new Blob([text], {type}));
	reportUrls.push(url);
	return url;
}

function download(name, text, type) {
	const a = document.createElement('a');
	a.href = reportUrl(text, type);
	a.download = name;
	a.textContent = name;
	return a;
}

function cell(tr, text, cls) {
	const td = document.createElement('td');
	td.textContent = text;
	if (cls) td.className = cls;
	tr.appendChild(td);
}

function diagnosticsTable(diagnostics) {
	const table = document.createElement('table');
	const head = table.createTHead().insertRow();
	for (const t of ['severity', 'rule', 'file', 'offset', 'where', 'message']) {
		const th = document.createElement('th');
		th.textContent = t;
		head.appendChild(th);
	}
	const body = table.createTBody();
	for (const d of diagnostics) {
		const tr = body.insertRow();
		cell(tr, d.severity, 'sev-' + d.severity);
		cell(tr, d.rule);
		cell(tr, d.file);
		cell(tr, d.offset === undefined || d.offset === null ? '' : '0x' + d.offset.toString(16));
		cell(tr, d.struct_path);
		cell(tr, d.message);
	}
	return table;
}

// The JSON report as a table: one summary per input, then its diagnostics.
function renderJson(report) {
	const root = document.createElement('div');
	for (const input of report.inputs) {
		const h = document.createElement('h2');
		h.textContent = `${input.path}: ${input.verdict}`;
		h.className = 'verdict-' + input.verdict;
		root.appendChild(h);
		const p = document.createElement('p');
		p.textContent = `${input.format || 'unrecognised'}${input.version ? ', version ' + input.version : ''}` +
			`${input.edition ? ', ' + input.edition + ' edition' : ''}; ${input.rules_checked} rules checked; ` +
			`${input.errors} errors, ${input.warnings} warnings, ${input.notes} notes` +
			(input.suppressed ? `, ${input.suppressed} more not shown` : '');
		root.appendChild(p);
		if (input.diagnostics.length) root.appendChild(diagnosticsTable(input.diagnostics));
		for (const m of input.not_shown || []) {
			const more = document.createElement('p');
			more.textContent = `${m.count} more ${m.rule} diagnostics not shown (first at ${m.first_file}:0x` +
				`${m.first_offset.toString(16)}, last at ${m.last_file}:0x${m.last_offset.toString(16)})`;
			root.appendChild(more);
		}
	}
	return root;
}

// The report view: the HTML report when the module has that writer
// (a self-contained document, shown in a sandboxed frame), else the JSON
// report as a table.
function renderReport(msg) {
	const box = $('report');
	box.replaceChildren();
	for (const url of reportUrls) URL.revokeObjectURL(url);
	reportUrls = [];
	if (msg.html) {
		const frame = document.createElement('iframe');
		frame.title = 'hpcvet report';
		frame.sandbox = 'allow-scripts';
		frame.src = reportUrl(msg.html, 'text/html');
		box.appendChild(frame);
	} else {
		box.appendChild(renderJson(JSON.parse(msg.json)));
	}
	const links = $('downloads');
	links.replaceChildren('Download: ');
	links.appendChild(download('hpcvet-report.json', msg.json, 'application/json'));
	links.append(' ');
	links.appendChild(download('hpcvet-report.sarif', msg.sarif, 'application/sarif+json'));
	if (msg.html) {
		links.append(' ');
		links.appendChild(download('hpcvet-report.html', msg.html, 'text/html'));
	}
	if (msg.certificate) {
		links.append(' ');
		links.appendChild(download('hpcvet-certificate.json', msg.certificate, 'application/json'));
	}
}

const exitWords = ['conforming', 'nonconforming', 'usage error', 'unreadable', 'internal error'];

worker.onmessage = (event) => {
	const msg = event.data;
	if (msg.type === 'ready') {
		formats = msg.formats;
		$('version').textContent = `hpcvet ${msg.version}, rule table ${msg.rules}, running in this browser (WebAssembly)`;
		$('mode').dataset.mode = msg.mode;
		$('mode').textContent = msg.mode === 'JSPI'
			? 'Files are read ahead by a second worker while the first checks them, the core waiting (JSPI) only for bytes not read yet.'
			: msg.mode === 'read-ahead'
			? 'Files are read ahead by a second worker into shared memory while the first checks them (the page is cross-origin isolated).'
			: 'Files are read one block at a time with FileReaderSync (this browser has no JSPI and the page is not ' +
			  'cross-origin isolated; served with the headers `make serve-web` sends, it reads ahead while the core checks).';
		setState('ready', '');
	} else if (msg.type === 'progress') {
		$('progress').value = msg.total ? msg.done / msg.total : 0;
		if (msg.label) $('message').textContent = `validating ${msg.label}…`;
	} else if (msg.type === 'result') {
		busy = false;
		$('progress').hidden = true;
		renderReport(msg);
		$('result').hidden = false;
		// for tests and scripts: the last reports, by format
		window.hpcvetResult = {exit: msg.exit, memory: msg.memory, shared: msg.shared, reads: msg.reads, readMs: msg.readMs, readBytes: msg.readBytes, readAsks: msg.readAsks, readOpens: msg.readOpens, readChunks: msg.readChunks, json: msg.json, sarif: msg.sarif, html: msg.html || null,
			certificate: msg.certificate || null};
		setState('done', `done: ${exitWords[msg.exit] || 'exit ' + msg.exit} (exit code ${msg.exit})`);
	} else if (msg.type === 'error') {
		busy = false;
		$('progress').hidden = true;
		window.hpcvetResult = {error: msg.message};
		setState('error', msg.message);
	}
};
worker.onerror = (e) => {
	busy = false;
	setState('error', 'the worker failed: ' + e.message);
};
