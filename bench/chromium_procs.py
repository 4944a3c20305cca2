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


def process_type(pid):
    # Chromium's children rewrite their command line as one string, their
    # arguments separated by spaces
    with open('/proc/%d/cmdline' % pid, 'rb') as f:
        for a in f.read().replace(b'\0', b' ').split():
            if a.startswith(b'--type='):
                return a[7:].decode()
    return 'browser'


def thread_cpu(root):
    """CPU ticks by (pid, tid, process type, thread name) of every process below root."""
    out = {}
    for pid in descendants(root):
        try:
            kind = process_type(pid)
            for tid in os.listdir('/proc/%d/task' % pid):
                with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                    st = f.read()
                name = st[st.index('(') + 1:st.rindex(')')]
                fields = st.rsplit(')', 1)[1].split()
                out[(pid, tid, kind, name)] = int(fields[11]) + int(fields[12])
        except (OSError, ValueError):
            pass
    return out


def thread_delta(before, after):
    """CPU seconds by (process type, thread name) between two thread_cpu()s."""
    by = {}
    for key, ticks in after.items():
        by[key[2:]] = by.get(key[2:], 0) + ticks - before.get(key, 0)
    return {k: v / TICK for k, v in by.items()}


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
