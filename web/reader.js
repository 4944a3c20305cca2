// The reader of blocks.js's read-ahead modes: reads the blocks the
// validating worker asks for with the browser's asynchronous Blob streams,
// each block handed over as soon as it is whole (the core waits for the
// block it needs, not for the whole run). Its thread never blocks, so
// reads go on while the core checks the bytes it has. Two ways:
// - handed over (the default where the browser has JSPI): a run's
//   message brings an ArrayBuffer a block, each block is read into its
//   own buffer (BYOB: the browser copies the bytes once, from its data
//   pipe into that buffer) and the buffer is given back whole, transferred
//   (no copy), in a message of its own; the validating worker, suspended
//   by JSPI while it waits, takes it when its thread is free;
// - into shared memory (when the page is cross-origin isolated and the
//   browser has no JSPI): the bytes are copied into the blocks' slots of
//   a SharedArrayBuffer and each slot's ticket stored there, the
//   validating worker waiting with Atomics.wait.
// The first saves two copies of every byte: V8 copies to and from shared
// memory with relaxed atomic moves, ~0.17 ns a byte even when aligned
// (~0.2 CPU-s on this worker's thread and as much on the validating
// worker's for the 1203 MiB database, perf: 24% and 11% of their time).
//
// A stream is kept open after a run and continued by the next run that
// starts where it stopped (the core reads most files in order: a file's
// next run is asked for as it nears the last one's end). Opening a read
// costs the browser ~3 ms of CPU whatever its size (it registers the slice
// as a new Blob and opens the file), and a short stream's chunks are small
// (~128 KiB, for a 1 MiB slice): reading a 256 MiB file by a stream a 1
// MiB slice costs ~9 ns a byte, by one stream kept open ~2
// (`make bench-web-reads`, "slice.stream" and "stream, copied").
//
// A stream is read with a BYOB reader into buffers used again and again
// (the blocks' own, handed over; into shared memory, a few of this
// worker's): a default reader gives each chunk a new buffer, and the
// system gives each new buffer's pages afresh (a page fault and the page
// zeroed a 4 KiB: two thirds of this worker's CPU on the 1203 MiB
// database, most of it in the kernel). A BYOB read also asks for no more
// than the run's bytes, so nothing is kept past a run. Where the
// browser's Blob streams have no BYOB reader, the default one.
'use strict';

let handed = false; // blocks handed over in buffers of their own, not copied into shared memory
let data = null;    // shared memory: a Uint8Array over the SharedArrayBuffer of the slots
let done = null;    // shared memory: an Int32Array, per slot the ticket of its last read done (negated: failed); then the counts below
let opened = 0;     // streams opened
let chunks = 0;     // chunks the streams gave
let block = 0;      // bytes a slot
let files = [];     // File objects of the current run, by id

// Open streams, oldest first: {id, reader, byob, next: the file's byte
// after the last run given to the stream, end: its last byte + 1, left:
// the bytes of its last chunk past its last run (Uint8Array; default
// reader only), tail: the promise of its last run}. A stream holds no
// more than the browser's data pipe ahead of what was asked (the browser
// stops reading when the pipe is full), so an open stream the core does
// not come back to costs at most that; OPEN streams at most stay open, the
// one used least recently cancelled.
const OPEN = 16;
let streams = [];

// Shared memory: the buffers of the BYOB reads not in use (a read takes
// one and gives it back, moved to a new ArrayBuffer object, once its bytes
// are copied out): as many as reads are in flight at once, SPARE kept at
// most. CHUNK: the browser's data pipe of a Blob stream holds 2 MiB, so a
// read after a pause takes the whole pipe.
const CHUNK = 2 * 1024 * 1024, SPARE = 4;
let spare = [];

function newReader(blob) {
	const stream = blob.stream();
	try {
		return {reader: stream.getReader({mode: 'byob'}), byob: true};
	} catch (e) {
		return {reader: stream.getReader(), byob: false};
	}
}

// Shared memory: the next chunk of stream s, at most `max` bytes when read
// BYOB, and at least `min` (up to the end of the block being filled: a
// block is handed over as soon as it is whole, and a read answered with
// whatever the pipe holds then gives ~5 chunks a MiB, each a promise and a
// copy on this thread); {done, value, buffer: the buffer to give back once
// value is copied, or null}. Where the BYOB reader has no `min`, it is
// ignored.
//
// `align`: where the chunk's first byte goes in the shared memory, modulo
// WORD. The browser copies into shared memory word by word only when the
// source and the destination are aligned alike, byte by byte otherwise
// (V8's relaxed copy for shared memory: ~0.1 ns a byte against ~0.7 in
// Node, bench/web_sab_copy.js; 0.17 against 0.96 in Chromium 156), so
// the chunk is read at that place of its buffer modulo WORD.
const WORD = 8;
async function chunk(s, max, min, align) {
	if (!s.byob) return {...(await s.reader.read()), buffer: null};
	const buf = spare.pop() || new ArrayBuffer(CHUNK + WORD);
	const n = Math.min(CHUNK, max);
	const r = await s.reader.read(new Uint8Array(buf, align, n), {min: Math.min(n, min)});
	return {done: r.done, value: r.value, buffer: r.value ? r.value.buffer : null};
}

function giveBack(buffer) {
	if (buffer && spare.length < SPARE) spare.push(buffer);
}

function close(s) {
	streams = streams.filter((x) => x !== s);
	s.reader.cancel().catch(() => {});
}

