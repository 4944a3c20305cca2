#!/usr/bin/env python3
"""A file that changes while the web page validates it, in headless Chromium.

The page (web/, make web) is served by a server of this test's own: the
page's files as web/serve.py serves them (cross-origin isolated and asked
to read ahead into shared memory, then plainly and asked for FileReaderSync, then plainly and
asked for nothing, so it reads by JSPI), except its worker,
which is tests/web_changed_hook.js put before web/worker.js. The hook pauses
the worker at the core's first read that reaches byte AT of a file, until
this test has changed the file (a request to /test-pause that the server
answers then): the change lands inside the run, at that place, however
loaded the machine is.

Each INPUT is "DIR:FILE:AT": a folder DIR (a DUMPI trace, an ovni trace),
its file FILE (relative to DIR, larger than AT) the one changed, and AT the
byte of FILE where the worker pauses. Each case is a fresh copy of DIR, its
files dated an hour back (as files written before they are picked are),
picked through the page's folder input; the worker pauses at the core's
first read that reaches byte AT of a file, where the test
  unchanged  does nothing (and asks for a certificate): the page's report
             and certificate are the CLI's (the pause alone changes nothing);
  modified   rewrites 4 KiB of FILE after AT in place (same size; the date
             moves);
  truncated  cuts FILE at AT;
  replaced   renames another file (other bytes, same size) over FILE;
  deleted    removes FILE (a later read of it fails: NotFoundError);
and, for the first INPUT, asking for a certificate, the worker pauses once
the checks are done, before the files are read again for their SHA-256,
where the test modifies FILE or deletes it. A changed file must never be judged: exit 3
(unreadable), the input's verdict "unreadable", its problem "DIR/FILE:
changed while it was read" (the command line's words) in the JSON report, no
SHA-256 in the certificate, and no console error. In the page's three
ways of reading, in one browser session.

usage: web_changed.py WEBDIR HPCVET WORKDIR INPUT...
Prints "MODE DIR CASE: ok" for each case that passes (DIR: the folder's
name), "FAIL: ..." for each that does not, and exits 1 when any failed."""
import http.server
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
import time

from selenium.webdriver.common.by import By

webdir, hpcvet, work = sys.argv[1:4]
inputs = []
for arg in sys.argv[4:]:
    d, f, a = arg.rsplit(':', 2)
    inputs.append((os.path.realpath(d), f, int(a)))
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'web'))
import serve  # noqa: E402 (web/serve.py)
import web_driver  # noqa: E402 (tests/web_driver.py, beside this file)

plan = {'at': -1, 'digest': False}
paused = threading.Event()   # the worker waits in /test-pause
release = threading.Event()  # the test is done changing the file


class Handler(serve.Handler):
    def send_text(self, text, ctype):
        body = text.encode()
        self.send_response(200)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Cache-Control', 'no-store')
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split('?')[0]
        if path == '/worker.js':
            self.send_text("importScripts('web_changed_hook.js', 'worker-page.js');\n", 'text/javascript')
        elif path == '/worker-page.js':
            with open(os.path.join(webdir, 'worker.js')) as f:
                self.send_text(f.read(), 'text/javascript')
        elif path == '/web_changed_hook.js':
            with open(os.path.join(here, 'web_changed_hook.js')) as f:
                self.send_text(f.read(), 'text/javascript')
        elif path == '/test-plan':
            self.send_text(json.dumps(plan), 'application/json')
        elif path == '/test-pause':
            paused.set()
            release.wait(120)
            self.send_text('{}', 'application/json')
        else:
            super().do_GET()


