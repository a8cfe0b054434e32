"""Property test: ``extract`` never raises, whatever bytes or text it is given."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from newscrawl.extract import ExtractResult, extract

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TAGS = ["html", "head", "body", "title", "meta", "div", "p", "a", "span", "h1", "h2", "ul", "li", "table",
        "td", "tr", "script", "style", "form", "textarea", "img", "br", "article", "nav", "footer", "time",
        "iframe", "noscript", "pre", "blockquote", "figure", "svg", "math", "x-custom", "template"]
ATTRS = ["class", "id", "href", "src", "style", "charset", "content", "name", "property", "datetime",
         "type", "hidden", "onclick", "http-equiv", "itemprop", "data-src", "lang"]
WORDS = ["news", "江城", "发布时间：2018-09-02 10:40", "2018年09月02日", "Sep 2, 2018", "。", "，", ".", ",",
         "&nbsp;", "&amp;", "&#0;", "&#x110000;", "<!--", "-->", "<![CDATA[", "]]>", "\x00", "\ufeff",
         "application/ld+json", '{"@type":"NewsArticle","datePublished":"2018-09-02"}', "gbk", "utf-8",
         "javascript:alert(1)", "//cdn.example.org/x.jpg", "../a.html", "http://", "og:title"]

attribute = st.tuples(st.sampled_from(ATTRS), st.one_of(st.sampled_from(WORDS), st.text(max_size=20))).map(
    lambda kv: f' {kv[0]}="{kv[1]}"')
text_piece = st.one_of(st.sampled_from(WORDS), st.text(max_size=40))


def _element(children):
    return st.tuples(st.sampled_from(TAGS), st.lists(attribute, max_size=3), children, st.booleans()).map(
        lambda t: f"<{t[0]}{''.join(t[1])}>{''.join(t[2])}" + (f"</{t[0]}>" if t[3] else ""))


htmlish = st.recursive(text_piece, lambda children: _element(st.lists(children, max_size=6)), max_leaves=60)
documents = st.lists(htmlish, max_size=8).map("".join)


def _check(result) -> None:
    assert isinstance(result, ExtractResult)
    assert isinstance(result.text, str) and isinstance(result.html, str)
    if not result.is_article:
        assert isinstance(result.reason, str) and result.reason


@FUZZ
@given(st.binary(max_size=4000))
def test_never_raises_on_bytes(data):
    _check(extract(data))


@FUZZ
@given(st.text(max_size=2000))
def test_never_raises_on_text(text):
    _check(extract(text))


@FUZZ
@given(documents, st.sampled_from([None, "https://news.example.com/a/b.html", "not a url", "http://"]))
def test_never_raises_on_generated_html(html, url):
    _check(extract(html, url=url))
    _check(extract(html.encode("utf-8", "surrogatepass"), url=url))


# --- absolute links: the shortcut that skips urljoin ----------------------------------------------

URL_PIECES = ["http://", "https://", "HTTP://", "http:///", "example.org", "a.b", ":8080", "/", "//", "?", "#",
              "?#", ";", ";p", "x=1", "&", "%20", " ", "\t", "\n", "\r", "[", "]", "@", "..", ".", "é", "\x01"]
urls = st.lists(st.one_of(st.sampled_from(URL_PIECES), st.text(max_size=6)), max_size=8).map("".join)


@FUZZ
@given(urls, st.sampled_from(["http://example.com/a/b.html", "https://example.com/", "ftp://x.org/y"]))
@example("http://a.b/x?#top", "http://example.com/")
@example("http://a.b/x?", "http://example.com/")
@example("https://a.b/x#", "https://example.com/")
@example("http://a.b/x;", "http://example.com/")
@example("http:///a.b/x", "http://example.com/")
@example("http://a.b/x\ty", "http://example.com/")
@example("http://a.b/x?q=1#f", "http://example.com/")
def test_links_are_made_absolute_as_urljoin_does(url, base):
    """The shortcut for links that urljoin would return unchanged gives urljoin's answer."""
    from urllib.parse import urljoin

    from newscrawl.extract.output import _absolute, _is_plain_absolute
    value = url.strip()
    try:
        joined = urljoin(base, value)
    except ValueError:
        joined = value
    if _is_plain_absolute(value):
        assert joined == value
    assert _absolute(base, url) == joined
