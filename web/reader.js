// The reader of the read-ahead mode (worker.js): reads the blocks the
// validating worker asks for with the browser's asynchronous Blob reads,
// several at a time, and copies each into its slot of the shared memory.
// Its thread never blocks, so reads go on while the core checks the bytes
// it has. Runs only when the page is cross-origin isolated.
'use strict';

let data = null;  // Uint8Array over the SharedArrayBuffer of the slots
let done = null;  // Int32Array: per slot, the ticket of its last read done (negated: failed)
let block = 0;    // bytes a slot
let files = [];   // File objects of the current run, by id

async function fill({slot, ticket, id, off, len}) {
	let result = ticket;
	try {
		const buf = await files[id].slice(off, off + len).arrayBuffer();
		if (buf.byteLength !== len) throw new Error('short read');
		data.set(new Uint8Array(buf), slot * block);
	} catch (e) {
		result = -ticket; // the file changed or went away: the core reports it unreadable
	}
	Atomics.store(done, slot, result);
	Atomics.notify(done, slot);
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
