"""Edge cases of ``newscrawl.extract.extract``: odd input never raises, bad input gives a reason.

Also the promises of the cleaned HTML: no scripts, styles, event handlers or
inline CSS, and absolute img/a addresses when the page URL is known.
"""
from __future__ import annotations

import random
import time
from datetime import datetime

import lxml.etree
import lxml.html
import pytest

from newscrawl.extract import ExtractResult, extract
from newscrawl.extract.content import choose_content
from newscrawl.extract.density import DensityTable
from newscrawl.extract.dom import clean_tree, decode_html, decoded_page, parse_html, without_control_chars
from newscrawl.extract.language import guess_language
from newscrawl.extract.options import DEFAULT_OPTIONS
from newscrawl.extract.output import render_text

PARAGRAPHS_EN = [
    "The regional water board approved a plan on Monday to replace the ageing pipes under the old town, "
    "a project that engineers say will cut leaks by nearly a third.",
    "Work will start in the spring and move street by street, so that no household loses its supply for "
    "more than a day at a time, according to the board's chief engineer.",
    "Residents who attended the meeting asked how long the roads would stay closed, and whether the shops "
    "on the market square would be able to receive deliveries during the works.",
    "The board said it would publish a timetable for each street at least a month before digging begins, "
    "and set up a telephone line for questions.",
]
PARAGRAPHS_ZH = [
    "记者从市水务局获悉，老城区供水管网改造工程将于明年春季开工，计划用三年时间更换老旧管道约120公里，改造完成后管网漏损率有望下降三成。",
    "据介绍，工程将按照“一街一方案”的原则分段施工，每户居民停水时间原则上不超过一天，施工前一个月会在社区公示具体安排。",
    "市水务局有关负责人表示，施工期间将设置临时供水点，并开通咨询热线，及时回应居民关心的问题。",
]


def _article(paragraphs: list[str], title: str = "Water board approves pipe replacement",
             extra_head: str = "", extra_body: str = "") -> str:
    body = "\n".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{extra_head}</head>"
            f"<body><div class='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></div>"
            f"<h1>{title}</h1><div class='story'>{body}</div>{extra_body}"
            f"<div class='footer'><a href='/about'>About</a> <a href='/privacy'>Privacy</a></div></body></html>")


def _assert_no_article(result: ExtractResult) -> None:
    assert isinstance(result, ExtractResult)
    assert not result.is_article
    assert isinstance(result.reason, str) and result.reason


# --- empty and trivial input --------------------------------------------------------------------

@pytest.mark.parametrize("html", ["", b"", "   \n\t ", b"\n\n", "\x00", b"\x00\x00"])
def test_empty_input_gives_reason(html):
    result = extract(html)
    _assert_no_article(result)
    assert result.text == ""


def test_no_body():
    _assert_no_article(extract("<html><head><title>Only a head</title></head></html>"))


def test_head_only_bytes_with_charset():
    _assert_no_article(extract(b"<html><head><meta charset='gbk'><title>x</title></head></html>"))


def test_only_links_is_not_an_article():
    links = "\n".join(f"<li><a href='/story/{i}'>Headline number {i} about something that happened today</a></li>"
                      for i in range(80))
    result = extract(f"<html><body><h1>Latest</h1><ul>{links}</ul></body></html>")
    _assert_no_article(result)


def test_text_without_markup():
    result = extract(" ".join(PARAGRAPHS_EN))
    assert isinstance(result, ExtractResult)


# --- size and depth ------------------------------------------------------------------------------

def test_deep_nesting_does_not_crash():
    depth = 100_000
    html = ("<html><body>" + "<div>" * depth + "<p>" + PARAGRAPHS_EN[0] + "</p>" + "</div>" * depth
            + "</body></html>")
    result = extract(html)
    assert isinstance(result, ExtractResult)


