"""Finding and loading libhpcvet.so.0, and the C functions' signatures.

The library is looked for, in order:

1. ``HPCVET_LIBRARY``: a path to the library file, or to a folder holding
   ``libhpcvet.so.0``. When it is set nothing else is tried, so a wrong value
   is an error rather than a silent fallback to another copy.
2. The build tree, when the package is imported from a checkout
   (``python/hpcvet`` beside ``build/``): tests and notebooks in the
   repository use the library they were built with.
3. The folder ``make install`` recorded in ``_install.py`` (its LIBDIR).
4. The dynamic loader's own search (``LD_LIBRARY_PATH``, the ld.so cache),
   then ``lib/`` under ``sys.prefix`` and ``/usr/local``, then
   ``ctypes.util.find_library("hpcvet")``.

The first that loads and has every function this package calls is used; if
none does, :class:`LibraryNotFoundError` names each place tried and why it
was refused.
"""

from __future__ import annotations

import ctypes
import os
import sys
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import List, Optional, Tuple

from .errors import LibraryNotFoundError

SONAME = "libhpcvet.so.0"
#: The oldest library version whose API this package is written against.
MIN_VERSION = (0, 1, 0)
ENV_VAR = "HPCVET_LIBRARY"

c_size_p = ctypes.POINTER(ctypes.c_size_t)


class Options(ctypes.Structure):
    """``hpcvet_options`` (hpcvet.h), with the appended fields."""

    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("edition", ctypes.c_int),
        ("max_diagnostics", ctypes.c_size_t),
        ("strict", ctypes.c_int),
        ("jobs", ctypes.c_uint),
        ("ovni_all_models", ctypes.c_int),
        ("mpi", ctypes.c_int),
        ("mpi_replay", ctypes.c_int),
    ]


class CDiagnostic(ctypes.Structure):
    """``hpcvet_diagnostic``; the strings are raw bytes from the input."""

    _fields_ = [
        ("rule_id", ctypes.c_char_p),
        ("severity", ctypes.c_int),
        ("file", ctypes.c_char_p),
        ("offset", ctypes.c_uint64),
        ("length", ctypes.c_uint64),
        ("struct_path", ctypes.c_char_p),
        ("message", ctypes.c_char_p),
    ]


class CRuleInfo(ctypes.Structure):
    """``hpcvet_rule_info``."""

    _fields_ = [
        ("id", ctypes.c_char_p),
        ("severity", ctypes.c_int),
        ("format", ctypes.c_char_p),
        ("clause", ctypes.c_char_p),
        ("summary", ctypes.c_char_p),
        ("detail", ctypes.c_char_p),
    ]


#: hpcvet_write_fn: int (*)(void *ctx, const char *data, size_t len). The
#: data is taken as a plain pointer so no copy is made before the callback
#: reads it with ctypes.string_at.
WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)

_R = ctypes.c_void_p  # hpcvet_report *: kept opaque
_S = ctypes.c_void_p  # char * the library allocated: freed with hpcvet_string_free

# name: (restype, argtypes). Every function is declared, so a wrong Python
# argument is a ctypes.ArgumentError, never a guess at the C calling convention.
_SIGNATURES = {
    "hpcvet_version": (ctypes.c_char_p, []),
    "hpcvet_options_init": (None, [ctypes.POINTER(Options)]),
    "hpcvet_validate_buffer": (_R, [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(Options)]),
    "hpcvet_validate_buffers": (
        _R,
        [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(ctypes.c_void_p),
            c_size_p,
            ctypes.POINTER(Options),
        ],
    ),
    "hpcvet_validate_path": (_R, [ctypes.c_char_p, ctypes.POINTER(Options)]),
    "hpcvet_report_free": (None, [_R]),
    "hpcvet_report_verdict": (ctypes.c_int, [_R]),
    "hpcvet_verdict_name": (ctypes.c_char_p, [ctypes.c_int]),
    "hpcvet_report_format": (ctypes.c_char_p, [_R]),
    "hpcvet_report_edition": (ctypes.c_char_p, [_R]),
    "hpcvet_report_format_version": (ctypes.c_char_p, [_R]),
    "hpcvet_report_problem": (ctypes.c_char_p, [_R]),
    "hpcvet_report_count": (ctypes.c_uint64, [_R, ctypes.c_int]),
    "hpcvet_report_suppressed": (ctypes.c_uint64, [_R]),
    "hpcvet_report_rules_checked": (ctypes.c_size_t, [_R]),
    "hpcvet_report_diagnostic_count": (ctypes.c_size_t, [_R]),
    "hpcvet_report_diagnostic": (ctypes.c_int, [_R, ctypes.c_size_t, ctypes.POINTER(CDiagnostic)]),
    "hpcvet_rule_count": (ctypes.c_size_t, []),
    "hpcvet_rule_get": (ctypes.c_int, [ctypes.c_size_t, ctypes.POINTER(CRuleInfo)]),
    "hpcvet_rule_find": (ctypes.c_long, [ctypes.c_char_p]),
    "hpcvet_string_free": (None, [_S]),
    "hpcvet_reports_json": (_S, [ctypes.POINTER(_R), ctypes.c_size_t]),
    "hpcvet_reports_text": (_S, [ctypes.POINTER(_R), ctypes.c_size_t, ctypes.c_int]),
    "hpcvet_reports_html": (_S, [ctypes.POINTER(_R), ctypes.c_size_t]),
    "hpcvet_rule_explain": (_S, [ctypes.c_char_p]),
    "hpcvet_dump_path": (
        ctypes.c_int,
        [
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_uint64,
            ctypes.c_int,
            ctypes.POINTER(Options),
            WRITE_FN,
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_size_t,
        ],
    ),
    "hpcvet_certify_json": (
        _S,
        [ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, ctypes.POINTER(Options), ctypes.POINTER(ctypes.c_int)],
    ),
    "hpcvet_certificate_verify": (
        ctypes.c_int,
        [
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.POINTER(Options),
            ctypes.POINTER(_S),
            ctypes.POINTER(_S),
        ],
    ),
}


