#!/usr/bin/env python3
"""The web page (web/, make web) in headless Chromium, against the CLI.

Serves the built page from a local http server on 127.0.0.1, loads it in
one browser session, and gives it each case through its file inputs, as a
user picks them: a folder through the folder picker (<input webkitdirectory>),
a file or a DUMPI trace's loose files through the file picker. The page's
JSON report must equal `hpcvet --format=json NAME`, and its certificate
(file digests from the browser's WebCrypto) `hpcvet certify --format=json
NAME`, each run in the folder the
page's names are relative to, so the two name every input and file alike
and no field is normalised. The page must log no console error.

One browser session runs three passes: the page served cross-origin
isolated (web/serve.py) and asked to read ahead into shared memory
(?read=ahead), which it must do and say so; then, given --plain PLAIN, the
page served without those headers (a second server) and asked to read
with FileReaderSync (?read=sync), given the cases of PLAIN; then the page
served plainly and asked for nothing, which must read by JSPI (the
browser's WebAssembly.Suspending), given the cases of CASES. The CLI's
reports of each input are made once, beside the browser, for all passes.

usage: web_page.py WEBDIR HPCVET CASES [--plain PLAIN] [--screenshot PNG]
CASES, PLAIN: one case a line, "KIND<TAB>CWD<TAB>NAME": KIND dir (NAME a folder
of CWD, picked as a folder), file (NAME a file of CWD), loose (every
file of CWD picked at once; NAME the .meta the CLI is given), or
drop-file and drop-loose (the same files dropped on the page's drop zone:
a DataTransfer made in the page holding them, dispatched as dragenter,
dragover and drop).
Prints, for each pass, "MODE: mode M", "MODE: compared N", a line per case
that differs and "MODE: N failed" (MODE read-ahead or FileReaderSync, the
mode the pass expects: read-ahead, FileReaderSync or JSPI); exits 1 when any differs or the page fails."""
import concurrent.futures
import json
import os
import subprocess
import sys

from selenium.webdriver.common.by import By

args = sys.argv[1:]
shot = plain_file = None
if '--screenshot' in args:
    i = args.index('--screenshot')
    shot = args[i + 1]
    del args[i:i + 2]
if '--plain' in args:
    i = args.index('--plain')
    plain_file = args[i + 1]
    del args[i:i + 2]
webdir, hpcvet, cases_file = args
hpcvet = os.path.abspath(hpcvet)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'web'))
import serve  # noqa: E402 (web/serve.py)
import web_driver  # noqa: E402 (tests/web_driver.py, beside this file)


def read_cases(path):
    with open(path) as f:
        return [line.rstrip('\n').split('\t') for line in f if line.strip()]


# (mode, server, the page's query, cases); the last pass asks for no way
# of reading: the page's default is the browser's JSPI (that way needs no
# isolation); reading ahead into shared memory needs it and is asked for.
passes = [('read-ahead', serve.start(webdir, isolate=True), '?read=ahead', read_cases(cases_file))]
if plain_file:
    passes.append(('FileReaderSync', serve.start(webdir, isolate=False), '?read=sync', read_cases(plain_file)))
passes.append(('JSPI', serve.start(webdir, isolate=False), '', read_cases(cases_file)))


# The CLI's reports of an input, made once for both passes, in two threads
# beside the browser (which waits on its page most of the time).
def cli_reports(cwd, name):
    report = subprocess.run([hpcvet, '--format=json', name], cwd=cwd, capture_output=True, text=True)
    cert = subprocess.run([hpcvet, 'certify', '--format=json', name], cwd=cwd, capture_output=True, text=True)
    return report, cert


cli_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
cli = {}
for _, _, _, cases in passes:
    for _, cwd, name in cases:
        if (cwd, name) not in cli:
            cli[cwd, name] = cli_pool.submit(cli_reports, cwd, name)

driver = web_driver.chromium()
failures = 0


def fail(msg):
    global failures
    failures += 1
    print('FAIL: ' + msg)


# A drop: the files are picked through an input of the test's own (no
# handler), put in a DataTransfer and dropped on the drop zone, which must
# show it is a target meanwhile. (A script cannot make the file-system
# entries of a real drag: folders dropped from the desktop are not tested.)
DROP = """
const input = document.getElementById('test-drop-input'), zone = document.getElementById('drop');
const dt = new DataTransfer();
for (const f of input.files) dt.items.add(f);
zone.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true, cancelable: true}));
zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
const over = zone.classList.contains('over');
zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
return over;
"""


def drop_files(paths):
    driver.execute_script('''if (!document.getElementById('test-drop-input')) {
        const i = document.createElement('input');
        i.type = 'file'; i.multiple = true; i.id = 'test-drop-input'; i.hidden = true;
        document.body.appendChild(i);
    }''')
    box = driver.find_element(By.ID, 'test-drop-input')
    driver.execute_script('arguments[0].value = ""', box)
    box.send_keys('\n'.join(paths))
    if not driver.execute_script(DROP):
        fail('the drop zone did not show it was a drop target')


