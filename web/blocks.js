// How the bytes of the user's files reach the WebAssembly module (loaded by
// worker.js with importScripts): the module's read import, hpcvet.read,
// copies the windows the core asks for from blocks of the files, kept in
// slots; which blocks are read, when and how many at a time; whether a
// file changed while it was read; the progress of a validation, in bytes
// read. A second worker (reader.js) reads blocks of the files with the
// browser's asynchronous reads, ahead of where the core reads, while the
// core checks the blocks it has. The core's read is synchronous, so the
// bytes come one of three ways:
// - by JSPI (WebAssembly.Suspending, where the browser has it): the read
//   import may suspend the module until the bytes are there, so the reader
//   hands each block over in a buffer of its own, transferred (no copy),
//   and this worker takes it when the module is suspended: the module
//   suspends only when a block it needs has not been taken yet. No shared
//   memory, so no cross-origin isolation needed, and two copies of every
//   byte fewer than into shared memory;
// - read ahead into shared memory (where the browser has no JSPI, or
//   where it is asked for, and the page is cross-origin isolated, so that
//   memory can be shared between workers): the reader copies the blocks
//   into a SharedArrayBuffer, and this worker waits for a block with
//   Atomics.wait only when it is not there;
// - otherwise FileReaderSync, the same blocks, the core waiting for each
//   read.
// worker.js calls startReading() once, readImports() for the module's
// imports, useMemory() with its memory (memoryBytes() views it),
// beginReading() and endReading() around each validation, unchanged()
// after each input, readStats() for the result; nothing here calls into
// worker.js.
'use strict';

const asked = new URLSearchParams(self.location.search).get('read');
let memory = null;      // the module's WebAssembly.Memory
let files = [];         // File objects of the current run, by index
let progress = null;    // {done, total, last}
// the reads the core waited for in the last run, the wait, the bytes asked
// of the browser, in how many runs, and the counts of streams the reader
// had opened and of their chunks before the run (read ahead, a run may
// continue the last one's stream)
let reads = {n: 0, ms: 0, bytes: 0, asks: 0, opened: 0, chunks: 0};
// read ahead: the runs asked of the reader in the current validation, by
// file id (unchanged() reopens the files read in more than one)
let runs = new Map();
// the files a read of failed in the current validation, by id
// (unchanged() reopens them: a failed read is most often a change)
let failed = new Set();
const reader = new FileReaderSync();

const memoryBytes = () => new Uint8Array(memory.buffer);