def start(isolate):
    handler = type('ChangedHandler', (Handler,), {'isolate': isolate, 'quiet': True, 'directory': webdir})
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), lambda *a: handler(*a, directory=webdir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def flip(path, offset, n):
    """n bytes from offset, each one's complement: other bytes, same size."""
    with open(path, 'r+b') as f:
        f.seek(offset)
        b = f.read(n)
        f.seek(offset)
        f.write(bytes(x ^ 0xff for x in b))


def later(path, at):
    """A place past AT, halfway to the end: bytes not read yet."""
    return at + (os.path.getsize(path) - at) // 2


def modified(path, at):
    flip(path, later(path, at), 4096)


def truncated(path, at):
    os.truncate(path, at)


def replaced(path, at):
    shutil.copyfile(path, path + '.new')
    flip(path + '.new', later(path, at), 4096)
    os.replace(path + '.new', path)


def deleted(path, at):
    os.unlink(path)


# name, the change, where the worker pauses for it (in the checks, at byte
# AT of FILE; or once they are done, before the certificate's digests), and
# whether a certificate is asked for
CASES = [('unchanged', None, 'checks', True), ('modified', modified, 'checks', False),
         ('truncated', truncated, 'checks', False), ('replaced', replaced, 'checks', False),
         ('deleted', deleted, 'checks', False), ('modified before its digest', modified, 'digest', True),
         ('deleted before its digest', deleted, 'digest', True)]



def cli_reports(path):
    """The CLI's report and certificate of an unchanged input, run in its
    folder (so that the two name its files alike)."""
    cwd, name = os.path.split(path)
    report = subprocess.run([hpcvet, '--format=json', name], cwd=cwd, capture_output=True, text=True)
    cert = subprocess.run([hpcvet, 'certify', '--format=json', name], cwd=cwd, capture_output=True, text=True)
    return report, cert


cli = {d: cli_reports(d) for d, _, _ in inputs}

driver = web_driver.chromium()
failures = 0


def fail(msg):
    global failures
    failures += 1
    print('FAIL: ' + msg)


def judge(src, name, case, certify, state, result):
    """The failures of one case's result (a list of words)."""
    if state != 'done' or not result or 'json' not in result:
        return ['no report: page state %s: %s' % (state, result)]
    report = json.loads(result['json'])
    cert = result.get('certificate') or ''
    if case == 'unchanged':
        bad, (cli_report, cli_cert) = [], cli[src]
        if report != json.loads(cli_report.stdout) or result['exit'] != cli_report.returncode:
            bad.append('exit %s, the CLI %d; the reports %s' % (
                result['exit'], cli_report.returncode, 'differ' if report != json.loads(cli_report.stdout) else 'agree'))
        if not cert or json.loads(cert) != json.loads(cli_cert.stdout):
            bad.append('the certificate differs from the CLI\'s')
        return bad
    bad = []
    if result['exit'] != 3:
        bad.append('exit %s, 3 expected' % result['exit'])
    verdicts = [i.get('verdict') for i in report.get('inputs', [])]
    if verdicts != ['unreadable']:
        bad.append('verdicts %s' % verdicts)
    problems = [i.get('problem') or '' for i in report.get('inputs', [])]
    want = '%s/%s: changed while it was read' % (os.path.basename(src), name)
    if problems != [want]:
        bad.append('problem %s, "%s" expected' % (problems, want))
    if certify and (not cert or 'sha256' in cert):
        bad.append('no certificate, or one with a SHA-256')
    return bad


try:
    for tag, isolate, query in (('read-ahead', True, '?read=ahead'), ('FileReaderSync', False, '?read=sync'), ('JSPI', False, '')):
        server = start(isolate)
        try:
            driver.get('http://127.0.0.1:%d/index.html%s' % (server.server_address[1], query))
            state, _ = web_driver.wait_state(driver, ('ready',))
            mode = driver.execute_script('return document.getElementById("mode").dataset.mode')
            if state != 'ready' or mode != tag:
                fail('%s: the page is %s, reading by %s' % (tag, state, mode))
                continue
            for (src, name, at), (case, change, where, certify) in itertools.product(inputs, CASES):
                if where == 'digest' and src != inputs[0][0]:
                    continue  # the digests' reads do not depend on the format: the first input's
                what = '%s %s %s' % (tag, os.path.basename(src), case)
                driver.execute_script('document.getElementById("opt-certify").checked = arguments[0]', certify)
                dst = os.path.join(work, what.replace(' ', '-'), os.path.basename(src))
                shutil.copytree(src, dst)
                hour_ago = time.time() - 3600
                for top, _, files in os.walk(dst):
                    for f in files:
                        os.utime(os.path.join(top, f), (hour_ago, hour_ago))
                plan.update(at=at if where == 'checks' else -1, digest=where == 'digest')
                paused.clear()
                release.clear()
                driver.execute_script('document.body.dataset.state = "sent"; window.hpcvetResult = null;')
                driver.find_element(By.ID, 'pick-folder').send_keys(os.path.realpath(dst))
                if not paused.wait(120):
                    fail('%s: the worker never paused (%s)' % (what, where))
                elif change:
                    change(os.path.join(dst, name), at)
                release.set()
                state, result = web_driver.wait_state(driver, ('done', 'error'))
                bad = judge(src, name, case, certify, state, result)
                for b in bad:
                    fail('%s: %s' % (what, b))
                if not bad:
                    print('%s: ok' % what)
            for e in driver.get_log('browser'):
                if e.get('level') == 'SEVERE':
                    fail('%s: console: %s' % (tag, e.get('message')))
        finally:
            release.set()
            server.shutdown()
finally:
    driver.quit()
sys.exit(1 if failures else 0)
