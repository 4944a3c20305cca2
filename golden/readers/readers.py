"""The readers of the matrix: how each is found under READERS (the folder
../shared/tools/readers/setup.sh fills), its version, and how it is run.

Two ways to run a reader:
- batch: one long-lived process takes every case (batch.py's protocol), for the
  readers that cost seconds to start (hatchet and pipit in Python, hpcviewer's data
  layer in a JVM). If the process dies or hangs, the case gets that outcome and a
  new process takes the next case.
- exec: one process per case and input file, for the native readers (ovniemu,
  ovnidump, dumpi2ascii) and hpcvet, with a CPU-time limit and 4 GiB of address space.

Outcomes: accepted, refused (the reader stopped on purpose with its own message),
crash (a signal, or a failure the reader did not mean: an index error, a null
pointer, an exhausted stack, an assertion), hang (over the CPU limit or ten times
it on the wall clock). misread is decided after, from the content (content.py)."""
import glob
import os
import re
import resource
import select
import signal
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# javac's own JVM with the quick compiler only and one GC thread: the same
# classes, for ~40% less CPU on a compile of a few files (~1.2 CPU-s each).
JAVAC_JVM = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"]
MEMORY_LIMIT = 4 << 30
# One message for both limits (CPU time, ten times it on the wall clock): which one
# trips first depends on the machine's load, and the page must not.
HANG = "no answer within %d s of CPU time"


def _read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


class Reader:
    """name, family, version; available() says whether it is installed (and why not)."""
    name = family = ""
    adapter = ""        # what its content adapter compares, "" when it has none
    how = ""            # how it is run, for the page

    def __init__(self, readers_dir):
        self.dir = readers_dir
        self.version = None
        self.missing = None

    def run(self, cases, timeout, want_content):
        raise NotImplementedError


# ---------------------------------------------------------------- batch readers

EOF = "EOF"


class BatchReader(Reader):
    exits_after_hang = False  # a driver that exits after answering hang (ViewerBatch)

    def command(self):
        raise NotImplementedError

    def env(self):
        return dict(os.environ)

    def _start(self):
        p = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=self.env(), text=True, bufsize=1)
        p.pending = b""
        line = self._readline(p, 300)
        if line is None or line is EOF:
            p.kill()
            p.wait()
            raise RuntimeError("%s: the batch driver did not start" % self.name)
        self.version = line["version"]
        return p

    @staticmethod
    def _readline(p, timeout):
        """The driver's next answer (a JSON object on a line of its own; a reader
        may print other lines to stdout too), read from the pipe itself: a
        buffered file object would hide what it has read ahead from select().
        None when none came in time, EOF when the driver closed its output (it
        died: whether it has been reaped yet is a race, so not asked)."""
        import json
        deadline = time.monotonic() + timeout
        fd = p.stdout.fileno()
        while True:
            while b"\n" in p.pending:
                line, p.pending = p.pending.split(b"\n", 1)
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict) and ("outcome" in obj or "version" in obj):
                    return obj
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([fd], [], [], left)
            if r:
                b = os.read(fd, 1 << 16)
                if not b:
                    return EOF
                p.pending += b

    def probe_version(self):
        p = self._start()
        p.stdin.close()
        p.wait()

    def run(self, cases, timeout, want_content):
        results = {}
        p = None
        for c in cases:
            if p is None or p.poll() is not None:
                p = self._start()
            try:
                p.stdin.write("%d\t%d\t%s\n" % (timeout, 1 if want_content(c) else 0, c.input))
                p.stdin.flush()
            except BrokenPipeError:  # it died after its last answer: a new one takes it
                p.wait()
                p = self._start()
                p.stdin.write("%d\t%d\t%s\n" % (timeout, 1 if want_content(c) else 0, c.input))
                p.stdin.flush()
            res = self._readline(p, 12 * timeout + 30)
            if res is None:  # no answer in time: the driver itself is stuck
                p.kill()
                p.wait()
                res = {"outcome": "hang", "message": HANG % timeout}
                p = None
            elif res is EOF:
                p.wait()
                res = {"outcome": "crash", "message": "the reader's process died (exit %s)" % p.returncode}
                p = None
            elif res["outcome"] == "hang" and self.exits_after_hang:
                p.wait()  # it cannot stop the stuck case, so it exits: the next case gets a new one
                p = None
            results[c.id] = res
        if p is not None:
            p.stdin.close()
            p.wait()
        return results


