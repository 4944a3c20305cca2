"""dump() and iter_dump(): the decoded structure of an input (``hpcvet dump``).

The library writes the dump as it decodes, through a callback, so nothing
in C holds the whole of it. :func:`dump` gathers the JSON and parses it
(bounded by ``max_items``, 1,000,000 items by default as the CLI's);
:func:`iter_dump` streams: the library runs on a thread of its own and hands
over lines through a bounded queue, so Python holds a few thousand items at
most, whatever the input's size.
"""

from __future__ import annotations

import ctypes
import json
import threading
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _lib, options
from ._types import Verdict

DEFAULT_MAX_ITEMS = 1_000_000
# a file's entry opens on a line of its own, or after "files":[ on the first
_FILE_LINE = r'\{"name":("(?:[^"\\]|\\.)*"),"size":'


def _select(select) -> Optional[bytes]:
    if select is None:
        return None
    if isinstance(select, str):
        return select.encode("utf-8")
    if isinstance(select, dict):  # {"rank": 3, "records": "10-20"}
        return ",".join(f"{k}={v}" for k, v in select.items()).encode("utf-8")
    raise TypeError(f"select must be a str like 'rank=3,records=0-9' or a dict, not {type(select).__name__}")


def _run(path, select, max_items: int, json_out: bool, opt, write) -> int:
    """hpcvet_dump_path with `write(bytes)` receiving the output; the verdict."""
    raw = options.fspath_bytes(path)
    sel = _select(select)
    options.check_count(max_items, "max_items", 0)

    def cb(_ctx, data, size):
        try:
            return 1 if write(ctypes.string_at(data, size)) else 0
        except BaseException:  # an exception must not cross into C: stop the output instead
            return 1

    fn = _lib.WRITE_FN(cb)
    why = ctypes.create_string_buffer(256)
    rc = _lib.LIB.hpcvet_dump_path(raw, sel, max_items, 1 if json_out else 0, ctypes.byref(opt), fn, None,
                                   why, len(why))
    if rc < 0:
        raise ValueError(f"select: {why.value.decode('utf-8', 'replace')}")
    return rc


def dump(path, *, select=None, max_items: int = DEFAULT_MAX_ITEMS, edition: options.EditionArg = None,
         strict: bool = False) -> Dict[str, Any]:
    """The decoded view of ``path`` as Python objects (the JSON of ``hpcvet
    dump --format=json``, docs/dump.schema.json): ``files``, each with its
    ``items``, and the validation ``report``. ``select`` is the CLI's
    --select ("rank=3", "records=10-20", "file=meta.db,context=5", or a dict
    of them); ``max_items=0`` removes the limit."""
    opt = options.make(edition=edition, strict=strict)
    parts: List[bytes] = []
    _run(path, select, max_items, True, opt, lambda b: parts.append(b) and False)
    return json.loads(b"".join(parts))


def dump_text(path, *, select=None, max_items: int = DEFAULT_MAX_ITEMS, edition: options.EditionArg = None,
              strict: bool = False) -> Tuple[str, Verdict]:
    """The text rendering of ``hpcvet dump`` and the verdict."""
    opt = options.make(edition=edition, strict=strict)
    parts: List[bytes] = []
    v = _run(path, select, max_items, False, opt, lambda b: parts.append(b) and False)
    return b"".join(parts).decode("utf-8", "backslashreplace"), Verdict(v)


def iter_dump(path, *, select=None, max_items: int = 0, edition: options.EditionArg = None,
              strict: bool = False) -> Iterator[Tuple[str, Dict[str, Any]]]:
    """Stream the decoded items of ``path`` as (file name, item) pairs, in
    the order ``dump`` lists them; no limit on items by default. Stopping
    early (break, close) drops the rest of the output; the library still
    finishes its pass over the input on its thread."""
    import queue
    import re

    file_line = re.compile(_FILE_LINE)
    decoder = json.JSONDecoder()
    opt = options.make(edition=edition, strict=strict)
    lines: "queue.Queue[Optional[bytes]]" = queue.Queue(maxsize=4096)
    stop = threading.Event()
    result: Dict[str, Any] = {}
    pending = bytearray()

    def write(chunk: bytes) -> bool:
        pending.extend(chunk)
        while True:
            nl = pending.find(b"\n")
            if nl < 0:
                return stop.is_set()
            line = bytes(pending[:nl])
            del pending[: nl + 1]
            while not stop.is_set():
                try:
                    lines.put(line, timeout=0.1)
                    break
                except queue.Full:
                    continue
            if stop.is_set():
                return True

    def producer() -> None:
        try:
            result["verdict"] = _run(path, select, max_items, True, opt, write)
        except BaseException as exc:  # handed to the consumer
            result["error"] = exc
        finally:
            while True:
                try:
                    lines.put(None, timeout=0.1)
                    break
                except queue.Full:
                    if stop.is_set():
                        break

    # argument errors are raised here, before a thread starts
    options.fspath_bytes(path)
    _select(select)
    options.check_count(max_items, "max_items", 0)
    t = threading.Thread(target=producer, name="hpcvet-dump", daemon=True)
    t.start()
    current = ""
    try:
        while True:
            line = lines.get()
            if line is None:
                break
            text = line.decode("utf-8", "backslashreplace")
            if text.startswith('{"kind":'):
                item, _ = decoder.raw_decode(text)
                yield current, item
            else:
                m = file_line.search(text)
                if m:
                    current = json.loads(m.group(1))
    finally:
        stop.set()
        while t.is_alive():  # let the producer finish its puts
            try:
                lines.get(timeout=0.1)
            except queue.Empty:
                pass
        t.join()
    if "error" in result:
        raise result["error"]
