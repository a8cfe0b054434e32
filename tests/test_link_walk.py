"""The link walk of a page that fits one parse chunk: the same links, in the same order, as the chunked
walk of larger pages. What the walk costs is measured by ``benchmarks/link_walk.py`` (``--check``), not here."""
from __future__ import annotations

import pytest

from newscrawl.crawl import discovery
from newscrawl.crawl.discovery import page_links

BASE = "http://news.example/section/"
PAGES = {
    "plain": b'<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml">'
             b'<link rel="stylesheet" href="/s.css"></head><body><a href="/a-1">a</a><a href="b-2">b</a>'
             b'<a href="/a-1">again</a><area href="/map"><a href="javascript:void(0)">j</a>'
             b'<a href="/file.pdf">f</a><a href=" /spaced ">s</a><a>no href</a></body></html>',
    "nested links": b'<html><body><a href="/outer"><span><a href="/inner">i</a></span>o</a>'
                    b'<a href="/x"><link rel="alternate" type="application/atom+xml" href="/atom"></a>'
                    b'<map><area href="/m1"><a href="/m2">m</a></map></body></html>',
    "unclosed and broken": b'<html><body><div><p><a href="/one">1<p><a href="/two">2</div>'
                           b'<table><tr><td><a href="/three">3</table><a href=/four>4<a href="/five',
    "comments and scripts": b'<body><!-- <a href="/commented">c</a> --><script>var s = \'<a href="/in-script">\';'
                            b'</script><a href="/real">r</a><?pi <a href="/pi"> ?><noscript><a href="/ns">n</a>'
                            b'</noscript><template><a href="/tpl">t</a></template></body>',
    "long href": b'<body><a href="/' + b"h" * 300 + b'">long</a><a href="/short">s</a></body>',
    "no markup": b"just text, no tags",
    "latin-1": '<html><head><meta charset="iso-8859-1"></head><body><a href="/caf\xe9">c</a>'
               '<a href="/na\xefve">n</a></body></html>'.encode("latin-1"),
}


def _links(body: bytes, encoding: str) -> list:
    return [link if link is None else (link.url, link.feed) for link in page_links(body, encoding, BASE, 200)]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_parsed_whole_gives_the_links_of_the_chunked_walk(name, monkeypatch):
    body = PAGES[name]
    encoding = "cp1252" if name == "latin-1" else "utf-8"
    whole = _links(body, encoding)
    monkeypatch.setattr(discovery, "PARSE_CHUNK_BYTES", 16)  # the same page, walked 16 bytes at a time
    assert _links(body, encoding) == whole
    if name == "plain":
        assert whole == [("http://news.example/feed.xml", True), ("http://news.example/a-1", False),
                         ("http://news.example/section/b-2", False), ("http://news.example/map", False),
                         ("http://news.example/spaced", False)]
    if name == "long href":
        assert whole == [None, ("http://news.example/short", False)]

