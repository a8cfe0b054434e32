"""Fuzz ``extract`` with hypothesis: many generated hostile inputs, no exception allowed.

Four input families share the run: raw bytes, raw text, generated HTML-ish
documents (random tags, attributes, entities, charsets, comments, CDATA, JSON-LD,
unclosed and deep nesting), and byte mutations of the project's own test pages
(tests/pages/*/source.html: cut, spliced, bytes flipped, chunks repeated). Every
result must be an ``ExtractResult`` with string text/html and, when it is not an
article, a reason.

    python benchmarks/fuzz_extract.py                  # 100,000 inputs (about 6-10 minutes on 2 cores)
    python benchmarks/fuzz_extract.py --examples 2000  # a quick look

Prints the number of inputs per family, the total, the time and inputs/s; exits 1
on the first exception (hypothesis shrinks it and prints the falsifying input).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from newscrawl.extract import ExtractResult, extract  # noqa: E402

TAGS = ["html", "head", "body", "title", "meta", "div", "p", "a", "span", "h1", "h2", "h3", "ul", "li", "table",
        "td", "tr", "script", "style", "form", "textarea", "input", "img", "br", "article", "main", "nav",
        "footer", "header", "aside", "time", "iframe", "noscript", "pre", "code", "blockquote", "figure",
        "figcaption", "svg", "math", "x-custom", "template", "select", "option", "frameset", "base", "link"]
ATTRS = ["class", "id", "href", "src", "style", "charset", "content", "name", "property", "datetime", "type",
         "hidden", "onclick", "http-equiv", "itemprop", "data-src", "lang", "rel", "aria-hidden", "dir",
         "xmlns", "xml:lang", "a" * 300, "on\x00load", "\u6807\u9898"]
WORDS = ["news", "江城日报", "发布时间：2018-09-02 10:40", "2018年09月02日", "Sep 2, 2018", "31/12/1999",
         "。", "，", "！", ".", ",", ";", "&nbsp;", "&amp;", "&#0;", "&#x110000;", "&#xD800;", "&lt;p&gt;",
         "&bogus;", "<!--", "-->", "<![CDATA[", "]]>", "<?xml version='1.0'?>", "<!DOCTYPE html>",
         "<!DOCTYPE x [<!ENTITY a 'aaaa'>]>", "\x00", "\x0b", "\x1f", "\ufeff", "\ufffe", "\u202e", "\U0001f600",
         "application/ld+json", '{"@type":"NewsArticle","datePublished":"2018-09-02","headline":"H"}',
         '{"@graph":[{"@type":["NewsArticle"],"author":{"name":["A",{"x":1}]}}]}', "{[}", "gbk", "utf-8",
         "utf-16", "x-unknown-charset", "javascript:alert(1)", "//cdn.example.org/x.jpg", "../a.html",
         "http://", "http://[::1", "og:title", "article:published_time", "By Jane Doe", "Read more:",
         "All rights reserved", "\r\n", "\r", "\u2028", "\t" * 20, "x" * 500]
CHARSETS = ["utf-8", "gbk", "gb18030", "big5", "latin-1", "utf-16-le", "shift_jis"]


def build_document(seed: int) -> str:
    """A random HTML-ish document from the vocabularies above, reproducible from its seed.

    Built with ``random.Random(seed)`` rather than nested hypothesis strategies: generation is
    ~100x cheaper, so the run spends its time in ``extract``; a failing seed is printed by hypothesis.
    """
    rng = random.Random(seed)
    parts: list[str] = []
    open_tags: list[str] = []
    for _ in range(rng.randint(0, 400)):
        roll = rng.random()
        if roll < 0.35:
            tag = rng.choice(TAGS)
            attributes = "".join(f' {rng.choice(ATTRS)}="{_piece(rng)}"' for _ in range(rng.randint(0, 4)))
            parts.append(f"<{tag}{attributes}>")
            open_tags.append(tag)
        elif roll < 0.55 and open_tags:
            parts.append(f"</{open_tags.pop() if rng.random() < 0.8 else rng.choice(TAGS)}>")
        elif roll < 0.58:
            depth = rng.randint(1, 300)
            parts.append(f"<{rng.choice(TAGS)}>" * depth)
        else:
            parts.append(_piece(rng))
    return "".join(parts)


def _piece(rng: random.Random) -> str:
    if rng.random() < 0.7:
        return rng.choice(WORDS)
    return "".join(chr(rng.choice((rng.randint(0, 0x7F), rng.randint(0, 0xD7FF), rng.randint(0xE000, 0x10FFFF))))
                   for _ in range(rng.randint(0, 40)))


DOCUMENTS = st.integers(0, 2**64 - 1).map(build_document)


def _seed_pages() -> list[bytes]:
    pages = sorted((REPO_ROOT / "tests" / "pages").glob("*/source.html"))
    return [path.read_bytes() for path in pages] or [b"<html><body><p>seed</p></body></html>"]


SEEDS = _seed_pages()


def _mutate(seed: bytes, cuts: list[tuple[int, int, int]]) -> bytes:
    """Apply (kind, position, size) edits: 0 cut, 1 flip a byte, 2 repeat a chunk, 3 insert junk."""
    data = bytearray(seed)
    for kind, position, size in cuts:
        if not data:
            break
        at = position % len(data)
        if kind == 0:
            del data[at:at + size]
        elif kind == 1:
            data[at] ^= (size % 255) + 1
        elif kind == 2:
            data[at:at] = bytes(data[at:at + size]) * 3
        else:
            data[at:at] = bytes((position + i * 37) % 256 for i in range(size % 64))
    return bytes(data)


MUTATED = st.tuples(st.sampled_from(SEEDS), st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 1 << 20), st.integers(1, 2000)), min_size=1, max_size=6)).map(
    lambda t: _mutate(*t))

COUNTS: dict[str, int] = {}


def _check(family: str, result) -> None:
    COUNTS[family] = COUNTS.get(family, 0) + 1
    assert isinstance(result, ExtractResult)
    assert isinstance(result.text, str) and isinstance(result.html, str)
    if not result.is_article:
        assert isinstance(result.reason, str) and result.reason


def _families(examples: int):
    """The four fuzz tests; documents are checked twice each (text and bytes), so they get half the examples."""
    def run(count: int):
        return settings(max_examples=max(1, count), deadline=None, database=None,
                        phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))

    @run(examples)
    @given(st.binary(max_size=6000), st.sampled_from([None, *CHARSETS]))
    def fuzz_bytes(data, encoding):
        _check("bytes", extract(data, encoding=encoding))

    @run(examples)
    @given(st.text(max_size=3000))
    def fuzz_text(text):
        _check("text", extract(text))

    @run(examples // 2)
    @given(DOCUMENTS, st.sampled_from([None, "https://news.example.com/a/b.html", "not a url", "http://"]),
           st.sampled_from(CHARSETS))
    def fuzz_documents(html, url, charset):
        _check("documents", extract(html, url=url))
        _check("documents", extract(html.encode(charset, "replace"), url=url))

    @run(examples)
    @given(MUTATED)
    def fuzz_mutated_pages(data):
        _check("mutated_pages", extract(data, url="https://news.example.com/2018/09/02/story.html"))

    return [fuzz_bytes, fuzz_text, fuzz_documents, fuzz_mutated_pages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000, help="inputs in all (default 100,000)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    for test in _families(max(1, args.examples // 4)):
        test()
        print(f"{test.__name__}: done ({time.perf_counter() - started:.0f} s so far)", flush=True)
    elapsed = time.perf_counter() - started
    total = sum(COUNTS.values())
    for family, number in COUNTS.items():
        print(f"  {family:14s} {number:8,d} inputs")
    print(f"total {total:,d} inputs, 0 exceptions, {elapsed:.0f} s, {total / elapsed:.0f} inputs/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
