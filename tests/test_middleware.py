"""StripNoiseMiddleware and SiteOffsiteMiddleware, through a test crawler and its stats."""
from __future__ import annotations

from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from newscrawl.crawl.middlewares import SiteOffsiteMiddleware, StripNoiseMiddleware
from newscrawl.extract import extract
from newscrawl.spiders.news import NewsSpider

PAGE = b"""<!DOCTYPE html><html><head><title>T</title>
<script>var tracker = "SCRIPT-NOISE";</script>
<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Kept headline"}</script>
<style>.x { color: red } /* STYLE-NOISE */</style></head>
<body><!-- COMMENT-NOISE --><p>Body text stays.</p><iframe src="/ad">IFRAME-NOISE</iframe>
<noscript>NOSCRIPT-NOISE</noscript><p>Tail <script>SCRIPT2</script>after script.</p></body></html>"""


@pytest.fixture
def crawler():
    return get_crawler(settings_dict={})


def _run(crawler, response, meta=None):
    middleware = StripNoiseMiddleware.from_crawler(crawler)
    request = Request(response.url, meta=meta or {})
    return middleware.process_response(request, response)


def test_noise_is_removed_json_ld_kept_and_counted(crawler):
    response = HtmlResponse("http://a.test/x", body=PAGE, headers={"Content-Type": "text/html; charset=utf-8"})
    result = _run(crawler, response)
    text = result.text
    for noise in ("SCRIPT-NOISE", "STYLE-NOISE", "COMMENT-NOISE", "IFRAME-NOISE", "NOSCRIPT-NOISE", "SCRIPT2"):
        assert noise not in text
    assert "Kept headline" in text and "Body text stays." in text
    assert "Tail after script." in " ".join(result.xpath("//p[2]//text()").getall()).replace("  ", " ")
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/middleware/removed/script"] == 2
    assert stats["newscrawl/middleware/removed/style"] == 1
    assert stats["newscrawl/middleware/removed/iframe"] == 1
    assert stats["newscrawl/middleware/removed/noscript"] == 1
    assert stats["newscrawl/middleware/removed/comment"] == 1


@pytest.mark.parametrize("header", ["text/html", "text/html; charset=gbk"])
def test_gbk_page_stays_readable(crawler, header):
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk"><title>新闻</title>'
            '</head><body><p>江城地铁五号线开通试运营。</p><script>x="噪声"</script></body></html>').encode("gbk")
    result = _run(crawler, HtmlResponse("http://a.test/n", body=page, headers={"Content-Type": header}))
    assert result.encoding == "utf-8"
    assert result.headers[b"Content-Type"] == b"text/html; charset=utf-8"
    assert "江城地铁五号线开通试运营。" in result.text and "噪声" not in result.text
    assert "gbk" not in result.text  # no in-document declaration contradicts the UTF-8 body
    assert "江城地铁五号线开通试运营。".encode("utf-8") in result.body


def test_undeclared_gbk_page_is_decoded(crawler):
    page = "<html><body><p>城西湿地公园迎来候鸟归来，观鸟爱好者记录到三十多种鸟类。</p></body></html>".encode("gbk")
    result = _run(crawler, HtmlResponse("http://a.test/n", body=page, headers={"Content-Type": "text/html"}))
    assert "城西湿地公园迎来候鸟归来" in result.text


@pytest.mark.parametrize("response, meta", [
    (XmlResponse("http://a.test/feed.xml", body=b"<rss><script>x</script></rss>"), {}),
    (TextResponse("http://a.test/a.txt", body=b"<script>x</script>", headers={"Content-Type": "text/plain"}), {}),
    (HtmlResponse("http://a.test/f", body=b"<rss><script>x</script></rss>"), {"newscrawl_source": "feed"}),
    (HtmlResponse("http://a.test/e", status=404, body=b"<html><script>x</script></html>"), {}),
    (HtmlResponse("http://a.test/j", body=b"{}<script>", headers={"Content-Type": "application/json"}), {}),
])
def test_other_responses_pass_untouched(crawler, response, meta):
    assert _run(crawler, response, meta) is response
    assert not crawler.stats.get_stats()


def test_disabled_by_setting():
    with pytest.raises(NotConfigured):
        StripNoiseMiddleware.from_crawler(get_crawler(settings_dict={"NEWSCRAWL_STRIP_ENABLED": False}))


def test_offsite_is_judged_per_site(tmp_path):
    sites = tmp_path / "sites.yaml"
    sites.write_text("sites:\n- name: a\n  start_urls: ['http://a.test/']\n"
                     "- name: b\n  start_urls: ['http://b.test/']\n  allowed_domains: [b.test, cdn.b.test]\n")
    crawler = get_crawler(NewsSpider)
    crawler.spider = NewsSpider.from_crawler(crawler, sites=str(sites))
    middleware = SiteOffsiteMiddleware.from_crawler(crawler)
    middleware.spider_opened(crawler.spider)
    middleware.process_request(Request("http://a.test/x", meta={"newscrawl_site": "a"}))
    middleware.process_request(Request("http://img.cdn.b.test/x", meta={"newscrawl_site": "b"}))
    for url, site in [("http://b.test/x", "a"), ("http://169.254.169.254/latest", "a"), ("http://a.test/", "b")]:
        with pytest.raises(IgnoreRequest):
            middleware.process_request(Request(url, meta={"newscrawl_site": site}))
    assert crawler.stats.get_value("offsite/filtered") == 3