class Hatchet(BatchReader):
    name, family = "hatchet", "hpctoolkit"
    how = "GraphFrame.from_hpctoolkit(DB) (its v4 reader: meta.db, profile.db, cct.db, metrics/default.yaml)"
    adapter = ("every cell of its frame: each node (a context, by its place among meta.db's entry points and "
               "children arrays) and row (a profile, by its identifier tuple), in each column it names for a "
               "statistic (M, M (inc): the exclusive and inclusive standard scopes of metrics/default.yaml's Sum "
               "variant), against cct.db's value of that statistic (0 where cct.db has none); not compared, as "
               "hatchet shows none of them: the root context (no node), the summary profile (no row), metrics "
               "with no percent-rendered Sum variant (no column), profiles sharing one identifier tuple (one row)")

    def __init__(self, d):
        super().__init__(d)
        self.src = os.path.join(d, "src", "hatchet")
        if not os.path.isdir(os.path.join(self.src, "hatchet")):
            self.missing = "no %s" % self.src

    def env(self):
        e = dict(os.environ)
        e["PYTHONPATH"] = "%s:%s" % (self.src, os.path.join(self.dir, "src", "textx"))
        return e

    def command(self):
        return [os.path.join(self.dir, "venv", "bin", "python"), os.path.join(HERE, "batch_hatchet.py"), self.src]


class Pipit(BatchReader):
    name, family = "pipit", "hpctoolkit"
    how = "pipit.Trace.from_hpctoolkit(DB) (its own v4 reader: meta.db and trace.db)"
    adapter = ("per trace line (Process, Thread, Host, Core: the physical ids of its profile's identifier "
               "tuple), the context changes its Enter/Leave events give (time from trace.db's minTimestamp, "
               "innermost context entered), against trace.db's samples (a line or instruction context as its "
               "nearest other ancestor, as pipit makes no node of them; ctxId 0 and maxTimestamp as idle); not "
               "compared: its events' names and source lines (meta.db's) and traces whose four ids coincide "
               "(one line of its frame)")

    def __init__(self, d):
        super().__init__(d)
        self.src = os.path.join(d, "src", "pipit")
        if not os.path.isdir(os.path.join(self.src, "pipit")):
            self.missing = "no %s" % self.src

    def env(self):
        e = dict(os.environ)
        e["PYTHONPATH"] = self.src
        return e

    def command(self):
        return [os.path.join(self.dir, "venv", "bin", "python"), os.path.join(HERE, "batch_pipit.py"),
                self.src, pipit_version(self.src)]


def pipit_version(src):
    m = re.search(r"""version\s*=\s*["']([^"']+)""", _read(os.path.join(src, "setup.py")))
    return "pipit " + (m.group(1) if m else "unknown")


