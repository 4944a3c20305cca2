// What a copy into or out of a SharedArrayBuffer costs by the alignment of
// its two ends: the web page copies each block the browser reads into the
// shared memory (web/reader.js) and out of it into the module's memory
// (web/worker.js). V8 copies shared memory with relaxed atomic accesses,
// word by word only where the source and the destination are aligned alike
// modulo 8, byte by byte otherwise. Run in Node (the same V8 as Chromium);
// not part of the tests. bench/RESULTS.md, "Web page".
//
// usage: node bench/web_sab_copy.js
// prints: one line a case, its CPU ns a byte (1 MiB copies).
'use strict';
const N = 1 << 20, R = 512;
const plain = new Uint8Array(new ArrayBuffer(N + 64)).fill(7);
const shared = new Uint8Array(new SharedArrayBuffer(N + 64));
const wasm = new Uint8Array(new WebAssembly.Memory({initial: 17}).buffer);

function run(name, copy) {
	copy();
	const t0 = process.cpuUsage();
	for (let i = 0; i < R; i++) copy();
	const d = process.cpuUsage(t0);
	console.log(`${name.padEnd(44)} ${(((d.user + d.system) * 1000) / R / N).toFixed(3)} ns/byte`);
}

run('plain -> shared, aligned alike', () => shared.set(plain.subarray(0, N), 0));
run('plain -> shared, source +0, destination +3', () => shared.set(plain.subarray(0, N), 3));
run('plain -> shared, both +3', () => shared.set(plain.subarray(3, N + 3), 3));
run('shared -> wasm, aligned alike', () => wasm.set(shared.subarray(0, N), 0));
run('shared -> wasm, source +5, destination +0', () => wasm.set(shared.subarray(5, N + 5), 0));
const scratch = new Uint8Array(N + 8);
run('shared -> plain (+5) -> wasm (+0)', () => {
	scratch.set(shared.subarray(5, N + 5), 5);
	wasm.set(scratch.subarray(5, N + 5), 0);
});
run('plain -> wasm, source +5, destination +0', () => wasm.set(plain.subarray(5, N + 5), 0));
