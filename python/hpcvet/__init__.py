"""hpcvet: validate HPCToolkit databases, ovni traces and SST DUMPI traces
from Python, through the hpcvet C library (libhpcvet.so.0).

    >>> import hpcvet
    >>> report = hpcvet.validate("hpctoolkit-app-database")
    >>> report.ok, report.verdict, report.errors
    >>> for d in report: print(d.rule, d.file, hex(d.offset), d.message)
    >>> report.raise_for_errors()          # ValidationError unless conforming

The library is found through HPCVET_LIBRARY, the checkout's build tree, the
install prefix, or the dynamic loader (see hpcvet._lib).
"""

from ._lib import LIB_PATH as library_path
from ._lib import LIB_VERSION as library_version
from ._types import Diagnostic, Edition, InputResult, Mpi, Rule, Severity, Verdict
from .errors import HpcvetError, LibraryNotFoundError, ReportClosedError, ValidationError
from .report import Report
from ._rules import explain, rule, rules
from ._validate import validate, validate_bytes

__version__ = "0.1.0"

# Certificates and the dump are imported on first use (PEP 562): a script
# that only validates does not pay for json and their modules at start-up.
_LAZY = {
    "Certificate": "_certify",
    "Verification": "_certify",
    "certify": "_certify",
    "verify_certificate": "_certify",
    "dump": "_dump",
    "dump_text": "_dump",
    "iter_dump": "_dump",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'hpcvet' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "Certificate",
    "Diagnostic",
    "Edition",
    "HpcvetError",
    "InputResult",
    "LibraryNotFoundError",
    "Mpi",
    "Report",
    "ReportClosedError",
    "Rule",
    "Severity",
    "ValidationError",
    "Verdict",
    "Verification",
    "_certify",
    "_dump",
    "dump_text",
    "explain",
    "iter_dump",
    "library_path",
    "library_version",
    "rule",
    "rules",
    "validate",
    "validate_bytes",
    "verify_certificate",
]