class Viewer(BatchReader):
    name, family = "hpcviewer", "hpctoolkit"
    exits_after_hang = True  # a JVM cannot stop a stuck thread (ViewerBatch.java)
    how = ("hpcviewer 2025.01's data layer: new Experiment().open(new LocalDatabaseRepresentation(DB)), "
           "as its DatabaseLocal opens a database, in one JVM (ViewerBatch.java)")
    adapter = ("the root's value of every inclusive (I) and point (X) metric of its tree, against the "
               "summary profile's value of that statistic at the root context in profile.db (exclusive "
               "metrics and formulas left out: golden/readers/content.py says why)")

    def __init__(self, d, build):
        super().__init__(d)
        self.build = os.path.join(build, "readers")
        script = _read(os.path.join(d, "hpcviewer.sh"))
        m = re.search(r'-cp "([^"]+)"', script)
        self.cp = None
        if not m:
            self.missing = "no %s" % os.path.join(d, "hpcviewer.sh")
            return
        self.cp = ":".join(p for p in m.group(1).split(":") if not p.endswith("/probe"))
        jars = [p for p in self.cp.split(":") if "hpcdata-" in p]
        self.jar_version = re.search(r"hpcdata-([0-9.]+)\.jar", jars[0]).group(1) if jars else "unknown"

    def _compile(self):
        cls = os.path.join(self.build, "ViewerBatch.class")
        src = os.path.join(HERE, "ViewerBatch.java")
        if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
            os.makedirs(self.build, exist_ok=True)
            subprocess.run(["javac"] + JAVAC_JVM + ["-nowarn", "-cp", self.cp, "-d", self.build, src], check=True,
                           stderr=subprocess.DEVNULL)

    def command(self):
        self._compile()
        return ["java", "-Xmx2g", "-XX:TieredStopAtLevel=1", "-cp", self.cp + ":" + self.build, "ViewerBatch",
                "hpcviewer 2025.01 (hpcdata %s)" % self.jar_version]


# ---------------------------------------------------------------- exec readers

def _limits(cpu):
    def f():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    return f


def execute(argv, timeout, env=None, cwd=None):
    """(returncode or -signal or None for a wall-clock hang, stdout, stderr)."""
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=10 * timeout,
                           preexec_fn=_limits(timeout), env=env, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b""
    return p.returncode, p.stdout, p.stderr


def last_line(text, pattern=None, first=False):
    """The line of a reader's output that says why: the last one, or the first (or
    last) that matches pattern."""
    lines = [l.strip() for l in text.decode(errors="replace").splitlines() if l.strip()]
    if pattern:
        hits = [l for l in lines if re.search(pattern, l)]
        if hits:
            return (hits[0] if first else hits[-1])[:300]
    return lines[-1][:300] if lines else ""


def native_outcome(rc, err, timeout, refusal_abort, why=None):
    """The outcome of a native reader's run. A SIGABRT is a refusal only when the
    reader printed its own message first (refusal_abort: a pattern of those)."""
    if rc is None:
        return "hang", HANG % timeout
    if rc == 0:
        return "accepted", ""
    if rc > 0:
        return "refused", last_line(err, why, first=True) or "exit %d" % rc
    sig = -rc
    if sig == signal.SIGXCPU:
        return "hang", HANG % timeout
    name = signal.Signals(sig).name
    if sig == signal.SIGABRT and refusal_abort and re.search(refusal_abort, err.decode(errors="replace")):
        return "refused", last_line(err, refusal_abort)
    return "crash", ("%s: %s" % (name, last_line(err))) if last_line(err) else name


class ExecReader(Reader):
    refusal_abort = None

    def one(self, c, timeout, want_content):
        raise NotImplementedError

    def run(self, cases, timeout, want_content):
        return {c.id: self.one(c, timeout, want_content(c)) for c in cases}


class Ovni(ExecReader):
    family = "ovni"
    # ovni's die(): "FATAL: function: message" on stderr, then abort().
    refusal_abort = r"FATAL: "

    def __init__(self, d):
        super().__init__(d)
        self.bin = os.path.join(d, "ovni", "bin", self.name)
        if not os.access(self.bin, os.X_OK):
            self.missing = "no %s" % self.bin
            return
        h = _read(os.path.join(d, "ovni", "include", "ovni.h"))
        m = re.search(r"OVNI_LIB_VERSION\s+\"([^\"]+)\"", h) or re.search(r"OVNI_TRACEDIR_VERSION[^\n]*", h)
        cfg = _read(os.path.join(d, "build", "ovni", "CMakeCache.txt"))
        m2 = re.search(r"CMAKE_PROJECT_VERSION:STATIC=(\S+)", cfg)
        self.version = "ovni %s" % (m2.group(1) if m2 else (m.group(1) if m else "unknown"))

    def argv(self, trace):
        raise NotImplementedError

    def one(self, c, timeout, content):
        import shutil
        import tempfile
        env = dict(os.environ, OVNI_CONFIG_DIR=os.path.join(self.dir, "ovni", "share", "ovni"))
        with tempfile.TemporaryDirectory() as s:
            t = os.path.join(s, "t")
            if os.path.isdir(c.input):
                shutil.copytree(c.input, t, symlinks=True)
            else:
                shutil.copy(c.input, t)
            rc, out, err = execute(self.argv(t, content), timeout, env=env, cwd=s)
            decoded = self.decode(out, err, t) if rc == 0 and content else None
        # ovni's first ERROR (or FATAL) line is the cause; the later ones say
        # which step gave up.
        outcome, msg = native_outcome(rc, err, timeout, self.refusal_abort, r"ERROR|FATAL")
        res = {"outcome": outcome, "message": msg.replace(s, "TRACE")}
        if outcome == "accepted" and content:
            res["content"] = decoded
        return res

    def decode(self, out, err, trace):
        return None