// File reads come by blocks of BLOCK bytes, kept in SLOTS slots (memory
// stays bounded, whatever the files' sizes), and a window the core asks
// for (4 KiB to 256 KiB) is copied from them. A browser read costs CPU
// for each byte (~3 ns: the browser reads the file into a data pipe, the
// renderer copies it out) and ~3-5 ms more for each read, whatever its
// size (bench/web_read_cost.py: 1 MiB reads cost 2-3 times what 16 MiB
// reads do a byte), so blocks are asked for several at a time, in one
// read, and only where the core will read them:
// - a block starts where the core first asks for bytes there, rounded
//   down to GRAIN, not at a multiple of BLOCK: after a jump (profile.db's
//   profiles, the summary's values), the bytes of the block before that
//   place belong to something the core read before, or will not read.
//   GRAIN is half a block: the core often reads a little before a place
//   it jumped to (the values before an index), and another read for those
//   bytes costs more than they do (64 KiB: 3% fewer bytes asked of the
//   1203 MiB database than aligned blocks, but as many reads, and 5 more
//   of 24 on a 33 MiB one; 512 KiB: 2% fewer bytes and 3% fewer reads);
// - where the core reads a file in order, the blocks ahead of it, as many
//   as the blocks it has read in order there (up to DEPTH), asked for in
//   one read once half of them are used;
// - not past bytes already read: the core read there already, so
//   that is another of its places in the file (a section's end);
// - not past a block the core first came to by a jump, when a run reaches
//   it: the core reads an index at a section's end before the values
//   before it (profile.db's profiles), so the run ends there;
// - after a jump to bytes before such a block, the core's last there, all
//   the bytes up to it at once (up to 2 DEPTH): the values before their
//   index, which the core reads whole (1203 MiB database: its 44
//   profiles' values in 1 read each, not 5-6 growing ones);
// - where the core walks a file backwards a block at a time (trace.db's
//   lines, from the last), the blocks before it, as many as the steps it
//   took back (up to DEPTH), in one read: 15 reads of the 1203 MiB
//   database's 34 MiB trace.db, not 37, each a stream opened;
// - a read of a whole small file whose bytes are held already (meta.db,
//   after its header) is not asked for again.
// make bench-web-asks: 1228 MiB in 335 reads before these three, 1222 in
// 189; the ovni traces' reads are the same.
// By JSPI or into shared memory, a second worker (reader.js) does the
// reads, so they go on while the core checks; otherwise FileReaderSync
// does them while the core waits.
// DEPTH 16 rather than 8: runs of up to 16 MiB in order (32 after a jump or
// on a hint) keep the browser further ahead of the core: the 1203 MiB
// database in 143 runs, not 183, with 149-183 waits for reads where there
// were 202-239, and 0.2-0.6 CPU-s less (make bench-web, quiet, 4 series
// each); the ovni trace as before (1.5x, 1.6x the CLI).
const BLOCK = 1024 * 1024, SLOTS = 128, DEPTH = 16, GRAIN = 512 * 1024;
// a read of at least DIRECT bytes (a whole small file) is one read of
// exactly those bytes, into the module's memory
const DIRECT = 1024 * 1024;

// The slots: SLOTS blocks of BLOCK bytes, in `data` (a SharedArrayBuffer
// when read ahead into shared memory), or by JSPI each in a buffer of its
// own, `bufs[slot]` (null while the reader has it). This worker alone
// decides which block goes to which slot: a read of n blocks of file id
// from byte `off` gets a ticket and n slots (the last may be short);
// once the bytes are in the slots, the ticket (its negation when the read
// failed) is stored in done[slot] of each, and this worker is woken (by
// JSPI, when a block comes back: handed()). In shared memory a slot is
// given a new block only once its last read is done, so the reader never
// writes into a slot in use; by JSPI at once, with a new buffer, the late
// block dropped when it comes. Tickets only grow, across runs: a late read
// of an earlier run cannot pass for a current one.
// slots[s]: {key: "id:start" (null: free), id, start: its first byte in
// the file, ticket, len, run: blocks read in order up to this one, jump:
// first asked for after a jump, used: the core read it, back: steps the
// core took backwards through the file up to this block, again: the core
// came back to it after it was given up, hinted: asked for on the core's
// hint (willRead)}.
let store = null;  // {worker (null: FileReaderSync), jspi, shared, data: Uint8Array (by JSPI null), bufs, done: Int32Array, slots, byKey: Map (in order of use, oldest first)}
let ticket = 0;
let current = -1;          // the slot the core read last
let recent = [];           // the files of the last blocks the core moved to
// by file id, the two slots the core moved to last in it, the last first
// (a walk backwards reads a record across two blocks: the new one and the
// one after it)
let lastIn = new Map();

function newStore(worker, data, done, jspi = false) {
	const slots = Array.from({length: SLOTS}, () => ({key: null, id: -1, start: 0, ticket: 0, len: 0, run: 0, jump: false,
							  used: false, back: 0, again: false, hinted: false}));
	const shared = typeof SharedArrayBuffer !== 'undefined' && data instanceof SharedArrayBuffer;
	return {worker, jspi, shared, data: data && new Uint8Array(data), bufs: jspi ? new Array(SLOTS).fill(null) : null,
		done: new Int32Array(done), slots, byKey: new Map()};
}

// The slot that holds (or is being read to hold) byte `at` of file id; -1
// when none does.
function find(id, at) {
	const slots = store.slots;
	for (let s = 0; s < SLOTS; s++) {
		const x = slots[s];
		if (x.key !== null && x.id === id && at >= x.start && at - x.start < x.len) return s;
	}
	return -1;
}

