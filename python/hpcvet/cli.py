"""``python3 -m hpcvet``: the hpcvet program's command line over the Python
API, with the program's exit codes (0 conforming, 1 nonconforming, 2 usage
error, 3 input unreadable, 4 internal error; the highest input wins).

The text report is the program's with colour and the hex context off
(``--color=never --no-context``). SARIF, JUnit, GitHub and HTML reports,
``--max-per-rule`` and the text certificate are the program's alone."""

from __future__ import annotations

import json
import os
import sys
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import List, Optional, Sequence

from . import _lib
from ._certify import certify, verify_certificate
from ._dump import DEFAULT_MAX_ITEMS, dump_text, _run
from .options import make
from ._rules import explain, rules
from ._validate import validate

USAGE = """usage: python3 -m hpcvet [OPTIONS] PATH...
       python3 -m hpcvet rules [--format=text|json]
       python3 -m hpcvet explain RULE-ID
       python3 -m hpcvet certify [OPTIONS] PATH...   (a JSON certificate)
       python3 -m hpcvet certify --verify CERT.json [--base=DIR] [PATH]
       python3 -m hpcvet dump [--format=text|json] [--select=...] [--max-items=N] PATH

Validate HPCToolkit databases, ovni traces and SST DUMPI traces through
libhpcvet, as the hpcvet program does.

  --format=text|json       report format (default text)
  --edition=auto|draft|release
  --strict                 warnings make the exit code 1
  --ovni-all-models        every ovni model enabled
  --mpi=auto|mpich|openmpi the MPI library of a DUMPI-traced program
  --mpi-replay             DUMPI: the trace must be replayable
  --max-diagnostics=N      diagnostics kept per input (default 100)
  -j N, --jobs=N           threads (default: the number of cores)
  -q, --quiet              summary lines only
  -h, --help               this text
  --version                the package's and the library's versions

exit: 0 conforming, 1 nonconforming, 2 usage error, 3 input unreadable,
      4 internal error; with several inputs the highest wins.
"""

EXIT_USAGE = 2
PROGRAM_ONLY = ("--format=sarif", "--format=junit", "--format=github", "--format=html", "--github-notes", "--color", "--context",
                "--no-context", "--max-per-rule")


class Usage(Exception):
    pass


def _count(text: str, what: str, lo: int = 0, hi: Optional[int] = None) -> int:
    if not text.isdigit() or int(text) < lo or (hi is not None and int(text) > hi):
        raise Usage(f"{what}: takes a whole number" + (f" from {lo} to {hi}" if hi else ""))
    return int(text)


def _parse(args: Sequence[str], certify_mode: bool):
    o = {"fmt": "text", "quiet": False, "paths": [], "verify": None, "base": None,
         "kw": {"jobs": min(os.cpu_count() or 1, 1024)}}
    kw = o["kw"]
    rest = False
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if rest or not a.startswith("-") or a == "-":
            o["paths"].append(a)
        elif a == "--":
            rest = True
        elif a in ("--format=text", "--format=json"):
            o["fmt"] = a.split("=", 1)[1]
        elif a.startswith("--edition=") and a[10:] in ("auto", "draft", "release"):
            kw["edition"] = a[10:]
        elif a == "--strict":
            kw["strict"] = True
        elif a == "--ovni-all-models":
            kw["ovni_all_models"] = True
        elif a.startswith("--mpi=") and a[6:] in ("auto", "mpich", "openmpi"):
            kw["mpi"] = a[6:]
        elif a == "--mpi-replay":
            kw["mpi_replay"] = True
        elif a.startswith("--max-diagnostics="):
            kw["max_diagnostics"] = _count(a[18:], a)
        elif a.startswith("--jobs="):
            kw["jobs"] = _count(a[7:], a, 1, 1024)
        elif a == "-j" and i < len(args):
            kw["jobs"] = _count(args[i], "-j", 1, 1024)
            i += 1
        elif a.startswith("-j") and len(a) > 2:
            kw["jobs"] = _count(a[2:], a, 1, 1024)
        elif a in ("-q", "--quiet"):
            o["quiet"] = True
        elif certify_mode and a == "--verify" and i < len(args):
            o["verify"] = args[i]
            i += 1
        elif certify_mode and a.startswith("--verify=") and len(a) > 9:
            o["verify"] = a[9:]
        elif certify_mode and a.startswith("--base=") and len(a) > 7:
            o["base"] = a[7:]
        elif a in ("-h", "--help"):
            o["help"] = True
        elif a == "--version":
            o["version"] = True
        elif a.startswith(PROGRAM_ONLY):
            raise Usage(f"{a}: the hpcvet program's option only (run hpcvet {a} ...)")
        else:
            raise Usage(f"unknown option '{a}'")
    return o


