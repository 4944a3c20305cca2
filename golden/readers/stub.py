"""Stub readers for the matrix's own test (tests/reader_matrix.test.sh): each does,
per case, what a plan says, so every outcome class is shown to be detected
without the real readers.

A plan is "REGEX=BEHAVIOUR,REGEX=BEHAVIOUR,...", the first REGEX that matches the
case's input path deciding (else accept). Behaviours:
  accept      load it
  refuse      the reader raises its own error (exits 1 in the native stub)
  raise       an exception the reader did not mean (an IndexError)
  segv        killed by SIGSEGV
  abort-msg   the native stub's own message ("FATAL: ...") and abort(): a refusal
  abort       abort() without a message of its own: a crash
  hang        a busy loop
  misread     load it, but decode one value wrong (the content file's first event
              clock, plus one)
Two stubs run: stub-batch (the batch protocol, batch.py, as hatchet's driver) and
stub-exec (a native reader: a shell script run per case), both of family ovni;
with a plan "java:PLAN", stub-viewer (hpcviewer's Java driver, StubViewer below)."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import readers as R  # noqa: E402


class StubBatch(R.BatchReader):
    name, family = "stub-batch", "ovni"
    how = "golden/readers/stub_reader.py, the batch protocol"
    adapter = "the first event of each stream, as the plan says"

    def __init__(self, plan):
        super().__init__(None)
        self.plan = plan

    def command(self):
        return [sys.executable, os.path.join(HERE, "stub_reader.py"), self.plan]


class StubExec(R.ExecReader):
    name, family = "stub-exec", "ovni"
    how = "a shell script per case"
    refusal_abort = r"FATAL: "

    def __init__(self, plan):
        super().__init__(None)
        self.plan = plan
        self.version = "stub-exec 1"

    def one(self, c, timeout, content):
        b = behaviour(self.plan, c.input)
        script = {"accept": "exit 0", "refuse": "echo 'stub: bad input' >&2; exit 1",
                  "raise": "exit 3", "segv": "kill -SEGV $$", "abort-msg": "echo 'stub: FATAL: bad' >&2; kill -ABRT $$",
                  "abort": "kill -ABRT $$", "hang": "while :; do :; done", "misread": "exit 0"}[b]
        rc, out, err = R.execute(["sh", "-c", script], timeout)
        outcome, msg = R.native_outcome(rc, err, timeout, self.refusal_abort)
        if rc == 3:
            outcome, msg = "refused", "exit 3"
        return {"outcome": outcome, "message": msg}


class StubViewer(R.Viewer):
    """hpcviewer's batch driver (ViewerBatch.java, unchanged) over stand-ins of the
    hpcdata classes it calls (stub_hpcdata/): their open() does what the plan says
    (behaviours of their own: io, an IOException; index, an index out of bounds;
    stack, a StackOverflowError; die, the JVM halted), so the Java side's
    classification is tried without hpcviewer. Family hpctoolkit, as the adapter's
    root values need a profile.db."""
    name = "stub-viewer"
    how = "ViewerBatch.java over golden/readers/stub_hpcdata"

    def __init__(self, plan, build):
        R.Reader.__init__(self, None)
        self.plan = plan
        self.build = os.path.join(build, "readers-stub")
        self.cp = os.path.join(self.build, "hpcdata")
        self.jar_version = "stub"
        if not shutil.which("javac") or not shutil.which("java"):
            self.missing = "no javac"

    def _compile(self):
        import glob
        import subprocess
        src = sorted(glob.glob(os.path.join(HERE, "stub_hpcdata", "**", "*.java"), recursive=True))
        os.makedirs(self.cp, exist_ok=True)
        subprocess.run(["javac"] + R.JAVAC_JVM + ["-nowarn", "-d", self.cp] + src, check=True)
        super()._compile()

    def env(self):
        return dict(os.environ, HV_STUB_PLAN=self.plan)


class Missing(R.Reader):
    name, family = "stub-missing", "ovni"
    how = "never installed"

    def __init__(self):
        super().__init__(None)
        self.missing = "no stub-missing here"


def behaviour(plan, path):
    import re
    for part in plan.split(","):
        if "=" in part:
            pat, b = part.rsplit("=", 1)
            if re.search(pat, path):
                return b
    return "accept"


def readers(plan, build):
    """PLAN for the Python and native stubs (family ovni); "java:PLAN" for the
    Java one alone (family hpctoolkit)."""
    if plan.startswith("java:"):
        return [StubViewer(plan[5:], build)]
    return [StubBatch(plan), StubExec(plan), Missing()]
