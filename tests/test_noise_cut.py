"""NoiseCutter ends every element where lxml's parser (libxml2's HTML tokenizer) ends it.

Each page below is cut, then parsed; its tree must be the tree of the page parsed whole with the
same elements removed from the tree (what the middleware did before it cut text).
"""
from __future__ import annotations

import re

import hypothesis
import hypothesis.strategies as st
import lxml.etree
import lxml.html
import pytest

from newscrawl.extract.dom import parse_html
from newscrawl.crawl.noise_cut import NoiseCutter, _token_pattern
from newscrawl.extract import fastwalk

KEPT_TYPES = frozenset({"application/ld+json"})
CUTTER = NoiseCutter(("script", "style", "iframe", "noscript"), KEPT_TYPES)


def tree_stripped(page: str) -> str:
    root = parse_html(page)
    for script in [s for s in root.iter("script") if (s.get("type") or "").strip().lower() not in KEPT_TYPES]:
        script.drop_tree()
    lxml.etree.strip_elements(root, "style", "iframe", "noscript", lxml.etree.Comment, with_tail=False)
    return lxml.html.tostring(root, encoding="unicode")


PAGES = {
    "script holding markup": '<p>a<script>x</p><b>y</b></script>z</p>',
    "a longer name is no end tag": '<p>a<script>x</scriptx>y</script>z</p>',
    "end tag in capitals, space before >": '<p>a<script>x</SCRIPT >y</script>z</p>',
    "end tag with attributes holding >": '<p>a<script>x</script foo="a>b">d</p>',
    "iframe is raw text": '<p>a<iframe>x<b>y</b></iframe>z</p>',
    "style ends at its end tag inside a comment": '<p>a<style>x<!-- </style> -->y</style>z</p>',
    "escaped script data": '<p>a<script>x<!-- <script> </script> -->y</script>z</p>',
    "escaped, then ended": '<p>a<script>x<!--<script>--></script>y</script>b',
    "escape closed at once": '<p>a<script>x<!--></script>y</script>b',
    "escaped stretches without script tags": '<p>a<script>x<!-- y -- z --->w<!--->v</script>u</p>',
    "escaped, a </script> in it ends the script": '<p>a<script>x<!-- y </script>z --></p>',
    "comments of every ending": '<p>a<!-->b<!--->c<!-- d --!>e<!-- f -- >g-->h</p>',
    "script start inside a quoted value": '<p>a<div title="<script>">b</div>c</p>',
    "quote and unquoted values holding <script>": '<p>a<div title=\'x"<script>\' data-x=<script>>b</div>c</p>',
    "an attribute name starting with =": '<p>a<div ="x>y">b</div>c</p>',
    "= inside an unquoted value": '<p>a<div b=c=" d=" e>f</div>g</p>',
    "text elements hold no markup": '<p>a<xmp><b>y</b><script>q</script></xmp>z<textarea><!--c--><script>s</script>'
                                    '</textarea><title><b>q</b></title></p>',
    "self-closing script is empty": '<p>a<script src="x"/>b</script>c</p>',
    "a / ending an unquoted value closes nothing": '<p>a<iframe src=x/>b</iframe>c</p>',
    "bogus comments": '<p>a<!doctype x>b<?pi x?>c<![CDATA[d]]>e</ x>f</>g</3>h<3i</p>',
    "no script": '<p>a<scriptfoo>b</scriptfoo>c< script>d</script>e</p>',
    "json-ld stays": '<p>a<script TYPE=" Application/LD+JSON ">{"a":"</p>"}</script>c</p>',
    "noscript holds markup, nested": '<p>a<noscript><noscript>b</noscript>c<iframe></noscript></iframe>d</noscript>e</p>',
    "noscript in head": '<head><noscript><link rel=x><style>a{}</style></noscript></head><body><p>a</p></body>',
    "stray end tags": '<p>a</script>b</noscript>c</style>d',
    "a page ending in a tag": '<p>a<div title="x>b',
    "a page ending in a script end tag": '<p>a<script>x</script  ',
    "unclosed script": '<p>a<script>never closed <b>bold</b></p>',
    "unclosed comment": '<p>a<!-- never closed <b>bold</b></p>',
    "unclosed noscript": '<p>a<noscript>b<script>x</script><!-- c -->d',
    "plaintext": '<p>a<plaintext><script>x</script></plaintext>b',
}