def _parse_version(text: str) -> Tuple[int, int, int]:
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a MAJOR.MINOR.PATCH version: {text!r}")
    return (int(parts[0]), int(parts[1]), int(parts[2]))


def _refusal(lib: ctypes.CDLL) -> Optional[str]:
    """Why a loaded library cannot serve this package, or None."""
    missing = [name for name in _SIGNATURES if not hasattr(lib, name)]
    if "hpcvet_version" in missing:
        return "not libhpcvet (no hpcvet_version)"
    lib.hpcvet_version.restype = ctypes.c_char_p
    lib.hpcvet_version.argtypes = []
    try:
        version = _parse_version(lib.hpcvet_version().decode("ascii", "replace"))
    except ValueError as exc:
        return str(exc)
    shown = ".".join(map(str, version))
    if version[0] != MIN_VERSION[0]:
        return f"version {shown}: this package needs major version {MIN_VERSION[0]}"
    if version < MIN_VERSION:
        return f"version {shown} is older than {'.'.join(map(str, MIN_VERSION))}"
    if missing:
        return f"version {shown} lacks {', '.join(missing)} (a library built before this package)"
    return None


def _repo_build() -> Optional[str]:
    """build/libhpcvet.so.0 when this package is the checkout's python/hpcvet."""
    here = os.path.dirname(os.path.realpath(__file__))
    python = os.path.dirname(here)
    root = os.path.dirname(python)
    if os.path.basename(python) == "python" and os.path.isfile(os.path.join(root, "validator", "include", "hpcvet.h")):
        return os.path.join(root, os.environ.get("HPCVET_BUILD", "build"), SONAME)
    return None


def _installed() -> Optional[str]:
    try:
        from . import _install  # written by `make install`
    except ImportError:
        return None
    libdir = getattr(_install, "LIBDIR", None)
    return os.path.join(libdir, SONAME) if libdir else None


def _candidates() -> List[Tuple[str, str]]:
    """(what to dlopen, where it came from), in the order tried."""
    env = os.environ.get(ENV_VAR)
    if env:
        return [(os.path.join(env, SONAME) if os.path.isdir(env) else env, ENV_VAR)]
    out: List[Tuple[str, str]] = []
    build = _repo_build()
    if build is not None:
        out.append((build, "the checkout's build tree"))
    inst = _installed()
    if inst is not None:
        out.append((inst, "the make install prefix"))
    out.append((SONAME, "the dynamic loader's search path"))
    for prefix in dict.fromkeys([sys.prefix, "/usr/local"]):
        out.append((os.path.join(prefix, "lib", SONAME), f"{prefix}/lib"))
    return out


def _found_by_find_library() -> List[Tuple[str, str]]:
    # imported here: ctypes.util costs ~14 ms of start-up (it imports
    # subprocess and shutil), paid only when the usual places failed
    import ctypes.util

    found = ctypes.util.find_library("hpcvet")
    return [(found, "ctypes.util.find_library")] if found else []


def _all_candidates():
    yield from _candidates()
    if not os.environ.get(ENV_VAR):
        yield from _found_by_find_library()


def load() -> Tuple[ctypes.CDLL, str]:
    """The library with every signature set, and the path it was loaded from."""
    tried: List[str] = []
    for target, origin in _all_candidates():
        if os.sep in target and not os.path.exists(target):
            tried.append(f"{target} ({origin}): no such file")
            continue
        try:
            lib = ctypes.CDLL(target)
        except OSError as exc:
            tried.append(f"{target} ({origin}): {exc}")
            continue
        why = _refusal(lib)
        if why:
            tried.append(f"{target} ({origin}): {why}")
            continue
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        return lib, target
    raise LibraryNotFoundError(
        f"{SONAME} (the hpcvet C library) was not found or not usable. Tried:\n  "
        + "\n  ".join(tried)
        + f"\nInstall hpcvet (make install), or set {ENV_VAR} to the library file or its folder."
    )


LIB, LIB_PATH = load()
LIB_VERSION: str = LIB.hpcvet_version().decode("ascii")


def take_string(ptr: Optional[int]) -> Optional[str]:
    """A string the library allocated, as str, freed at once (None for NULL)."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "backslashreplace")
    finally:
        LIB.hpcvet_string_free(ptr)
