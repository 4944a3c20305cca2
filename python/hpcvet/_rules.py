"""The rule catalogue: rules(), rule(), explain()."""

from __future__ import annotations

import ctypes
import functools
TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: typing costs start-up time
    from typing import Tuple

from . import _lib
from ._types import Rule, Severity


def _s(raw) -> str:
    return raw.decode("utf-8") if raw else ""


@functools.lru_cache(maxsize=1)
def rules() -> Tuple[Rule, ...]:
    """Every rule of the library's table, in table order (``hpcvet rules``)."""
    L = _lib.LIB
    info = _lib.CRuleInfo()
    out = []
    for i in range(L.hpcvet_rule_count()):
        if L.hpcvet_rule_get(i, ctypes.byref(info)) == 0:
            out.append(Rule(_s(info.id), Severity(info.severity), _s(info.format), _s(info.clause),
                            _s(info.summary), _s(info.detail)))
    return tuple(out)


def _index(rule_id: str) -> int:
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule ID is a str, not {type(rule_id).__name__}")
    k = _lib.LIB.hpcvet_rule_find(rule_id.encode("utf-8", "surrogateescape")) if "\0" not in rule_id else -1
    if k < 0:
        raise KeyError(f"no rule {rule_id!r} (hpcvet.rules() lists them)")
    return k


def rule(rule_id: str) -> Rule:
    """The rule with this ID; KeyError when there is none."""
    return rules()[_index(rule_id)]


def explain(rule_id: str) -> str:
    """The rule's explanation as ``hpcvet explain`` begins it: ID, severity,
    format, clause, summary, then the full text. KeyError for an unknown ID."""
    _index(rule_id)
    text = _lib.take_string(_lib.LIB.hpcvet_rule_explain(rule_id.encode("utf-8")))
    if text is None:
        raise MemoryError("hpcvet_rule_explain failed")
    return text
