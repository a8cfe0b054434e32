"""Cut noise elements out of a page's text the way an HTML tokenizer delimits them, without a tree.

``StripNoiseMiddleware`` removes script, style, iframe and noscript elements and comments before the
spider and the extractor see a page. Parsing the page into a tree and serializing it again for that
took a quarter of the crawl process's main thread (docs/MEASUREMENTS.md, crawl throughput profile),
and the extraction worker parses the page anyway. :class:`NoiseCutter` reads the text once with a
few regular expressions instead and keeps everything else byte for byte.

Where an element ends follows the HTML tokenizer that libxml2 (lxml's parser) implements:

- tags are read with their attributes, so ``<div title="<script>">`` is no script and a ``>``
  inside a quoted value does not end a tag;
- script, style and iframe hold raw text up to their own end tag (``</script`` followed by a space,
  ``/`` or ``>``); a script's ``<!-- <script> ... </script> -->`` does not end it (the escaped
  states of script data);
- the text of title, textarea, xmp, noembed and noframes is not markup (a ``<script>`` there is
  text), and plaintext makes the rest of the page text;
- comments end at ``-->`` or ``--!>`` (``<!-->`` and ``<!--->`` are empty ones); ``<?...>``,
  ``<!...>`` and ``</`` + a non-letter are comments up to the next ``>`` (bogus comments);
- ``<script/>`` is an empty element (libxml2 honours ``/>`` on any element);
- noscript holds markup: it ends at its matching ``</noscript>``, nested ones counted, as in a
  browser that runs scripts. (libxml2's tree builder ignores a ``</noscript>`` while an element
  opened inside it is still open, ``<noscript><div></noscript>``, and made the rest of the page
  noscript content, which stripping the tree then deleted.)

An element or comment left open at the end of the page is not cut: the rest of the page is kept as
it is (the parser makes it that element's content, as it did when the middleware parsed the page),
and :attr:`CutPage.unclosed` names it so the caller can count it.

Where the middleware rewrote the charset of ``<meta>`` tags after parsing, the cutter does it in
the text: every ``<meta charset>`` and ``<meta http-equiv="content-type">`` it meets is made to
say UTF-8.
"""
from __future__ import annotations

import dataclasses
import html
import re
from collections import Counter
from collections.abc import Callable

from ..extract.fastwalk import compiled

# Elements whose text is not markup, up to their own end tag (libxml2: raw text and escapable raw text).
RAW_TEXT_KEPT = ("title", "textarea", "xmp", "noembed", "noframes")
RAW_TEXT_CUT = ("style", "iframe")  # raw text, and noise when asked for
COMMENT = "comment"  # the name counts and CutPage.unclosed give comments
TAG = "tag"  # the name CutPage.unclosed gives a tag the page ends in (of an element not named here)
_RAW_TEXT = frozenset(("script", *RAW_TEXT_CUT, *RAW_TEXT_KEPT))
_NAMED_UNCLOSED = frozenset(("script", "noscript", *RAW_TEXT_CUT, *RAW_TEXT_KEPT))

_WS = "\t\n\f\r "  # HTML's whitespace (not str.isspace's: a no-break space is part of a name)
_FLAGS = re.I | re.A  # ASCII letters only, as the tokenizer (no Kelvin sign for a "k")
_DELIM = f"(?:[{_WS}/>]|\\Z)"  # what may follow a tag name
# One attribute, or a run of separators, of a tag after its name (a "/" right before ">" closes it).
_ATTRIBUTE = (f"(?:[{_WS}]|/(?!>))++"
              f"|[^{_WS}/>][^{_WS}/>=]*+"
              f"(?>[{_WS}]*+=[{_WS}]*+(?:\"[^\"]*+(?:\"|\\Z)|'[^']*+(?:'|\\Z)|[^{_WS}>\"'][^{_WS}>]*+)?)?")
_TAG_REST = f"(?:{_ATTRIBUTE})*+(?P<close>/?>|\\Z)"
_NAME = f"[a-z][^{_WS}/>]*+"
_START_TAG_RE = re.compile(f"<(?P<name>{_NAME}){_TAG_REST}", _FLAGS)
_END_TAG_RE = re.compile(f"</{_NAME}{_TAG_REST}", _FLAGS)
# One attribute of a start tag (after its name): its name and its value as written.
_ATTRIBUTE_RE = re.compile(f"[{_WS}/]*+(?P<name>[^{_WS}/>][^{_WS}/>=]*+)"
                           f"(?:[{_WS}]*+=[{_WS}]*+(?P<value>\"[^\"]*+\"?|'[^']*+'?|[^{_WS}>\"'][^{_WS}>]*+)?)?",
                           _FLAGS)
