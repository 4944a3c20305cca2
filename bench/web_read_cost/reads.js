// The reads of bench/web_read_cost.py, each over the whole file, the bytes
// touched (one byte a read) so that nothing is left unread; answers
// {bytes, chunks, ms} or {error}.
'use strict';

const frs = new FileReaderSync();

// n reads of `block` bytes, up to `inflight` at a time
async function slices(file, block, inflight, readOne) {
	let next = 0, bytes = 0, chunks = 0, sum = 0;
	const one = async () => {
		while (next < file.size) {
			const off = next;
			next += block;
			const buf = await readOne(file.slice(off, Math.min(off + block, file.size)));
			sum += new Uint8Array(buf)[0] | 0;
			bytes += buf.byteLength;
			chunks++;
		}
	};
	await Promise.all(Array.from({length: inflight}, one));
	return {bytes, chunks, sum};
}

async function stream(file, byob, block) {
	const s = file.stream();
	let bytes = 0, chunks = 0, sum = 0;
	if (!byob) {
		const r = s.getReader();
		for (;;) {
			const {done, value} = await r.read();
			if (done) break;
			bytes += value.byteLength;
			sum += value[0];
			chunks++;
		}
		return {bytes, chunks, sum};
	}
	const r = s.getReader({mode: 'byob'});
	let buf = new ArrayBuffer(block);
	for (;;) {
		const {done, value} = await r.read(new Uint8Array(buf));
		if (done) break;
		bytes += value.byteLength;
		sum += value[0];
		chunks++;
		buf = value.buffer; // the same memory, handed back
	}
	return {bytes, chunks, sum};
}

// `inflight` streams at once, each of an equal part of the file read BYOB
// by blocks of `block` bytes, with `min` (a block a read, as web/reader.js
// reads): whether the browser's reads of one stream are bound by their
// latency (one chunk of the browser's in flight a stream) or by CPU
async function parts(file, block, inflight) {
	const part = Math.ceil(file.size / inflight / block) * block, t = {bytes: 0, chunks: 0, sum: 0};
	const offs = [];
	for (let off = 0; off < file.size; off += part) offs.push(off);
	await Promise.all(offs.map((off) => readSlice(file, off, Math.min(off + part, file.size), block, new ArrayBuffer(block), t)));
	return t;
}

// Slices of `block` bytes, `inflight` of them read at once, each by a
// stream of its own read BYOB a MiB at a time (with `min`): a run of
// blocks split among streams, each opened for its part
async function sliceParts(file, block, inflight) {
	const MB = 1 << 20, t = {bytes: 0, chunks: 0, sum: 0};
	let next = 0;
	const one = async () => {
		let buf = new ArrayBuffer(MB);
		while (next < file.size) {
			const off = next, end = Math.min(off + block, file.size);
			next = end;
			buf = await readSlice(file, off, end, MB, buf, t);
		}
	};
	await Promise.all(Array.from({length: inflight}, one));
	return t;
}

// Bytes [off, end) of file by a stream of their own, read BYOB `step`
// bytes at a time (with `min`) into `buf`, counted in t; gives the buffer
// back (a BYOB read moves it to a new ArrayBuffer object)
async function readSlice(file, off, end, step, buf, t) {
	const r = file.slice(off, end).stream().getReader({mode: 'byob'});
	for (let at = off; at < end;) {
		const n = Math.min(step, end - at);
		const {done, value} = await r.read(new Uint8Array(buf, 0, n), {min: n});
		if (value) buf = value.buffer;
		if (done) break;
		at += value.length;
		t.bytes += value.length;
		t.sum += value[0];
		t.chunks++;
	}
	return buf;
}

// A destination of `size` bytes: the read-ahead buffer's kind (shared
// memory) or the module's (a WebAssembly memory).
function dest(kind, size) {
	if (kind === 'wasm') return new Uint8Array(new WebAssembly.Memory({initial: Math.ceil(size / 65536)}).buffer);
	return new Uint8Array(new SharedArrayBuffer(size));
}