def page_report(kind, cwd, name):
    cwd = os.path.realpath(cwd)  # the driver takes canonical paths only
    driver.execute_script('document.body.dataset.state = "sent"; window.hpcvetResult = null;')
    loose = sorted(os.path.join(cwd, f) for f in os.listdir(cwd)
                   if not f.startswith('.') and os.path.isfile(os.path.join(cwd, f))) if kind.endswith('loose') else []
    if kind == 'dir':
        driver.find_element(By.ID, 'pick-folder').send_keys(os.path.join(cwd, name))
    elif kind == 'file':
        driver.find_element(By.ID, 'pick-files').send_keys(os.path.join(cwd, name))
    elif kind == 'loose':
        driver.find_element(By.ID, 'pick-files').send_keys('\n'.join(loose))
    elif kind == 'drop-file':
        drop_files([os.path.join(cwd, name)])
    elif kind == 'drop-loose':
        drop_files(loose)
    else:
        return None, 'unknown kind %s' % kind
    state, result = web_driver.wait_state(driver, ('done', 'error'))
    if state != 'done' or not result or 'json' not in result:
        return None, 'page state %s: %s' % (state, result)
    return result, None


def run_pass(want_mode, server, query, cases):
    url = 'http://127.0.0.1:%d/index.html%s' % (server.server_address[1], query)
    driver.get(url)
    state, _ = web_driver.wait_state(driver, ('ready',))
    if state != 'ready':
        fail('the page did not load hpcvet.wasm: %s' % driver.find_element(By.ID, 'message').text)
        return
    mode = driver.execute_script('return document.getElementById("mode").dataset.mode')
    if mode != want_mode:
        fail('the page reads by %s, served %s: %s expected' % (
            mode, 'asked for ' + query if query else 'by default', want_mode))
    print('%s: mode %s' % (want_mode, mode))
    version = driver.find_element(By.ID, 'version').text
    cli_version = subprocess.run([hpcvet, '--version'], capture_output=True, text=True).stdout.split()[-1]
    rules = json.loads(subprocess.run([hpcvet, 'rules', '--format=json'], capture_output=True, text=True).stdout)
    want = 'hpcvet %s, rule table %s' % (cli_version, rules.get('rule_table_version', ''))
    if not version.startswith(want):
        fail('the page says "%s", the CLI "%s"' % (version, want))
    # every run makes a certificate too (the file digests from WebCrypto)
    driver.execute_script('document.getElementById("opt-certify").checked = true')
    compared = 0
    for kind, cwd, name in cases:
        got, err = page_report(kind, cwd, name)
        if err:
            fail('%s/%s: %s' % (cwd, name, err))
            continue
        report, cert = cli[cwd, name].result()
        compared += 1
        if json.loads(got['json']) != json.loads(report.stdout):
            fail('%s/%s: the page\'s JSON report differs from the CLI\'s' % (cwd, name))
            print('  page: ' + got['json'][:600].replace('\n', ' '))
            print('  cli:  ' + report.stdout[:600].replace('\n', ' '))
        elif got['exit'] != report.returncode:
            fail('%s/%s: the page says exit %s, the CLI %d' % (cwd, name, got['exit'], report.returncode))
        if not got.get('certificate') or json.loads(got['certificate']) != json.loads(cert.stdout):
            fail('%s/%s: the page\'s certificate differs from the CLI\'s' % (cwd, name))
            print('  page: ' + (got.get('certificate') or 'none')[-600:].replace('\n', ' '))
            print('  cli:  ' + cert.stdout[-600:].replace('\n', ' '))
    print('%s: compared %d' % (want_mode, compared))
    # nothing leaves the machine: the page loaded only its own files
    origin = url.split('/index.html')[0] + '/'
    names = driver.execute_script('return performance.getEntriesByType("resource").map(e => e.name)')
    for n in names:
        if not n.startswith(origin):
            fail('the page loaded %s' % n)
    # the console since the page was loaded (the log is read, so emptied, here)
    for e in driver.get_log('browser'):
        if e.get('level') == 'SEVERE':
            fail('console: %s' % e.get('message'))


total = 0
try:
    for want_mode, server, query, cases in passes:
        failures = 0
        run_pass(want_mode, server, query, cases)
        print('%s: %d failed' % (want_mode, failures))
        total += failures
        # the page as a user sees it: served plainly, by its default way
        if shot and want_mode == 'JSPI':
            driver.save_screenshot(shot)
finally:
    driver.quit()
    for _, server, _, _ in passes:
        server.shutdown()
    cli_pool.shutdown(cancel_futures=True)
sys.exit(1 if total else 0)