_COMMENT_END_RE = re.compile("--!?>")
# A tag's attributes (after its name) as the tokenizer reads them, when plainly written: a quote
# opens a value only right after "=", and "=" follows an attribute's name (not a space, "/" or a
# quote: there the tokenizer would start a name with it). A tag written otherwise (rare) is read
# token by token (_START_TAG_RE, _END_TAG_RE), which follows every rule. Written as
# "text (= value text)*" rather than "(text | = value)*": half the repetitions of the expression engine.
_PLAIN_ATTRIBUTE_TEXT = "[^>\"'=]*+"
_PLAIN_ATTRIBUTES = (f"{_PLAIN_ATTRIBUTE_TEXT}(?:(?<![{_WS}/\"'])=[{_WS}]*+"
                     f"(?:\"[^\"]*+\"|'[^']*+'|[^{_WS}>\"'][^{_WS}>]*+)?{_PLAIN_ATTRIBUTE_TEXT})*+")
# Start tags that end a run of ordinary tags: elements cut, elements whose text is not markup.
_SPECIAL_NAMES = ("script", "noscript", *RAW_TEXT_CUT, *RAW_TEXT_KEPT, "plaintext")
_SPECIAL = "|".join(_SPECIAL_NAMES)
# What a run stops before (after "<"): a special element's start tag, or a <meta> that may declare a
# charset. Its first two letters are looked at first: most tags are told apart by them alone, and
# a lookahead through all the names at every tag took ~10% of the cutting.
_STOPPING_NAMES = (*_SPECIAL_NAMES, "meta")
_STOPPING_START_TAG = (f"(?=[{''.join(sorted({name[0] for name in _STOPPING_NAMES}))}]"
                       f"[{''.join(sorted({name[1] for name in _STOPPING_NAMES}))}])"
                       f"(?:(?:{_SPECIAL}){_DELIM}|meta{_DELIM}[^>]*?(?:charset|http-equiv))")


def _token_pattern(in_noscript: bool) -> re.Pattern:
    """What NoiseCutter.cut reads in one step: a run of text and ordinary tags, a comment, or a
    script, style or iframe element (not one whose start tag "/>" closes: see _token), or a run
    and then one of these. Inside a noscript being cut, a run stops before </noscript too."""
    tag_rest, start_tag_rest = f"{_PLAIN_ATTRIBUTES}>", f"{_PLAIN_ATTRIBUTES}(?<!/)>"
    ordinary_tag = f"{_NAME}{tag_rest}"
    # A run stops before a comment, a special element's start tag, and a <meta> that may declare a
    # charset. After a "<", the alternatives differ by their next character: the most common first.
    run = ("(?:[^<]++"
           "|<(?:"
           f"(?!{_STOPPING_START_TAG}){ordinary_tag}"
           f"|/(?:>|{f'(?!noscript{_DELIM})' if in_noscript else ''}{ordinary_tag})"  # "</>" is ignored by the parser
           "|!doctype[^>]*+>"
           "|(?![a-z!?/])"  # a "<" that starts no tag is text
           "))++")
    comment = "<!--(?:>|->|(?:[^-]++|-(?!-!?>))*+--!?>)"

    def element(name: str, content: str) -> str:
        return f"<{name}(?=[{_WS}/>])(?P<{name}_attributes>{start_tag_rest[:-1]}){start_tag_rest[-1]}" \
               f"{content}</{name}(?=[{_WS}/>]){tag_rest}"

    # Script data, and its escaped stretches "<!-- ... -->" that hold no "<script" or "</script" (one
    # that does is read by NoiseCutter._script_end); "<!-->" ends at once, its dashes shared.
    escaped = f"<!(?=--)(?:[^<-]++|-(?!->)|<(?!/?script[{_WS}/>]))*+-->"
    script = element("script", f"(?:[^<]++|<(?!/script[{_WS}/>]|!--)|{escaped})*+")
    raw_text = "".join(f"|(?P<{name}>{element(name, f'(?:[^<]++|<(?!/{name}[{_WS}/>]))*+')})" for name in RAW_TEXT_CUT)
    # A run, then the element or comment it stopped before: one step of NoiseCutter.cut for both.
    # (Neither is there when the text at the position is read token by token: an empty match.)
    return re.compile(f"(?P<run>{run})?+(?:(?P<{COMMENT}>{comment})|(?P<script>{script}){raw_text})?", _FLAGS)


