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
const worker = new Worker('worker.js');
let formats = [];
let busy = false;

function setState(state, message) {
	document.body.dataset.state = state;
	if (message !== undefined) $('message').textContent = message;
}

// [{path, file}] of a folder, from the folder picker or a drop.
function folderInputs(entries) {
	const byTop = new Map();
	for (const {path, file} of entries) {
		const parts = path.split('/');
		if (parts.slice(1).some((p) => p.startsWith('.'))) continue;
		if (!byTop.has(parts[0])) byTop.set(parts[0], []);
		byTop.get(parts[0]).push({name: path, file});
	}
	return [...byTop].map(([label, files]) => ({label, set: true, files}));
}

function looseInputs(list) {
	const metas = list.filter((f) => f.name.endsWith('.meta') && f.name.length > 5);
	if (metas.length)
		return metas.map((m) => ({label: m.name, set: true, files: list.map((f) => ({name: './' + f.name, file: f}))}));
	return list.map((f) => ({label: f.name, set: false, files: [{name: f.name, file: f}]}));
}

// A dropped folder, walked without recursion (readEntries hands out a
// folder's entries in batches until it returns none).
async function walkEntry(root) {
	const out = [];
	const stack = [root];
	while (stack.length) {
		const entry = stack.pop();
		if (entry.isFile) {
			const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
			out.push({path: entry.fullPath.replace(/^\//, ''), file});
		} else if (entry.isDirectory) {
			const r = entry.createReader();
			for (;;) {
				const batch = await new Promise((resolve, reject) => r.readEntries(resolve, reject));
				if (!batch.length) break;
				stack.push(...batch);
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
drop.addEventListener('dragover', (e) => {
	e.preventDefault();
	drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
	e.preventDefault();
	drop.classList.remove('over');
	const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
	const loose = [], inputs = [];
	for (const entry of entries) {
		if (entry.isDirectory) inputs.push(...folderInputs(await walkEntry(entry)));
		else loose.push(...(await walkEntry(entry)).map((x) => x.file));
	}
	run([...inputs, ...looseInputs(loose)]);
});

function download(name, text, type) {
	const a = document.createElement('a');
	a.href = URL.createObjectURL(new Blob([text], {type}));
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
	if (msg.html) {
		const frame = document.createElement('iframe');
		frame.title = 'hpcvet report';
		frame.sandbox = 'allow-scripts';
		frame.src = URL.createObjectURL(new Blob([msg.html], {type: 'text/html'}));
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
		window.hpcvetResult = {exit: msg.exit, memory: msg.memory, reads: msg.reads, readMs: msg.readMs, json: msg.json, sarif: msg.sarif, html: msg.html || null,
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
