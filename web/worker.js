// The validation, off the page's thread: the WebAssembly module (the
// checking core and the report writers of hpcvet, web/wasm/entry.c) runs
// here, and reads the user's files through FileReaderSync, one slice at a
// time, when the core asks for bytes (web/wasm/reader.c). Nothing is sent
// anywhere: the only request this worker makes is for hpcvet.wasm itself.
'use strict';

let wasm = null;        // the module's exports
let files = [];         // File objects of the current run, by index
let progress = null;    // {done, total, last}
let reads = {n: 0, ms: 0}; // FileReaderSync reads of the last run, and their time
const reader = new FileReaderSync();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const bytes = () => new Uint8Array(wasm.memory.buffer);

// A NUL-terminated copy of `s` in the module's memory; free with hvw_free.
function cstring(s) {
	const b = encoder.encode(s);
	const p = wasm.hvw_alloc(b.length + 1);
	bytes().set(b, p);
	bytes()[p + b.length] = 0;
	return p;
}

function readCString(p) {
	if (!p) return null;
	const m = bytes();
	let e = p;
	while (m[e]) e++;
	return decoder.decode(m.subarray(p, e));
}

function withStrings(strings, fn) {
	const ps = strings.map(cstring);
	try {
		return fn(...ps);
	} finally {
		ps.forEach((p) => wasm.hvw_free(p));
	}
}

// File reads: FileReaderSync costs milliseconds a call whatever its size
// (the bytes come from the browser's process), and the core asks for
// windows of 4 KiB to 256 KiB; so the worker reads blocks of BLOCK bytes
// and keeps the last CACHED of them, and a window is copied from them. Its
// memory stays bounded: CACHED blocks, whatever the files' sizes.
const BLOCK = 4 * 1024 * 1024, CACHED = 8;
let cache = new Map();  // "id:block" -> Uint8Array, oldest first

function sliceOf(id, off, len) {
	const t0 = performance.now();
	const buf = reader.readAsArrayBuffer(files[id].slice(off, off + len));
	reads.n++;
	reads.ms += performance.now() - t0;
	if (buf.byteLength !== len) throw new Error('short read');
	return new Uint8Array(buf);
}

function block(id, k) {
	const key = id + ':' + k;
	let b = cache.get(key);
	if (b) {
		cache.delete(key); // the most recent again
	} else {
		const off = k * BLOCK;
		b = sliceOf(id, off, Math.min(BLOCK, files[id].size - off));
		if (cache.size >= CACHED) cache.delete(cache.keys().next().value);
	}
	cache.set(key, b);
	return b;
}

// hpcvet.read: `len` bytes of file `id` at `off` into memory at `dst`.
function read(id, off, dst, len) {
	const f = files[id];
	if (!f || off + len > f.size) return 0;
	try {
		if (len >= BLOCK) {
			bytes().set(sliceOf(id, off, len), dst);
		} else {
			for (let done = 0; done < len;) {
				const at = off + done, k = Math.floor(at / BLOCK), b = block(id, k);
				const from = at - k * BLOCK, n = Math.min(len - done, b.length - from);
				bytes().set(b.subarray(from, from + n), dst + done);
				done += n;
			}
		}
	} catch (e) {
		return 0; // the file changed or went away: the core reports it unreadable
	}
	if (progress) {
		progress.done += len;
		const now = performance.now();
		if (now - progress.last > 100) {
			progress.last = now;
			postMessage({type: 'progress', done: Math.min(progress.done, progress.total), total: progress.total});
		}
	}
	return 1;
}

// The three WASI calls wasi-libc's stdio makes: the writers write to
// memory streams, so only stray prints to stdout or stderr arrive here.
const ERRNO_BADF = 8, ERRNO_SPIPE = 70;
const wasi = {
	fd_write(fd, iovs, iovsLen, nwritten) {
		const view = new DataView(wasm.memory.buffer);
		let text = '', n = 0;
		for (let i = 0; i < iovsLen; i++) {
			const p = view.getUint32(iovs + 8 * i, true), l = view.getUint32(iovs + 8 * i + 4, true);
			text += decoder.decode(bytes().subarray(p, p + l));
			n += l;
		}
		if (fd !== 1 && fd !== 2) return ERRNO_BADF;
		console.log(text);
		view.setUint32(nwritten, n, true);
		return 0;
	},
	fd_close: () => ERRNO_BADF,
	fd_seek: () => ERRNO_SPIPE,
};

