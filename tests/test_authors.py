"""Author heuristics: names from JSON-LD, meta, rel=author and the byline; never the site."""
from newscrawl.extract.authors import find_authors
from newscrawl.extract.dom import parse_html
from newscrawl.extract.metadata import read_page_meta


def authors_of(html: str) -> tuple[str, ...]:
    root = parse_html(html)
    return find_authors(root, read_page_meta(root))


def test_jsonld_author_objects():
    html = """<html><head><script type="application/ld+json">{"@type": "NewsArticle",
    "author": [{"@type": "Person", "name": "Jane Doe"}, {"@type": "Person", "name": "John Roe"}]}
    </script></head><body></body></html>"""
    assert authors_of(html) == ("Jane Doe", "John Roe")


def test_meta_author_name_not_url():
    html = """<html><head><meta property="article:author" content="https://facebook.com/example">
    <meta name="author" content="Jane Doe"></head><body></body></html>"""
    assert authors_of(html) == ("Jane Doe",)


def test_rel_author_link():
    html = '<html><body><h1>Headline here</h1><a rel="author" href="/staff/jd">Jane Doe</a></body></html>'
    assert authors_of(html) == ("Jane Doe",)


def test_english_byline():
    html = """<html><head><title>Bridge reopens after repairs</title></head><body>
    <h1>Bridge reopens after repairs</h1><p>By Jane Doe and John Roe</p><p>Story.</p></body></html>"""
    assert authors_of(html) == ("Jane Doe", "John Roe")


def test_chinese_bylines():
    html = """<html><head><title>大桥修复后重新开放</title></head><body>
    <h1>大桥修复后重新开放</h1><div>2018-09-02 10:40 来源：新华社 作者：张三</div></body></html>"""
    assert authors_of(html) == ("张三",)
    html = """<html><head><title>大桥修复后重新开放</title></head><body>
    <h1>大桥修复后重新开放</h1><div>新华社记者 李四</div></body></html>"""
    assert authors_of(html) == ("李四",)


def test_site_name_is_not_an_author():
    html = """<html><head><meta property="og:site_name" content="Example News">
    <meta name="author" content="Example News"></head><body><p>x</p></body></html>"""
    assert authors_of(html) == ()


def test_no_author():
    assert authors_of("<html><body><h1>Headline only</h1><p>Some text.</p></body></html>") == ()