def test_density_pass_on_a_tree_100000_deep():
    """The parser caps depth (libxml2: 256), so build the deep tree directly: the pass must not recurse."""
    root = lxml.html.document_fromstring("<html><body><div id='top'></div></body></html>")
    # lxml walks up to the nearest ancestor with a Python proxy whenever a proxy is freed: build with
    # every proxy alive, then free them deepest first, so only the code under test can go O(depth^2).
    chain = [root.find(".//div")]
    for _ in range(100_000):
        chain.append(lxml.etree.SubElement(chain[-1], "div"))
    for text in PARAGRAPHS_EN:
        lxml.etree.SubElement(chain[-1], "p").text = text
    while chain:
        chain.pop()
    started = time.process_time()  # CPU time: the machine may be shared
    clean_tree(root, DEFAULT_OPTIONS)
    table = DensityTable(root)
    choice = choose_content(table, DEFAULT_OPTIONS)
    assert choice is not None
    text = render_text(choice.nodes)
    del table, choice  # freeing the element proxies is part of the cost (extract frees them too)
    elapsed = time.process_time() - started
    assert PARAGRAPHS_EN[2] in text
    # 100,000 elements in a flat page take about a second here; this bound only catches O(depth^2)
    # work, such as freeing proxies ancestors-first (each free then walks up to the root).
    assert elapsed < 10, f"{elapsed:.1f} CPU s for a 100,000-deep tree"


def test_deep_nesting_of_inline_tags_does_not_crash():
    depth = 100_000
    html = "<html><body><p>" + "<span><b>" * (depth // 2) + PARAGRAPHS_EN[1] + "</b></span>" * (depth // 2) + "</p>"
    result = extract(html.encode("utf-8"))
    assert isinstance(result, ExtractResult)


def test_ten_megabyte_page_returns():
    filler = "".join(f"<div class='teaser'><a href='/s/{i}'>Teaser {i}</a></div>" for i in range(2000))
    story = "\n".join(f"<p>{PARAGRAPHS_EN[i % 4]} ({i})</p>" for i in range(60_000))
    html = f"<html><body>{filler}<article><h1>Long report</h1>{story}</article>{filler}</body></html>"
    data = html.encode("utf-8")
    assert len(data) >= 10_000_000
    started = time.monotonic()
    result = extract(data)
    elapsed = time.monotonic() - started
    assert isinstance(result, ExtractResult)
    assert elapsed < 300, f"10 MB page took {elapsed:.0f} s"


def test_too_large_input_is_refused_with_reason():
    result = extract(_article(PARAGRAPHS_EN), max_input_chars=1000)
    _assert_no_article(result)


# --- characters and encodings --------------------------------------------------------------------

def test_nul_and_control_characters():
    dirty = [p.replace(" ", " \x00", 3).replace("e", "e\x01", 2) + "\x0b\x1f\x7f" for p in PARAGRAPHS_EN]
    result = extract(_article(dirty))
    assert isinstance(result, ExtractResult)
    for bad in ("\x00", "\x01", "\x0b", "\x1f"):
        assert bad not in result.text
        assert bad not in result.html
    assert result.is_article
    assert "Work will start in the spring" in result.text


@pytest.mark.parametrize("html", [
    "<html><body><p>plain ASCII</p></body></html>",
    "<html><head><meta charset=gbk></head><body><p>héllo 中文 \U0001F600</p></body></html>",
    "<html><body><p>a\ud800b</p><p>after a lone surrogate</p></body></html>",
    "\ufeff\ufeff<p>a byte order mark, and one more</p>",
])
def test_parse_html_builds_the_tree_of_the_str(html):
    """The page is parsed as UTF-8 bytes when it can be: the tree is the one of the str."""
    expected = lxml.html.document_fromstring(html)
    assert lxml.etree.tostring(parse_html(html)) == lxml.etree.tostring(expected)


def test_nul_bytes_in_bytes_input():
    data = _article(PARAGRAPHS_EN).encode("utf-8").replace(b"<p>", b"<p>\x00", 2)
    result = extract(data)
    assert result.is_article
    assert "\x00" not in result.text


def test_declared_utf8_but_gbk_bytes():
    html = _article(PARAGRAPHS_ZH, title="老城区供水管网改造明年开工")
    result = extract(html.encode("gbk"))
    assert result.is_article
    assert "老城区供水管网改造工程将于明年春季开工" in result.text
    assert result.title == "老城区供水管网改造明年开工"


def test_unknown_declared_charset_with_utf8_bytes():
    html = _article(PARAGRAPHS_ZH, title="老城区供水管网改造明年开工").replace("charset='utf-8'", "charset='x-no-such-charset'")
    result = extract(html.encode("utf-8"))
    assert result.is_article
    assert "每户居民停水时间原则上不超过一天" in result.text


def test_undeclared_gbk_bytes():
    html = _article(PARAGRAPHS_ZH, title="老城区供水管网改造明年开工").replace("<meta charset='utf-8'>", "")
    result = extract(html.encode("gbk"))
    assert "施工期间将设置临时供水点" in result.text


def test_caller_encoding_is_used():
    html = _article(PARAGRAPHS_ZH, title="老城区供水管网改造明年开工").replace("<meta charset='utf-8'>", "")
    result = extract(html.encode("gb2312"), encoding="gb2312")
    assert "施工期间将设置临时供水点" in result.text


def test_utf8_bom_wins_over_declaration():
    html = _article(PARAGRAPHS_ZH, title="老城区供水管网改造明年开工").replace("charset='utf-8'", "charset='gbk'")
    result = extract(b"\xef\xbb\xbf" + html.encode("utf-8"))
    assert "据介绍，工程将按照“一街一方案”的原则分段施工" in result.text


@pytest.mark.parametrize("before", ["", " \n\u3000"], ids=["at-start", "after-whitespace"])
def test_str_with_xml_declaration(before):
    html = before + "<?xml version='1.0' encoding='utf-8'?>\n" + _article(PARAGRAPHS_EN)
    result = extract(html)
    assert result.is_article
    assert "according to the board's chief engineer" in result.text


# --- non-HTML bytes ------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00" + bytes(range(256)) * 8
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + bytes(range(256)) * 8
GZIP = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(256)) * 4
RANDOM = random.Random(20261122).randbytes(100_000)


