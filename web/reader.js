// The reader of the read-ahead mode (worker.js): reads the blocks the
// validating worker asks for with the browser's asynchronous Blob reads,
// one read (a stream) for each run of blocks asked for together, and
// copies the bytes into the blocks' slots of the shared memory as they
// come, each block handed over as soon as it is whole (the core waits for
// the block it needs, not for the whole run). Its thread never blocks, so
// reads go on while the core checks the bytes it has. Runs only when the
// page is cross-origin isolated.
'use strict';

let data = null;  // Uint8Array over the SharedArrayBuffer of the slots
let done = null;  // Int32Array: per slot, the ticket of its last read done (negated: failed)
let block = 0;    // bytes a slot
let files = [];   // File objects of the current run, by id

// {slots, ticket, id, off, len}: bytes [off, off + len) of file id, block
// j of them into slots[j]; each slot's ticket is stored (negated: the read
// failed) once its block is whole
async function fill({slots, ticket, id, off, len}) {
	let at = 0; // bytes in their slots so far
	const finish = (j, result) => {
		Atomics.store(done, slots[j], result);
		Atomics.notify(done, slots[j]);
	};
	try {
		const r = files[id].slice(off, off + len).stream().getReader();
		for (;;) {
			const {done: end, value} = await r.read();
			if (end) break;
			if (at + value.length > len) throw new Error('long read');
			for (let p = 0; p < value.length;) {
				const j = Math.floor(at / block), o = at - j * block, n = Math.min(value.length - p, block - o);
				data.set(value.subarray(p, p + n), slots[j] * block + o);
				p += n;
				at += n;
				if (at === len || at % block === 0) finish(j, ticket);
			}
		}
		if (at !== len) throw new Error('short read');
	} catch (e) {
		// the file changed or went away: the core reports it unreadable
		for (let j = Math.floor(at / block); j < slots.length; j++) finish(j, -ticket);
	}
}

onmessage = (event) => {
	const msg = event.data;
	if (msg.type === 'read') {
		fill(msg);
	} else if (msg.type === 'files') {
		files = msg.files;
	} else if (msg.type === 'init') {
		data = new Uint8Array(msg.data);
		done = new Int32Array(msg.done);
		block = msg.block;
		postMessage({type: 'ready'});
	}
};
