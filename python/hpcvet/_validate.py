"""validate() and validate_bytes(): inputs in, a Report out.

The C calls run without the GIL (ctypes releases it), so validations from
several Python threads run in parallel, and ``jobs`` works as the CLI's -j:
several inputs are validated one per thread, a single input hands its
independent files to the library's thread pool.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable, Mapping

from . import _lib, options
from .report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import List, Tuple, Union

    PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
    Buffer = Union[bytes, bytearray, memoryview]


def _paths(path_or_paths) -> Tuple[List[bytes], List[str]]:
    """(paths as C receives them, paths as reports show them)."""
    if isinstance(path_or_paths, (str, bytes, os.PathLike)):
        items = [path_or_paths]
    elif isinstance(path_or_paths, Iterable):
        items = list(path_or_paths)
        if not items:
            raise ValueError("no path given")
    else:
        raise TypeError(
            f"validate() takes a path or an iterable of paths, not {type(path_or_paths).__name__}"
        )
    raw = [options.fspath_bytes(p) for p in items]
    return raw, [os.fsdecode(r) for r in raw]


def _report(handles: List[int], shown: List[str], strict: bool) -> Report:
    if not all(handles):  # the library returns NULL only when memory runs out
        for h in handles:
            if h:
                _lib.LIB.hpcvet_report_free(h)
        raise MemoryError("hpcvet: out of memory")
    return Report(handles, shown, strict)


def validate(
    path_or_paths: Union[PathArg, Iterable[PathArg]],
    *,
    strict: bool = False,
    jobs: int = 1,
    edition: options.EditionArg = None,
    max_diagnostics: int = 100,
    ovni_all_models: bool = False,
    mpi: options.MpiArg = None,
    mpi_replay: bool = False,
) -> Report:
    """Validate files or folders: HPCToolkit databases (a database folder or
    its files), ovni traces, DUMPI traces (a folder or a ``.meta``).

    The keyword arguments are the CLI's options: ``strict`` (--strict),
    ``jobs`` (-j), ``edition`` ("auto", "draft", "release"),
    ``max_diagnostics``, ``ovni_all_models``, ``mpi`` ("auto", "mpich",
    "openmpi") and ``mpi_replay``. An input that cannot be read gives a
    report with verdict UNREADABLE, not an exception.
    """
    raw, shown = _paths(path_or_paths)
    kw = dict(edition=edition, max_diagnostics=max_diagnostics, ovni_all_models=ovni_all_models,
              mpi=mpi, mpi_replay=mpi_replay, strict=strict)
    opt = options.make(jobs=jobs, **kw)
    L = _lib.LIB
    if len(raw) == 1 or jobs == 1:
        handles = [L.hpcvet_validate_path(p, ctypes.byref(opt)) for p in raw]
    else:
        from concurrent.futures import ThreadPoolExecutor  # ~10 ms to import: only when used

        one = options.make(jobs=1, **kw)  # inputs side by side, each on one thread, as the CLI
        with ThreadPoolExecutor(max_workers=min(jobs, len(raw))) as pool:
            handles = list(pool.map(lambda p: L.hpcvet_validate_path(p, ctypes.byref(one)), raw))
    return _report(handles, shown, strict)


def _pointer(buf, keep: list) -> Tuple[int, int]:
    """(address, size) of a bytes-like object, without a copy when it can be
    read in place; `keep` holds what must live until the call returns."""
    if isinstance(buf, bytes):
        keep.append(buf)
        return ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value or 0, len(buf)
    try:
        mv = memoryview(buf)
    except TypeError:
        raise TypeError(f"data must be bytes-like (bytes, bytearray, memoryview, mmap), not {type(buf).__name__}") from None
    if not mv.c_contiguous:
        mv = memoryview(mv.tobytes())
    mv = mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    if mv.nbytes == 0:
        return 0, 0
    if mv.readonly:
        data = mv.tobytes()
        keep.append(data)
        return ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value or 0, len(data)
    arr = (ctypes.c_char * mv.nbytes).from_buffer(mv)
    keep.append(arr)
    return ctypes.addressof(arr), mv.nbytes


def validate_bytes(
    data: Union[Buffer, Mapping[str, Buffer]],
    name: str = "input",
    *,
    strict: bool = False,
    jobs: int = 1,
    edition: options.EditionArg = None,
    max_diagnostics: int = 100,
    ovni_all_models: bool = False,
    mpi: options.MpiArg = None,
    mpi_replay: bool = False,
) -> Report:
    """Validate data already in memory; nothing is read from disk.

    ``data`` is one file's bytes (``name`` is its display name, and its
    standard file name, "meta.db", picks the format when the content is too
    damaged to be recognised), or a mapping of file names below the input
    to their bytes forming one input: the files of a database
    (``{"meta.db": ..., "profile.db": ...}``), of an ovni trace
    (``"loom.x/proc.1/thread.1/stream.obs"``) or of a DUMPI trace; ``name``
    then names the whole. Options as for :func:`validate`.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    raw_name = options.fspath_bytes(name, "name")
    opt = options.make(strict=strict, jobs=jobs, edition=edition, max_diagnostics=max_diagnostics,
                       ovni_all_models=ovni_all_models, mpi=mpi, mpi_replay=mpi_replay)
    keep: list = []
    L = _lib.LIB
    if isinstance(data, Mapping):
        names = list(data.keys())
        for n in names:
            if not isinstance(n, str):
                raise TypeError(f"file names must be str, not {type(n).__name__}")
        ptrs = [_pointer(data[n], keep) for n in names]
        count = len(names)
        c_names = (ctypes.c_char_p * max(count, 1))(*[options.fspath_bytes(n, "file name") for n in names])
        c_data = (ctypes.c_void_p * max(count, 1))(*[p for p, _ in ptrs])
        c_sizes = (ctypes.c_size_t * max(count, 1))(*[s for _, s in ptrs])
        h = L.hpcvet_validate_buffers(raw_name, count, c_names, c_data, c_sizes, ctypes.byref(opt))
    else:
        ptr, size = _pointer(data, keep)
        h = L.hpcvet_validate_buffer(raw_name, ptr, size, ctypes.byref(opt))
    return _report([h], [name], strict)
