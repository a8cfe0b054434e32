"""The page source as a list of line elements (for line blocks and site templates).

An element is a source line, whitespace collapsed. A minified page (its lines
average more than ``minified_line_chars``) has few, huge lines; it is split into
one element per block-level tag instead (a break before every opening or
closing block-level tag). Script, style and comment contents are blanked first
(their newlines kept), so no element holds code.
"""
from __future__ import annotations

import html as html_lib
import re

from .options import ExtractOptions
from .patterns import BLOCK_LEVEL_TAGS

_CODE_RE = re.compile(r"<script\b.*?</script\s*>|<style\b.*?</style\s*>|<!--.*?-->|<noscript\b.*?</noscript\s*>",
                      re.I | re.S)
_BLOCK_TAG_RE = re.compile(r"(?=</?(?:%s)\b)" % "|".join(sorted(BLOCK_LEVEL_TAGS, key=len, reverse=True)), re.I)
_TAG_RE = re.compile(r"<[^>]*>", re.S)
_SPACE_RE = re.compile(r"\s+")
# Line breaks of a source file (str.splitlines would also break at \v, \f and U+2028).
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")


def _blank(match: re.Match) -> str:
    """Code replaced by its newlines only, so line numbers stay those of the source."""
    return "\n" * match.group(0).count("\n")


def blank_code(source: str) -> str:
    return _CODE_RE.sub(_blank, source)


def is_minified(source: str, options: ExtractOptions) -> bool:
    lines = source.count("\n") + 1
    return len(source) / lines > options.minified_line_chars


def prepare_source(source: str, options: ExtractOptions) -> str:
    """Code blanked; a minified page broken before each block-level tag."""
    source = blank_code(source)
    if is_minified(source, options):
        source = _BLOCK_TAG_RE.sub("\n", source)
    return source


def source_elements(source: str, options: ExtractOptions) -> list[str]:
    """Line elements of a page (code blanked, whitespace collapsed, empty ones kept)."""
    return [_SPACE_RE.sub(" ", line).strip() for line in _NEWLINE_RE.split(prepare_source(source, options))]


def element_text(element: str) -> str:
    """The visible text of one element: tags removed, entities decoded, spaces collapsed."""
    text = html_lib.unescape(_TAG_RE.sub(" ", element))
    return _SPACE_RE.sub(" ", text).strip()


def text_lines(source: str, options: ExtractOptions) -> list[str]:
    """The page's text, line by line: tags removed (a tag spanning lines leaves its newlines)."""
    stripped = _TAG_RE.sub(_blank, prepare_source(source, options))
    return [_SPACE_RE.sub(" ", html_lib.unescape(line)).strip() for line in _NEWLINE_RE.split(stripped)]