// Where the bytes of file id held after `at` begin (its size when none
// are): a read from `at` stops there. And the end of the held bytes
// before `at`, 0 when none: a read for `at` starts no earlier.
function nextHeld(id, at) {
	let n = files[id].size;
	for (const x of store.slots) if (x.key !== null && x.id === id && x.start > at && x.start < n) n = x.start;
	return n;
}
function prevHeld(id, at) {
	let e = 0;
	for (const x of store.slots) if (x.key !== null && x.id === id && x.start < at && x.start + x.len > e) e = x.start + x.len;
	return e;
}

// The reader worker, ready; null when it cannot be started.
async function startWorker(init) {
	const w = new Worker('reader.js');
	await new Promise((resolve, reject) => {
		w.onmessage = resolve;
		w.onerror = reject;
		w.postMessage(init);
	});
	w.onmessage = null;
	w.onerror = null;
	return w;
}

// Read ahead into shared memory: where the page is cross-origin isolated.
async function startShared() {
	if (asked === 'sync' || !self.crossOriginIsolated || typeof SharedArrayBuffer === 'undefined' || typeof Atomics.wait !== 'function')
		return null;
	// done: a ticket a slot, then the counts of streams the reader opened
	// and of the chunks they gave
	const data = new SharedArrayBuffer(SLOTS * BLOCK), done = new SharedArrayBuffer(4 * (SLOTS + 2));
	return newStore(await startWorker({type: 'init', data, done, block: BLOCK}), data, done);
}

// By JSPI: blocks handed over by the reader worker.
async function startHanded() {
	if (asked === 'ahead' || asked === 'sync' || typeof WebAssembly.Suspending !== 'function' ||
	    typeof WebAssembly.promising !== 'function')
		return null;
	const w = await startWorker({type: 'init', block: BLOCK});
	const st = newStore(w, null, new ArrayBuffer(4 * (SLOTS + 2)), true);
	w.onmessage = (event) => handed(event.data);
	return st;
}

// Buffers of blocks the core no longer needs, given to the next reads (a
// new buffer's pages are faulted in and zeroed anew): a late block, whose
// slot has another block since.
const SPARE = 8;
let spare = [];
function blockBuffer(s) {
	const b = store.bufs[s];
	store.bufs[s] = null;
	return b ? b.buffer : spare.pop() || new ArrayBuffer(BLOCK);
}

// By JSPI, a block back from the reader: {slot, ticket (negated: the read
// failed), buffer, opened, chunks}. Taken only while the module is
// suspended (this worker's thread runs nothing else meanwhile).
function handed(m) {
	store.done[SLOTS] = m.opened;
	store.done[SLOTS + 1] = m.chunks;
	const x = store.slots[m.slot];
	if (x.ticket === Math.abs(m.ticket) && store.bufs[m.slot] === null) {
		if (m.buffer) store.bufs[m.slot] = new Uint8Array(m.buffer);
		store.done[m.slot] = m.ticket;
	} else if (m.buffer && m.buffer.byteLength === BLOCK && spare.length < SPARE) {
		spare.push(m.buffer);
	}
	if (woken) woken();
}

// By JSPI, a block the core needs that is not whole yet: the read import
// returns a promise, resolved once slot s's read `t` is done (true) or
// failed or gave no answer in WAIT_MS (false), and the module waits
// suspended.
class Pending {
	constructor(s, t) {
		this.s = s;
		this.t = t;
	}
}
let woken = null;
function whenDone(s, t) {
	const t0 = performance.now();
	return new Promise((resolve) => {
		const check = () => {
			const v = store.done[s];
			if (v !== t && v !== -t) return false;
			reads.n++;
			reads.ms += performance.now() - t0;
			resolve(v === t);
			return true;
		};
		if (check()) return;
		const timer = setTimeout(() => {
			woken = null;
			resolve(false);
		}, WAIT_MS);
		woken = () => {
			if (!check()) return;
			clearTimeout(timer);
			woken = null;
		};
	});
}