JUMBO_MCVS = ("6Yc", "POc", "VWC", "VYc")


class OvniEmu(Ovni):
    name = "ovniemu"
    how = "ovniemu -l TRACE (the linter mode of ovni's own tests), on a scratch copy"

    adapter = ("the number of input events it says it processed, against the events of the content file; "
               "the time span of its Paraver trace (cpu.prv's header), against the last event's clock less "
               "the first's (it writes states, not the events it read: their values are ovnidump's to compare)")

    def argv(self, t, content):
        return [self.bin, "-l", t]

    def decode(self, out, err, trace):
        """ovniemu says `processed N input events` on stderr, and heads cpu.prv with
        `#Paraver (...):SPAN_ns:...`, SPAN the last event's clock less the first's."""
        m = re.search(rb"processed (\d+) input events", err)
        head = b""
        try:
            with open(os.path.join(trace, "cpu.prv"), "rb") as f:
                head = f.readline()
        except OSError:
            pass
        h = re.match(rb"#Paraver \([^)]*\):(\d+)_ns:", head)
        return {"ovniemu": {"events": int(m.group(1)) if m else None, "span": int(h.group(1)) if h else None}}


class OvniDump(Ovni):
    name = "ovnidump"
    how = "ovnidump -x TRACE (every event with its raw payload), on a scratch copy"
    adapter = "every event of every stream, in stream order: MCV, clock, payload bytes"

    def argv(self, t, content):
        return [self.bin, "-x", t]

    def decode(self, out, err=b"", trace=None):
        """ovnidump -x prints `CLOCK  MCV  STREAM  :xx:xx...` per event, streams
        interleaved in clock order; per stream the events keep their order."""
        streams = {}
        for line in out.decode(errors="replace").splitlines():
            f = line.split()
            if len(f) < 3 or not f[0].lstrip("-").isdigit():
                continue
            payload = [int(x, 16) for x in f[3].split(":")[1:]] if len(f) > 3 and f[3].startswith(":") else []
            # A jumbo event's bytes as ovnidump prints them start with the u32
            # size of what follows (the stream's layout); the content file's
            # payload is what follows. A normal payload is at most 16 bytes, so
            # longer ones are jumbo, and so are the events ovni's 1.14 event table
            # signs `+` (jumbo data; specs/ovni-events-1.14.md).
            if int.from_bytes(bytes(payload[:4]), "little") == len(payload) - 4 \
                    and (len(payload) > 16 or f[1] in JUMBO_MCVS) and len(payload) > 4:
                payload = payload[4:]
            streams.setdefault(f[2], []).append({"kind": "event", "mcv": f[1], "clock": int(f[0]),
                                                 "payload": payload})
        return {"adapter_kinds": ["event"],
                "files": [{"name": s + ("/stream.obs" if not s.endswith(".obs") else ""), "items": items}
                          for s, items in sorted(streams.items())]}


