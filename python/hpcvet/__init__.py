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
from .certify import Certificate, Verification, certify, verify_certificate
from .dump import dump, dump_text, iter_dump
from .errors import HpcvetError, LibraryNotFoundError, ReportClosedError, ValidationError
from .report import Report
from .rules import explain, rule, rules
from .validate import validate, validate_bytes

__version__ = "0.1.0"

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
    "certify",
    "dump",
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
