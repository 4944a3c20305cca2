"""Certificates: certify() and verify_certificate() (``hpcvet certify``).

A certificate binds a verdict to the bytes (each file's size and SHA-256)
and to the rule table; the library computes the digests with libcrypto,
as the CLI does.
"""

from __future__ import annotations

import ctypes
import json
from collections import namedtuple

from . import _lib, options
from ._types import Verdict
from ._validate import _paths

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    import os
    from typing import Any, Dict, Iterable, Optional, Union

    from ._validate import PathArg


class Certificate(namedtuple("Certificate", "text verdict")):
    """A JSON certificate: ``text`` is what ``hpcvet certify --format=json``
    prints, ``verdict`` the worst verdict of the inputs."""

    __slots__ = ()

    @property
    def data(self) -> Dict[str, Any]:
        return json.loads(self.text)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)


class Verification(namedtuple("Verification", "status document problem")):
    """Whether a certificate still holds. ``status`` is the CLI's exit code
    (0 holds, 1 does not, 2 usage, 3 unreadable, 4 internal error),
    ``document`` the JSON verification (None when none was made) and
    ``problem`` what the CLI prints on stderr."""

    __slots__ = ()

    @property
    def holds(self) -> bool:
        return self.status == 0


def certify(path_or_paths: Union[PathArg, Iterable[PathArg]], *, strict: bool = False, jobs: int = 1,
            edition: options.EditionArg = None, ovni_all_models: bool = False, mpi: options.MpiArg = None,
            mpi_replay: bool = False) -> Certificate:
    """Validate and certify the inputs (options as :func:`hpcvet.validate`)."""
    raw, _ = _paths(path_or_paths)
    opt = options.make(strict=strict, jobs=jobs, edition=edition, ovni_all_models=ovni_all_models, mpi=mpi,
                       mpi_replay=mpi_replay)
    arr = (ctypes.c_char_p * len(raw))(*raw)
    status = ctypes.c_int(4)
    text = _lib.take_string(_lib.LIB.hpcvet_certify_json(arr, len(raw), ctypes.byref(opt), ctypes.byref(status)))
    if text is None:
        raise MemoryError("hpcvet_certify_json failed")
    return Certificate(text, Verdict(status.value))


def verify_certificate(certificate: PathArg, path: Optional[PathArg] = None, *, base: Optional[PathArg] = None,
                       jobs: int = 1, edition: options.EditionArg = None) -> Verification:
    """Verify the JSON certificate file against ``path`` (None: each
    certified input at its recorded path, a relative one found under
    ``base``, else the current folder, else the certificate's folder)."""
    cert = options.fspath_bytes(certificate, "certificate")
    p = options.fspath_bytes(path) if path is not None else None
    b = options.fspath_bytes(base, "base") if base is not None else None
    opt = options.make(jobs=jobs, edition=edition)
    doc, problem = ctypes.c_void_p(), ctypes.c_void_p()
    status = _lib.LIB.hpcvet_certificate_verify(cert, p, b, ctypes.byref(opt), ctypes.byref(doc),
                                                ctypes.byref(problem))
    text = _lib.take_string(doc.value)
    why = _lib.take_string(problem.value) or ""
    return Verification(status, json.loads(text) if text else None, why)