// `len` bytes of file id at `off`, by FileReaderSync.
function readSync(id, off, len) {
	const t0 = performance.now();
	const buf = reader.readAsArrayBuffer(files[id].slice(off, off + len));
	reads.bytes += len;
	reads.asks++;
	reads.n++; // the core waits for it
	reads.ms += performance.now() - t0;
	if (buf.byteLength !== len) throw new Error('short read');
	return new Uint8Array(buf);
}

// Wait until slot s's read `t` is done; false when it failed or the
// reader gave no answer in WAIT_MS.
const WAIT_MS = 120000;
function settle(s, t) {
	if (store.jspi) {
		const v = store.done[s];
		if (v === t || v === -t) return v === t;
		throw new Pending(s, t);
	}
	const t0 = performance.now();
	let waited = false;
	for (;;) {
		const v = Atomics.load(store.done, s);
		if (v === t || v === -t) {
			if (waited) {
				reads.n++;
				reads.ms += performance.now() - t0;
			}
			return v === t;
		}
		waited = true;
		if (Atomics.wait(store.done, s, v, WAIT_MS) === 'timed-out') return false;
	}
}

// A slot for the block of file id from byte `start`: a free one, or else
// the one used most recently of those the core has read that are not
// among the RECENT blocks used last; the one used least recently when
// there is none. The core streams through most blocks once (a profile's
// values, cct.db), and the blocks streamed lately are the ones it is done
// with, while older ones are those it comes back to far later (the summary
// profile, read by the profile walk and again beside cct.db's 500 MiB
// on): least-recently-used eviction let each stream flush them. The RECENT
// last are kept for the core's short returns (the values before an index,
// a block two profiles share), and blocks read ahead and not used yet are
// never taken. 1203 MiB database: 1283 MiB asked in 339 reads before, 1228
// in 335 (RECENT 16: 1243 in 360; 32: 1235 in 347; 64: 1228 in 335); the
// 255 MiB ovni trace: 259 in 46 before, 255 in 44 (make bench-web-asks).
//
// A block the core comes back to after it was given up (profile.db's
// first block, which the core reads again every few profiles, ~70 MiB of
// other blocks apart: read 7 times, each a stream opened, on the 1203 MiB
// database; now 2) is kept over the others once read again: the blocks
// given up after use are remembered, GONE at most.
const RECENT = 48, GONE = 4 * SLOTS;
let gone = new Set();  // keys of blocks given up after the core read them, oldest first
function claim(id, start) {
	const key = id + ':' + start;
	let s = store.slots.findIndex((x) => x.key === null);
	if (s < 0) {
		const order = [...store.byKey.keys()]; // least recently used first
		const pick = (spare) => {
			for (let i = order.length - 1 - RECENT; i >= 0; i--) {
				const x = store.slots[store.byKey.get(order[i])];
				if (x.used && (spare || !x.again)) return order[i];
			}
			return null;
		};
		const victim = pick(false) || pick(true) || order[0];
		s = store.byKey.get(victim);
		store.byKey.delete(victim);
		if (store.slots[s].used) {
			gone.delete(victim);
			gone.add(victim);
			if (gone.size > GONE) gone.delete(gone.values().next().value);
		}
	}
	const slot = store.slots[s];
	// the reader must be done with the slot: one that gave no answer may
	// still write into it, so it is not reused
	if (slot.ticket && !store.jspi && !settle(s, slot.ticket) && Math.abs(Atomics.load(store.done, s)) !== slot.ticket) {
		slot.key = 'stuck:' + s;
		slot.id = -1;
		store.byKey.set(slot.key, s);
		throw new Error('the reader gave no answer');
	}
	slot.key = key;
	slot.id = id;
	slot.start = start;
	slot.run = 0;
	slot.jump = false;
	slot.used = false;
	slot.back = 0;
	slot.again = gone.delete(key);
	slot.hinted = false;
	store.byKey.set(key, s);
	return s;
}

