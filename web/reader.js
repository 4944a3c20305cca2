// The reader of the read-ahead mode (worker.js): reads the blocks the
// validating worker asks for with the browser's asynchronous Blob reads,
// one read for each run of blocks asked for together, and copies each
// block into its slot of the shared memory. Its thread never blocks, so
// reads go on while the core checks the bytes it has. Runs only when the
// page is cross-origin isolated.
'use strict';

let data = null;  // Uint8Array over the SharedArrayBuffer of the slots
let done = null;  // Int32Array: per slot, the ticket of its last read done (negated: failed)
let block = 0;    // bytes a slot
let files = [];   // File objects of the current run, by id

// {slots, ticket, id, off, len}: bytes [off, off + len) of file id, block
// j of them into slots[j]
async function fill({slots, ticket, id, off, len}) {
	let result = ticket;
	try {
		const buf = new Uint8Array(await files[id].slice(off, off + len).arrayBuffer());
		if (buf.byteLength !== len) throw new Error('short read');
		slots.forEach((s, j) => data.set(buf.subarray(j * block, Math.min(len, (j + 1) * block)), s * block));
	} catch (e) {
		result = -ticket; // the file changed or went away: the core reports it unreadable
	}
	for (const s of slots) {
		Atomics.store(done, s, result);
		Atomics.notify(done, s);
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