def _validate(args: Sequence[str]) -> int:
    o = _parse(args, False)
    if o.get("help"):
        sys.stdout.write(USAGE)
        return 0
    if o.get("version"):
        from . import __version__

        print(f"hpcvet {_lib.LIB_VERSION} (Python package {__version__}, {_lib.LIB_PATH})")
        return 0
    if not o["paths"]:
        raise Usage("no PATH given")
    with validate(o["paths"], **o["kw"]) as report:
        sys.stdout.write(report.to_json() if o["fmt"] == "json" else report.to_text(quiet=o["quiet"]))
        return int(report.verdict)


def _rules(args: Sequence[str]) -> int:
    if args not in ([], ["--format=text"], ["--format=json"]):
        raise Usage("rules [--format=text|json]")
    if args == ["--format=json"]:
        out = [{"id": r.id, "severity": str(r.severity), "format": r.format, "clause": r.clause,
                "summary": r.summary, "detail": r.detail} for r in rules()]
        print(json.dumps({"tool": "hpcvet", "version": _lib.LIB_VERSION, "rules": out}, indent=1))
    else:
        for r in rules():
            print(f"{r.id:<44} {str(r.severity):<8} {r.summary}")
    return 0


def _explain(args: Sequence[str]) -> int:
    if len(args) != 1:
        raise Usage("explain RULE-ID")
    try:
        sys.stdout.write(explain(args[0]))
    except KeyError:
        print(f"hpcvet explain: no rule '{args[0]}' (see 'python3 -m hpcvet rules')", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _dump(args: Sequence[str]) -> int:
    fmt, select, max_items, path, kw = "text", None, DEFAULT_MAX_ITEMS, None, {}
    for a in args:
        if a in ("--format=text", "--format=json"):
            fmt = a[9:]
        elif a.startswith("--select="):
            select = a[9:]
        elif a.startswith("--max-items="):
            max_items = _count(a[12:], "--max-items")
        elif a.startswith("--edition=") and a[10:] in ("auto", "draft", "release"):
            kw["edition"] = a[10:]
        elif a == "--strict":
            kw["strict"] = True
        elif not a.startswith("-") and path is None:
            path = a
        else:
            raise Usage(f"dump: unknown option or extra path '{a}'")
    if path is None:
        raise Usage("dump [--format=text|json] [--select=...] [--max-items=N] PATH")
    try:
        if fmt == "text":
            text, verdict = dump_text(path, select=select, max_items=max_items, **kw)
            sys.stdout.write(text)
            return int(verdict)
        out = sys.stdout.buffer
        verdict = _run(path, select, max_items, True, make(**kw), lambda b: out.write(b) and False)
        out.flush()
        return verdict
    except ValueError as exc:
        raise Usage(f"dump: {exc}") from None


def _certify(args: Sequence[str]) -> int:
    o = _parse(args, True)
    if o["fmt"] != "json" and "--format=text" in args:
        raise Usage("certify: python3 -m hpcvet writes JSON certificates (the hpcvet program writes text ones)")
    kw = o["kw"]
    if o["verify"]:
        if len(o["paths"]) > 1:
            raise Usage("certify --verify CERT.json [PATH]: one PATH at most")
        v = verify_certificate(o["verify"], o["paths"][0] if o["paths"] else None, base=o["base"],
                               jobs=kw["jobs"], edition=kw.get("edition"))
        if v.document is not None:
            print(json.dumps(v.document, indent=1))
        sys.stderr.write(v.problem)
        return v.status
    if not o["paths"]:
        raise Usage("certify PATH...")
    cert = certify(o["paths"], **{k: v for k, v in kw.items() if k != "max_diagnostics"})
    sys.stdout.write(cert.text)
    return int(cert.verdict)


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    sub = {"rules": _rules, "explain": _explain, "dump": _dump, "certify": _certify}
    try:
        if args and args[0] in sub:
            return sub[args[0]](args[1:])
        return _validate(args)
    except Usage as exc:
        print(f"python3 -m hpcvet: {exc} (--help lists the options)", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
