"""Read feeds (RSS, Atom, JSON Feed), sitemaps (urlset, index, news) and robots.txt.

XML is parsed with entities unresolved, no network and no huge trees, so an
entity bomb or a remote DTD never expands. Parsers return small dataclasses;
a malformed document gives ``kind == "malformed"`` and no entries (a JSON Feed
cut short after its items begin: those before the damage, then ``damaged``). Entries and
page links are produced lazily, one at a time: a caller that has what it needs
(its site's page budget spent) leaves the rest of a 900,000-entry feed unread.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable, Iterator
from datetime import datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin, urlsplit

import lxml.etree
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.utils.gz import gunzip

from .crawl_patterns import FEED_LINK_TYPES

_GZIP_MAGIC = b"\x1f\x8b"
# Link targets that are files, not pages (Scrapy's own list: images, audio, video, office, archives).
_FILE_EXTENSION_RE = re.compile(r"\.(?:%s)$" % "|".join(map(re.escape, IGNORED_EXTENSIONS)), re.I)
_NOT_PAGE_SCHEMES = ("javascript:", "mailto:", "tel:", "data:", "#", "sms:", "ftp:")
# bytes of a page parsed between two looks at its links (lxml parses 256 KiB of links in ~30 ms)
PARSE_CHUNK_BYTES = 256 * 1024
_LINK_TAGS = frozenset({"a", "area", "link"})  # elements whose href page_links reads
NEWS_PROBE_ENTRIES = 10  # sitemap entries looked at for the news extension before a sitemap is called plain


@dataclass(frozen=True)
class Entry:
    """A page a feed or sitemap points to, with what it says about the page."""

    url: str
    published: str | None = None
    title: str | None = None


@dataclass
class Listing:
    """A parsed feed or sitemap. ``kind``: rss, atom, rdf, jsonfeed, urlset, sitemapindex, text, malformed."""

    kind: str
    entries: Iterable[Entry] = field(default_factory=list)  # lazy: read once
    news: bool = False
    damaged: bool = False  # set when reading the entries met damage (a JSON Feed cut short): the rest is lost

    @property
    def is_index(self) -> bool:
        return self.kind == "sitemapindex"


def _xml_parser() -> lxml.etree.XMLParser:
    return lxml.etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True,
                                remove_comments=True, remove_pis=True, load_dtd=False)


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _child(element, name: str):
    for child in element:
        if _local(child.tag) == name:
            return child
    return None


def _text(element, *names: str) -> str | None:
    for name in names:
        child = _child(element, name)
        if child is not None and child.text and child.text.strip():
            return child.text.strip()
    return None


def normalize_date(value: str | None) -> str | None:
    """An ISO 8601 string from an RFC 822 or ISO date; None when unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        try:
            moment = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
    if moment.tzinfo is None and len(value) <= 10:
        return moment.date().isoformat()
    return moment.isoformat()


def maybe_gunzip(body: bytes, max_size: int) -> bytes:
    """The body, gunzipped when it is gzip data (a .xml.gz sitemap); raises ValueError past max_size."""
    if body[:2] != _GZIP_MAGIC:
        return body
    try:
        return gunzip(body, max_size=max_size)
    except (OSError, EOFError) as exc:
        raise ValueError(f"bad gzip data: {exc}") from exc


def _parse_xml(body: bytes):
    try:
        root = lxml.etree.fromstring(body, _xml_parser())
    except lxml.etree.XMLSyntaxError:
        return None
    return root


def _rss_entries(root, base_url: str) -> Iterator[Entry]:
    for item in root.iter():
        if _local(item.tag) != "item":
            continue
        link = _text(item, "link") or _rss_guid_link(item)
        if link:
            published = _text(item, "pubdate", "date", "published", "updated")
            yield Entry(urljoin(base_url, link), normalize_date(published), _text(item, "title"))


def _rss_guid_link(item) -> str | None:
    guid = _child(item, "guid")
    if guid is None or (guid.get("isPermaLink") or "true").lower() == "false":
        return None
    text = (guid.text or "").strip()
    return text if text.startswith(("http://", "https://")) else None


def _atom_entries(root, base_url: str) -> Iterator[Entry]:
    for entry in root:
        if _local(entry.tag) != "entry":
            continue
        href = None
        for link in entry:
            if _local(link.tag) == "link" and link.get("rel", "alternate") == "alternate" and link.get("href"):
                href = link.get("href")
                break
        if href:
            published = _text(entry, "published", "updated", "issued")
            yield Entry(urljoin(base_url, href), normalize_date(published), _text(entry, "title"))


def _json_feed(body: bytes, base_url: str) -> Listing:
    """A JSON Feed whose items are parsed one at a time, as the caller reads them: a 900,000-item feed
    never becomes 900,000 dicts at once (a whole-document parse of one took ~300 MB and held the event
    loop for seconds, benchmarks/hostile_memory.py listing). Damage after the items begin ends the
    entries there: the ones before it are kept."""
    try:
        text = body.decode("utf-8-sig")
        start = _json_items_start(text)
    except (ValueError, UnicodeDecodeError):
        return Listing("malformed")
    if start is None:
        return Listing("malformed")
    listing = Listing("jsonfeed")
    listing.entries = _json_entries(_json_array_values(text, start, listing), base_url)
    return listing