@pytest.mark.parametrize("page", PAGES.values(), ids=PAGES.keys())
def test_the_cut_page_parses_to_the_tree_stripped_page(page):
    assert tree_stripped(CUTTER.cut(page).text) == tree_stripped(page)


def test_removals_are_counted_and_what_is_left_open_is_named():
    page = CUTTER.cut('<p>a<script>x</script><style>y</style><!--c--><noscript><script>z</script></noscript>'
                      '<iframe>f</iframe><p>b<script>open')
    assert dict(page.removed) == {"script": 2, "style": 1, "comment": 1, "noscript": 1, "iframe": 1}
    assert page.unclosed == "script"
    assert page.text == "<p>a<p>b<script>open"  # from the unclosed script on, the page is kept as it is


def test_meta_charset_declarations_say_utf8():
    page = CUTTER.cut('<head><meta charset="gbk"><meta http-equiv="Content-Type" content="text/html; charset=gbk">'
                      '<meta http-equiv=content-type><meta name="description" content="charset=gbk"></head>')
    assert page.text == ('<head><meta charset="utf-8"><meta http-equiv="Content-Type" '
                         'content="text/html; charset=utf-8"><meta http-equiv=content-type '
                         'content="text/html; charset=utf-8"><meta name="description" content="charset=gbk"></head>')


def test_only_the_elements_it_knows_can_be_cut():
    with pytest.raises(ValueError, match="cannot cut"):
        NoiseCutter(("script", "svg"), KEPT_TYPES)


class TokenByToken(NoiseCutter):
    """The cutter with its one-expression reading (and compiled scan of runs) narrowed to text: every tag, comment and element
    goes through the token-by-token reading (``_token``), which follows the tokenizer rule by rule.
    (``</>`` and ``<!doctype>``, which the expression keeps and ``_token`` reads as bogus comments,
    stay text: the parser ignores both alike.)"""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._run_end = None
        self._plain = self._plain_in_noscript = re.compile(r"(?P<run>(?:[^<]++|<(?![a-z!?/])|</>|<!doctype[^>]*+>)++)",
                                                           re.I | re.A)


def long_enough(content: str) -> bool:
    return "keep me" in content


# Pieces of pages: tags plainly written and not, with and without quotes, names that start like the
# names the expression stops at, elements cut and kept, charset declarations.
FRAGMENTS = ['text ', '<p>', '</p>', '<div class="a b">', '<div title="<script>">', "<a href='x>y'>", '<a href=x>',
             '<b x = y>', '<i "q">', "<span a=b=c d='e'>", '<img alt="a>b"/>', '<br/>', '</div >', '<section id=s>',
             '<scriptx>', '<sty>', '<textareax>', '<titles>', '<meta name=x>', '<metadata charset=y>',
             '<META CHARSET="gbk">', '<meta http-equiv="Content-Type" content="text/html; charset=gbk">',
             '<script>x<b>y</b></script>', '<SCRIPT src="a.js"></SCRIPT>', '<script type="application/ld+json">{}</script>',
             '<script>keep me <p>a</p></script>', '<script>x<!-- <script> </script> -->y</script>',
             '<style>a{}</style>', '<iframe src=x>f</iframe>', '<noscript>', '</noscript>', '<!-- c -->', '<!---->',
             '<!doctype html>', '</>', '<?pi?>', '< p>', '<', '>', '"', "'", '=', '/', '<title><b>t</title>',
             '<textarea><!--c--></textarea>', '<xmp><script>q</script></xmp>', '<p =x>', '<a/b>', '<a x="1"=y>',
             '<a/=b>', "<i '=x'>", '<b"=c>', '<a x=>', '<a x= "y">', '<a x="unclosed>']


