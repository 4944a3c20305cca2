#!/usr/bin/env python3
"""Time the web page (build/web) on one folder, in headless Chromium.

A fresh browser per run: the page is loaded from a local http server on
127.0.0.1, the folder is picked through the page's folder input, and the
time from the pick to the report is measured. Prints one line:
"WALL_S EXIT WASM_MIB RENDERER_PEAK_MIB READS READ_S CPU_S", where WASM_MIB
is the module's linear memory at the end (it only grows: its peak),
RENDERER_PEAK_MIB the largest peak RSS (VmHWM) of Chromium's renderer
processes (the one that runs the page and its worker), READS and READ_S
the worker's FileReaderSync reads and the wall seconds in them, and CPU_S
the user + system CPU seconds of all of Chromium's processes (the
browser's, which serves the file reads, included) from the pick to the
report.

usage: bench/web_page.py WEBDIR FOLDER"""
import functools
import http.server
import os
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

webdir, folder = sys.argv[1], os.path.realpath(sys.argv[2])


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def descendants(pid):
    """Every process below pid (from /proc)."""
    children = {}
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % p) as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
        except OSError:
            continue
        children.setdefault(ppid, []).append(int(p))
    out, stack = [], [pid]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    return out


def cpu_seconds(root):
    """User + system CPU seconds of every process below root so far."""
    tick = os.sysconf('SC_CLK_TCK')
    total = 0
    for pid in descendants(root):
        try:
            with open('/proc/%d/stat' % pid) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / tick


def renderer_peak_kib(root):
    peak = 0
    for pid in descendants(root):
        try:
            with open('/proc/%d/cmdline' % pid, 'rb') as f:
                if b'--type=renderer' not in f.read():
                    continue
            with open('/proc/%d/status' % pid) as f:
                for line in f:
                    if line.startswith('VmHWM:'):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
    return peak


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(Quiet, directory=webdir))
threading.Thread(target=server.serve_forever, daemon=True).start()
opts = webdriver.ChromeOptions()
for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'):
    opts.add_argument(a)
service = Service('/usr/bin/chromedriver')
driver = webdriver.Chrome(service=service, options=opts)
try:
    driver.get('http://127.0.0.1:%d/index.html' % server.server_address[1])
    while driver.execute_script('return document.body.dataset.state') != 'ready':
        time.sleep(0.05)
    c0 = cpu_seconds(service.process.pid)
    t0 = time.time()
    driver.find_element(By.ID, 'pick-folder').send_keys(folder)
    while driver.execute_script('return document.body.dataset.state') not in ('done', 'error'):
        time.sleep(0.02)
    wall = time.time() - t0
    cpu = cpu_seconds(service.process.pid) - c0
    r = driver.execute_script('return window.hpcvetResult')
    peak = renderer_peak_kib(service.process.pid)
    print('%.2f %s %.0f %.0f %s %.2f %.2f' % (wall, r.get('exit', 'error'), (r.get('memory') or 0) / 1048576, peak / 1024,
                                           r.get('reads'), (r.get('readMs') or 0) / 1000, cpu))
finally:
    driver.quit()
    server.shutdown()