def test_an_unclosed_script_is_counted_and_the_rest_of_the_page_kept(crawler):
    page = b"<html><body><p>Lead paragraph.</p><script>var a = 1;<p>The rest of the story.</p></body></html>"
    result = _run(crawler, HtmlResponse("http://a.test/u", body=page, headers={"Content-Type": "text/html"}))
    assert b"<script>var a = 1;<p>The rest of the story.</p>" in result.body  # not cut: the parser judges it
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/middleware/unclosed/script"] == 1
    assert "newscrawl/middleware/removed/script" not in stats


def test_the_stripped_page_is_not_decoded_again(crawler, monkeypatch):
    """Scrapy's meta-refresh check and the base URL read ``response.text``: it is the cut text."""
    import scrapy.http.response.text as text_response

    response = HtmlResponse("http://a.test/x", body=PAGE, headers={"Content-Type": "text/html; charset=utf-8"})
    result = _run(crawler, response)

    def decoded_again(*args, **kwargs):
        raise AssertionError("the body was decoded again")

    monkeypatch.setattr(text_response, "html_to_unicode", decoded_again)
    assert result.text == result.body.decode("utf-8") and "Body text stays." in result.text


def test_an_undeclared_page_is_not_guessed_by_scrapy_too(crawler, monkeypatch):
    """The middleware decodes the page itself; Scrapy's charset guess over the whole body is not run."""
    import scrapy.http.response.text as text_response

    def guessed(*args, **kwargs):
        raise AssertionError("Scrapy guessed the encoding")

    monkeypatch.setattr(text_response, "from_bytes", guessed)
    page = "<html><body><p>城西湿地公园迎来候鸟归来。</p><script>x</script></body></html>".encode("gbk")
    result = _run(crawler, HtmlResponse("http://a.test/n", body=page, headers={"Content-Type": "text/html"}))
    assert "城西湿地公园迎来候鸟归来" in result.text and "<script>" not in result.text


@pytest.mark.parametrize("page, kept, cut", [
    (b'<div title="<script>">Kept title</div><p>Kept text</p>', "Kept text", None),
    (b"<script>a<!--<script></script>-->b</script><p>After</p>", "After", "-->b"),
    (b"<textarea><script>typed</script></textarea><p>After</p>", "typed", None),
])
def test_elements_end_where_the_tokenizer_ends_them(crawler, page, kept, cut):
    result = _run(crawler, HtmlResponse("http://a.test/t", body=b"<html><body>" + page + b"</body></html>",
                                        headers={"Content-Type": "text/html; charset=utf-8"}))
    assert kept in result.text
    assert cut is None or cut not in result.text


PAGE_CASES = Path(__file__).resolve().parent / "pages"


@pytest.mark.parametrize("case", sorted(p.name for p in PAGE_CASES.iterdir() if (p / "source.html").is_file()))
def test_the_extractor_finds_on_the_stripped_page_what_it_finds_on_the_page(crawler, case):
    """Stripping is invisible to the extractor: each page case, stripped as the crawl strips it, gives
    the extraction the page itself gives (an article carried in a script string included)."""
    body = (PAGE_CASES / case / "source.html").read_bytes()
    url = f"http://site.test/news/{case}.html"
    stripped = _run(crawler, HtmlResponse(url, body=body, headers={"Content-Type": "text/html"}))
    alone, after = extract(body, url), extract(stripped.body, url, encoding="utf-8")
    assert (after.is_article, after.title, after.text) == (alone.is_article, alone.title, alone.text)


def test_a_script_is_kept_only_when_it_carries_paragraph_markup(crawler):
    """A script holding an article as escaped markup in a string stays; code that merely writes a
    few <p> tags, or a short string of them, goes."""
    paragraphs = "".join(f"\\u003cp\\u003eParagraph {n} of the story, with a sentence or two of prose in it.\\u003c/p\\u003e"
                         for n in range(20))
    carried = f'<script>self.__next_f.push([1,"{paragraphs}"])</script>'
    widget = "<script>" + "var x = 1;" * 200 + 'el.innerHTML = "<p>Loading</p>";</script>'
    upper = carried.replace("\\u003cp", "\\u003CP").replace("Paragraph ", "Upper paragraph ")
    short = '<script>t("<p>a</p><p>b</p><p>c</p>")</script>'
    body = f"<html><body><main>{carried}{upper}{widget}{short}</main></body></html>".encode()
    text = _run(crawler, HtmlResponse("http://a.test/x", body=body, headers={"Content-Type": "text/html"})).text
    assert "Paragraph 19 of the story" in text
    assert "Upper paragraph 19 of the story" in text   # escapes written in capitals ("\u003CP") too
    assert "var x = 1;" not in text and "<p>a</p>" not in text