class Dumpi2Ascii(ExecReader):
    name, family = "dumpi2ascii", "dumpi"
    how = "dumpi2ascii -H -S -F FILE.bin (libundumpi: header, every record, footer), on each rank file"
    adapter = "every record of each rank file, in order: function, thread, wall and CPU start and stop"
    # libundumpi's own stops: a message of its own on stderr, then abort().
    refusal_abort = r"^(?!.*Assertion)(?!.*assert).*\S"

    def __init__(self, d):
        super().__init__(d)
        self.bin = os.path.join(d, "dumpi", "bin", "dumpi2ascii")
        if not os.access(self.bin, os.X_OK):
            self.missing = "no %s" % self.bin
            return
        cfg = _read(os.path.join(d, "src", "sst-dumpi", "config.log"))
        m = re.search(r"sst-dumpi configure ([0-9][^\s]*)", cfg) or re.search(r"PACKAGE_VERSION='([^']+)'", cfg)
        self.version = "sst-dumpi %s" % (m.group(1) if m else "unknown")
        commit = _read(os.path.join(d, "dumpi.commit")).strip()
        if commit:
            self.version += " (%s)" % commit[:12]

    def one(self, c, timeout, content):
        files = sorted(glob.glob(os.path.join(c.input, "*.bin"))) if os.path.isdir(c.input) else [c.input]
        if not files:
            return {"outcome": "refused", "message": "no .bin file in the trace"}
        docs = []
        worst = None
        for f in files:
            rc, out, err = execute([self.bin, "-H", "-S", "-F", f], timeout)
            outcome, msg = native_outcome(rc, err, timeout, self.refusal_abort)
            rank = {"outcome": outcome, "message": ("%s: %s" % (os.path.basename(f), msg)) if len(files) > 1 and msg else msg}
            if worst is None or RANK[outcome] > RANK[worst["outcome"]]:
                worst = rank
            if outcome == "accepted" and content:
                docs.append({"name": f, "items": self.decode(out)})
        if worst["outcome"] == "accepted" and content:
            worst["content"] = {"adapter_kinds": ["record"], "files": docs}
        return worst

    @staticmethod
    def decode(out):
        recs = []
        pat = re.compile(r"^(\w+) (entering|returning) at walltime (-?\d+)\.(\d+), cputime (-?\d+)\.(\d+) "
                         r"seconds in thread (\d+)\.$")
        cur = None
        for line in out.decode(errors="replace").splitlines():
            m = pat.match(line)
            if not m:
                continue
            fn, what, ws, wn, cs, cn, th = m.groups()
            wall = "%s.%s" % (ws, wn)
            cpu = "%s.%s" % (cs, cn)
            if what == "entering":
                cur = {"kind": "record", "function": fn, "thread": int(th),
                       "wall": {"start": wall}, "cpu": {"start": cpu}}
                recs.append(cur)
            elif cur is not None and cur["function"] == fn:
                cur["wall"]["stop"] = wall
                cur["cpu"]["stop"] = cpu
                cur = None
        return recs


RANK = {"accepted": 0, "refused": 1, "misread": 2, "hang": 3, "crash": 4}


class Hpcvet(ExecReader):
    """hpcvet itself, on the case as it is (a single file stays single)."""
    how = "hpcvet -q CASE: exit 0 conforming, 1 nonconforming"

    def __init__(self, hpcvet, family):
        super().__init__(None)
        self.name, self.family, self.bin = "hpcvet", family, hpcvet
        v = subprocess.run([hpcvet, "--version"], capture_output=True, text=True).stdout.split()
        self.version = " ".join(v[:2]) if v else "hpcvet"

    def one(self, c, timeout, content):
        rc, out, err = execute([self.bin, "-q", c.path], timeout)
        if rc == 1:
            return {"outcome": "refused", "message": last_line(out, r"nonconforming")
                    .replace(os.path.dirname(c.path) + "/", "")}
        return dict(zip(("outcome", "message"), native_outcome(rc, err, timeout, None)))


def all_readers(readers_dir, build):
    return [Viewer(readers_dir, build), Hatchet(readers_dir), Pipit(readers_dir),
            OvniEmu(readers_dir), OvniDump(readers_dir), Dumpi2Ascii(readers_dir)]