// Ask for n blocks of file id from byte `off`, not past byte `limit`, in
// one read; the reader's stream for them may read on up to `reach` (by
// default `limit`), where a later run may continue it.
function request(id, off, n, limit, reach = limit) {
	const t = ++ticket, len = Math.min(n * BLOCK, limit - off);
	n = Math.ceil(len / BLOCK);
	const slots = [];
	for (let j = 0; j < n; j++) {
		const s = claim(id, off + j * BLOCK);
		store.slots[s].ticket = t;
		store.slots[s].len = Math.min(BLOCK, len - j * BLOCK);
		slots.push(s);
	}
	if (store.worker) {
		// by JSPI the blocks' buffers go with the run and come back filled
		// (handed()); a slot's old ticket is never its new one, so nothing
		// of the last read is taken for this one
		const buffers = store.jspi ? slots.map(blockBuffer) : undefined;
		store.worker.postMessage({type: 'read', slots, ticket: t, id, off, len, end: Math.min(limit, reach), buffers}, buffers || []);
		runs.set(id, (runs.get(id) || 0) + 1);
		reads.bytes += len;
		reads.asks++;
		return;
	}
	let result = t;
	try {
		const b = readSync(id, off, len);
		slots.forEach((s, j) => store.data.set(b.subarray(j * BLOCK, j * BLOCK + store.slots[s].len), s * BLOCK));
	} catch (e) {
		result = -t; // the file changed or went away: the core reports it unreadable
	}
	for (const s of slots) store.done[s] = result;
}

// How many blocks ahead of the core to read: as many as the blocks it
// read in order before this one (so a short run wastes few reads), at most
// DEPTH, and the slots shared among the files it reads in turn (an ovni
// trace's streams are read side by side), one each for the block in use.
function depth(run, most = 1) {
	const streams = new Set(recent).size;
	return Math.max(1, Math.min(most * DEPTH, run, Math.floor(SLOTS / streams) - 1));
}

// The slot holding byte `at` of file id, its bytes read.
function block(id, at) {
	let s = current;
	const cur = s >= 0 ? store.slots[s] : null;
	const moved = !cur || cur.id !== id || at < cur.start || at - cur.start >= cur.len;
	if (moved) {
		// the core moved to another block: read on from there when it
		// reads in order (the bytes just before were read lately, or this
		// is the file's start); a file may be read at several places in turn
		// a block not held starts at the core's grain, after any bytes held
		// before it
		const have = find(id, at);
		const first = have >= 0 ? store.slots[have].start : Math.max(at - (at % GRAIN), prevHeld(id, at));
		const before = first > 0 ? find(id, first - 1) : -1;
		// (a block asked for on a hint and not read yet is not a run: the
		// values hinted before their index, which the core reads first)
		const run = first === 0 ? 1 : before < 0 || (store.slots[before].hinted && !store.slots[before].used) ? 0 : store.slots[before].run + 1;
		recent.push(id);
		if (recent.length > 2 * SLOTS) recent.shift();
		if (have >= 0) {
			const key = store.slots[have].key;
			store.byKey.delete(key); // the most recently used, before the blocks after it
			store.byKey.set(key, have);
		}
		// a run that reaches a place the core jumped to before ends there
		const end = have >= 0 && store.slots[have].jump && store.slots[have].used;
		// the blocks after this one to read now: up to the depth, not past
		// bytes read already, and all at once when half of them are missing
		const size = files[id].size;
		const from = have >= 0 ? first + store.slots[have].len : first + BLOCK; // where the blocks ahead begin
		const limit = nextHeld(id, have >= 0 ? from - 1 : first);
		let ahead = 0;
		if (run && !end && from < limit) {
			const n = depth(run);
			ahead = Math.min(n, Math.ceil((limit - from) / BLOCK));
			if (ahead < Math.max(1, n >> 1) && limit < size) ahead = 0;
		}
		// a jump back to just before one of the last two blocks the core
		// moved to in this file (next): a step of a walk backwards when it is
		// at most a block (back: its steps so far), else the core reads on up
		// to that block when it came to it by a jump (values before their
		// index: profile.db's profiles)
		const next = have < 0 && run === 0 && at < limit && limit < size ? find(id, limit) : -1;
		const last = next >= 0 && (lastIn.get(id) || []).includes(next);
		const back = last && limit - at <= BLOCK ? store.slots[next].back + 1 : 0;
		const mark = (p, f) => {
			const x = find(id, p);
			if (x >= 0) f(store.slots[x]);
		};
		if (back > 1) {
			const off = Math.max(prevHeld(id, at), limit - depth(back) * BLOCK);
			request(id, off, Math.ceil((limit - off) / BLOCK), limit);
			for (let p = off; p < limit; p += BLOCK) mark(p, (x) => (x.back = back));
			mark(at, (x) => (x.jump = true));
		} else if (have < 0) {
			const upTo = last && !back && store.slots[next].jump;
			request(id, first, upTo ? Math.min(depth(2 * DEPTH, 2), Math.ceil((limit - first) / BLOCK)) : 1 + ahead, limit);
			mark(at, (x) => {
				x.jump = run === 0;
				x.back = back;
			});
		} else if (ahead) {
			request(id, from, ahead, limit);
		}
		s = find(id, at);
		if (s < 0) return block(id, at); // evicted since (by reads of other files): ask again
		store.slots[s].run = run;
		store.slots[s].used = true;
		current = s;
		if ((lastIn.get(id) || [])[0] !== s) lastIn.set(id, [s, (lastIn.get(id) || [])[0]]);
	}
	const slot = store.slots[s];
	store.byKey.delete(slot.key); // the most recently used again
	store.byKey.set(slot.key, s);
	if (!settle(s, slot.ticket)) throw new Error('read failed');
	return s;
}

