"""Chromium's processes below chromedriver, from /proc: their CPU time, by
thread, and the renderers' peak memory. Used by bench/web_page.py and
bench/web_read_cost.py."""
import os

TICK = os.sysconf('SC_CLK_TCK')


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
    total = 0
    for pid in descendants(root):
        try:
            with open('/proc/%d/stat' % pid) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / TICK


def process_type(pid, sub=False):
    """Chromium's --type= of pid ('browser' for the browser process); with
    sub, a utility process's service too ('utility:network.mojom.NetworkService')."""
    # Chromium's children rewrite their command line as one string, their
    # arguments separated by spaces
    kind, service = 'browser', None
    with open('/proc/%d/cmdline' % pid, 'rb') as f:
        for a in f.read().replace(b'\0', b' ').split():
            if a.startswith(b'--type='):
                kind = a[7:].decode()
            elif a.startswith(b'--utility-sub-type='):
                service = a[19:].decode()
    return kind + ':' + service if sub and service else kind


def threads_ticks(pid):
    """(tid, thread name, user+system CPU ticks) of each thread of pid, from
    /proc/PID/task/TID/stat (the name is between the first '(' and the last
    ')', since a thread may name itself with either)."""
    rows = []
    for tid in os.listdir('/proc/%d/task' % pid):
        with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
            st = f.read()
        name = st[st.index('(') + 1:st.rindex(')')]
        fields = st.rsplit(')', 1)[1].split()
        rows.append((tid, name, int(fields[11]) + int(fields[12])))
    return rows


def thread_cpu(root):
    """CPU ticks by (pid, tid, process type, thread name) of every process below root."""
    out = {}
    for pid in descendants(root):
        try:
            kind = process_type(pid)
            for tid, name, ticks in threads_ticks(pid):
                out[(pid, tid, kind, name)] = ticks
        except (OSError, ValueError):
            pass
    return out


def thread_delta(before, after):
    """CPU seconds by (process type, thread name) between two thread_cpu()s."""
    by = {}
    for key, ticks in after.items():
        by[key[2:]] = by.get(key[2:], 0) + ticks - before.get(key, 0)
    return {k: v / TICK for k, v in by.items()}


def process_cpu(root):
    """CPU ticks by (pid, process type with its service, tid, thread name) of
    root itself (chromedriver) and every process below it; a process or
    thread that ended since is missing from the next sample, so a span's
    figures are taken from two samples of the live ones."""
    out = {}
    for pid in [root] + descendants(root):
        try:
            kind = 'chromedriver' if pid == root else process_type(pid, sub=True)
            for tid, name, ticks in threads_ticks(pid):
                out[(pid, kind, tid, name)] = ticks
        except (OSError, ValueError):
            pass
    return out


def read_chars(root):
    """Bytes read by read() and its kin (rchar in /proc/PID/io: the file's
    bytes the browser reads, its sockets' too) by pid, below root."""
    out = {}
    for pid in descendants(root):
        try:
            with open('/proc/%d/io' % pid) as f:
                for line in f:
                    if line.startswith('rchar:'):
                        out[pid] = int(line.split()[1])
        except OSError:
            pass
    return out


def process_report(before, after, out):
    """Writes to out the CPU seconds between two process_cpu() samples: by
    process (type, pid), then its threads of 0.01 s or more by name (the
    threads of one name summed)."""
    procs, threads = {}, {}
    for key, ticks in after.items():
        d = (ticks - before.get(key, 0)) / TICK
        pid, kind, tid, name = key
        procs[(kind, pid)] = procs.get((kind, pid), 0) + d
        threads.setdefault((kind, pid), {})['%s (%s)' % (name, tid)] = d
    out.write('  CPU s by process and thread (%.2f s in all)\n' % sum(procs.values()))
    for (kind, pid), s in sorted(procs.items(), key=lambda x: -x[1]):
        if s < 0.005:
            continue
        out.write('  %-7.2f %s (pid %d)\n' % (s, kind, pid))
        for name, t in sorted(threads[(kind, pid)].items(), key=lambda x: -x[1]):
            if t >= 0.01:
                out.write('      %-7.2f %s\n' % (t, name))


def renderer_peak_kib(root):
    """The largest peak RSS (VmHWM) of the renderer processes below root."""
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