@pytest.mark.parametrize("data", [PNG, PDF, GZIP, RANDOM, bytes(5000)], ids=["png", "pdf", "gzip", "random", "zeros"])
def test_non_html_bytes(data):
    _assert_no_article(extract(data))


DATED_URL = "https://news.example.com/2018/09/02/bridge-repairs.html"


@pytest.mark.parametrize("html", [b"", PDF, "<html><head><title>Only a head</title></head></html>"],
                         ids=["empty", "pdf", "no-body"])
def test_a_page_that_is_not_read_still_takes_its_date_from_the_url(html):
    result = extract(html, url=DATED_URL)
    _assert_no_article(result)
    assert result.published == "2018-09-02"
    assert extract(html, url="https://news.example.com/bridge-repairs.html").published is None
    # a URL date after the fetch time (beyond the zones' slack) is no publish date
    assert extract(html, url=DATED_URL, fetched_at=datetime(2018, 8, 1)).published is None


# --- the cleaned HTML ----------------------------------------------------------------------------

DIRTY_STORY = """<!DOCTYPE html><html><head><title>Bridge repairs start</title>
<script>var tracker = 1;</script><style>p{color:red}</style></head>
<body onload="init()">
<div class="story" style="margin:0">
<h1>Bridge repairs start</h1>
<p onclick="track()" style="font-weight:bold">{p0} <a href="/news/related-story" onmouseover="x()">earlier report</a></p>
<script>document.write('<p>injected</p>');</script>
<p>{p1}</p>
<figure><img src="../images/bridge.jpg" alt="The bridge" onerror="fallback()"><figcaption>The bridge in May</figcaption></figure>
<img data-src="//cdn.example.org/img/lazy.jpg" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="">
<style>.x{display:block}</style>
<p>{p2} <a href="https://other.example.net/report.pdf">full report</a> <a href="javascript:void(0)">vote</a></p>
<p>{p3}</p>
</div></body></html>"""


def _dirty_story() -> str:
    html = DIRTY_STORY
    for i, text in enumerate(PARAGRAPHS_EN):
        html = html.replace("{p%d}" % i, text)
    return html


