// The validation, off the page's thread: the WebAssembly module (the
// checking core and the report writers of hpcvet, web/wasm/entry.c) runs
// here, and reads the user's files one slice at a time, when the core asks
// for bytes (web/wasm/reader.c). The core's read is synchronous, so the
// bytes come one of two ways:
// - read ahead (when the page is cross-origin isolated, so that memory can
//   be shared between workers): a second worker (reader.js) reads blocks
//   of the files with the browser's asynchronous reads, several at a time
//   and ahead of where the core reads, into a SharedArrayBuffer; this
//   worker waits for a block with Atomics.wait only when it is not there;
// - otherwise FileReaderSync, one block at a time, the core waiting for
//   each.
// Nothing is sent anywhere: the only requests these workers make are for
// hpcvet.wasm and reader.js.
'use strict';

let wasm = null;        // the module's exports
let files = [];         // File objects of the current run, by index
let progress = null;    // {done, total, last}
let reads = {n: 0, ms: 0, bytes: 0}; // the reads the core waited for in the last run, the wait, and the bytes asked of the browser
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

// File reads come by blocks of BLOCK bytes, and a window the core asks
// for (4 KiB to 256 KiB) is copied from them: a browser read costs
// milliseconds whatever its size. Memory stays bounded, whatever the
// files' sizes: SLOTS blocks read ahead, or CACHED read by FileReaderSync.
// Read ahead takes smaller blocks, more of them and several at a time:
// a database is read at many places (a block read ahead there and never
// used is a read wasted), and the browser's reads overlap.
const BLOCK = 4 * 1024 * 1024, CACHED = 8;
const AHEAD_BLOCK = 1024 * 1024, SLOTS = 64, DEPTH = 8;

// FileReaderSync: the last CACHED blocks, "id:block" -> Uint8Array, oldest first.
let cache = new Map();

function sliceOf(id, off, len) {
	const t0 = performance.now();
	const buf = reader.readAsArrayBuffer(files[id].slice(off, off + len));
	reads.bytes += len;
	reads.n++;
	reads.ms += performance.now() - t0;
	if (buf.byteLength !== len) throw new Error('short read');
	return new Uint8Array(buf);
}

