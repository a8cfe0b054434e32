"""Elements named by their class/id/itemprop values.

With the compiled walks (fastwalk.py), the word search and the selection are each one walk
in C over the attributes' bytes. Without them, as follows. Testing values inside XPath (``@class[contains(., 'date') or contains(., 'Date')
...]``) copies the value once per word per attribute: ~0.1 ms a word on a page of
400 class/id attributes. Here every class, id and itemprop value of a tree is read
once as plain strings (cached per tree, shared by the title, date and author
searches), words are found in the joined distinct values with ``str.find``, and
one XPath returns the attributes holding the chosen values, in document order:
by position when they are few (``(descendant::*/@class)[17]``, no test per
attribute), else with one membership test per attribute.
"""
from __future__ import annotations

import bisect
import weakref
from dataclasses import dataclass
from itertools import accumulate
from typing import Collection, Iterable, Mapping, NamedTuple

import lxml.etree
import lxml.html

from .fastwalk import compiled

# Attributes whose values are read and chosen from.
_NAMES = ("class", "id", "itemprop")
# Up to this many chosen attributes are selected by position (one pass over the
# attributes each, ~0.07 ms on a page of 1,400 elements); more with one membership
# test per attribute (~0.25 ms there).
_MAX_BY_POSITION = 3
_VALUES = {name: lxml.etree.XPath(f"descendant::*/@{name}", smart_strings=False) for name in _NAMES}
# Private-use characters that separate values; the first one absent from the page's values
# is used, so "<sep>value<sep>" matches whole values only.
_SEPARATORS = "\ue000\ue001\ue002\ue003"
# Per tree: the compiled walk's copies of the values of _NAMES (None: the walk declined the tree).
_COMPILED_VALUES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_UNREAD = object()
# The values per tree and attribute name (the XPath readings).
_TREES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
# Compiled selections by (names, extra XPath, separator).
_SELECTIONS: dict[tuple[tuple[str, ...], str, str], lxml.etree.XPath] = {}


@dataclass
class _Values:
    """The values of one attribute in a tree; the distinct ones joined for fast word search."""
    every: list[str]  # in document order
    distinct: frozenset[str]
    values: tuple[str, ...]  # the distinct ones, in the order of ``joined``
    joined: str  # separator + values joined by the separator + separator
    starts: list[int]  # offset of each value in ``joined``
    separator: str | None  # None: every candidate separator occurs in a value
    positions: dict[str, list[int]] | None = None  # value -> 1-based positions in ``every``

    def positions_of(self, value: str) -> list[int]:
        if value not in self.distinct:
            return []
        if self.positions is None:
            self.positions = {}
            for position, item in enumerate(self.every, start=1):
                self.positions.setdefault(item, []).append(position)
        return self.positions.get(value, [])


def words_in_values(root: lxml.html.HtmlElement, name: str, words: Iterable[str]) -> set[str]:
    """The distinct values of attribute ``name`` ("class", "id", "itemprop") holding one of ``words``.

    Case-sensitive, like XPath ``contains()``. With the compiled walks, one C walk searches the
    values' bytes and makes strings of the matching ones only; else the values are read once
    per tree (call it on the raw tree, before cleaning changes it).
    """
    if compiled is not None:
        tables = _COMPILED_VALUES.get(root, _UNREAD)
        if tables is _UNREAD:
            tables = _COMPILED_VALUES[root] = compiled.attribute_values(root, _NAMES)
        found = tables[name].with_words(tuple(words)) if tables is not None else None
        if found is not None:   # searched in C in the values' bytes, read in one walk per tree
            return found
    found = set()
    table = _values(root, name)
    if table.separator is None:
        return {value for value in table.values if any(word in value for word in words)}
    joined, starts = table.joined, table.starts
    for word in words:
        position = joined.find(word)
        while position >= 0:
            index = bisect.bisect_right(starts, position) - 1
            found.add(table.values[index])
            next_start = starts[index + 1] if index + 1 < len(starts) else len(joined)
            position = joined.find(word, next_start)
    return found


