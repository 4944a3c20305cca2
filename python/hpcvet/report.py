"""Report: the result of validating one or more inputs.

What the C reports hold is copied into Python objects when the report is
made (at most ``max_diagnostics`` diagnostics per input), so reading a
report never touches C memory. The C reports are kept only for the
library's own renderings (:meth:`Report.to_json`, :meth:`Report.to_text`)
and freed by :meth:`Report.close`, by leaving a ``with`` block, or when the
report is collected.
"""

from __future__ import annotations

import ctypes
import threading
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _lib
from ._types import Diagnostic, InputResult, Severity, Verdict
from .errors import ReportClosedError, ValidationError


def _text(raw: Optional[bytes]) -> str:
    """A C string as str: input bytes that are not UTF-8 become \\xNN."""
    return raw.decode("utf-8", "backslashreplace") if raw else ""


def _read_input(handle: int) -> InputResult:
    L = _lib.LIB
    path = ""
    diags: List[Diagnostic] = []
    d = _lib.CDiagnostic()
    n = L.hpcvet_report_diagnostic_count(handle)
    for i in range(n):
        if L.hpcvet_report_diagnostic(handle, i, ctypes.byref(d)) != 0:
            break
        diags.append(
            Diagnostic(
                rule=_text(d.rule_id),
                severity=Severity(d.severity),
                file=_text(d.file),
                offset=d.offset,
                length=d.length,
                path=_text(d.struct_path),
                message=_text(d.message),
            )
        )
    problem = _text(L.hpcvet_report_problem(handle))
    verdict = Verdict(L.hpcvet_report_verdict(handle))
    return InputResult(
        path=path,
        format=_text(L.hpcvet_report_format(handle)),
        edition=_text(L.hpcvet_report_edition(handle)) or None,
        version=_text(L.hpcvet_report_format_version(handle)) or None,
        verdict=verdict,
        problem=problem or None,
        errors=L.hpcvet_report_count(handle, Severity.ERROR),
        warnings=L.hpcvet_report_count(handle, Severity.WARNING),
        notes=L.hpcvet_report_count(handle, Severity.NOTE),
        suppressed=L.hpcvet_report_suppressed(handle),
        rules_checked=L.hpcvet_report_rules_checked(handle),
        diagnostics=tuple(diags),
    )


