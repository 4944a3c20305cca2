"""Enumerations and records of the API (the C API's, in Python's shape)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional, Tuple


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


@dataclass(frozen=True)
class Diagnostic:
    """One finding: which rule, where (file, byte offset and length, the
    structural path) and what was found. ``input`` is the path of the input
    it belongs to (a database folder, a trace)."""

    rule: str
    severity: Severity
    file: str
    offset: int
    length: int
    path: str
    message: str
    input: str = ""

    def __str__(self) -> str:
        # as the CLI's text report: no byte position for a finding about a
        # file as a whole (offset and length 0)
        at = f":{self.offset:#x}" if self.offset or self.length else ""
        return f"{self.file}{at}: {self.severity}[{self.rule}]: {self.message}"


@dataclass(frozen=True)
class InputResult:
    """The result for one input of a :class:`~hpcvet.Report`."""

    path: str
    format: str
    edition: Optional[str]
    version: Optional[str]
    verdict: Verdict
    problem: Optional[str]
    errors: int
    warnings: int
    notes: int
    suppressed: int
    rules_checked: int
    diagnostics: Tuple[Diagnostic, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.CONFORMING


@dataclass(frozen=True)
class Rule:
    """A rule of the catalogue (``hpcvet rules``)."""

    id: str
    severity: Severity
    format: str
    clause: str
    summary: str
    detail: str