async function load() {
	const response = await fetch('hpcvet.wasm');
	const {instance} = await WebAssembly.instantiate(await response.arrayBuffer(), {
		hpcvet: {read},
		wasi_snapshot_preview1: wasi,
	});
	wasm = instance.exports;
	wasm._initialize();
	const formats = ['json', 'sarif', 'text', 'html'].filter((f) => withStrings([f], (p) => wasm.hvw_has_format(p)));
	postMessage({
		type: 'ready',
		version: readCString(wasm.hvw_version()),
		rules: readCString(wasm.hvw_rule_table_version()),
		formats,
	});
	return formats;
}

function write(format) {
	const p = withStrings([format], (f) => wasm.hvw_write(f));
	if (!p) return null;
	return decoder.decode(bytes().subarray(p, p + wasm.hvw_written_len()));
}

// inputs: [{label, set, files: [{name, file}]}]; options: {name: value}.
function validate(inputs, options) {
	wasm.hvw_reset();
	files = [];
	cache = new Map();
	reads = {n: 0, ms: 0};
	for (const [name, value] of Object.entries(options))
		withStrings([name, String(value)], (n, v) => wasm.hvw_set_option(n, v));
	let total = 0;
	for (const input of inputs) for (const f of input.files) total += f.file.size;
	progress = {done: 0, total, last: 0};
	for (const input of inputs) {
		postMessage({type: 'progress', done: Math.min(progress.done, total), total, label: input.label});
		if (!withStrings([input.label], (l) => wasm.hvw_input_begin(l, input.set ? 1 : 0)))
			throw new Error('out of memory');
		for (const f of input.files) {
			files.push(f.file);
			if (!withStrings([f.name], (n) => wasm.hvw_input_file(n, f.file.size, files.length - 1)))
				throw new Error('out of memory');
		}
		wasm.hvw_input_validate();
	}
	progress = null;
	postMessage({type: 'progress', done: total, total});
}

// Certificates: each file's SHA-256 from WebCrypto, which digests a whole
// buffer (it has no streaming digest), so a file is read whole, one at a
// time, and only files up to CERT_MAX are digested; the certificate says
// when one was not.
const CERT_MAX = 1024 * 1024 * 1024;

async function digests() {
	for (let id = 0; id < files.length; id++) {
		if (files[id].size > CERT_MAX) continue;
		const md = new Uint8Array(await crypto.subtle.digest('SHA-256', await files[id].arrayBuffer()));
		const hex = Array.from(md, (b) => b.toString(16).padStart(2, '0')).join('');
		withStrings([hex], (h) => wasm.hvw_cert_digest(id, h));
	}
}

function result(certify) {
	// memory: the module's linear memory, which only grows: its peak
	const out = {type: 'result', exit: wasm.hvw_exit_code(), memory: wasm.memory.buffer.byteLength,
		reads: reads.n, readMs: Math.round(reads.ms)};
	for (const format of formats) out[format] = write(format);
	if (certify) out.certificate = write('certificate');
	return out;
}

let formats = [];
const ready = load().then((f) => (formats = f)).catch((e) => postMessage({type: 'error', message: 'could not load hpcvet.wasm: ' + e}));

onmessage = async (event) => {
	await ready;
	const msg = event.data;
	if (msg.type !== 'validate') return;
	try {
		validate(msg.inputs, msg.options || {});
		if (msg.certify) await digests();
		postMessage(result(msg.certify));
	} catch (e) {
		// a trap in the module (out of memory beyond 4 GiB, a bug): the
		// instance may be inconsistent, so the next run starts afresh
		postMessage({type: 'error', message: String(e)});
		await load().then((f) => (formats = f));
	}
};