class Report:
    """The verdict and diagnostics for one or more inputs.

    Iterating a report gives its :class:`Diagnostic` objects, input by input
    in the order found. :attr:`verdict` is the worst of the inputs' verdicts,
    as the CLI's exit code is. A report is a context manager; after
    :meth:`close` every use raises :class:`ReportClosedError`.
    """

    def __init__(self, handles: Sequence[int], paths: Sequence[str], strict: bool) -> None:
        # made by validate() and validate_bytes(); handles are hpcvet_report pointers
        self._handles: Optional[List[int]] = list(handles)
        self._lock = threading.Lock()
        self._strict = strict
        inputs = []
        for h, p in zip(handles, paths):
            r = _read_input(h)
            diags = tuple(d._replace(input=p) for d in r.diagnostics)
            inputs.append(r._replace(path=p, diagnostics=diags))
        self._inputs: Tuple[InputResult, ...] = tuple(inputs)

    # ---- lifetime ----
    def close(self) -> None:
        """Free the C reports now (also done when the report is collected)."""
        with self._lock:
            handles, self._handles = self._handles, None
        for h in handles or ():
            _lib.LIB.hpcvet_report_free(h)

    @property
    def closed(self) -> bool:
        return self._handles is None

    def __enter__(self) -> "Report":
        self._check()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # a half-made report (an exception in __init__) has no handles yet
        if getattr(self, "_handles", None):
            try:
                self.close()
            except Exception:  # interpreter shutdown: the library may be gone first
                pass

    def _check(self) -> None:
        if self._handles is None:
            raise ReportClosedError("the report is closed")

    # ---- contents ----
    @property
    def inputs(self) -> Tuple[InputResult, ...]:
        """One :class:`InputResult` per input, in the order given."""
        self._check()
        return self._inputs

    @property
    def paths(self) -> List[str]:
        return [i.path for i in self.inputs]

    @property
    def strict(self) -> bool:
        """Whether warnings made inputs nonconforming."""
        return self._strict

    @property
    def verdict(self) -> Verdict:
        """The worst verdict of the inputs (the CLI's exit code)."""
        return max((i.verdict for i in self.inputs), default=Verdict.CONFORMING)

    @property
    def ok(self) -> bool:
        """True when every input is conforming."""
        return self.verdict is Verdict.CONFORMING

    @property
    def errors(self) -> int:
        """Errors over all inputs, including those not stored."""
        return sum(i.errors for i in self.inputs)

    @property
    def warnings(self) -> int:
        return sum(i.warnings for i in self.inputs)

    @property
    def notes(self) -> int:
        return sum(i.notes for i in self.inputs)

    @property
    def suppressed(self) -> int:
        """Diagnostics counted but not stored (over max_diagnostics)."""
        return sum(i.suppressed for i in self.inputs)

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        return tuple(d for i in self.inputs for d in i.diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.diagnostics)

    def raise_for_errors(self) -> "Report":
        """Raise :class:`ValidationError` (carrying this report) unless every
        input is conforming; return the report otherwise."""
        if not self.ok:
            raise ValidationError(self)
        return self

    # ---- renderings ----
    def _render(self, fn: str, *extra: int) -> str:
        with self._lock:
            self._check()
            assert self._handles is not None
            arr = (ctypes.c_void_p * len(self._handles))(*self._handles)
            text = _lib.take_string(getattr(_lib.LIB, fn)(arr, len(self._handles), *extra))
        if text is None:
            raise MemoryError(f"{fn} failed")
        return text

    def to_json(self) -> str:
        """The report as ``hpcvet --format=json`` prints it for the same inputs."""
        return self._render("hpcvet_reports_json")

    def to_text(self, quiet: bool = False) -> str:
        """The report as ``hpcvet --color=never --no-context`` (``-q``) prints it."""
        return self._render("hpcvet_reports_text", 1 if quiet else 0)

    def to_dict(self) -> Dict[str, Any]:
        """:meth:`to_json`, parsed."""
        import json

        return json.loads(self.to_json())

    def to_dataframe(self):
        """A pandas DataFrame, one row per diagnostic (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError("Report.to_dataframe needs pandas (Debian: python3-pandas)") from exc
        cols = ["input", "rule", "severity", "file", "offset", "length", "path", "message"]
        rows = [[d.input, d.rule, str(d.severity), d.file, d.offset, d.length, d.path, d.message] for d in self]
        df = pd.DataFrame(rows, columns=cols)
        df["severity"] = pd.Categorical(df["severity"], categories=["note", "warning", "error"], ordered=True)
        return df.astype({"offset": "uint64", "length": "uint64"})

    def __repr__(self) -> str:
        if self.closed:
            return "<hpcvet.Report closed>"
        return (
            f"<hpcvet.Report {self.verdict} inputs={len(self._inputs)} errors={self.errors} "
            f"warnings={self.warnings} notes={self.notes}>"
        )

    def to_html(self) -> str:
        """The report as ``hpcvet --format=html`` shows it (one self-contained
        page: filters, the pictures of where the findings are), made by the
        same writer, without each finding's bytes."""
        return self._render("hpcvet_reports_html")

    def _repr_html_(self) -> str:
        """For notebooks: the HTML report (:meth:`to_html`) in a frame of its
        own, so that its style and script stay apart from the notebook's."""
        if self.closed:
            return "<p><b>hpcvet report</b>: closed</p>"
        import html

        return ("<iframe class='hpcvet-report' style='width:100%;height:36em;border:1px solid #ccc' "
                f"title='hpcvet report' srcdoc=\"{html.escape(self.to_html(), quote=True)}\"></iframe>")
