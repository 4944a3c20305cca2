#!/usr/bin/env python3
"""Time the web page (build/web) on one folder, in headless Chromium.

A fresh browser per run: the page is loaded from a local http server on
127.0.0.1 (web/serve.py: cross-origin isolated; --plain: without those
headers, as from any static server), the
folder is picked through the page's folder input, and the time from the
pick to the report is measured. Prints one line:
"WALL_S EXIT WASM_MIB RENDERER_PEAK_MIB READS READ_S CPU_S MODE SHARED_MIB READ_MIB ASKS OPENS",
where WASM_MIB is the module's linear memory at the end (it only grows:
its peak), RENDERER_PEAK_MIB the largest peak RSS (VmHWM) of Chromium's
renderer processes (the one that runs the page and its workers: the
page's peak memory), READS and READ_S the reads the validating worker
waited for and the wall seconds it waited, CPU_S the user + system CPU
seconds of all of Chromium's processes (the browser's, which serves the
file reads, included) from the pick to the report, MODE the page's way of
reading (JSPI, read-ahead or FileReaderSync), SHARED_MIB its read-ahead
buffer, READ_MIB the bytes it asked the browser for (blocks read ahead
and never used included), ASKS in how many runs, and OPENS in how many
browser reads (read ahead, a run that continues the last one's goes on
reading its stream; FileReaderSync: a read a run). --threads: also the
CPU seconds of each kind of thread (by process type and thread name) on
stderr: where the time goes. --by-process: the CPU seconds of each of
Chromium's processes (and chromedriver) in the span, with their busiest
threads, on stderr (chromium_procs.process_report).

--json=PATH: also write the page's JSON report there. --read=WAY: ask the
page for a way of reading (index.html?read=WAY: jspi, ahead or sync);
without it, the page's default for how it is served.

usage: bench/web_page.py WEBDIR FOLDER [--plain] [--read=WAY] [--threads] [--by-process] [--json=PATH]"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

args = [a for a in sys.argv[1:] if not a.startswith('--')]
webdir, folder = args[0], os.path.realpath(args[1])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'web'))
import serve  # noqa: E402 (web/serve.py)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_procs import cpu_seconds, process_cpu, process_report, read_chars, renderer_peak_kib, thread_cpu, thread_delta  # noqa: E402

server = serve.start(webdir, isolate='--plain' not in sys.argv)
opts = webdriver.ChromeOptions()
for a in os.environ.get('WEB_CHROMIUM_FLAGS', '--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage').split():
    opts.add_argument(a)
service = Service('/usr/bin/chromedriver')
driver = webdriver.Chrome(service=service, options=opts)
try:
    read = [a.split('=', 1)[1] for a in sys.argv[1:] if a.startswith('--read=')]
    driver.get('http://127.0.0.1:%d/index.html%s' % (server.server_address[1], '?read=' + read[-1] if read else ''))
    while driver.execute_script('return document.body.dataset.state') != 'ready':
        time.sleep(0.05)
    # Chromium's start-up goes on after the page is ready: in the first half
    # second ~0.6 CPU-s (1.2 cores), most of it in the renderer the first
    # tab had before the page's navigation, then none. A user picks a folder
    # seconds after the page is up, when that is over; picked at once, the
    # run shared the 2 cores with it and counted its CPU seconds. So the
    # pick waits until all of Chromium spent under QUIET_CPU_S in a
    # QUIET_S span (at most QUIET_MAX_S).
    QUIET_S, QUIET_CPU_S, QUIET_MAX_S = 0.5, 0.05, 10
    quiet_from = time.time()
    while time.time() - quiet_from < QUIET_MAX_S:
        c = cpu_seconds(service.process.pid)
        time.sleep(QUIET_S)
        if cpu_seconds(service.process.pid) - c < QUIET_CPU_S:
            break
    c0 = cpu_seconds(service.process.pid)
    th0 = thread_cpu(service.process.pid)
    pr0 = process_cpu(service.process.pid)
    rc0 = read_chars(service.process.pid)
    t0 = time.time()
    # one call that returns when the page is done: no polling, whose
    # calls would cost the browser CPU in the span measured
    driver.set_script_timeout(3600)
    driver.execute_script('''window.benchDone = new Promise((resolve) => {
        new MutationObserver((_, obs) => {
            if (['done', 'error'].includes(document.body.dataset.state)) { obs.disconnect(); resolve(); }
        }).observe(document.body, {attributes: true, attributeFilter: ['data-state']});
    });''')
    driver.find_element(By.ID, 'pick-folder').send_keys(folder)
    driver.execute_async_script('window.benchDone.then(arguments[arguments.length - 1])')
    wall = time.time() - t0
    cpu = cpu_seconds(service.process.pid) - c0
    if '--by-process' in sys.argv:
        process_report(pr0, process_cpu(service.process.pid), sys.stderr)
        rc = read_chars(service.process.pid)
        for pid in sorted(rc, key=lambda p: rc0.get(p, 0) - rc[p])[:2]:
            print('  pid %d read %.0f MiB (rchar)' % (pid, (rc[pid] - rc0.get(pid, 0)) / 1048576), file=sys.stderr)
        r = driver.execute_script('return window.hpcvetResult')
        print('  the page asked %.0f MiB in %s runs, %s browser reads, %s chunks' % (
            (r.get('readBytes') or 0) / 1048576, r.get('readAsks'), r.get('readOpens'), r.get('readChunks')), file=sys.stderr)
    if '--threads' in sys.argv:
        by = thread_delta(th0, thread_cpu(service.process.pid))
        for (kind, name), s in sorted(by.items(), key=lambda x: -x[1])[:10]:
            print('  %-9s %-16s %.2f s' % (kind, name, s), file=sys.stderr)
    r = driver.execute_script('return window.hpcvetResult')
    for a in sys.argv:
        if a.startswith('--json='):
            with open(a[7:], 'w') as f:
                f.write(r.get('json') or '')
    peak = renderer_peak_kib(service.process.pid)
    mode = driver.execute_script('return document.getElementById("mode").dataset.mode')
    print('%.2f %s %.0f %.0f %s %.2f %.2f %s %.0f %.0f %s %s' % (wall, r.get('exit', 'error'), (r.get('memory') or 0) / 1048576,
                                                        peak / 1024, r.get('reads'), (r.get('readMs') or 0) / 1000, cpu, mode,
                                                        (r.get('shared') or 0) / 1048576, (r.get('readBytes') or 0) / 1048576,
                                                        r.get('readAsks'), r.get('readOpens', r.get('readAsks'))))
finally:
    driver.quit()
    server.shutdown()