def _ends_name(tag: str, at: int) -> bool:
    return at >= len(tag) or tag[at] in _WS + "/>"


UTF8_CONTENT_TYPE = "text/html; charset=utf-8"

# What a token does to the output.
_KEEP, _CUT, _OPEN_NOSCRIPT, _CLOSE_NOSCRIPT, _UNCLOSED = range(5)


@dataclasses.dataclass
class CutPage:
    text: str
    removed: Counter  # element name (or "comment") -> how many were cut
    unclosed: str | None = None  # what was left open at the end of the page (kept from there on)


@dataclasses.dataclass
class _Token:
    kind: int
    end: int
    name: str = ""
    replacement: str | None = None  # for _KEEP: the token's new text (a <meta> made to say UTF-8)


class NoiseCutter:
    """Cuts the elements ``cut_tags`` (of script, noscript, style and iframe) and comments out of a
    page's text; scripts whose type is one of ``kept_script_types`` stay, and so do scripts whose
    text (between start and end tag) ``kept_script_text`` accepts. Every charset declaration
    of a <meta> is made to say UTF-8.

    One regular expression reads what most pages are made of: runs of text and ordinary tags whose
    attributes are plainly written, and whole comments, scripts, styles and iframes. What it does
    not read (a tag with unusual attributes, a self-closing or unclosed element, a script holding
    ``<!--``, noscript, a charset <meta>) goes token by token through :meth:`_token`, which follows
    the tokenizer's every rule: both ways end each element at the same place. With the compiled
    walks built, the runs are scanned in C (``_fastwalk.run_end``, ending each where the expression's
    run group does; the cut took ~40% less CPU on the pages of ``../shared/eval``).
    """

    def __init__(self, cut_tags: tuple[str, ...], kept_script_types: frozenset[str],
                 kept_script_text: Callable[[str], bool] | None = None, kept_script_min_chars: int = 0):
        """``kept_script_min_chars``: scripts whose text is shorter are not shown to ``kept_script_text``
        (it keeps none of them): most scripts are short, and their text is then not copied."""
        unknown = set(cut_tags) - {"script", "noscript", *RAW_TEXT_CUT}
        if unknown:
            raise ValueError(f"NoiseCutter cannot cut {sorted(unknown)}: it knows script, noscript, "
                             f"{', '.join(RAW_TEXT_CUT)}")
        self.cut_tags = frozenset(cut_tags)
        self.kept_script_types = kept_script_types
        self.kept_script_text = kept_script_text or (lambda content: False)
        self.kept_script_min_chars = kept_script_min_chars
        self._cut_kinds = frozenset((COMMENT, *self.cut_tags))  # what the token pattern reads that is cut
        # Start-tag attributes that may give a kept type: one of them in any case, or a character
        # reference that might spell one. More than _script_type finds (re.I matches a Kelvin sign for
        # a "k"), never less; _script_type then decides.
        self._kept_type_hint = re.compile("|".join(("&", *map(re.escape, sorted(kept_script_types)))), re.I)
        self._plain = _token_pattern(in_noscript=False)
        # The compiled scan of runs (what the pattern's run group matches, ~3x faster), when built
        self._run_end = compiled.run_end if compiled is not None else None
        self._noscript_runs = "noscript" in self.cut_tags
        self._plain_in_noscript = _token_pattern(in_noscript=self._noscript_runs)
        self._end_tag_starts = {name: re.compile(f"</{name}(?=[{_WS}/>])", _FLAGS)
                                for name in (*RAW_TEXT_CUT, *RAW_TEXT_KEPT)}
        self._script_data = re.compile(f"</script(?=[{_WS}/>])|<!--", _FLAGS)
        self._script_escaped = re.compile(f"</script(?=[{_WS}/>])|<script(?=[{_WS}/>])|-->", _FLAGS)

    def cut(self, text: str) -> CutPage:
        # The page is kept in stretches: text[kept_from:position] is kept so far, and is added to
        # ``kept`` only when something is cut or rewritten after it (a run or kept element costs no copy).
        kept: list[str] = []
        kept_from = 0
        removed: Counter = Counter()
        open_noscripts = noscript_start = 0  # noscript elements being cut, and where the outermost began
        position, length = 0, len(text)
        plain, plain_in_noscript = self._plain.match, self._plain_in_noscript.match
        cut_kinds, run_end, noscript_runs = self._cut_kinds, self._run_end, self._noscript_runs
        while position < length:
            if run_end is not None:  # the run from here, scanned: the pattern then reads what stopped it
                position = run_end(text, position, noscript_runs and open_noscripts > 0)
                if position >= length:
                    break
            found = (plain_in_noscript if open_noscripts else plain)(text, position)
            if found is not None and (end := found.end()) > position:
                kind = found.lastgroup  # the element or comment after the run, if any ("run" if not)
                if kind in cut_kinds and not (kind == "script" and self._keeps_read_script(found, text)):
                    removed[kind] += 1
                    if not open_noscripts:
                        kept.append(text[kept_from:found.start(kind)])
                        kept_from = end
                position = end
                continue
            token = self._token(text, position)
            if token.kind == _UNCLOSED:
                kept.append(text[noscript_start if open_noscripts else kept_from:])
                return CutPage("".join(kept), removed, "noscript" if open_noscripts else token.name)
            if open_noscripts:
                if token.kind == _OPEN_NOSCRIPT:
                    open_noscripts += 1
                    removed["noscript"] += 1
                elif token.kind == _CLOSE_NOSCRIPT:
                    open_noscripts -= 1
                    kept_from = token.end  # (used once the outermost is closed)
                elif token.kind == _CUT:
                    removed[token.name] += 1
            elif token.kind == _CUT or token.kind == _OPEN_NOSCRIPT:
                kept.append(text[kept_from:position])
                kept_from = token.end
                if token.kind == _OPEN_NOSCRIPT:
                    noscript_start = position
                    open_noscripts = 1
                    removed["noscript"] += 1
                else:
                    removed[token.name] += 1
            elif token.replacement is not None:  # kept, rewritten (a stray </noscript> is kept as it is)
                kept.append(text[kept_from:position])
                kept.append(token.replacement)
                kept_from = token.end
            position = token.end
        if open_noscripts:  # the parser makes the rest of the page its content: kept as it is
            kept.append(text[noscript_start:])
            return CutPage("".join(kept), removed, "noscript")
        kept.append(text[kept_from:])
        return CutPage("".join(kept), removed)

    def _keeps_read_script(self, found: re.Match, text: str) -> bool:
        """Whether the script element the token pattern read (``found``) stays: by its type, or by
        its text (between its start tag and its end tag)."""
        if self._kept_script(found["script_attributes"]):
            return True
        start, end = found.end("script_attributes") + 1, text.rfind("</", 0, found.end())
        return end - start >= self.kept_script_min_chars and self.kept_script_text(text[start:end])

    def _kept_script(self, attributes: str) -> bool:
        if self._kept_type_hint.search(attributes) is None:
            return False
        return _script_type(f"<script{attributes}>") in self.kept_script_types

    # --- one token the regular expression does not read ----------------------------------------

    def _token(self, text: str, position: int) -> _Token:
        following = text[position + 1:position + 2]
        if following in ("!", "?"):
            if text.startswith("<!--", position):
                return self._comment(text, position)
            return self._bogus_comment(text, position)
        if following == "/":
            letter = text[position + 2:position + 3]
            if not (letter.isascii() and letter.isalpha()):  # "</" + no letter: a bogus comment
                return self._bogus_comment(text, position)
            end_tag = _END_TAG_RE.match(text, position)
            if not end_tag["close"]:  # the page ends inside the tag
                return _Token(_UNCLOSED, len(text), TAG)
            closes_noscript = end_tag.group()[2:10].lower() == "noscript" and _ends_name(end_tag.group(), 10)
            return _Token(_CLOSE_NOSCRIPT if closes_noscript and "noscript" in self.cut_tags else _KEEP, end_tag.end())
        tag = _START_TAG_RE.match(text, position)
        name = tag["name"].lower()
        if not tag["close"]:
            return _Token(_UNCLOSED, len(text), name if name in _NAMED_UNCLOSED else TAG)
        if name == "meta":
            return _Token(_KEEP, tag.end(), replacement=_utf8_meta(tag.group()))
        if name == "plaintext":
            return _Token(_KEEP, len(text))
        if name == "noscript" and tag["close"] == ">":
            return _Token(_OPEN_NOSCRIPT if name in self.cut_tags else _KEEP, tag.end())
        if name not in _RAW_TEXT or name == "noscript" or tag["close"] == "/>":  # "/>": empty (libxml2)
            return self._element(name, tag.group(), tag.end(), "")
        closing = self._script_end(text, tag.end()) if name == "script" else \
            _search_start(self._end_tag_starts[name], text, tag.end())
        if closing is None:
            return _Token(_UNCLOSED, len(text), name)
        end_tag = _END_TAG_RE.match(text, closing)
        if not end_tag["close"]:
            return _Token(_UNCLOSED, len(text), name)
        return self._element(name, tag.group(), end_tag.end(), text[tag.end():closing])

    def _element(self, name: str, start_tag: str, end: int, content: str) -> _Token:
        if name not in self.cut_tags or (name == "script" and (
                _script_type(start_tag) in self.kept_script_types
                or (len(content) >= self.kept_script_min_chars and self.kept_script_text(content)))):
            return _Token(_KEEP, end)
        return _Token(_CUT, end, name)

    def _script_end(self, text: str, position: int) -> int | None:
        """Where the script's end tag starts: the first ``</script`` that is not inside an escaped
        ``<!-- <script> ... </script> -->`` (the tokenizer's script data states)."""
        while True:
            found = self._script_data.search(text, position)
            if found is None:
                return None
            if found.group() != "<!--":
                return found.start()
            position = found.start() + 2  # its dashes may end it at once ("<!-->")
            double_escaped = False
            while True:
                found = self._script_escaped.search(text, position)
                if found is None:
                    return None
                position = found.end()
                mark = found.group()
                if mark == "-->":
                    break
                if mark[1] == "/":
                    if not double_escaped:
                        return found.start()
                    double_escaped = False
                else:
                    double_escaped = True

    @staticmethod
    def _comment(text: str, position: int) -> _Token:
        after = position + 4
        if text.startswith(">", after):
            return _Token(_CUT, after + 1, COMMENT)
        if text.startswith("->", after):
            return _Token(_CUT, after + 2, COMMENT)
        end = _COMMENT_END_RE.search(text, after)
        if end is None:
            return _Token(_UNCLOSED, len(text), COMMENT)
        return _Token(_CUT, end.end(), COMMENT)

    @staticmethod
    def _bogus_comment(text: str, position: int) -> _Token:
        """``<?...>``, ``<!...>`` and ``</`` + a non-letter: a comment up to the next ``>``."""
        end = text.find(">", position + 2)
        if end < 0:
            return _Token(_UNCLOSED, len(text), COMMENT)
        return _Token(_CUT, end + 1, COMMENT)


