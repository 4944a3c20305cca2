// The reads the web page asks of the browser for one input, counted
// outside the browser: web/worker.js itself runs in Node (the same V8 as
// Chromium), and web/blocks.js with it, FileReaderSync served from disk,
// so the blocks it asks for, and in how many reads, are those of the page
// (read ahead, the reader worker reads the same blocks: blocks.js decides
// them alone).
// Deterministic, so comparable on a loaded machine, where bench/web.sh's
// Chromium times are not; not part of the tests. bench/RESULTS.md, "Web
// page".
//
// Needs Node (Debian: nodejs), for measuring only.
// usage: [READ_AHEAD=1] node bench/web_reads.js BUILD/web INPUT [JSON_OUT]
// prints: "mib_asked=<MiB asked of the browser> reads=<runs asked for>
// exit=<exit code> input_mib=<MiB of the input>", read ahead also
// "browser_reads=<streams reader.js opens> mib_read_past=<MiB the browser
// reads past the runs>" (streams() below); with JSON_OUT, the JSON report
// written there.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const [webDir, input, jsonOut] = process.argv.slice(2);
if (!webDir || !input) {
	console.error('usage: node bench/web_reads.js BUILD/web INPUT [JSON_OUT]');
	process.exit(2);
}

// The page's inputs (page.js folderInputs): a folder is one set named by
// its folder, its files by their paths from there; a file is itself.
function gather(p) {
	const st = fs.statSync(p);
	const file = (full, name) => {
		const fd = fs.openSync(full, 'r'), size = fs.statSync(full).size;
		return {name, file: {size, fd, slice: (a, b) => ({fd, off: a, len: Math.min(b, size) - a})}};
	};
	if (!st.isDirectory()) return {label: path.basename(p), set: false, files: [file(p, path.basename(p))]};
	const top = path.basename(p), files = [];
	const walk = (dir, rel) => {
		for (const e of fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			if (e.name.startsWith('.')) continue;
			const full = path.join(dir, e.name), r = rel + '/' + e.name;
			if (e.isDirectory()) walk(full, r);
			else files.push(file(full, r));
		}
	};
	walk(p, top);
	return {label: top, set: true, files};
}

// What worker.js needs of a worker's global scope, FileReaderSync reading
// the slices from disk.
class FileReaderSync {
	readAsArrayBuffer(s) {
		const b = Buffer.alloc(s.len);
		for (let done = 0; done < s.len;) {
			const n = fs.readSync(s.fd, b, done, s.len - done, s.off + done);
			if (n <= 0) throw new Error('short read');
			done += n;
		}
		return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
	}
}
// READ_AHEAD=1: the read-ahead mode's bookkeeping (the blocks asked for on
// the core's hints, hpcvet.will_read, counted too), with a stand-in for
// reader.js that serves each run at once from disk (one browser read a run)
// and keeps the runs, for streams() below.
const runs = [];
class ReaderWorker {
	postMessage(m) {
		if (m.type === 'init') {
			this.data = new Uint8Array(m.data);
			this.done = new Int32Array(m.done);
			this.block = m.block;
			setImmediate(() => this.onmessage({data: {type: 'ready'}}));
		} else if (m.type === 'files') {
			this.files = m.files;
		} else if (m.type === 'read') {
			runs.push(m);
			const b = new Uint8Array(new FileReaderSync().readAsArrayBuffer(this.files[m.id].slice(m.off, m.off + m.len)));
			m.slots.forEach((s, j) => {
				this.data.set(b.subarray(j * this.block, Math.min((j + 1) * this.block, m.len)), s * this.block);
				this.done[s] = m.ticket;
			});
			this.done[this.done.length - 2]++;
			this.done[this.done.length - 1]++;
		}
	}
}
const readAhead = process.env.READ_AHEAD === '1';

// The browser reads reader.js would open for the runs, by its rule (a run
// continues an open stream of its file that stopped where the run starts
// and may read as far; else a stream of [off, end) is opened; OPEN open at
// most, the least recently used closed), and the bytes they read past the
// runs: a stream not continued has filled the browser's data pipe (PIPE)
// past its last run, up to its end. The 1203 MiB database in Chromium: 95
// browser reads and 71 MiB read past (rchar), this model 95 and 70.5.
function streams() {
	const OPEN = 16, PIPE = 2 * 1024 * 1024;
	let open = [], opened = 0, past = 0;
	const close = (x) => (past += Math.min(PIPE, x.end - x.next));
	for (const r of runs) {
		let x = open.find((y) => y.id === r.id && y.next === r.off && y.end >= r.off + r.len);
		if (x) {
			open = open.filter((y) => y !== x);
		} else {
			if (open.length >= OPEN) close(open.shift());
			x = {id: r.id, end: Math.max(r.end, r.off + r.len)};
			opened++;
		}
		x.next = r.off + r.len;
		open.push(x);
	}
	open.forEach(close);
	return {opened, past};
}
const messages = [];
const ctx = {
	// the page's way of reading, asked for as index.html?read= asks
	self: {crossOriginIsolated: readAhead, location: {search: readAhead ? '?read=ahead' : '?read=sync'}},
	Worker: ReaderWorker,
	FileReaderSync,
	TextEncoder,
	TextDecoder,
	URLSearchParams,
	MessageChannel,
	WebAssembly,
	performance,
	console,
	postMessage: (m) => messages.push(m),
	// worker.js loads blocks.js so; the two share the context's globals
	importScripts: (...names) => names.forEach((n) => vm.runInContext(fs.readFileSync(path.join(webDir, n), 'utf8'), ctx, {filename: n})),
	fetch: async () => ({arrayBuffer: async () => fs.readFileSync(path.join(webDir, 'hpcvet.wasm'))}),
};
ctx.self = Object.assign(ctx.self, ctx);
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(path.join(webDir, 'worker.js'), 'utf8'), ctx, {filename: 'worker.js'});

(async () => {
	const inp = gather(input);
	await ctx.onmessage({data: {type: 'validate', inputs: [inp], options: {}}});
	const res = messages.find((m) => m.type === 'result');
	if (!res) {
		console.error(messages.find((m) => m.type === 'error') || 'no result');
		process.exit(1);
	}
	if (jsonOut) fs.writeFileSync(jsonOut, res.json);
	const total = inp.files.reduce((s, f) => s + f.file.size, 0);
	const st = readAhead ? streams() : null;
	console.log(`mib_asked=${(res.readBytes / 1048576).toFixed(1)} reads=${res.readAsks} exit=${res.exit} ` +
		    `input_mib=${(total / 1048576).toFixed(1)}` +
		    (st ? ` browser_reads=${st.opened} mib_read_past=${(st.past / 1048576).toFixed(1)}` : ''));
	process.exit(0); // worker.js's MessageChannel (JSPI's turns) would keep Node waiting
})();
