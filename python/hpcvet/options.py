"""Keyword arguments to hpcvet_options, checked: a wrong type or value is a
TypeError or ValueError here, never a guess in C."""

from __future__ import annotations

import ctypes
import os

from . import _lib
from ._types import Edition, Mpi

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Optional, Union

    EditionArg = Union[None, str, Edition]
    MpiArg = Union[None, str, Mpi]
MAX_JOBS = 1024


def _enum(value, enum_type, what: str):
    if value is None:
        return enum_type(0)
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        try:
            return enum_type[value.upper()]
        except KeyError:
            names = ", ".join(m.name.lower() for m in enum_type)
            raise ValueError(f"{what}={value!r}: one of {names}") from None
    raise TypeError(f"{what} must be a str, {enum_type.__name__} or None, not {type(value).__name__}")


def check_flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be True or False, not {type(value).__name__}")
    return value


def check_count(value, what: str, lo: int, hi: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < lo or (hi is not None and value > hi):
        raise ValueError(f"{what}={value}: from {lo}" + (f" to {hi}" if hi is not None else " up"))
    return value


def make(
    *,
    strict: bool = False,
    jobs: int = 1,
    edition: EditionArg = None,
    max_diagnostics: int = 100,
    ovni_all_models: bool = False,
    mpi: MpiArg = None,
    mpi_replay: bool = False,
) -> _lib.Options:
    """hpcvet_options from keyword arguments (the CLI's options)."""
    o = _lib.Options()
    _lib.LIB.hpcvet_options_init(ctypes.byref(o))
    o.strict = int(check_flag(strict, "strict"))
    o.jobs = check_count(jobs, "jobs", 1, MAX_JOBS)
    o.edition = int(_enum(edition, Edition, "edition"))
    o.max_diagnostics = check_count(max_diagnostics, "max_diagnostics", 0)
    o.ovni_all_models = int(check_flag(ovni_all_models, "ovni_all_models"))
    o.mpi = int(_enum(mpi, Mpi, "mpi"))
    o.mpi_replay = int(check_flag(mpi_replay, "mpi_replay"))
    return o


def fspath_bytes(path, what: str = "path") -> bytes:
    """A str, bytes or os.PathLike path as the bytes C receives."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{what} must be a str, bytes or os.PathLike, not {type(path).__name__}")
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise ValueError(f"{what} holds a NUL character: {path!r}")
    if not raw:
        raise ValueError(f"{what} is empty")
    return raw
