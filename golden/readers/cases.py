"""The reader matrix's cases: every case of the conformance corpus (golden/cases,
MANIFEST.json) and every real sample (../shared/real-samples), each with its
family, its kind (y, n, i; a real sample is y when hpcvet finds it conforming and n
when it does not, as real-samples/README.md lists the ones the reference refuses),
its reproducer, and the input a reader of a whole database or trace is given.

A single-file case (a lone meta.db, stream.obs, ...) is no input for a reader that
opens a whole database or trace, so it is put into one: the database hpcvet-gen
writes with the same arguments (its four .db files are byte for byte what the
single-file writers give), or for a lone ovni stream its other half from hpcvet-gen
(stream.json beside stream.obs, or the reverse) in a one-thread v3 trace."""
import json
import os
import shlex
import shutil
import subprocess

FAMILIES = ("hpctoolkit", "ovni", "dumpi")
HPCTK_FILE = {"metadb": "meta.db", "profiledb": "profile.db", "cctdb": "cct.db", "tracedb": "trace.db"}
OVNI_FILE = {"ovni-stream": "stream.obs", "ovni-json": "stream.json"}
OVNI_OTHER = {"ovni-stream": "ovni-json", "ovni-json": "ovni-stream"}
# The one thread of a trace made around a lone stream: the pid and tid hpcvet-gen's
# stream.json names.
OVNI_THREAD = "loom.node0.ovni/proc.4242/thread.4242"


class Case:
    def __init__(self, cid, family, kind, path, reproducer, content=None, rules=(), source="corpus",
                 what=None, gen_args=(), patches=(), clauses=()):
        self.id = cid                # corpus path ("hpctoolkit/y_...d") or "real/<family>/<name>"
        self.family = family
        self.kind = kind             # y, n or i
        self.path = path             # absolute path of the case itself
        self.reproducer = reproducer
        self.content = content       # absolute path of its content file (y_ corpus cases)
        self.rules = list(rules)
        self.source = source         # corpus or real
        self.what = what             # hpcvet-gen --what of a corpus case
        self.gen_args = list(gen_args)
        self.patches = list(patches)
        self.clauses = list(clauses)       # the spec clauses its rules cite
        self.input = path            # what a whole-database/trace reader is given
        self.embedded = None         # for a single-file case: the member it is
        self.input_verdict = None    # hpcvet's verdict on that made-up whole


def _reproducer(made):
    cmd = made["generator"]
    for p in made.get("patches", []):
        cmd += " && patch %s at %d: %s -> %s" % (p["file"], p["offset"], p["old"], p["new"])
    return cmd


def corpus_cases(cases_dir):
    with open(os.path.join(cases_dir, "MANIFEST.json")) as f:
        manifest = json.load(f)
    out = []
    for c in manifest["cases"]:
        if c["family"] not in FAMILIES:
            continue
        argv = shlex.split(c["made"]["generator"])
        what = next((a.split("=", 1)[1] for a in argv if a.startswith("--what=")), None)
        args = [a for a in argv[1:] if not a.startswith(("--what=", "--break=")) and a != "-o"]
        if "-o" in argv:
            args.remove(argv[argv.index("-o") + 1])
        out.append(Case(c["path"], c["family"], c["kind"], os.path.join(cases_dir, c["path"]),
                        _reproducer(c["made"]),
                        content=os.path.join(cases_dir, c["content"]) if c.get("content") else None,
                        rules=c.get("rules", ()), what=what, gen_args=args,
                        patches=c["made"].get("patches", []), clauses=c.get("clauses", ())))
    return out


def real_cases(real_dir, hpcvet):
    """Every real sample of a family (each folder of real-samples/FAMILY), with the
    verdict hpcvet gives it."""
    out = []
    for fam in FAMILIES:
        d = os.path.join(real_dir, fam)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if not os.path.isdir(p):
                continue
            rc = subprocess.run([hpcvet, "-q", p], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            out.append(Case("real/%s/%s" % (fam, name), fam, "y" if rc == 0 else "n", p,
                            "real sample: real-samples/%s/%s" % (fam, name), source="real"))
    return out


def _gen(gen, args, out):
    subprocess.run([gen] + args + ["-o", out], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def prepare_inputs(cases, gen, scratch):
    """Give each single-file case of HPCToolkit and ovni a whole database or trace
    to be read as, under scratch (the other parts made by hpcvet-gen)."""
    bases = {}
    for c in cases:
        if c.source != "corpus" or os.path.isdir(c.path):
            continue
        if c.family == "hpctoolkit" and c.what in HPCTK_FILE:
            key = ("hpctoolkit-db",) + tuple(c.gen_args)
            if key not in bases:
                bases[key] = os.path.join(scratch, "base%d.d" % len(bases))
                _gen(gen, ["--what=hpctoolkit-db"] + c.gen_args, bases[key])
            member = HPCTK_FILE[c.what]
            base_cmd = "hpcvet-gen --what=hpctoolkit-db %s-o db.d" % "".join(a + " " for a in c.gen_args)
        elif c.family == "ovni" and c.what in OVNI_FILE:
            other = OVNI_OTHER[c.what]
            key = (other,) + tuple(c.gen_args)
            if key not in bases:
                bases[key] = os.path.join(scratch, "base%d" % len(bases))
                _gen(gen, ["--what=" + other] + c.gen_args, bases[key])
            member = OVNI_THREAD + "/" + OVNI_FILE[c.what]
            base_cmd = "hpcvet-gen --what=%s %s-o t.d/%s/%s" % (other, "".join(a + " " for a in c.gen_args),
                                                                  OVNI_THREAD, OVNI_FILE[other])
        else:
            continue
        d = os.path.join(scratch, "in", c.id + ".d")
        if c.family == "hpctoolkit":
            shutil.copytree(bases[key], d)
        else:
            t = os.path.join(d, OVNI_THREAD)
            os.makedirs(t)
            shutil.copy(bases[key], os.path.join(t, OVNI_FILE[OVNI_OTHER[c.what]]))
        shutil.copy(c.path, os.path.join(d, member))
        c.input = d
        c.embedded = member
        c.reproducer += "; read as %s of %s" % (member, base_cmd)
    return cases


def judge_inputs(cases, hpcvet):
    """hpcvet's verdict on each made-up database or trace a single-file case is read
    in: a conforming case read inside a nonconforming whole (its file and the other
    files hpcvet-gen writes disagree) says nothing about the case."""
    for c in cases:
        if c.embedded is not None:
            rc = subprocess.run([hpcvet, "-q", c.input], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            c.input_verdict = "conforming" if rc == 0 else "nonconforming"