class AttributeTest(NamedTuple):
    """Attributes selected beside the chosen values: ``name`` on elements named ``tag`` (any
    element when None), present, or with ``token`` holding that word between spaces (as the
    XPath ``contains(concat(' ', ., ' '), ' token ')``)."""
    tag: str | None
    name: str
    token: str | None = None

    @property
    def xpath(self) -> str:
        step = f"descendant::{self.tag or '*'}/@{self.name}"
        return step + (f"[contains(concat(' ', ., ' '), ' {self.token} ')]" if self.token else "")


def select_attributes(root: lxml.html.HtmlElement, chosen: Mapping[str, Collection[str]],
                      extra: tuple[AttributeTest, ...] = ()) -> list:
    """The elements holding an attribute whose value is one of ``chosen[name]``, or passing a test
    of ``extra``: one per such attribute, in document order (an element's attributes in their
    order). Read in one C walk when the compiled walks are built, else with XPath.
    """
    names = tuple(name for name in _NAMES if chosen.get(name))
    if compiled is not None:
        selected = compiled.select_attributes(root, {name: chosen[name] for name in names}, tuple(extra))
        if selected is not None:
            return selected
    return [value.getparent() for value in _selected_attributes(root, chosen, names,
                                                                  "|".join(test.xpath for test in extra))]


def _selected_attributes(root: lxml.html.HtmlElement, chosen: Mapping[str, Collection[str]],
                         names: tuple[str, ...], extra: str) -> list:
    """The selected attributes as lxml smart strings, with XPath (the reference for the C walk)."""
    if not names:
        return _compiled((), extra, "")(root) if extra else []
    positions = [(name, position) for name in names for value in chosen[name]
                 for position in _values(root, name).positions_of(value)]
    if len(positions) <= _MAX_BY_POSITION:
        if not positions and not extra:
            return []
        branches = [f"(descendant::*/@{name})[{position}]" for name, position in positions]
        return _by_position("|".join(branches + ([extra] if extra else [])))(root)
    separators = {_values(root, name).separator for name in names}
    separator = separators.pop() if len(separators) == 1 else None
    if separator is None:  # no common separator: test the values one by one
        return [value for value in _compiled(names, extra, "")(root)
                if value.attrname not in names or value in chosen[value.attrname]]
    variables = {name: separator + separator.join(chosen[name]) + separator for name in names}
    return _compiled(names, extra, separator)(root, **variables)


def _values(root: lxml.html.HtmlElement, name: str) -> _Values:
    tables = _TREES.get(root)
    if tables is None:
        tables = _TREES[root] = {}
    table = tables.get(name)
    if table is None:
        every = _VALUES[name](root)
        distinct = frozenset(every)
        values = tuple(distinct)
        plain = "".join(values)
        separator = next((s for s in _SEPARATORS if s not in plain), None)
        starts = list(accumulate((len(value) + 1 for value in values[:-1]), initial=1))[:len(values)]
        joined = (separator or "") + (separator or "").join(values) + (separator or "")
        table = tables[name] = _Values(every, distinct, values, joined, starts, separator)
    return table


# Compiled positional selections, by expression; cleared when large (positions vary by page).
_POSITIONAL: dict[str, lxml.etree.XPath] = {}


def _by_position(expression: str) -> lxml.etree.XPath:
    selection = _POSITIONAL.get(expression)
    if selection is None:
        if len(_POSITIONAL) > 4096:
            _POSITIONAL.clear()
        selection = _POSITIONAL[expression] = lxml.etree.XPath(expression)
    return selection


def _compiled(names: tuple[str, ...], extra: str, separator: str) -> lxml.etree.XPath:
    key = (names, extra, separator)
    selection = _SELECTIONS.get(key)
    if selection is None:
        if separator:
            branches = [f"descendant::*/@{name}[contains(${name}, concat('{separator}', ., '{separator}'))]"
                        for name in names]
        else:
            branches = [f"descendant::*/@{name}" for name in names]
        selection = _SELECTIONS[key] = lxml.etree.XPath("|".join(branches + ([extra] if extra else [])))
    return selection