// hpcvet.will_read (hv_blob.will_read): the core will read `len` bytes of
// file id at `off` soon, after what it reads now: profile.db's next
// profile, its index and then its values, each a jump no run of blocks
// foresees. Each such jump cost the core a wait while the browser opened a
// stream (the 1203 MiB database's 44 profiles: two each). Read ahead, the
// blocks from there, HINT at most, are asked for now, so the reader opens
// and fills them while the core checks the profile before. Only into slots
// that are free or whose blocks the core has read and left (those claim()
// gives up first): a block read ahead and not used yet is never taken for
// a hint, and the memory stays SLOTS blocks. The first block is marked as
// a place the core jumps to, so that a run of the values before an index
// ends at the index, as after the core's own jump there. A run that holds
// all the hinted bytes ends soon after them, not at a block's end, and is
// read by a stream that ends with the run: the core goes on elsewhere (the
// next profile's index, hinted in its turn), and what lies after is
// another profile's, read on its own hint or read already. A whole block
// after a profile's ~0.5 MiB index asked for 0.5 MiB of the next
// profile's values again, and a stream left open fills the browser's data
// pipe past its run with bytes no run asks for. `READ_AHEAD=1 node
// bench/web_reads.js` on the 1203 MiB database: 1222.4 MiB asked and 70.5
// read past the runs before, 95 browser reads; the streams ending with
// their runs: 8.0 past, 99 reads; the runs ending at the first multiple
// of PAST after the hinted bytes: 1216.1 asked (the core reads a little
// past them: a multiple of 4 KiB asks for 1237.5 MiB in 217 runs, 32 KiB
// 1218.7 in 188, 64 KiB 1216.1 in 183, 256 KiB 1218.4 in 183). By FileReaderSync nothing: a
// read now would make the core wait now. A hint changes no byte the core
// is given, only when the browser reads it.
const HINT = 2 * DEPTH, PAST = 64 * 1024;
function spareSlots() {
	let n = 0;
	const order = [...store.byKey.keys()];
	for (const x of store.slots) if (x.key === null) n++;
	for (let i = order.length - 1 - RECENT; i >= 0; i--) if (store.slots[store.byKey.get(order[i])].used) n++;
	return n;
}
function willRead(id, off, len) {
	if (!store.worker || !files[id] || !(len > 0)) return;
	const stop = Math.min(off + len, files[id].size);
	// the blocks held already (another profile's, next to these) are skipped
	let at = off;
	for (let s; at < stop && (s = find(id, at)) >= 0;) at = store.slots[s].start + store.slots[s].len;
	if (at >= stop) return;
	try {
		const first = Math.max(at - (at % GRAIN), prevHeld(id, at));
		let limit = nextHeld(id, first);
		const end = Math.min(stop, limit);
		const n = Math.min(HINT, Math.ceil((end - first) / BLOCK), spareSlots());
		if (n < 1) return;
		// a run that holds all the hinted bytes ends at the first multiple
		// of PAST after them, its stream with it
		const all = first + n * BLOCK >= stop;
		if (all) limit = Math.min(limit, files[id].size, stop + PAST - (stop % PAST));
		request(id, first, n, limit, all ? first + n * BLOCK : limit);
		for (let p = first; p < first + n * BLOCK && p < limit; p += BLOCK) {
			const s = find(id, p);
			if (s >= 0) store.slots[s].hinted = true;
		}
		const s = find(id, off);
		if (s >= 0 && at === off) store.slots[s].jump = true;
	} catch (e) {
		// a slot the reader gave no answer for: the core's own read reports it
	}
}

