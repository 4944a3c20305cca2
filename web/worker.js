// The validation, off the page's thread: the WebAssembly module (the
// checking core and the report writers of hpcvet, web/wasm/entry.c) runs
// here: its inputs, its validation, its reports and certificates. The core
// reads the user's files one slice at a time, when it asks for bytes
// (web/wasm/reader.c), through the import that blocks.js serves (by JSPI,
// read ahead into shared memory, or by FileReaderSync: its first lines say
// how). The page's `read` parameter (index.html?read=jspi|ahead|sync),
// passed on to this worker, asks for one of those ways (the tests and the
// bench compare them); a way the browser cannot give falls to the next.
// Nothing is sent anywhere: the only requests these workers make are for
// hpcvet.wasm, blocks.js and reader.js.
'use strict';

importScripts('blocks.js'); // the files' bytes: startReading(), readImports(), beginReading() ...

let wasm = null;        // the module's exports
// the exports that reach the read import: with JSPI, wrapped with
// WebAssembly.promising (they return promises)
let run = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A NUL-terminated copy of `s` in the module's memory; free with hvw_free.
function cstring(s) {
	const b = encoder.encode(s);
	const p = wasm.hvw_alloc(b.length + 1);
	memoryBytes().set(b, p);
	memoryBytes()[p + b.length] = 0;
	return p;
}

function readCString(p) {
	if (!p) return null;
	const m = memoryBytes();
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

// The three WASI calls wasi-libc's stdio makes: the writers write to
// memory streams, so only stray prints to stdout or stderr arrive here.
const ERRNO_BADF = 8, ERRNO_SPIPE = 70;
const wasi = {
	fd_write(fd, iovs, iovsLen, nwritten) {
		const view = new DataView(wasm.memory.buffer);
		let text = '', n = 0;
		for (let i = 0; i < iovsLen; i++) {
			const p = view.getUint32(iovs + 8 * i, true), l = view.getUint32(iovs + 8 * i + 4, true);
			text += decoder.decode(memoryBytes().subarray(p, p + l));
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
	const mode = await startReading();
	const response = await fetch('hpcvet.wasm');
	const {instance} = await WebAssembly.instantiate(await response.arrayBuffer(), {
		hpcvet: readImports(),
		wasi_snapshot_preview1: wasi,
	});
	wasm = instance.exports;
	useMemory(wasm.memory);
	wasm._initialize();
	run = readingSuspends()
		? {validate: WebAssembly.promising(wasm.hvw_input_validate), write: WebAssembly.promising(wasm.hvw_write)}
		: {validate: wasm.hvw_input_validate, write: wasm.hvw_write};
	const formats = ['json', 'sarif', 'text', 'html'].filter((f) => withStrings([f], (p) => wasm.hvw_has_format(p)));
	postMessage({
		type: 'ready',
		version: readCString(wasm.hvw_version()),
		rules: readCString(wasm.hvw_rule_table_version()),
		formats,
		mode,
	});
	return formats;
}

async function write(format) {
	const f = cstring(format);
	let p;
	try {
		p = await run.write(f);
	} finally {
		wasm.hvw_free(f);
	}
	if (!p) return null;
	return decoder.decode(memoryBytes().subarray(p, p + wasm.hvw_written_len()));
}

// inputs: [{label, set, files: [{name, file}]}]; options: {name: value}.
async function validate(inputs, options) {
	wasm.hvw_reset();
	for (const [name, value] of Object.entries(options))
		withStrings([name, String(value)], (n, v) => wasm.hvw_set_option(n, v));
	let total = 0;
	for (const input of inputs) for (const f of input.files) total += f.file.size;
	// the File objects by id, in the order of the inputs and their files
	beginReading(inputs.flatMap((input) => (input.problem ? [] : input.files.map((f) => f.file))), total);
	let id = 0;
	for (const input of inputs) {
		readingInput(input.label);
		if (!withStrings([input.label], (l) => wasm.hvw_input_begin(l, input.set ? 1 : 0)))
			throw new Error('out of memory');
		if (input.problem) {
			withStrings([input.problem], (p) => wasm.hvw_input_fail(p));
			await run.validate();
			continue;
		}
		const first = id;
		for (const f of input.files) {
			if (!withStrings([f.name], (n) => wasm.hvw_input_file(n, f.file.size, id++)))
				throw new Error('out of memory');
		}
		await run.validate();
		const changed = input.files.find((f, i) => !unchanged(first + i));
		if (changed) withStrings([changed.name], (n) => wasm.hvw_input_changed(n));
	}
	endReading();
}

// Certificates: each file's SHA-256 from WebCrypto, which digests a whole
// buffer (it has no streaming digest), so a file is read whole, one at a
// time, and only files up to CERT_MAX are digested; the certificate says
// when one was not. The browser reads a file again for its digest, and
// that read fails when the file changed since it was picked (the browser
// compares its date and size): then the bytes judged and the bytes
// digested are not known to be one set, and the input's verdict is
// withdrawn ("changed while it was read"), as on the command line.
const CERT_MAX = 1024 * 1024 * 1024;

async function digests() {
	for (let id = 0; id < files.length; id++) {
		if (files[id].size > CERT_MAX) continue;
		let whole;
		try {
			whole = await files[id].arrayBuffer();
		} catch (e) {
			wasm.hvw_file_changed(id);
			continue;
		}
		const md = new Uint8Array(await crypto.subtle.digest('SHA-256', whole));
		const hex = Array.from(md, (b) => b.toString(16).padStart(2, '0')).join('');
		withStrings([hex], (h) => wasm.hvw_cert_digest(id, h));
	}
}

async function result(certify) {
	// memory: the module's linear memory, which only grows: its peak
	const out = {type: 'result', exit: wasm.hvw_exit_code(), memory: wasm.memory.buffer.byteLength, ...readStats()};
	for (const format of formats) out[format] = await write(format);
	if (certify) out.certificate = await write('certificate');
	return out;
}

let formats = [];
const ready = load().then((f) => (formats = f)).catch((e) => postMessage({type: 'error', message: 'could not load hpcvet.wasm: ' + e}));

onmessage = async (event) => {
	await ready;
	const msg = event.data;
	if (msg.type !== 'validate') return;
	try {
		await validate(msg.inputs, msg.options || {});
		if (msg.certify) await digests();
		postMessage(await result(msg.certify));
	} catch (e) {
		// a trap in the module (out of memory beyond 4 GiB, a bug): the
		// instance may be inconsistent, so the next run starts afresh
		postMessage({type: 'error', message: String(e)});
		await load().then((f) => (formats = f));
	}
};
