"""Find site URL patterns that can backtrack for ever: a repeat of varying length inside an unbounded one.

``(a+)+$``, ``(\\w*/)*x``, ``(.*,)+`` or ``(a{1,5})+$`` try every way of splitting a
non-matching URL between the inner and the outer repeat: time exponential in the URL's length
(``(a+)+$`` on 30 letters and a ``!`` takes seconds; Python's ``re`` cannot be interrupted, not
even by SIGTERM, while it searches).
sites.yaml patterns run on every discovered URL, so such a pattern is refused when the sites file is
loaded. The check reads the parse tree of Python's own regex compiler (``re._parser``, the same
module ``re.compile`` uses), so it sees the pattern exactly as it will run.
"""
from __future__ import annotations

import re._constants as sre
import re._parser as sre_parse

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def nested_unbounded_repeat(pattern: str) -> bool:
    """True when an unbounded repeat (``*``, ``+``, ``{n,}``) holds a repeat of varying length
    (``*``, ``+``, ``?``, ``{m,n}``); a fixed count inside (``(\\d{4}/)+``) is fine."""
    return _has_nested(sre_parse.parse(pattern), inside_unbounded=False)


def _has_nested(subpattern, inside_unbounded: bool) -> bool:
    for op, value in subpattern:
        if op in _REPEATS:
            least, most, item = value
            unbounded = most == sre.MAXREPEAT
            if least != most and inside_unbounded:
                return True
            if _has_nested(item, inside_unbounded or unbounded):
                return True
        elif any(_has_nested(part, inside_unbounded) for part in _children(op, value)):
            return True
    return False


def _children(op, value) -> list:
    """The sub-patterns of a group, alternation, look-around or conditional node."""
    if op == sre.SUBPATTERN:
        return [value[-1]]
    if op == sre.BRANCH:
        return list(value[1])
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [value[1]]
    if op == sre.ATOMIC_GROUP:
        return [value]
    if op == sre.GROUPREF_EXISTS:
        return [part for part in value[1:] if part is not None]
    return []