_JSON = json.JSONDecoder()
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _json_skip_space(text: str, index: int) -> int:
    return _JSON_SPACE.match(text, index).end()


def _json_items_start(text: str) -> int | None:
    """Where the values of the top-level object's ``items`` array begin (after its ``[``); None when the
    document is no object or has no such array. Raises ValueError on bad JSON before it."""
    index = _json_skip_space(text, 0)
    if text[index:index + 1] != "{":
        return None
    index = _json_skip_space(text, index + 1)
    while text[index:index + 1] == '"':
        key, index = _JSON.raw_decode(text, index)
        index = _json_skip_space(text, index)
        if text[index:index + 1] != ":":
            raise ValueError(f"':' expected at character {index}")
        index = _json_skip_space(text, index + 1)
        if key == "items":
            return index + 1 if text[index:index + 1] == "[" else None
        index = _json_skip_space(text, _JSON.raw_decode(text, index)[1])
        if text[index:index + 1] != ",":
            return None  # the object's end, or damage
        index = _json_skip_space(text, index + 1)
    return None


def _json_array_values(text: str, index: int, listing: Listing) -> Iterator[object]:
    """The values of a JSON array from ``index`` (just after its ``[``), parsed one at a time, up to its
    ``]`` or the first damage (then ``listing.damaged``)."""
    index = _json_skip_space(text, index)
    if text[index:index + 1] == "]":
        return
    while True:
        try:
            value, index = _JSON.raw_decode(text, index)
        except ValueError:
            listing.damaged = True
            return
        yield value
        index = _json_skip_space(text, index)
        if text[index:index + 1] != ",":
            listing.damaged = text[index:index + 1] != "]"
            return
        index = _json_skip_space(text, index + 1)


def _json_entries(items: Iterable[object], base_url: str) -> Iterator[Entry]:
    for item in items:
        if not isinstance(item, dict):
            continue
        url = item.get("url") or item.get("external_url")
        if isinstance(url, str) and url.strip():
            published = item.get("date_published") if isinstance(item.get("date_published"), str) else None
            title = item.get("title") if isinstance(item.get("title"), str) else None
            yield Entry(urljoin(base_url, url.strip()), normalize_date(published), title)


def parse_feed(body: bytes, base_url: str) -> Listing:
    """Entries of an RSS 2.0, RSS 1.0 (RDF), Atom or JSON Feed document."""
    if body.lstrip()[:1] == b"{":
        return _json_feed(body, base_url)
    root = _parse_xml(body)
    if root is None:
        return Listing("malformed")
    kind = _local(root.tag)
    if kind == "feed":
        return Listing("atom", _atom_entries(root, base_url))
    if kind in ("rss", "rdf"):
        return Listing(kind, _rss_entries(root, base_url))
    return Listing("malformed")


def _sitemap_entry(element, base_url: str) -> Entry | None:
    loc = _text(element, "loc")
    if not loc:
        return None
    published = _text(element, "lastmod")
    title = None
    news = _child(element, "news")
    if news is not None:
        published = _text(news, "publication_date") or published
        title = _text(news, "title")
    return Entry(urljoin(base_url, loc), normalize_date(published), title)


def parse_sitemap(body: bytes, base_url: str) -> Listing:
    """Entries of a sitemap urlset or sitemap index (news extension read), or a plain-text URL list."""
    stripped = body.lstrip()
    if stripped[:4].lower() in (b"http",):
        lines = (line.strip() for line in stripped.decode("utf-8", "replace").splitlines())
        return Listing("text", (Entry(u) for u in lines if u.startswith(("http://", "https://"))))
    root = _parse_xml(body)
    if root is None:
        return Listing("malformed")
    kind = _local(root.tag)
    if kind not in ("urlset", "sitemapindex"):
        return Listing("malformed")
    wanted = "url" if kind == "urlset" else "sitemap"
    elements = (element for element in root if _local(element.tag) == wanted)
    # a news sitemap says so on its first entries (Google's news sitemaps: every entry)
    news = any(_child(element, "news") is not None for element in islice(elements, NEWS_PROBE_ENTRIES))
    elements = (element for element in root if _local(element.tag) == wanted)
    entries = (entry for element in elements if (entry := _sitemap_entry(element, base_url)) is not None)
    return Listing(kind, entries, news)


@dataclass(frozen=True)
class PageLink:
    """A link of a page: an <a>/<area> target, or a feed a <link rel="alternate"> announces."""

    url: str
    feed: bool = False