// web/reader.js's way: one stream per slice of `block` bytes, its chunks
// copied into a destination of the block's size as they come
async function sliceStreams(file, block) {
	const dst = dest('shared', block);
	let bytes = 0, chunks = 0;
	for (let off = 0; off < file.size; off += block) {
		const r = file.slice(off, Math.min(off + block, file.size)).stream().getReader();
		for (let at = 0; ;) {
			const {done, value} = await r.read();
			if (done) break;
			dst.set(value, at);
			at += value.length;
			bytes += value.length;
			chunks++;
		}
	}
	return {bytes, chunks, sum: dst[0]};
}

// one stream of the whole file, its chunks copied into a ring of `block`
// bytes (a stream kept open while the reads go on in order)
async function streamCopied(file, block) {
	const dst = dest('shared', block), r = file.stream().getReader();
	let bytes = 0, chunks = 0;
	for (;;) {
		const {done, value} = await r.read();
		if (done) break;
		for (let p = 0; p < value.length;) {
			const o = bytes % block, n = Math.min(value.length - p, block - o);
			dst.set(value.subarray(p, p + n), o);
			p += n;
			bytes += n;
		}
		chunks++;
	}
	return {bytes, chunks, sum: dst[0]};
}

// FileReaderSync's block copied into a WebAssembly memory (the page's
// FileReaderSync mode: the block, then the core's window from it)
async function syncIntoWasm(file, block) {
	const dst = dest('wasm', block);
	let bytes = 0, chunks = 0;
	for (let off = 0; off < file.size; off += block) {
		const b = new Uint8Array(frs.readAsArrayBuffer(file.slice(off, Math.min(off + block, file.size))));
		dst.set(b);
		bytes += b.length;
		chunks++;
	}
	return {bytes, chunks, sum: dst[0]};
}

// A BYOB reader reading straight into a WebAssembly memory: a BYOB read
// transfers its view's buffer, which a WebAssembly memory's cannot be
async function byobIntoWasm(file, block) {
	const dst = dest('wasm', block), r = file.stream().getReader({mode: 'byob'});
	const {value} = await r.read(new Uint8Array(dst.buffer, 0, block));
	return {bytes: value ? value.length : 0, chunks: 1, sum: 0};
}

const cases = {
	'slice.stream': (f, b) => sliceStreams(f, b),
	'stream, copied': (f, b) => streamCopied(f, b),
	'FileReaderSync into wasm': (f, b) => syncIntoWasm(f, b),
	'stream BYOB into wasm': (f, b) => byobIntoWasm(f, b),
	'slice.arrayBuffer': (f, b, n) => slices(f, b, n, (s) => s.arrayBuffer()),
	'Response(slice).arrayBuffer': (f, b, n) => slices(f, b, n, (s) => new Response(s).arrayBuffer()),
	'FileReaderSync': (f, b) => slices(f, b, 1, async (s) => frs.readAsArrayBuffer(s)),
	'stream': (f) => stream(f, false),
	'stream BYOB': (f, b) => stream(f, true, b),
	'streams BYOB, parts': (f, b, n) => parts(f, b, n),
	'slice streams BYOB': (f, b, n) => sliceParts(f, b, n),
	'File.arrayBuffer': async (f) => {
		const buf = await f.arrayBuffer();
		return {bytes: buf.byteLength, chunks: 1, sum: new Uint8Array(buf)[0]};
	},
	'Response(File).arrayBuffer': async (f) => {
		const buf = await new Response(f).arrayBuffer();
		return {bytes: buf.byteLength, chunks: 1, sum: new Uint8Array(buf)[0]};
	},
};

onmessage = async ({data: {file, api, block, inflight}}) => {
	const t0 = performance.now();
	try {
		const r = await cases[api](file, block, inflight || 1);
		postMessage({...r, ms: performance.now() - t0});
	} catch (e) {
		postMessage({error: String(e)});
	}
};
