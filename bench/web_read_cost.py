#!/usr/bin/env python3
"""What a byte read from a picked file costs Chromium, by read API, block
size and reads in flight (`make bench-web-reads`; bench/RESULTS.md, "Web
page").

One headless Chromium; its page (bench/web_read_cost/, served by
web/serve.py, cross-origin isolated as the hpcvet page is) is given FILE
through a file input, and a worker reads the whole file once per case;
around each case, the user + system CPU seconds of all of Chromium's
processes from /proc (the browser's, which serves the reads, the renderer's
IO thread and the worker's). Each case is run REPS times (default 3); the
median is printed, as CPU nanoseconds a byte: in all, in the browser
process and in the renderer (the page and its workers; each case in a
worker of its own). What Chromium spends idle, over a second, is printed
first. FILE should be in the
page cache (the script reads it once first).

usage: [REPS=n] [ONLY=REGEX] bench/web_read_cost.py FILE [--threads]
ONLY: the cases whose "API BLOCK_MIB IN_FLIGHT" the regular expression
matches (e.g. ONLY='^stream|slice.arrayBuffer 16 ').
--threads: the five busiest threads of each case's last run on stderr."""
import os
import re
import statistics
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'web'))
sys.path.insert(0, here)
import serve  # noqa: E402 (web/serve.py)
from chromium_procs import thread_cpu, thread_delta  # noqa: E402

MIB = 1 << 20
CASES = [('slice.arrayBuffer', b, 1) for b in (0.5, 1, 4, 8, 16)] + \
        [('slice.arrayBuffer', 1, 4), ('slice.arrayBuffer', 4, 4)] + \
        [('FileReaderSync', b, 1) for b in (0.5, 1, 4, 8, 16)] + [('FileReaderSync into wasm', 1, 1)] + \
        [('slice.stream', b, 1) for b in (0.5, 1, 4, 8, 16)] + \
        [('stream', 0, 1), ('stream, copied', 1, 1), ('stream BYOB', 1, 1), ('stream BYOB', 4, 1),
         ('stream BYOB into wasm', 1, 1), ('File.arrayBuffer', 0, 1), ('Response(slice).arrayBuffer', 4, 1)] + \
        [('streams BYOB, parts', 1, n) for n in (1, 2, 4, 8)] + \
        [('slice streams BYOB', b, n) for b in (4, 16) for n in (1, 2, 4)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 1:
        sys.exit(__doc__)
    path = os.path.realpath(args[0])
    size = os.path.getsize(path)
    with open(path, 'rb') as f:
        while f.read(16 * MIB):
            pass
    reps = int(os.environ.get('REPS', '3'))
    server = serve.start(os.path.join(here, 'web_read_cost'))
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'):
        opts.add_argument(a)
    service = Service('/usr/bin/chromedriver')
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_script_timeout(600)
    root = service.process.pid
    try:
        driver.get('http://127.0.0.1:%d/index.html' % server.server_address[1])
        while driver.execute_script('return document.body.dataset.state') != 'ready':
            time.sleep(0.05)
        driver.find_element(By.ID, 'pick').send_keys(path)
        while driver.execute_script('return document.body.dataset.state') != 'picked':
            time.sleep(0.05)
        # Chromium's CPU over an idle second (after one to settle), so that
        # it can be told apart
        time.sleep(2)
        th0 = thread_cpu(root)
        time.sleep(1)
        idle_by = thread_delta(th0, thread_cpu(root))
        idle = sum(idle_by.values())
        if '--threads' in sys.argv:
            top = sorted(idle_by.items(), key=lambda x: -x[1])[:5]
            print('   idle: ' + ', '.join('%s/%s %.2f' % (k, n, s) for (k, n), s in top), file=sys.stderr, flush=True)
        print('# %s: %.0f MiB in the page cache; load %s; Chromium idle: %.3f CPU s a second; median of %d'
              % (os.path.basename(path), size / MIB, ' '.join(open('/proc/loadavg').read().split()[:3]), idle, reps))
        print('| read | block MiB | in flight | reads (chunks) | wall s | CPU ns/byte | browser process | renderer |')
        print('|---|---:|---:|---:|---:|---:|---:|---:|')
        only = os.environ.get('ONLY')
        for api, block, inflight in CASES:
            if only and not re.search(only, '%s %s %d' % (api, block, inflight)):
                continue
            runs = []
            for _ in range(reps):
                th0 = thread_cpu(root)
                t0 = time.time()
                r = driver.execute_async_script('readCase(arguments[0]).then(arguments[arguments.length - 1])',
                                                {'api': api, 'block': int(block * MIB), 'inflight': inflight})
                wall = time.time() - t0
                by = thread_delta(th0, thread_cpu(root))
                if r.get('error') or r['bytes'] != size:
                    print('| %s | %s | %d | %s |' % (api, block or '-', inflight, r.get('error') or 'short: %d' % r['bytes']))
                    break
                browser = sum(v for (kind, _), v in by.items() if kind == 'browser')
                renderer = sum(v for (kind, _), v in by.items() if kind == 'renderer')
                runs.append((sum(by.values()), browser, renderer, wall, r['chunks'], by))
            else:
                ns = lambda i: statistics.median(x[i] for x in runs) * 1e9 / size  # noqa: E731
                wall = statistics.median(x[3] for x in runs)
                print('| %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f |'
                      % (api, block or '-', inflight, runs[-1][4], wall, ns(0), ns(1), ns(2)),
                      flush=True)
                if '--threads' in sys.argv:
                    top = sorted(runs[-1][5].items(), key=lambda x: -x[1])[:5]
                    print('   ' + ', '.join('%s/%s %.2f' % (k, n, s) for (k, n), s in top), file=sys.stderr, flush=True)
    finally:
        driver.quit()
        server.shutdown()


if __name__ == '__main__':
    main()