def page_links(body: bytes, encoding: str, base_url: str, max_length: int) -> Iterator[PageLink | None]:
    """The links of an HTML page, in page order, files and non-web schemes left out; None for an href
    longer than ``max_length`` characters (never joined: the caller counts it).

    A page of up to PARSE_CHUNK_BYTES is parsed whole and only its link elements are visited, in
    the same order (element ends). A larger one is parsed PARSE_CHUNK_BYTES at a time and what was
    read is dropped as it goes, so a caller that stops early parses only that far, a caller that
    pauses between links lets other work run, and a page of 750,000 links never becomes one tree.
    (Scrapy's LinkExtractor costs ~10 ms on a page with 100 links; a whole-page parse of a 13 MB
    list of links held the event loop 2.6 s.)
    """
    if len(body) <= PARSE_CHUNK_BYTES:
        return _whole_page_links(body, encoding, base_url, max_length)
    return _chunked_page_links(body, encoding, base_url, max_length)


def _html_options(encoding: str) -> dict:
    return {"encoding": encoding, "remove_comments": True, "remove_pis": True, "no_network": True}


def _whole_page_links(body: bytes, encoding: str, base_url: str, max_length: int) -> Iterator[PageLink | None]:
    """page_links of a page parsed at once. The chunked walk visits every element of the page in
    Python and trims the tree after each link; here lxml's walk hands out the link elements only:
    the same links, 6.6 against 9.0 ms of CPU a page on 360 pages of ../shared/eval (77.8 KB on
    average, ``python benchmarks/link_walk.py``). The tree is the caller's alone (no parser keeps
    it), so refcounting frees it."""
    try:
        root = lxml.etree.fromstring(body, lxml.etree.HTMLParser(**_html_options(encoding)))
    except lxml.etree.LxmlError:  # nothing in it to parse (as the pull parser's close says)
        return
    if root is None:
        return
    seen: set[str] = set()
    for _, element in lxml.etree.iterwalk(root, events=("end",), tag=_LINK_TAGS):
        link = _link_of(element, base_url, max_length, seen)
        if link is not _NO_LINK:
            yield link


def _chunked_page_links(body: bytes, encoding: str, base_url: str, max_length: int) -> Iterator[PageLink | None]:
    # No ``tag=`` filter: lxml's tag matcher keeps the parser and its document in a reference cycle (see
    # _release), so every page walked stayed in memory a while (benchmarks/hostile_memory.py hrefs)
    parser = lxml.etree.HTMLPullParser(events=("end",), **_html_options(encoding))
    seen: set[str] = set()
    try:
        for start in range(0, len(body), PARSE_CHUNK_BYTES):
            parser.feed(body[start:start + PARSE_CHUNK_BYTES])
            yield from _read_links(parser, base_url, max_length, seen)
        try:
            parser.close()
        except lxml.etree.LxmlError:
            return
        yield from _read_links(parser, base_url, max_length, seen)
    finally:  # also when the caller stops early (its budget spent)
        _release(parser)


def _release(parser) -> None:
    """Close the pull parser and drop its unread events. While it is open or holds events, the parser
    and its document refer to each other: their C memory (tree and input buffer, as large as the page)
    would wait for a full garbage collection, which a crawl with a raised gc threshold seldom runs."""
    try:
        parser.close()
    except lxml.etree.LxmlError:  # closed already, or nothing parsed
        pass
    for _ in parser.read_events():
        pass


def _read_links(parser, base_url: str, max_length: int, seen: set[str]) -> Iterator[PageLink | None]:
    for _, element in parser.read_events():
        if element.tag not in _LINK_TAGS:
            continue
        link = _link_of(element, base_url, max_length, seen)
        _drop_what_was_read(element)
        if link is not _NO_LINK:
            yield link


_NO_LINK = object()  # what _link_of returns for an element that gives no link


def _link_of(element, base_url: str, max_length: int, seen: set[str]):
    """The PageLink of an <a>, <area> or <link> element, None for an href over ``max_length``
    characters, _NO_LINK for none (no href, not a feed, a file, another scheme, seen before)."""
    href = element.get("href")
    feed = element.tag == "link"
    if href is None or feed and not _announces_feed(element):
        return _NO_LINK
    if len(href) > max_length:
        return None
    href = href.strip()
    if not href or href.lower().startswith(_NOT_PAGE_SCHEMES) or href in seen:
        return _NO_LINK
    seen.add(href)
    url = urljoin(base_url, href)
    if url.startswith(("http://", "https://")) and (feed or not _FILE_EXTENSION_RE.search(urlsplit(url).path)):
        return PageLink(url, feed)
    return _NO_LINK


def _announces_feed(link) -> bool:
    rel = (link.get("rel") or "").lower().split()
    return "alternate" in rel and (link.get("type") or "").lower().strip() in FEED_LINK_TYPES


def _drop_what_was_read(element) -> None:
    """Remove the elements before ``element`` (all read) from the tree the pull parser builds."""
    element.clear(keep_tail=False)
    for node in (element, *element.iterancestors()):
        parent = node.getparent()
        while parent is not None and node.getprevious() is not None:
            del parent[0]


def sitemaps_from_robots(text: str, base_url: str) -> list[str]:
    """The ``Sitemap:`` URLs of a robots.txt."""
    urls = []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "sitemap" and value.strip():
            urls.append(urljoin(base_url, value.strip()))
    return urls