@pytest.mark.parametrize("page", [*PAGES.values(), "".join(FRAGMENTS)], ids=[*PAGES.keys(), "all fragments"])
def test_the_one_expression_reads_pages_as_the_token_by_token_reading(page):
    cutters = [cls(("script", "style", "iframe", "noscript"), KEPT_TYPES, long_enough, 5) for cls in (NoiseCutter, TokenByToken)]
    fast, slow = (cutter.cut(page) for cutter in cutters)
    assert (fast.text, fast.removed, fast.unclosed) == (slow.text, slow.removed, slow.unclosed)


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(st.lists(st.sampled_from(FRAGMENTS), max_size=30))
def test_the_one_expression_reads_any_mix_of_fragments_as_the_token_by_token_reading(pieces):
    page = "".join(pieces)
    cutters = [cls(("script", "style", "iframe", "noscript"), KEPT_TYPES, long_enough, 5) for cls in (NoiseCutter, TokenByToken)]
    fast, slow = (cutter.cut(page) for cutter in cutters)
    assert (fast.text, fast.removed, fast.unclosed) == (slow.text, slow.removed, slow.unclosed)


def test_scripts_shorter_than_the_minimum_are_not_shown_to_the_text_check():
    shown = []
    cutter = NoiseCutter(("script",), KEPT_TYPES, lambda content: shown.append(content) or content == "kept text",
                         kept_script_min_chars=5)
    page = cutter.cut("<p>a<script>tiny</script>b<script>kept text</script>c<script src=x>other text</script>d")
    assert shown == ["kept text", "other text"]
    assert page.text == "<p>a" + "b<script>kept text</script>c" + "d"
    assert page.removed == {"script": 2}


def pattern_run_end(text: str, position: int, in_noscript: bool) -> int:
    found = _token_pattern(in_noscript).match(text, position)
    return found.end("run") if found is not None and found.start("run") >= 0 else position


@pytest.mark.needs_fastwalk
@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(st.lists(st.sampled_from(FRAGMENTS + ["<meta>charset", "<meta/http-equiv>", "<meta>", "</noscript>",
                                                        "</NoScript/>", "<!DOCTYPE", "é", "中", "\U0001f600"]),
                           max_size=30),
                  st.integers(min_value=0, max_value=5), st.booleans())
def test_the_compiled_scan_ends_a_run_where_the_expression_does(pieces, start, in_noscript):
    text = "".join(pieces)
    position = min(len("".join(pieces[:start])), len(text))
    assert fastwalk.compiled.run_end(text, position, in_noscript) == pattern_run_end(text, position, in_noscript)


@pytest.mark.needs_fastwalk
@pytest.mark.parametrize("in_noscript", [False, True])
def test_the_compiled_scan_ends_every_run_of_the_test_pages_where_the_expression_does(in_noscript):
    for text in [*PAGES.values(), "".join(FRAGMENTS), *FRAGMENTS, "<meta>charset", "<meta/http-equiv>", "<meta>",
                 "<META\tCharSet=x>", "<meta>x>charset", "<p></noscript><p></NoScript/>x", "<!DOCTYPE", "a<", "</"]:
        for position in range(len(text) + 1):
            assert fastwalk.compiled.run_end(text, position, in_noscript) == pattern_run_end(text, position, in_noscript), \
                (text, position)


@pytest.mark.needs_fastwalk
def test_the_compiled_scan_refuses_a_position_outside_the_text():
    assert fastwalk.compiled.run_end("<p>a", 4, False) == 4
    for position in (-1, 5):
        with pytest.raises(IndexError):
            fastwalk.compiled.run_end("<p>a", position, False)
