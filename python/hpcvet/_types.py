"""Enumerations and records of the API (the C API's, in Python's shape).

The records are named tuples: immutable, cheap to make by the hundred, and
cheap to import (dataclasses costs ~9 ms of start-up through inspect, a
tenth of the program's CPU time on a 100 MiB input)."""

from __future__ import annotations

import enum
from collections import namedtuple


class Severity(enum.IntEnum):
    """A diagnostic's severity (``hpcvet_severity``)."""

    NOTE = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


class Verdict(enum.IntEnum):
    """The verdict on an input; the values are the CLI's exit codes."""

    CONFORMING = 0
    NONCONFORMING = 1
    UNREADABLE = 3
    INTERNAL_ERROR = 4

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")


class Edition(enum.IntEnum):
    """The HPCToolkit v4.0 edition to check against (``--edition``)."""

    AUTO = 0
    DRAFT = 1
    RELEASE = 2


class Mpi(enum.IntEnum):
    """The MPI library that ran a DUMPI-traced program (``--mpi``)."""

    AUTO = 0
    MPICH = 1
    OPENMPI = 2


class Diagnostic(namedtuple("Diagnostic", "rule severity file offset length path message input", defaults=("",))):
    """One finding: which rule (``rule``, a stable ID), how bad
    (``severity``), where (``file``, byte ``offset`` and ``length``, the
    structural ``path``) and what was found (``message``). ``input`` is the
    path of the input it belongs to (a database folder, a trace). Strings
    are the library's, bytes that are not UTF-8 shown as \\xNN."""

    __slots__ = ()

    def __str__(self) -> str:
        # as the CLI's text report: no byte position for a finding about a
        # file as a whole (offset and length 0)
        at = f":{self.offset:#x}" if self.offset or self.length else ""
        return f"{self.file}{at}: {self.severity}[{self.rule}]: {self.message}"


class InputResult(
    namedtuple(
        "InputResult",
        "path format edition version verdict problem errors warnings notes suppressed rules_checked diagnostics",
        defaults=((),),
    )
):
    """The result for one input of a :class:`~hpcvet.Report`: the format
    recognised ("hpctoolkit database", ...; "unknown"), the HPCToolkit
    edition and format version (None when not applicable), the verdict, why
    it is unreadable (``problem``, else None), the counts (including
    diagnostics not stored), the rules evaluated and the stored
    :class:`Diagnostic` objects."""

    __slots__ = ()

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.CONFORMING


class Rule(namedtuple("Rule", "id severity format clause summary detail")):
    """A rule of the catalogue (``hpcvet rules``): its stable ID, default
    severity, the format it applies to, the specification clause, a
    one-line summary and the full explanation."""

    __slots__ = ()