// a stream still reading a run is not cancelled: that run would fail
function evict() {
	const idle = streams.find((x) => !x.busy);
	if (idle) close(idle);
}

// A stream of file id that continues at byte `off` and reaches `need`, or
// a new one from there to `end`.
function streamAt(id, off, need, end) {
	let s = streams.find((x) => x.id === id && x.next === off && x.end >= need);
	if (s) {
		streams = streams.filter((x) => x !== s);
	} else {
		if (streams.length >= OPEN) evict();
		s = {id, ...newReader(files[id].slice(off, end)), next: off, end, left: null, busy: 0, tail: Promise.resolve()};
		opened++;
		if (done) Atomics.store(done, done.length - 2, opened);
	}
	streams.push(s); // the most recently used
	return s;
}

// {slots, ticket, id, off, len, end, buffers}: bytes [off, off + len) of
// file id, block j of them into slots[j] (handed over: into buffers[j]);
// each block is handed over, or its slot's ticket stored, once it is whole
// (the ticket negated when the read failed). `end`: how far on in the file
// a stream opened for them may read (the bytes the core has there already,
// or the file's end).
function fill(msg) {
	const s = streamAt(msg.id, msg.off, msg.off + msg.len, Math.max(msg.end, msg.off + msg.len));
	s.next = msg.off + msg.len;
	s.busy++;
	// runs of one stream are read one after the other
	s.tail = s.tail.then(() => (handed ? pullHanded(s, msg) : pullShared(s, msg))).then(() => s.busy--);
}

// the stream failed: the file changed or went away (the core reports it
// unreadable); the stream's later runs fail with it
function failStream(s) {
	s.dead = true;
	if (streams.includes(s)) close(s);
}

// The bytes of a chunk of run r (its `at`: the bytes of the run in place
// so far) into their blocks: write(j, o, bytes) puts bytes at byte o of
// the run's block j, finish(j) is called once block j is whole; what is
// past the run stays with stream s for the next.
function place(s, r, value, write, finish) {
	const take = Math.min(value.length, r.len - r.at);
	s.left = take < value.length ? value.subarray(take) : null;
	for (let p = 0; p < take;) {
		const j = Math.floor(r.at / block), o = r.at - j * block, n = Math.min(take - p, block - o);
		write(j, o, value.subarray(p, p + n));
		p += n;
		r.at += n;
		if (r.at === r.len || r.at % block === 0) finish(j);
	}
}

async function pullShared(s, {slots, ticket, len}) {
	const r = {len, at: 0};
	const write = (j, o, bytes) => data.set(bytes, slots[j] * block + o);
	const finish = (j, result = ticket) => {
		Atomics.store(done, slots[j], result);
		Atomics.notify(done, slots[j]);
	};
	try {
		if (s.dead) throw new Error('stream failed');
		if (s.left) place(s, r, s.left, write, finish);
		while (r.at < len) {
			const {done: end, value, buffer} = await chunk(s, len - r.at, block - (r.at % block), r.at % WORD);
			if (end) throw new Error('short read');
			Atomics.store(done, done.length - 1, ++chunks);
			place(s, r, value, write, finish);
			giveBack(buffer);
		}
	} catch (e) {
		failStream(s);
		for (let j = Math.floor(r.at / block); j < slots.length; j++) finish(j, -ticket);
	}
}

// Handed over: each block read into its own buffer, BYOB straight from the
// browser's data pipe (one read a block: `min` is the block's bytes), and
// sent back whole.
async function pullHanded(s, {slots, ticket, len, buffers}) {
	const bufs = buffers.slice();
	const r = {len, at: 0};
	const write = (j, o, bytes) => new Uint8Array(bufs[j]).set(bytes, o);
	const send = (j, result = ticket) => {
		const buffer = bufs[j] && bufs[j].byteLength ? bufs[j] : null; // a read that failed keeps its buffer
		bufs[j] = null;
		postMessage({type: 'block', slot: slots[j], ticket: result, buffer, opened, chunks}, buffer ? [buffer] : []);
	};
	try {
		if (s.dead) throw new Error('stream failed');
		if (s.left) place(s, r, s.left, write, send);
		while (r.at < len) {
			if (!s.byob) {
				const {done: end, value} = await s.reader.read();
				if (end) throw new Error('short read');
				chunks++;
				place(s, r, value, write, send);
				continue;
			}
			const j = Math.floor(r.at / block), o = r.at - j * block, n = Math.min(len - r.at, block - o);
			const got = await s.reader.read(new Uint8Array(bufs[j], o, n), {min: n});
			if (got.value) bufs[j] = got.value.buffer;
			if (got.done) throw new Error('short read');
			chunks++;
			r.at += got.value.length;
			if (r.at === len || r.at % block === 0) send(j);
		}
	} catch (e) {
		failStream(s);
		for (let j = Math.floor(r.at / block); j < slots.length; j++) send(j, -ticket);
	}
}

onmessage = (event) => {
	const msg = event.data;
	if (msg.type === 'read') {
		fill(msg);
	} else if (msg.type === 'files') {
		for (const s of [...streams]) close(s);
		files = msg.files;
	} else if (msg.type === 'init') {
		handed = !msg.data;
		if (!handed) {
			data = new Uint8Array(msg.data);
			done = new Int32Array(msg.done);
		}
		block = msg.block;
		postMessage({type: 'ready'});
	}
};
