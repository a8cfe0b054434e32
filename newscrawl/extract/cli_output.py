"""How the command line (``python -m newscrawl.extract``) prints a result: JSON, text or laid-out HTML,
a reason on stderr when there is nothing to print, and quiet when its reader closes the pipe."""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Callable

import lxml.html

from .patterns import BLOCK_LEVEL_TAGS
from .result import ExtractResult

# Exit codes beside 0 (printed) and 2 (input unreadable, __main__.py).
EXIT_NOTHING_TO_PRINT = 1    # --format text/html and the page gave no text; the reason is on stderr
EXIT_READER_GONE = 141       # stdout's reader went away (`| head`): what a shell reports for 128 + SIGPIPE

# Why a page gave no text, in words (ExtractResult.reason codes that leave text and html empty).
WHY_NO_TEXT = {
    "empty_input": "the input is empty",
    "not_html": "the input is not HTML (binary or plain data)",
    "too_large": "the page is beyond the extractor's size limits",
    "no_body": "the page has no body",
    "section_page": "the page is a section front (headlines linking to articles), not an article",
}
# Tags that start lines of their own in laid-out HTML; <br> stays within its line.
_LINE_TAGS = BLOCK_LEVEL_TAGS - {"br"}
_INDENT = "  "
_SPACES = re.compile(r"[ \t\n\r\f]+")   # the whitespace HTML collapses (not the no-break space)


def print_result(result: ExtractResult, output_format: str, source: str) -> int:
    """Print ``result`` on stdout in the format asked; the exit code."""
    if output_format == "json":
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return 0
    shown = result.text if output_format == "text" else result.html
    if not shown:
        why = WHY_NO_TEXT.get(result.reason or "", result.reason or "no main text was found")
        print(f"no text in {source}: {why}", file=sys.stderr)
        return EXIT_NOTHING_TO_PRINT
    print(shown if output_format == "text" else indented_html(shown))
    return 0


def exit_quietly_on_closed_pipe(main: Callable[[], int]) -> int:
    """``main()``'s exit code, or EXIT_READER_GONE without a traceback when stdout's reader left."""
    try:
        code = main()
        sys.stdout.flush()   # inside the try: a write failing at exit would still print a traceback
        return code
    except BrokenPipeError:
        # Nothing more can be written; point stdout at /dev/null so the interpreter's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_READER_GONE


def indented_html(fragment: str) -> str:
    """The extracted HTML laid out for reading: each block on its own line, indented by its depth,
    whitespace runs collapsed as a browser shows them (``<pre>`` kept as it is). The page's own
    blank lines and indentation are gone; what displays is unchanged."""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div") if fragment.strip() else None
    if root is None:
        return fragment
    if root.tag == "div" and len(root) == 1 and not (root.text or "").strip() and not (root[0].tail or "").strip():
        root = root[0]   # our own wrapper around a single element: unwrap
    _lay_out(root, 0)
    return lxml.html.tostring(root, encoding="unicode").rstrip("\n")


def _lay_out(element, depth: int) -> None:
    if element.tag == "pre":
        return
    children = list(element)
    element.text = _collapse(element.text)
    for child in children:
        child.tail = _collapse(child.tail)
        _lay_out(child, depth + 1)
    if not any(_starts_line(child) for child in children):
        return
    inner, outer = "\n" + _INDENT * (depth + 1), "\n" + _INDENT * depth
    # Text slots: element.text, then each child's tail. A slot after a block child (or at the start)
    # begins on a new line; one before a block child (or the end) ends its line.
    slots = [None] + children
    for index, owner in enumerate(slots):
        following = children[index] if index < len(children) else None
        after_break = owner is None or _starts_line(owner)
        before_break = following is None or _starts_line(following)
        text = element.text if owner is None else owner.tail
        text = text or ""
        if after_break:
            text = text.lstrip()
        if before_break:
            text = text.rstrip()
        laid = (inner if after_break and text else "") + text
        if before_break:
            laid += inner if following is not None else outer
        elif after_break and not text:
            laid = inner
        if owner is None:
            element.text = laid
        else:
            owner.tail = laid


def _starts_line(element) -> bool:
    return isinstance(element.tag, str) and element.tag in _LINE_TAGS


def _collapse(text: str | None) -> str | None:
    return _SPACES.sub(" ", text) if text else text
