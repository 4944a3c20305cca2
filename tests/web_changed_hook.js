// A pause in the web page's validating worker, for tests/web_changed.py
// only: that test's own server serves the page's worker as
// importScripts('web_changed_hook.js', 'worker-page.js'), this file before
// web/worker.js, unchanged. Nothing of it is in the page `make web` builds,
// and no server of the page (web/serve.py, any static one) serves it, so a
// normal page load cannot run it.
//
// The worker asks the test's server for /test-pause with a synchronous
// request, which the server answers once the test has changed a file, at
// one place a validation, chosen by PLAN ({at, digest}, asked of
// /test-plan at the start of each validation: the module's hvw_reset):
// - at >= 0: at the core's first read that reaches byte `at` of a file,
//   before it is made (the module's import hpcvet.read is wrapped, by
//   JSPI the function its WebAssembly.Suspending is made of): the
//   bytes before are read and judged; read ahead, the reader's stream of
//   the file is open and reads on;
// - digest: once the checks are done, before the first file is read again
//   for the certificate's SHA-256 (Blob.arrayBuffer, which the worker
//   uses for that alone).
// So the change lands inside the run, at the place the test chose,
// whatever the machine's load.
'use strict';
(() => {
	const get = (path) => {
		const x = new XMLHttpRequest();
		x.open('GET', path, false);
		x.send();
		return x.responseText;
	};
	let at = -1, digest = false;
	const arrayBuffer = Blob.prototype.arrayBuffer;
	Blob.prototype.arrayBuffer = function () {
		if (digest) {
			digest = false;
			get('test-pause');
		}
		return arrayBuffer.call(this);
	};
	const pausing = (read) => (id, off, dst, len) => {
		if (at >= 0 && off + len > at) {
			at = -1;
			get('test-pause');
		}
		return read(id, off, dst, len);
	};
	// by JSPI, the import is a WebAssembly.Suspending of the worker's read
	// function, which is wrapped as it is made
	const Suspending = WebAssembly.Suspending;
	if (Suspending) WebAssembly.Suspending = function (f) { return new Suspending(pausing(f)); };
	const instantiate = WebAssembly.instantiate;
	WebAssembly.instantiate = async (bytes, imports) => {
		if (typeof imports.hpcvet.read === 'function') imports.hpcvet.read = pausing(imports.hpcvet.read);
		const made = await instantiate(bytes, imports);
		const exports = Object.assign({}, made.instance.exports);
		const reset = exports.hvw_reset;
		exports.hvw_reset = () => {
			({at, digest} = JSON.parse(get('test-plan')));
			return reset();
		};
		return {module: made.module, instance: {exports}};
	};
})();