function syncBlock(id, k) {
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

// Read ahead: SLOTS slots of AHEAD_BLOCK bytes in `shared`, filled by reader.js.
// This worker alone decides which block goes to which slot: it posts
// {slot, ticket, id, off, len}, and reader.js, once the bytes are in the
// slot, stores the ticket (its negation when the read failed) in
// done[slot] and wakes this worker. A slot is given a new block only once
// its last read is done, so the reader never writes into a slot in use.
// Tickets only grow, across runs: a late read of an earlier run cannot
// pass for a current one.
let ahead = null; // {worker, data: Uint8Array, done: Int32Array, slots: [{key, ticket, len, run}], byKey: Map}
let ticket = 0;
let current = null;        // "id:block" the core read last
let recent = [];           // the files of the last blocks the core moved to

async function startReader() {
	if (!self.crossOriginIsolated || typeof SharedArrayBuffer === 'undefined' || typeof Atomics.wait !== 'function')
		return null;
	const w = new Worker('reader.js');
	const data = new SharedArrayBuffer(SLOTS * AHEAD_BLOCK), done = new SharedArrayBuffer(4 * SLOTS);
	await new Promise((resolve, reject) => {
		w.onmessage = resolve;
		w.onerror = reject;
		w.postMessage({type: 'init', data, done, block: AHEAD_BLOCK});
	});
	w.onmessage = null;
	w.onerror = null;
	const slots = Array.from({length: SLOTS}, () => ({key: null, ticket: 0, len: 0, run: 0}));
	return {worker: w, data: new Uint8Array(data), done: new Int32Array(done), slots, byKey: new Map()};
}

// Wait until slot s's read `t` is done; false when it failed or the
// reader gave no answer in WAIT_MS.
const WAIT_MS = 120000;
function settle(s, t) {
	const t0 = performance.now();
	let waited = false;
	for (;;) {
		const v = Atomics.load(ahead.done, s);
		if (v === t || v === -t) {
			if (waited) {
				reads.n++;
				reads.ms += performance.now() - t0;
			}
			return v === t;
		}
		waited = true;
		if (Atomics.wait(ahead.done, s, v, WAIT_MS) === 'timed-out') return false;
	}
}

// Ask for block k of file id, into the slot whose block was used least
// recently (byKey is in order of use, oldest first).
function request(id, k) {
	const key = id + ':' + k;
	let s = ahead.slots.findIndex((x) => x.key === null);
	if (s < 0) {
		const oldest = ahead.byKey.keys().next().value;
		s = ahead.byKey.get(oldest);
		ahead.byKey.delete(oldest);
	}
	const slot = ahead.slots[s];
	// the reader must be done with the slot: one that gave no answer may
	// still write into it, so it is not reused
	if (slot.ticket && !settle(s, slot.ticket) && Math.abs(Atomics.load(ahead.done, s)) !== slot.ticket) {
		slot.key = 'stuck:' + s;
		ahead.byKey.set(slot.key, s);
		throw new Error('the reader gave no answer');
	}
	const off = k * AHEAD_BLOCK, len = Math.min(AHEAD_BLOCK, files[id].size - off);
	slot.key = key;
	slot.run = 0;
	slot.ticket = ++ticket;
	slot.len = len;
	ahead.byKey.set(key, s);
	ahead.worker.postMessage({type: 'read', slot: s, ticket: slot.ticket, id, off, len});
	reads.bytes += len;
}

// How many blocks ahead of the core to read: as many as the blocks it
// read in order before this one (so a short run wastes few reads), at most
// DEPTH, and the slots shared among the files it reads in turn (an ovni
// trace's streams are read side by side), one each for the block in use.
function depth(run) {
	const streams = new Set(recent).size;
	return Math.max(1, Math.min(DEPTH, run, Math.floor(SLOTS / streams) - 1));
}

function aheadBlock(id, k) {
	const key = id + ':' + k;
	if (key !== current) {
		// the core moved to another block: read on from there when it
		// reads in order (the block before was read lately, or this is the
		// file's first); a file may be read at several places in turn
		current = key;
		const before = ahead.byKey.get(id + ':' + (k - 1));
		const run = k === 0 ? 1 : before === undefined ? 0 : ahead.slots[before].run + 1;
		recent.push(id);
		if (recent.length > 2 * SLOTS) recent.shift();
		if (!ahead.byKey.has(key)) request(id, k);
		const s = ahead.byKey.get(key);
		ahead.slots[s].run = run;
		ahead.byKey.delete(key); // the most recently used, before the blocks after it
		ahead.byKey.set(key, s);
		if (run) {
			const last = Math.ceil(files[id].size / AHEAD_BLOCK) - 1;
			for (let j = k + 1, n = depth(run); j <= Math.min(last, k + n); j++)
				if (!ahead.byKey.has(id + ':' + j)) request(id, j);
		}
	}
	const s = ahead.byKey.get(key);
	if (s === undefined) {
		request(id, k); // evicted by read-ahead of other files since
		return aheadBlock(id, k);
	}
	ahead.byKey.delete(key); // the most recently used again
	ahead.byKey.set(key, s);
	const slot = ahead.slots[s];
	if (!settle(s, slot.ticket)) throw new Error('read failed');
	return ahead.data.subarray(s * AHEAD_BLOCK, s * AHEAD_BLOCK + slot.len);
}

// hpcvet.read: `len` bytes of file `id` at `off` into memory at `dst`.
function read(id, off, dst, len) {
	const f = files[id];
	if (!f || off + len > f.size) return 0;
	try {
		if (len >= BLOCK && !ahead) {
			bytes().set(sliceOf(id, off, len), dst);
		} else {
			for (let done = 0; done < len;) {
				const size = ahead ? AHEAD_BLOCK : BLOCK, at = off + done, k = Math.floor(at / size);
				const b = ahead ? aheadBlock(id, k) : syncBlock(id, k);
				const from = at - k * size, n = Math.min(len - done, b.length - from);
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
	if (!ahead) ahead = await startReader().catch(() => null);
	const formats = ['json', 'sarif', 'text', 'html'].filter((f) => withStrings([f], (p) => wasm.hvw_has_format(p)));
	postMessage({
		type: 'ready',
		version: readCString(wasm.hvw_version()),
		rules: readCString(wasm.hvw_rule_table_version()),
		formats,
		mode: ahead ? 'read-ahead' : 'FileReaderSync',
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
	// the File objects by id, in the order of the inputs and their files
	files = inputs.flatMap((input) => (input.problem ? [] : input.files.map((f) => f.file)));
	cache = new Map();
	reads = {n: 0, ms: 0, bytes: 0};
	current = null;
	recent = [];
	for (const [name, value] of Object.entries(options))
		withStrings([name, String(value)], (n, v) => wasm.hvw_set_option(n, v));
	let total = 0;
	for (const input of inputs) for (const f of input.files) total += f.file.size;
	progress = {done: 0, total, last: 0};
	if (ahead) {
		for (const slot of ahead.slots) slot.key = null; // a read still running keeps its ticket
		ahead.byKey = new Map();
		ahead.worker.postMessage({type: 'files', files});
	}
	let id = 0;
	for (const input of inputs) {
		postMessage({type: 'progress', done: Math.min(progress.done, total), total, label: input.label});
		if (!withStrings([input.label], (l) => wasm.hvw_input_begin(l, input.set ? 1 : 0)))
			throw new Error('out of memory');
		if (input.problem) {
			withStrings([input.problem], (p) => wasm.hvw_input_fail(p));
			wasm.hvw_input_validate();
			continue;
		}
		for (const f of input.files) {
			if (!withStrings([f.name], (n) => wasm.hvw_input_file(n, f.file.size, id++)))
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
		shared: ahead ? ahead.data.byteLength : 0, reads: reads.n, readMs: Math.round(reads.ms), readBytes: reads.bytes};
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
