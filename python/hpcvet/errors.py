"""The exceptions hpcvet raises."""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:  # pragma: no cover
    from .report import Report


class HpcvetError(Exception):
    """Base class of every hpcvet exception."""


class LibraryNotFoundError(HpcvetError, ImportError):
    """libhpcvet.so.0 could not be found or is too old; the message names
    every place tried."""


class ReportClosedError(HpcvetError, ValueError):
    """A report was used after :meth:`Report.close`."""


class ValidationError(HpcvetError):
    """Raised by :meth:`Report.raise_for_errors` when an input is not
    conforming; :attr:`report` is the report."""

    def __init__(self, report: "Report") -> None:
        self.report = report
        worst = report.verdict
        counts = f"{report.errors} errors, {report.warnings} warnings"
        super().__init__(f"{', '.join(report.paths)}: {worst.name.lower().replace('_', '-')} ({counts})")