def test_result_html_is_clean_and_absolute():
    result = extract(_dirty_story(), url="https://news.example.com/2024/05/bridge/index.html")
    assert result.is_article
    fragment = lxml.html.fragment_fromstring(result.html, create_parent="div")
    assert not fragment.xpath("//script|//style|//iframe|//noscript")
    for element in fragment.iter(lxml.etree.Element):
        for name in element.attrib:
            assert not name.lower().startswith("on"), f"{element.tag} keeps {name}"
            assert name.lower() != "style", f"{element.tag} keeps style"
    hrefs = [a.get("href") for a in fragment.iter("a") if a.get("href")]
    srcs = [img.get("src") for img in fragment.iter("img") if img.get("src")]
    assert "https://news.example.com/news/related-story" in hrefs
    assert "https://other.example.net/report.pdf" in hrefs
    assert "https://news.example.com/2024/05/images/bridge.jpg" in srcs
    assert "https://cdn.example.org/img/lazy.jpg" in srcs
    for address in hrefs + srcs:
        assert address.startswith(("http://", "https://")), address
    assert "injected" not in result.text
    assert "tracker" not in result.html


def test_result_html_keeps_structure_and_text_has_one_line_per_block():
    html = """<html><body><div class="nav"><a href="/">Home</a></div><article>
<h1>How the new rules work</h1>
<p>{p0}</p>
<h2>Who is affected</h2>
<p>{p1}</p>
<ul><li>Households in the old town</li><li>Shops on the market square</li></ul>
<h2>What happens next</h2>
<ol><li>The board publishes a timetable</li><li>Digging starts street by street</li></ol>
<blockquote>{p2}</blockquote>
<p>{p3}</p>
</article></body></html>"""
    for i, text in enumerate(PARAGRAPHS_EN):
        html = html.replace("{p%d}" % i, text)
    result = extract(html, url="https://news.example.com/rules")
    assert result.is_article
    lines = [line.strip() for line in result.text.splitlines()]
    for expected in ("Who is affected", "What happens next", "Households in the old town",
                     "Shops on the market square", "The board publishes a timetable", PARAGRAPHS_EN[1]):
        assert expected in lines, f"{expected!r} is not a line of its own"
    fragment = lxml.html.fragment_fromstring(result.html, create_parent="div")
    assert fragment.xpath("//h2") and fragment.xpath("//ul/li") and fragment.xpath("//ol/li")
    assert fragment.xpath("//blockquote")
    assert len(fragment.xpath("//p")) >= 3


def test_long_article_is_not_cut_to_one_paragraph():
    paragraphs = [f"{PARAGRAPHS_EN[i % 4]} Paragraph {i}." for i in range(12)]
    body = ""
    for i, text in enumerate(paragraphs):
        body += f"<p>{text}</p>"
        if i % 3 == 2:
            body += "<div class='ad-slot'><span>Advertisement</span></div><div><p>Sponsored</p></div>"
    result = extract(f"<html><body><h1>Pipes</h1><div class='content'>{body}</div></body></html>")
    for i in range(12):
        assert f"Paragraph {i}." in result.text


@pytest.mark.parametrize("text, expected", [
    ("The café is open and the food is good", "en"),   # non-ASCII: searched lowercased
    ("ıs " * 10, "en"),    # dotless i: re.I reads "is", lower() keeps it
    ("İN " * 10, "en"),    # dotted capital I: lower() makes it two characters
    ("Der Bäcker öffnet um acht Uhr", None),
])
def test_english_function_words_are_counted_as_re_i_finds_them(text, expected):
    assert guess_language(text) == expected


@pytest.mark.parametrize("data, declared", [
    ("<p>plain UTF-8 é 中</p>".encode("utf-8"), None),
    ("<p>declared UTF-8 é</p>".encode("utf-8"), "UTF8"),
    ("<p>with a control\x01 character and \uffff</p>".encode("utf-8"), None),
    ("<p>GBK 中文</p>".encode("gbk"), None),
    ("<p>declared Latin-1 é</p>".encode("latin-1"), "iso-8859-1"),
    ("<p>UTF-8 declared GBK</p>".encode("utf-8"), "gbk"),
    (b"\xef\xbb\xbf<p>a BOM\x02</p>", None),
    (b"<p>broken \xff UTF-8 declared</p>", "utf-8"),
    (b"", None),
])
def test_a_decoded_page_is_the_page_decoded_without_control_characters(data, declared):
    assert decoded_page(data, declared) == without_control_chars(decode_html(data, declared))
