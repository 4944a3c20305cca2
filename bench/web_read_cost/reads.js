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

const cases = {
	'slice.arrayBuffer': (f, b, n) => slices(f, b, n, (s) => s.arrayBuffer()),
	'Response(slice).arrayBuffer': (f, b, n) => slices(f, b, n, (s) => new Response(s).arrayBuffer()),
	'FileReaderSync': (f, b) => slices(f, b, 1, async (s) => frs.readAsArrayBuffer(s)),
	'stream': (f) => stream(f, false),
	'stream BYOB': (f, b) => stream(f, true, b),
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
