#!/usr/bin/env python3
"""Serve the built page (make web) on 127.0.0.1, cross-origin isolated.

Where the browser has no JSPI, the page reads files ahead in a second
worker through shared memory (web/blocks.js), which browsers allow only to
a cross-origin isolated page: every response carries
Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
require-corp. --plain serves without them, as any static server does (the
page then reads ahead by JSPI where the browser has it, else with
FileReaderSync).
make serve-web runs this; the browser tests and bench/web_page.py import it.

usage: serve.py DIR [PORT] [--plain]"""
import functools
import http.server
import sys
import threading

ISOLATION = (('Cross-Origin-Opener-Policy', 'same-origin'), ('Cross-Origin-Embedder-Policy', 'require-corp'))


class Handler(http.server.SimpleHTTPRequestHandler):
    isolate = True
    quiet = True
    # the module is served as wasm (older Pythons map .wasm to nothing)
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **{'.wasm': 'application/wasm'})

    def end_headers(self):
        if self.isolate:
            for name, value in ISOLATION:
                self.send_header(name, value)
        super().end_headers()

    def log_message(self, *args):
        if not self.quiet:
            super().log_message(*args)


def start(directory, isolate=True, port=0, quiet=True):
    """A server on 127.0.0.1:port (0: any free port) in a daemon thread;
    its port is server.server_address[1]; server.shutdown() stops it."""
    handler = type('PageHandler', (Handler,), {'isolate': isolate, 'quiet': quiet})
    server = http.server.ThreadingHTTPServer(('127.0.0.1', port), functools.partial(handler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv):
    args = [a for a in argv if a != '--plain']
    if not args:
        sys.exit(__doc__)
    server = start(args[0], isolate='--plain' not in argv, port=int(args[1]) if len(args) > 1 else 8000, quiet=False)
    mode = 'plain (files read ahead by JSPI, else by FileReaderSync)' if '--plain' in argv else 'cross-origin isolated (files read ahead)'
    print('serving %s on http://127.0.0.1:%d/, %s (Ctrl-C stops)' % (args[0], server.server_address[1], mode), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == '__main__':
    main(sys.argv[1:])