// Whether the blocks held (or being read) hold all `len` bytes of file id
// at `off`.
function held(id, off, len) {
	for (let at = off; at < off + len;) {
		const s = find(id, at);
		if (s < 0) return false;
		at = store.slots[s].start + store.slots[s].len;
	}
	return true;
}

// Copy n bytes of slot s from its byte `from` to `dst` in the module's
// memory. By JSPI a plain copy. From shared memory the browser copies word by word only when the two
// places are aligned alike modulo WORD, byte by byte otherwise (V8's
// relaxed copy: ~0.8 ns a byte against ~0.1 in Node, bench/web_sab_copy.js;
// 1.3 against 0.1 in Chromium 156). A block lies in its slot at its file
// offset's alignment, and the core's windows start at a multiple of 8 of
// the file (hv_window_fill, core/blob.c) in buffers aligned so: of the 1203
// MiB database's 1301 MiB copied, 0.0004 MiB are misaligned (789 when the
// windows started anywhere), of the 1021 MiB ovni trace 0.0002 (all). The
// few reads that are not a window's refill and are misaligned go through
// `scratch` (not shared, at `src`'s alignment), from which the copy into
// the module's memory is a plain one (both ~0.16 ns a byte).
const WORD = 8;
const scratch = new Uint8Array(BLOCK + WORD);
function copyOut(s, from, dst, n) {
	if (store.bufs) {
		memoryBytes().set(store.bufs[s].subarray(from, from + n), dst);
		return;
	}
	const src = s * BLOCK + from;
	if (!store.shared || (src - dst) % WORD === 0) {
		memoryBytes().set(store.data.subarray(src, src + n), dst);
		return;
	}
	const k = src % WORD;
	scratch.set(store.data.subarray(src, src + n), k);
	memoryBytes().set(scratch.subarray(k, k + n), dst);
}

// hpcvet.read: `len` bytes of file `id` at `off` into memory at `dst`;
// 1, or 0 when they could not be read. With JSPI, a promise of that when
// the bytes from `off + done` on are not all there yet.
function read(id, off, dst, len, done = 0) {
	const f = files[id];
	if (!f || off + len > f.size) return 0;
	try {
		if (len >= DIRECT && !held(id, off, len)) {
			memoryBytes().set(readSync(id, off, len), dst);
		} else {
			while (done < len) {
				const at = off + done, s = block(id, at), slot = store.slots[s];
				const from = at - slot.start, n = Math.min(len - done, slot.len - from);
				copyOut(s, from, dst + done, n);
				done += n;
			}
		}
	} catch (e) {
		if (e instanceof Pending) {
			return whenDone(e.s, e.t).then((ok) => {
				if (ok) return read(id, off, dst, len, done);
				failed.add(id);
				return 0;
			});
		}
		failed.add(id);
		return 0; // the file changed or went away: the core reports it unreadable
	}
	advance(len);
	return 1;
}

