// The web page's WebAssembly module (make web) run on one input outside the
// browser, in Node (the same V8 as Chromium): the module's CPU alone, with
// the files read synchronously from disk as the page's worker copies them
// in (hpcvet.read), so that `node --cpu-prof` profiles the checking core as
// the page runs it. Not part of the tests (bench/RESULTS.md, "Web page
// (WebAssembly in the browser)": how the wasm build's CPU was measured against the CLI's).
//
// Needs Node (Debian: nodejs), for measuring only.
// usage: [REPEAT=n] node [--cpu-prof] bench/web_cpu.js BUILD/web/hpcvet.wasm INPUT [json]
// prints: "cpu_s=<process CPU seconds of the validation> exit=<exit code>"
// and, with `json`, the JSON report on stdout after it.
'use strict';
const fs = require('fs');
const path = require('path');

const [wasmPath, input, want] = process.argv.slice(2);
if (!wasmPath || !input) {
	console.error('usage: node bench/web_cpu.js hpcvet.wasm INPUT [json]');
	process.exit(2);
}

// The page's inputs: a folder is one set named by its folder, its files
// by their paths from there (page.js folderInputs); a file is itself.
function gather(p) {
	const st = fs.statSync(p);
	if (!st.isDirectory()) return {label: path.basename(p), set: false, files: [{name: path.basename(p), path: p}]};
	const top = path.basename(p), files = [];
	const walk = (dir, rel) => {
		for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
			if (e.name.startsWith('.')) continue;
			const full = path.join(dir, e.name), r = rel + '/' + e.name;
			if (e.isDirectory()) walk(full, r);
			else files.push({name: r, path: full});
		}
	};
	walk(p, top);
	return {label: top, set: true, files};
}

const inp = gather(input);
const fds = inp.files.map((f) => fs.openSync(f.path, 'r'));
const sizes = inp.files.map((f) => fs.statSync(f.path).size);
let wasm = null;
const bytes = () => new Uint8Array(wasm.memory.buffer);
const encoder = new TextEncoder(), decoder = new TextDecoder();

function read(id, off, dst, len) {
	if (id >= fds.length || off + len > sizes[id]) return 0;
	const b = bytes();
	for (let done = 0; done < len;) {
		const n = fs.readSync(fds[id], b, dst + done, len - done, off + done);
		if (n <= 0) return 0;
		done += n;
	}
	return 1;
}

const wasi = {
	fd_write(fd, iovs, iovsLen, nwritten) {
		const view = new DataView(wasm.memory.buffer);
		let n = 0;
		for (let i = 0; i < iovsLen; i++) n += view.getUint32(iovs + 8 * i + 4, true);
		view.setUint32(nwritten, n, true);
		return fd === 1 || fd === 2 ? 0 : 8;
	},
	fd_close: () => 8,
	fd_seek: () => 70,
};

function cstring(s) {
	const b = encoder.encode(s), p = wasm.hvw_alloc(b.length + 1);
	bytes().set(b, p);
	bytes()[p + b.length] = 0;
	return p;
}

const mod = new WebAssembly.Module(fs.readFileSync(wasmPath));
// hints of where the core reads next (hv_blob.will_read): this reader reads
// synchronously, so it has nothing to start early
wasm = new WebAssembly.Instance(mod, {hpcvet: {read, will_read: () => {}}, wasi_snapshot_preview1: wasi}).exports;
wasm._initialize();
// REPEAT=n validates n times: under callgrind, the instructions of n runs
// less those of one are n - 1 validations, without start-up and compiling.
const t0 = process.cpuUsage();
let exit = 4;
for (let n = Number(process.env.REPEAT || 1); n > 0; n--) {
	wasm.hvw_reset();
	wasm.hvw_input_begin(cstring(inp.label), inp.set ? 1 : 0);
	inp.files.forEach((f, i) => wasm.hvw_input_file(cstring(f.name), sizes[i], i));
	exit = wasm.hvw_input_validate();
}
const t = process.cpuUsage(t0);
console.log(`cpu_s=${((t.user + t.system) / 1e6).toFixed(3)} exit=${exit}`);
if (want === 'json') {
	const p = wasm.hvw_write(cstring('json'));
	process.stdout.write(decoder.decode(bytes().subarray(p, p + wasm.hvw_written_len())));
}