def _search_start(pattern: re.Pattern, text: str, position: int) -> int | None:
    found = pattern.search(text, position)
    return None if found is None else found.start()


def _attributes(start_tag: str) -> dict[str, re.Match]:
    """A start tag's attributes by lowercase name (the first of each name, as the parser keeps)."""
    name_end = _START_TAG_RE.match(start_tag).end("name")
    found: dict[str, re.Match] = {}
    for attribute in _ATTRIBUTE_RE.finditer(start_tag, name_end):
        found.setdefault(attribute["name"].lower(), attribute)
    return found


def _value(attribute: re.Match) -> str:
    value = attribute["value"] or ""
    if value[:1] in ("'", '"'):
        value = value[1:-1] if len(value) > 1 and value[-1] == value[0] else value[1:]
    return html.unescape(value)


def _script_type(start_tag: str) -> str:
    attribute = _attributes(start_tag).get("type")
    return _value(attribute).strip().lower() if attribute is not None else ""


def _utf8_meta(start_tag: str) -> str | None:
    """The <meta> tag saying UTF-8 where it declares a charset; None when it declares none."""
    attributes = _attributes(start_tag)
    charset = attributes.get("charset")
    if charset is not None:
        return _replaced(start_tag, charset, 'charset="utf-8"')
    http_equiv = attributes.get("http-equiv")
    if http_equiv is None or _value(http_equiv).lower() != "content-type":
        return None
    content = attributes.get("content")
    if content is not None:
        return _replaced(start_tag, content, f'content="{UTF8_CONTENT_TYPE}"')
    close = 2 if start_tag.endswith("/>") else 1
    return f'{start_tag[:-close]} content="{UTF8_CONTENT_TYPE}"{start_tag[-close:]}'


def _replaced(start_tag: str, attribute: re.Match, written: str) -> str:
    return start_tag[:attribute.start("name")] + written + start_tag[attribute.end():]