function advance(len) {
	if (progress) {
		progress.done += len;
		const now = performance.now();
		if (now - progress.last > 100) {
			progress.last = now;
			postMessage({type: 'progress', done: Math.min(progress.done, progress.total), total: progress.total});
		}
	}
}

// Whether file id is as it was when picked, as far as the browser can
// tell. The browser compares a picked file's modification time with the
// one it had when picked only when a read opens it, and read ahead a run
// may go on reading a stream an earlier run of the file opened
// (reader.js): a file read in more than one run is opened once more when
// its checks are done, so that bytes that changed while they were read
// are not judged as one file. (A file read in one run, or by
// FileReaderSync, was opened for each of its reads.) A file a read of
// failed is opened once more too: when that fails as well, the file
// changed or went away, and the input is unreadable with the command
// line's words for it, in both ways of reading.
function unchanged(id) {
	if (((runs.get(id) || 0) < 2 && !failed.has(id)) || files[id].size === 0) return true;
	try {
		reader.readAsArrayBuffer(files[id].slice(0, 1));
		return true;
	} catch (e) {
		return false;
	}
}

// The way of reading, chosen once: JSPI first (no shared memory: the
// reader's copy into it and the validating worker's copy out of it saved,
// ~0.1-0.15 CPU-s on the reader's thread alone for the 1203 MiB database,
// and 0.2-0.8 s of wall in 5 of 6 pairs on 2 cores; bench/RESULTS.md, "Web
// page"), then read ahead into shared memory where the page is
// cross-origin isolated, then FileReaderSync. Returns its name, as the page
// shows it.
async function startReading() {
	if (!store) {
		store = (await startHanded().catch(() => null)) || (await startShared().catch(() => null)) ||
			newStore(null, new ArrayBuffer(SLOTS * BLOCK), new ArrayBuffer(4 * (SLOTS + 2)));
	}
	return store.jspi ? 'JSPI' : store.worker ? 'read-ahead' : 'FileReaderSync';
}

// Whether the read import may suspend the module (JSPI): the exports that
// reach it are then called through WebAssembly.promising.
const readingSuspends = () => store.jspi;

// The module's imports from here.
function readImports() {
	return {read: store.jspi ? new WebAssembly.Suspending(read) : read, will_read: willRead};
}

function useMemory(m) {
	memory = m;
}

// A validation of the File objects `list` (by id) begins, `total` bytes
// in its inputs: nothing of the last one's blocks or counts is kept (a
// read still running keeps its ticket, so its late bytes are not taken for
// a new block).
function beginReading(list, total) {
	files = list;
	runs = new Map();
	failed = new Set();
	reads = {n: 0, ms: 0, bytes: 0, asks: 0, opened: Atomics.load(store.done, SLOTS), chunks: Atomics.load(store.done, SLOTS + 1)};
	current = -1;
	recent = [];
	lastIn = new Map();
	gone = new Set();
	for (const slot of store.slots) slot.key = null;
	store.byKey = new Map();
	if (store.worker) store.worker.postMessage({type: 'files', files});
	progress = {done: 0, total, last: 0};
}

// The page is told the input whose files are read next.
function readingInput(label) {
	postMessage({type: 'progress', done: Math.min(progress.done, progress.total), total: progress.total, label});
}

function endReading() {
	postMessage({type: 'progress', done: progress.total, total: progress.total});
	progress = null;
}

// What the page's result says of the reads of the last validation.
function readStats() {
	return {shared: store.shared ? store.data.byteLength : 0, reads: reads.n, readMs: Math.round(reads.ms), readBytes: reads.bytes,
		readAsks: reads.asks, readOpens: store.worker ? Atomics.load(store.done, SLOTS) - reads.opened : reads.asks,
		readChunks: store.worker ? Atomics.load(store.done, SLOTS + 1) - reads.chunks : reads.asks};
}
